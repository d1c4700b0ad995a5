// Package intset is the membership set of the library's samplers without
// replacement, and those samplers: Floyd's algorithm (competitive's random
// subsets) and rejection sampling (probe's probe targets). A set holds at
// most k values of [0, n) in O(k) memory however large n is.
//
// A Set is a bit set of ⌈n/64⌉ words when n ≤ 64·(k+16), so that it costs
// no more than k+16 words, and otherwise an open-addressing hash table with
// linear probing and Fibonacci hashing (Knuth, TAOCP vol. 3, §6.4) of 2k to
// 4k slots, kept at most half full so that a probe sequence is short on
// average. Both live in one buffer, which grows to the largest set seen and
// is reused after that: a reused Set allocates nothing.
package intset

import (
	"math/bits"
	"math/rand/v2"
	"slices"
)

// A Set holds distinct values of [0, n) for the n and k of its last Reset.
// The zero value is an empty set that accepts no values: call Reset first.
// A Set must not be used by two goroutines at once.
type Set struct {
	// buf is the bit set (bit v%64 of word v/64 is set when v is in the
	// set) or the hash table (slot value 0 is empty, v is stored as v+1).
	buf   []uint64
	shift uint // hash table: 64 − log2(len(buf))
	dense bool // buf is the bit set
}

// Reset empties s and prepares it for at most k distinct values of
// [0, n), 0 ≤ k ≤ n: a bit set when n ≤ 64·(k+16), else a hash table of
// 2k to 4k slots (a power of two). O(k) time and memory;
// allocation-free once s has held a set that large.
func (s *Set) Reset(n, k int) {
	words := (n + 63) >> 6
	s.dense = words <= k+16
	size := words
	if !s.dense {
		log := uint(bits.Len(uint(max(2*k-1, 1)))) // 2^log ≥ max(2k, 2) > 2^(log−1)
		size = 1 << log
		s.shift = 64 - log
	}
	if cap(s.buf) < size {
		s.buf = make([]uint64, size)
	}
	s.buf = s.buf[:size]
	clear(s.buf)
}

// Insert adds v, 0 ≤ v < n, and reports whether it was absent. O(1)
// (expected, in the hash table). At most k distinct values may be added
// after a Reset.
func (s *Set) Insert(v int) bool {
	if s.dense {
		return s.insertBit(v)
	}
	return s.insertHashed(v)
}

// insertBit is Insert into the bit set; small enough to inline in the
// samplers' loops, which choose the representation once per call.
func (s *Set) insertBit(v int) bool {
	word, bit := &s.buf[v>>6], uint64(1)<<(v&63)
	absent := *word&bit == 0
	*word |= bit
	return absent
}

// insertHashed is Insert into the hash table.
func (s *Set) insertHashed(v int) bool {
	key := uint64(v) + 1
	mask := uint64(len(s.buf) - 1)
	for i := s.home(key); ; i = (i + 1) & mask {
		switch s.buf[i] {
		case 0:
			s.buf[i] = key
			return true
		case key:
			return false
		}
	}
}

// Contains reports whether v, 0 ≤ v < n, is in the set. O(1) (expected,
// in the hash table).
func (s *Set) Contains(v int) bool {
	if s.dense {
		return s.buf[v>>6]>>(v&63)&1 != 0
	}
	key := uint64(v) + 1
	mask := uint64(len(s.buf) - 1)
	for i := s.home(key); s.buf[i] != 0; i = (i + 1) & mask {
		if s.buf[i] == key {
			return true
		}
	}
	return false
}

// home is key's first slot in the hash table: the top bits of key times
// 2⁶⁴/φ (Fibonacci hashing), which spreads consecutive values over the
// table.
func (s *Set) home(key uint64) uint64 { return (key * 0x9e3779b97f4a7c15) >> s.shift }

// Floyd appends to dst a uniformly random k-subset of [0, n), 0 ≤ k ≤ n,
// in increasing order, and leaves it in s: Floyd's algorithm (J. Bentley
// and B. Floyd, "A sample of brilliance", CACM 30(9), 1987), which for
// m = n−k, …, n−1 draws t = rng.IntN(m+1) and takes t, or m when t is
// taken already. The subset depends only on those k draws. O(k log k)
// time (O(n/64 + k) with the bit set) and O(k) memory however large n is.
func (s *Set) Floyd(dst []int, n, k int, rng *rand.Rand) []int {
	s.Reset(n, k)
	if s.dense {
		for m := n - k; m < n; m++ {
			if t := rng.IntN(m + 1); !s.insertBit(t) {
				s.insertBit(m)
			}
		}
		for w, word := range s.buf {
			for word != 0 {
				dst = append(dst, w<<6+bits.TrailingZeros64(word))
				word &= word - 1
			}
		}
		return dst
	}
	start := len(dst)
	for m := n - k; m < n; m++ {
		t := rng.IntN(m + 1)
		if !s.insertHashed(t) {
			t = m
			s.insertHashed(t)
		}
		dst = append(dst, t)
	}
	slices.Sort(dst[start:])
	return dst
}

// Distinct appends to dst k distinct values of [0, n), 0 ≤ k ≤ n, in the
// order drawn, and leaves them in s: rejection sampling, which draws
// rng.IntN(n) and redraws a value already taken. The values are a uniformly
// random k-subset in uniformly random order. Expected O(n/(n−k)) draws per
// value: fewer than 2k in all for k ≤ n/2, where callers use it.
func (s *Set) Distinct(dst []int, n, k int, rng *rand.Rand) []int {
	s.Reset(n, k)
	if s.dense {
		for drawn := 0; drawn < k; {
			if v := rng.IntN(n); s.insertBit(v) {
				dst = append(dst, v)
				drawn++
			}
		}
		return dst
	}
	for drawn := 0; drawn < k; {
		if v := rng.IntN(n); s.insertHashed(v) {
			dst = append(dst, v)
			drawn++
		}
	}
	return dst
}
