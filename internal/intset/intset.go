// Package intset is the membership set of the library's samplers without
// replacement (Floyd's algorithm in competitive, rejection sampling in
// probe): a set of at most k values of [0, n) in O(k) memory however large
// n is.
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
		word, bit := &s.buf[v>>6], uint64(1)<<(v&63)
		absent := *word&bit == 0
		*word |= bit
		return absent
	}
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

// SortValues sorts values into increasing order. values must hold the
// set's values, each once, in any order: the caller's record of what it
// inserted. The bit set writes them back from its bits, in O(n/64 + m)
// for m values; the hash table sorts them, in O(m log m) (reading them
// back from its 2k to 4k slots would cost more when k is small). O(k log
// k) either way.
func (s *Set) SortValues(values []int) {
	if !s.dense {
		slices.Sort(values)
		return
	}
	i := 0
	for w, word := range s.buf {
		for word != 0 {
			values[i] = w<<6 + bits.TrailingZeros64(word)
			i++
			word &= word - 1
		}
	}
}
