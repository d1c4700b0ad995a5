package enum_test

import (
	"testing"

	"github.com/specsched/specsched/internal/enum"
)

type color uint8

var colorNames = []string{"red", "", "blue"}

// TestName: a named value prints its name; a value beyond the table or
// with an empty entry prints the type and number.
func TestName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    color
		want string
	}{{0, "red"}, {1, "color(1)"}, {2, "blue"}, {3, "color(3)"}, {255, "color(255)"}} {
		if got := enum.Name(c.v, colorNames, "color"); got != c.want {
			t.Errorf("Name(%d) = %q, want %q", c.v, got, c.want)
		}
	}
	if got := enum.Name(-1, []string{"a"}, "kind"); got != "kind(-1)" {
		t.Errorf("Name(-1) = %q, want kind(-1)", got)
	}
}

// TestIndex: every name maps back to its value; other strings, the empty
// one included (an empty entry is no name), and other cases find nothing.
func TestIndex(t *testing.T) {
	t.Parallel()
	for i, n := range colorNames {
		v, ok := enum.Index[color](n, colorNames)
		if n == "" {
			if ok {
				t.Errorf("Index(%q) = %d, true; want no match", n, v)
			}
			continue
		}
		if !ok || int(v) != i {
			t.Errorf("Index(%q) = %d, %v; want %d", n, v, ok, i)
		}
	}
	for _, s := range []string{"Red", "green", "blue ", "redd"} {
		if v, ok := enum.Index[color](s, colorNames); ok || v != 0 {
			t.Errorf("Index(%q) = %d, %v; want 0, false", s, v, ok)
		}
	}
}
