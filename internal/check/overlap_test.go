package check

import (
	"errors"
	"testing"

	"github.com/specsched/specsched"
)

func TestDisjoint(t *testing.T) {
	t.Parallel()
	buf := make([]float64, 8)
	other := make([]float64, 8)
	ints := make([]int, 8)
	cases := []struct {
		name    string
		err     error
		overlap bool
	}{
		{"same slice", Disjoint("f", buf, 4, "in", buf[:4]), true},
		{"dst ends where src starts", Disjoint("f", buf[:0], 4, "in", buf[4:]), false},
		{"dst's nth element is src's first", Disjoint("f", buf[:0], 5, "in", buf[4:]), true},
		{"src ends where dst starts", Disjoint("f", buf[4:4], 4, "in", buf[:4]), false},
		{"src's last element is dst's first", Disjoint("f", buf[3:3], 4, "in", buf[:4]), true},
		{"src inside dst", Disjoint("f", buf, 8, "in", buf[2:3]), true},
		{"dst inside src", Disjoint("f", buf[2:2], 1, "in", buf), true},
		{"different arrays", Disjoint("f", buf, 8, "in", other), false},
		{"dst too small to be reused", Disjoint("f", buf[:0:2], 3, "in", buf[:3]), false},
		{"nothing to write", Disjoint("f", buf, 0, "in", buf), false},
		{"nothing to write, dst inside src", Disjoint("f", buf[2:2], 0, "in", buf), false},
		{"empty input", Disjoint("f", buf, 4, "in", buf[:0]), false},
		{"empty input whose address is inside dst", Disjoint("f", buf, 4, "in", buf[2:2]), false},
		{"nil dst", Disjoint[float64]("f", nil, 4, "in", buf), false},
		{"different element types, different arrays", Disjoint("f", ints[:0], 1, "in", buf[:1]), false},
	}
	for _, c := range cases {
		var ie *specsched.InputError
		switch {
		case c.overlap && (!errors.As(c.err, &ie) || ie.Field != "dst" || ie.Func != "f" || ie.Index != Scalar):
			t.Errorf("%s: got %v, want an InputError on dst", c.name, c.err)
		case !c.overlap && c.err != nil:
			t.Errorf("%s: got %v, want nil", c.name, c.err)
		}
	}
}
