// Package enum names the values of the library's small enumerations
// (policies, estimators, task states, …): one table of names per type, so
// that each String and Parse function is a line that reads its table.
//
// Every enumeration of the library therefore has the same shape — its
// documented constants, a names table, a one-line String — and a search
// for repeated code pairs them up (sim's Preset, Estimator and Service,
// probe's Class, competitive's Mode, …). That repetition is deliberate:
// the constants' documentation is each package's own, and what could be
// shared is shared here.
package enum

import "strconv"

// Name returns names[v], or typ(v) (e.g. "Estimator(7)") for a value
// without a name: v beyond the table or its entry empty.
func Name[T ~uint8 | ~int](v T, names []string, typ string) string {
	if v >= 0 && int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}

// Index returns the value whose name is s (exactly, case included) and
// true, or 0 and false when no entry of names is s. An empty s matches no
// value.
func Index[T ~uint8 | ~int](s string, names []string) (T, bool) {
	if s == "" {
		return 0, false
	}
	for i, n := range names {
		if n == s {
			return T(i), true
		}
	}
	return 0, false
}
