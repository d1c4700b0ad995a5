package probe

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/specsched/specsched/internal/check"
)

// A StateVector is Succinct State Sharing's piggybacked state (Eagle §3.3):
// one bit per worker node, set when the node has a long task assigned to
// it, running or queued, and the time at which the centralized scheduler
// produced it. The centralized scheduler sends a copy with every long task
// it places; the node keeps the latest and returns it with every short
// probe it rejects; a distributed scheduler re-places rejected probes with
// the freshest vector it holds.
//
// The zero value is a vector of no nodes. Methods on a nil *StateVector
// behave as on the zero value. A StateVector is a plain value: Clone it
// before handing it to someone who may change it.
type StateVector struct {
	// Time is when the centralized scheduler produced the vector (its
	// version); Freshest compares it.
	Time  float64
	nodes int
	words []uint64
}

// NewStateVector returns a vector of nodes nodes, none holding a long task,
// stamped with time. It returns an error for nodes < 0 or > MaxProbes and
// for a NaN time.
func NewStateVector(nodes int, time float64) (*StateVector, error) {
	const fn = "probe.NewStateVector"
	if nodes < 0 || nodes > MaxProbes {
		return nil, check.Err(fn, -1, "nodes", float64(nodes), "must lie in [0, 2^31]")
	}
	if math.IsNaN(time) {
		return nil, check.Err(fn, -1, "time", time, "must not be NaN")
	}
	return &StateVector{Time: time, nodes: nodes, words: make([]uint64, (nodes+63)/64)}, nil
}

// Len returns the number of nodes the vector covers.
func (v *StateVector) Len() int {
	if v == nil {
		return 0
	}
	return v.nodes
}

// Long reports whether node i has a long task according to v; false for i
// out of range.
func (v *StateVector) Long(i int) bool {
	if v == nil || i < 0 || i >= v.nodes {
		return false
	}
	return v.words[i>>6]&(1<<(uint(i)&63)) != 0
}

// SetLong sets or clears node i's bit and reports whether i was in range
// (an out-of-range i changes nothing). O(1).
func (v *StateVector) SetLong(i int, long bool) bool {
	if v == nil || i < 0 || i >= v.nodes {
		return false
	}
	if long {
		v.words[i>>6] |= 1 << (uint(i) & 63)
	} else {
		v.words[i>>6] &^= 1 << (uint(i) & 63)
	}
	return true
}

// CountLong returns the number of nodes with a long task. O(nodes/64).
func (v *StateVector) CountLong() int {
	if v == nil {
		return 0
	}
	c := 0
	for _, w := range v.words {
		c += bits.OnesCount64(w)
	}
	return c
}

// Clone copies v into dst (reusing its memory) and returns dst; a nil dst
// allocates a new vector. O(nodes/64).
func (v *StateVector) Clone(dst *StateVector) *StateVector {
	if dst == nil {
		dst = new(StateVector)
	}
	if v == nil {
		*dst = StateVector{words: dst.words[:0]}
		return dst
	}
	dst.Time, dst.nodes = v.Time, v.nodes
	dst.words = append(dst.words[:0], v.words...)
	return dst
}

// Freshest returns the index of the vector with the latest Time, the one a
// distributed scheduler re-places rejected probes with ("it uses the
// freshest available bitvector", Eagle §3.3). Ties go to the smaller index;
// nil vectors and vectors with a NaN Time are never chosen. It returns −1
// when no vector qualifies. O(len(vectors)).
func Freshest(vectors []*StateVector) int {
	best := -1
	for i, v := range vectors {
		if v == nil || math.IsNaN(v.Time) {
			continue
		}
		if best < 0 || v.Time > vectors[best].Time {
			best = i
		}
	}
	return best
}

// PlaceProbes chooses the nodes of a job's probes uniformly at random among
// the count nodes first, first+1, …, first+count−1, and writes them to dst.
// It is the first placement of Eagle's short probes ("A distributed
// scheduler selects the targets of probes for a given job uniformly at
// random among all nodes", §3.3, with first = 0 and count = all nodes), the
// fallback of probes rejected twice ("assigned uniformly at random to nodes
// in the short partition", with the short partition's range), and the batch
// sampling of Sparrow, Hawk and decentralized Hopper.
//
// The probes go to distinct nodes, a uniformly random subset in random
// order, as in batch sampling; when probes > count every node gets
// ⌊probes/count⌋ probes (in node order) and the remaining probes mod count
// go to distinct random nodes.
//
// Complexity: O(probes) expected time (O(count) more when a ws first
// grows); allocation-free with a dst of capacity probes and a reused ws.
// Randomness comes only from rng: the same rng state gives the same nodes.
//
// Special cases: probes = 0 gives an empty dst. An error, with dst
// untouched, is returned for first < 0, count < 0, probes < 0 or >
// MaxProbes, probes > 0 with count = 0, first+count > MaxProbes, and a nil
// rng.
func PlaceProbes(dst []int, first, count, probes int, rng *rand.Rand, ws *Workspace) ([]int, error) {
	const fn = "probe.PlaceProbes"
	switch {
	case first < 0 || first > MaxProbes:
		return nil, check.Err(fn, -1, "first", float64(first), "must lie in [0, 2^31]")
	case count < 0 || count > MaxProbes-first:
		return nil, check.Err(fn, -1, "count", float64(count), "must be ≥ 0 with first+count ≤ 2^31")
	case probes < 0 || probes > MaxProbes:
		return nil, check.Err(fn, -1, "probes", float64(probes), "must lie in [0, 2^31]")
	case probes > 0 && count == 0:
		return nil, check.Err(fn, -1, "count", 0, "must be > 0 when probes > 0")
	case rng == nil:
		return nil, check.Err(fn, -1, "rng", math.NaN(), "must not be nil")
	}
	if probes == 0 {
		return dst[:0], nil
	}
	ws = orNew(ws)
	dst = sampleSpread(dst[:0], count, probes, rng, ws)
	for i := range dst {
		dst[i] += first
	}
	return dst, nil
}

// ReplaceProbes re-places probes rejected by nodes that hold long tasks:
// "target nodes are drawn uniformly at random from the set of nodes that are
// not currently serving a long job according to the selected bitvector"
// (Eagle §3.3). The nodes whose bit is clear in free — pass the vector
// Freshest selects — are the candidates; the probes go to distinct
// candidates, a uniformly random subset, as PlaceProbes does, and when
// probes exceed the candidates every candidate gets ⌊probes/candidates⌋
// and the rest go to distinct random candidates. The result lists the
// nodes in increasing order.
//
// Complexity: O(nodes/64 + probes·log probes) time; allocation-free with a
// dst of capacity probes and a reused ws.
//
// Special cases: probes = 0, or a vector with every bit set (no candidate),
// gives an empty dst: the caller then falls back to the short partition
// (PlaceProbes over its range), as Eagle does for probes rejected during
// re-scheduling. An error, with dst untouched, is returned for probes < 0 or
// > MaxProbes and a nil rng.
func ReplaceProbes(dst []int, free *StateVector, probes int, rng *rand.Rand, ws *Workspace) ([]int, error) {
	const fn = "probe.ReplaceProbes"
	if probes < 0 || probes > MaxProbes {
		return nil, check.Err(fn, -1, "probes", float64(probes), "must lie in [0, 2^31]")
	}
	if rng == nil {
		return nil, check.Err(fn, -1, "rng", math.NaN(), "must not be nil")
	}
	candidates := free.Len() - free.CountLong()
	if probes == 0 || candidates == 0 {
		return dst[:0], nil
	}
	ws = orNew(ws)
	ws.ranks = sampleSpread(ws.ranks[:0], candidates, probes, rng, ws)
	slices.Sort(ws.ranks)
	// Map the sorted ranks among the clear bits to node indices in one scan.
	dst = slices.Grow(dst[:0], probes)
	rank := 0 // rank of the next clear bit
	r := 0
	for w, word := range free.words {
		clearBits := ^word
		if last := free.nodes - 64*w; last < 64 {
			clearBits &= (1 << uint(last)) - 1
		}
		inWord := bits.OnesCount64(clearBits)
		for r < len(ws.ranks) && ws.ranks[r] < rank+inWord {
			// Select the (ranks[r]−rank)-th clear bit of this word.
			b := clearBits
			for k := ws.ranks[r] - rank; k > 0; k-- {
				b &= b - 1
			}
			dst = append(dst, 64*w+bits.TrailingZeros64(b))
			r++
		}
		rank += inWord
	}
	return dst, nil
}
