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
// The bits are stored by 64-node word, and only the words in which some
// bit was ever set take memory, so the memory and the cost of Clone and
// CountLong follow the nodes that held long tasks, not the cluster's
// size: a vector of 2³¹ nodes with a few long tasks is a few words. While
// the words set form a prefix 0, 1, …, w−1 (as the simulator's LWL makes
// them) they are a plain array, 8 bytes per word, and Long and SetLong
// are O(1); a bit set further on stores each word with its index, and
// Long and SetLong cost O(log w) (O(w) to store a new word before
// others).
//
// The zero value is a vector of no nodes. Methods on a nil *StateVector
// behave as on the zero value. A StateVector is a plain value: Clone it
// before handing it to someone who may change it.
type StateVector struct {
	// Time is when the centralized scheduler produced the vector (its
	// version); Freshest compares it.
	Time  float64
	nodes int
	// words[k] holds nodes 64·x … 64·x+63 for x = ix[k], or x = k while
	// ix is nil (the prefix layout); the words not stored are clear.
	words []uint64
	ix    []int // increasing; nil while the stored words are 0, 1, …
}

// NewStateVector returns a vector of nodes nodes, none holding a long task,
// stamped with time. O(1): no memory is taken for the nodes. It returns an
// error for nodes < 0 or > MaxProbes and for a NaN time.
func NewStateVector(nodes int, time float64) (*StateVector, error) {
	const fn = "probe.NewStateVector"
	if nodes < 0 || nodes > MaxProbes {
		return nil, check.Err(fn, check.Scalar, "nodes", float64(nodes), "must lie in [0, 2^31]")
	}
	if math.IsNaN(time) {
		return nil, check.Err(fn, check.Scalar, "time", time, "must not be NaN")
	}
	return newStateVector(nodes, time), nil
}

// newStateVector is NewStateVector on validated input (nodes in [0,
// MaxProbes], time not NaN). O(1).
func newStateVector(nodes int, time float64) *StateVector {
	return &StateVector{Time: time, nodes: nodes}
}

// Len returns the number of nodes the vector covers.
func (v *StateVector) Len() int {
	if v == nil {
		return 0
	}
	return v.nodes
}

// find returns the position of word w in v.words and whether it is
// stored there (else where it would be inserted). O(1) in the prefix
// layout, O(log w) otherwise.
func (v *StateVector) find(w int) (int, bool) {
	if v.ix == nil {
		return min(w, len(v.words)), w < len(v.words)
	}
	return slices.BinarySearch(v.ix, w)
}

// index returns the word index of the k-th stored word.
func (v *StateVector) index(k int) int {
	if v.ix == nil {
		return k
	}
	return v.ix[k]
}

// Long reports whether node i has a long task according to v; false for i
// out of range.
func (v *StateVector) Long(i int) bool {
	if v == nil || i < 0 || i >= v.nodes {
		return false
	}
	k, ok := v.find(i >> 6)
	return ok && v.words[k]&(1<<(uint(i)&63)) != 0
}

// SetLong sets or clears node i's bit and reports whether i was in range
// (an out-of-range i changes nothing). O(1) (amortised) for a node in a
// stored word or past the last one; O(w) for w stored words when it
// stores a new word before others.
func (v *StateVector) SetLong(i int, long bool) bool {
	if v == nil || i < 0 || i >= v.nodes {
		return false
	}
	w := i >> 6
	k, ok := v.find(w)
	switch {
	case ok:
	case !long:
		return true // its word is not stored: the bit is clear already
	case v.ix == nil && w == len(v.words): // extends the prefix
		v.words = append(v.words, 0)
	default:
		if v.ix == nil { // leave the prefix layout: index the words stored
			v.ix = make([]int, len(v.words), len(v.words)+1)
			for x := range v.ix {
				v.ix[x] = x
			}
		}
		v.ix = slices.Insert(v.ix, k, w)
		v.words = slices.Insert(v.words, k, 0)
	}
	if long {
		v.words[k] |= 1 << (uint(i) & 63)
	} else {
		v.words[k] &^= 1 << (uint(i) & 63)
	}
	return true
}

// CountLong returns the number of nodes with a long task. O(w) for w
// stored words.
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
// allocates a new vector. O(w) for w stored words.
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
	if v.ix == nil {
		dst.ix = nil // the prefix layout
	} else {
		dst.ix = append(dst.ix[:0], v.ix...)
	}
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
// order, as in batch sampling; when probes ≥ count every node gets
// ⌊probes/count⌋ probes (in node order, without a draw) and the remaining
// probes mod count go to distinct random nodes.
//
// Complexity: O(probes) expected time and O(probes) memory, whatever count
// is: nothing of the size of the node range is built (a sample of k ≤
// count/2 nodes remembers the k drawn in a hash set; a larger one shuffles
// a range of fewer than 2k nodes); allocation-free with a dst of capacity
// probes and a reused ws. Randomness comes only from rng: the same rng
// state gives the same nodes.
//
// Special cases: probes = 0 gives an empty dst. An error, with dst
// untouched, is returned for first < 0, count < 0, probes < 0 or >
// MaxProbes, probes > 0 with count = 0, first+count > MaxProbes, and a nil
// rng.
func PlaceProbes(dst []int, first, count, probes int, rng *rand.Rand, ws *Workspace) ([]int, error) {
	if err := checkPlace("probe.PlaceProbes", first, count, probes, Distinct, rng); err != nil {
		return nil, err
	}
	return placeProbes(dst, first, count, probes, Distinct, rng, ws), nil
}

// PlaceProbesWith is PlaceProbes with the probes' nodes drawn as sampling
// says: Distinct is PlaceProbes, draw for draw; WithReplacement draws each
// probe's node independently and uniformly among the count nodes, in draw
// order (rng.IntN(count) per probe, so nodes may repeat), as the authors'
// simulator does (find_workers_random). Same complexity (O(probes), no
// scratch memory with replacement), special cases and errors as
// PlaceProbes, plus an error for an unknown sampling.
func PlaceProbesWith(dst []int, first, count, probes int, sampling Sampling, rng *rand.Rand, ws *Workspace) ([]int, error) {
	if err := checkPlace("probe.PlaceProbesWith", first, count, probes, sampling, rng); err != nil {
		return nil, err
	}
	return placeProbes(dst, first, count, probes, sampling, rng, ws), nil
}

// checkPlace validates the arguments of PlaceProbes and PlaceProbesWith
// (function fn).
func checkPlace(fn string, first, count, probes int, sampling Sampling, rng *rand.Rand) error {
	switch {
	case first < 0 || first > MaxProbes:
		return check.Err(fn, check.Scalar, "first", float64(first), "must lie in [0, 2^31]")
	case count < 0 || count > MaxProbes-first:
		return check.Err(fn, check.Scalar, "count", float64(count), "must be ≥ 0 with first+count ≤ 2^31")
	case probes < 0 || probes > MaxProbes:
		return check.Err(fn, check.Scalar, "probes", float64(probes), "must lie in [0, 2^31]")
	case probes > 0 && count == 0:
		return check.Err(fn, check.Scalar, "count", 0, "must be > 0 when probes > 0")
	case sampling > WithReplacement:
		return check.Err(fn, check.Scalar, "sampling", float64(sampling), "unknown sampling")
	case rng == nil:
		return check.ErrText(fn, check.Scalar, "rng", "nil", "must not be nil")
	}
	return nil
}

// placeProbes is PlaceProbesWith on validated input (first+count ≤
// MaxProbes, probes in [0, MaxProbes], count > 0 when probes > 0, a known
// sampling, rng not nil; a nil ws allocates a temporary one). Same
// complexity.
func placeProbes(dst []int, first, count, probes int, sampling Sampling, rng *rand.Rand, ws *Workspace) []int {
	if probes == 0 {
		return dst[:0]
	}
	ws = orNew(ws)
	dst = sample(dst[:0], count, probes, sampling, rng, ws)
	for i := range dst {
		dst[i] += first
	}
	return dst
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
// Complexity: O(w + probes·log probes) time for w stored words of free
// (at most nodes/64, and no more than the nodes ever marked long),
// whatever the number of nodes; allocation-free with a dst of capacity
// probes and a reused ws.
//
// Special cases: probes = 0, or a vector with every bit set (no candidate),
// gives an empty dst: the caller then falls back to the short partition
// (PlaceProbes over its range), as Eagle does for probes rejected during
// re-scheduling. An error, with dst untouched, is returned for probes < 0 or
// > MaxProbes and a nil rng.
func ReplaceProbes(dst []int, free *StateVector, probes int, rng *rand.Rand, ws *Workspace) ([]int, error) {
	if err := checkReplace("probe.ReplaceProbes", probes, Distinct, rng); err != nil {
		return nil, err
	}
	return replaceProbes(dst, free, probes, Distinct, rng, ws), nil
}

// ReplaceProbesWith is ReplaceProbes with the candidates drawn as sampling
// says: Distinct is ReplaceProbes, draw for draw; WithReplacement draws
// each probe's candidate independently and uniformly (so nodes may repeat),
// as the authors' simulator does when it re-places rejected probes. The
// result lists the nodes in increasing order either way. Same complexity,
// special cases and errors as ReplaceProbes, plus an error for an unknown
// sampling.
func ReplaceProbesWith(dst []int, free *StateVector, probes int, sampling Sampling, rng *rand.Rand, ws *Workspace) ([]int, error) {
	if err := checkReplace("probe.ReplaceProbesWith", probes, sampling, rng); err != nil {
		return nil, err
	}
	return replaceProbes(dst, free, probes, sampling, rng, ws), nil
}

// checkReplace validates the arguments of ReplaceProbes and
// ReplaceProbesWith (function fn).
func checkReplace(fn string, probes int, sampling Sampling, rng *rand.Rand) error {
	switch {
	case probes < 0 || probes > MaxProbes:
		return check.Err(fn, check.Scalar, "probes", float64(probes), "must lie in [0, 2^31]")
	case sampling > WithReplacement:
		return check.Err(fn, check.Scalar, "sampling", float64(sampling), "unknown sampling")
	case rng == nil:
		return check.ErrText(fn, check.Scalar, "rng", "nil", "must not be nil")
	}
	return nil
}

// replaceProbes is ReplaceProbesWith on validated input (probes in [0,
// MaxProbes], a known sampling, rng not nil; a nil ws allocates a
// temporary one). Same complexity. Equal ranks (with replacement) map to
// the same node.
func replaceProbes(dst []int, free *StateVector, probes int, sampling Sampling, rng *rand.Rand, ws *Workspace) []int {
	candidates := free.Len() - free.CountLong()
	if probes == 0 || candidates == 0 {
		return dst[:0]
	}
	ws = orNew(ws)
	ws.ranks = sample(ws.ranks[:0], candidates, probes, sampling, rng, ws)
	slices.Sort(ws.ranks)
	// Map the sorted ranks among the clear bits to node indices in one scan
	// of the stored words; the nodes between them are all clear.
	dst = slices.Grow(dst[:0], probes)
	rank := 0 // rank among the clear bits of node pos
	pos := 0
	r := 0
	for k, word := range free.words {
		// Nodes pos … 64·ix[k]−1 are clear: rank + (node − pos).
		gap := 64*free.index(k) - pos
		for ; r < len(ws.ranks) && ws.ranks[r] < rank+gap; r++ {
			dst = append(dst, pos+ws.ranks[r]-rank)
		}
		rank, pos = rank+gap, 64*free.index(k)
		clearBits := ^word
		if last := free.nodes - pos; last < 64 {
			clearBits &= (1 << uint(last)) - 1
		}
		inWord := bits.OnesCount64(clearBits)
		for ; r < len(ws.ranks) && ws.ranks[r] < rank+inWord; r++ {
			// Select the (ranks[r]−rank)-th clear bit of this word.
			b := clearBits
			for j := ws.ranks[r] - rank; j > 0; j-- {
				b &= b - 1
			}
			dst = append(dst, pos+bits.TrailingZeros64(b))
		}
		rank, pos = rank+inWord, pos+64
	}
	for ; r < len(ws.ranks); r++ { // past the last stored word: all clear
		dst = append(dst, pos+ws.ranks[r]-rank)
	}
	return dst
}
