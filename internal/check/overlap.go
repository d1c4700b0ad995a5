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
	if n <= 0 || cap(dst) < n || len(src) == 0 {
		return nil
	}
	var d D
	var s S
	dstLo := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	dstHi := dstLo + uintptr(n)*unsafe.Sizeof(d)
	srcLo := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	srcHi := srcLo + uintptr(len(src))*unsafe.Sizeof(s)
	if dstLo < srcHi && srcLo < dstHi {
		return Err(fn, Scalar, "dst", float64(n), "must not share memory with "+field+" (the result is written while "+field+" is read)")
	}
	return nil
}
