package check

import "unsafe"

// Disjoint reports an error when writing the first n elements of dst would
// touch memory that src holds: the library's rule for every function with a
// dst is that dst is reused when its capacity holds the result and must
// then not overlap an input, because the algorithms read their inputs after
// they have started to write (Algorithm 1 reads T_i again for the tied jobs
// at the cut). A dst too small to be reused is never written, so it cannot
// overlap. field names the input, e.g. "remaining".
//
// The check compares addresses only (unsafe.SliceData), so it costs O(1)
// and allocates nothing.
func Disjoint[D, S any](fn string, dst []D, n int, field string, src []S) error {
	if out := SpanOf(dst, n); Overlaps(out, src) {
		return out.Err(fn, field)
	}
	return nil
}

// A Span is the memory [lo, hi) that writing the first N elements of a dst
// would touch; empty when the dst is too small to be reused (it is then
// never written). A caller that checks many input slices against one dst
// (the Running slices of every job) computes it once.
type Span struct {
	lo, hi uintptr
	N      int
}

// SpanOf returns the Span of dst for a result of n elements.
func SpanOf[D any](dst []D, n int) Span {
	if n <= 0 || cap(dst) < n {
		return Span{}
	}
	var d D
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	return Span{lo, lo + uintptr(n)*unsafe.Sizeof(d), n}
}

// Overlaps reports whether out shares memory with the elements of src.
func Overlaps[S any](out Span, src []S) bool {
	if out.N == 0 || len(src) == 0 {
		return false
	}
	var s S
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	return out.lo < lo+uintptr(len(src))*unsafe.Sizeof(s) && lo < out.hi
}

// Err is Disjoint's error for a dst of span out overlapping the input named
// field.
func (out Span) Err(fn, field string) error {
	return Err(fn, Scalar, "dst", float64(out.N), "must not share memory with "+field+" (the result is written while "+field+" is read)")
}
