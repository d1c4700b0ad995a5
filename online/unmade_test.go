package online_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/specsched/specsched"
	"github.com/specsched/specsched/online"
)

// TestUnmade: every exported method of Hopper, Fair and Classes, called on
// a nil pointer and on a zero value (not made by New, NewFair,
// NewClasses), neither panics nor pretends: an error is a
// *specsched.InputError on Field "receiver", a bool (Next's, Reclaim's
// "found") is false, every number is 0 and a slice is empty. The methods
// are found by reflection, so a method added later is checked too; each
// is called with zero arguments and again with plausible ones (id 0, 3
// tasks, β 1.5, 10 slots, a buffer of 4).
func TestUnmade(t *testing.T) {
	testOnly := map[string]bool{"CheckTree": true, "PathLen": true} // export_test.go's
	for _, v := range []any{(*online.Hopper)(nil), new(online.Hopper), (*online.Fair)(nil), new(online.Fair), (*online.Classes)(nil), new(online.Classes)} {
		rv := reflect.ValueOf(v)
		typ := rv.Type()
		calls := 0
		for i := range typ.NumMethod() {
			m := typ.Method(i)
			if testOnly[m.Name] {
				continue
			}
			for _, plausible := range []bool{false, true} {
				args := []reflect.Value{rv}
				for k := 1; k < m.Type.NumIn(); k++ {
					in := m.Type.In(k)
					a := reflect.New(in).Elem()
					if plausible {
						switch in.Kind() {
						case reflect.Int:
							a.SetInt(0)
						case reflect.Float64:
							a.SetFloat([]float64{3, 1.5, 10}[min(k-1, 2)])
						case reflect.Slice:
							a.Set(reflect.MakeSlice(in, 4, 4))
						}
					}
					args = append(args, a)
				}
				name := typ.String() + "." + m.Name
				if rv.IsNil() {
					name = "nil " + name
				}
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s (plausible %v): panic: %v", name, plausible, r)
						}
					}()
					for _, out := range m.Func.Call(args) {
						calls++
						checkUnmadeOut(t, name, out)
					}
				}()
			}
		}
		if calls < 2*10 {
			t.Errorf("%s: only %d results checked", typ, calls)
		}
	}
}

func checkUnmadeOut(t *testing.T, name string, out reflect.Value) {
	t.Helper()
	switch out.Kind() {
	case reflect.Interface: // error
		err, _ := out.Interface().(error)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Field != "receiver" {
			t.Errorf("%s: error %v, want an InputError on the receiver", name, err)
		}
	case reflect.Bool:
		if out.Bool() {
			t.Errorf("%s: found a job", name)
		}
	case reflect.Int:
		if out.Int() != 0 {
			t.Errorf("%s: %d, want 0", name, out.Int())
		}
	case reflect.Float64:
		if out.Float() != 0 {
			t.Errorf("%s: %v, want 0", name, out.Float())
		}
	case reflect.Slice:
		if out.Len() != 0 {
			t.Errorf("%s: %d elements, want none", name, out.Len())
		}
	default:
		t.Errorf("%s: a result of kind %v the test does not check", name, out.Kind())
	}
}
