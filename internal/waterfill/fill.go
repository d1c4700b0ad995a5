package waterfill

import (
	"math"
	"slices"

	"github.com/specsched/specsched/internal/hopper"
	"github.com/specsched/specsched/internal/selection"
)

// Workspace is the kernel's scratch memory and the snapshot it has
// recorded. The zero value is ready; one call at a time may use it.
type Workspace struct {
	sel     selection.Workspace       // Algorithm 1 within a class, apportionment
	recs    []record                  // the jobs as the water-filling search sees them
	scratch selection.Scratch[record] // the search's candidates
	hist    []selection.Bucket[level] // and its histogram
	sub     []float64                 // remaining tasks of the jobs of one class
	subDst  []float64                 // their slots
	snap    prepared                  // what Add has recorded of the snapshot
	sumW    float64                   // ΣT_i/√(β_i−1) over β_i < 2, in index order
	maxT    float64                   // the largest T_i with β_i < 2
}

// MaxSum bounds ΣT_i and ΣT_i/√(β_i−1): summed in index order they must
// not exceed MaxFloat64/2, so that the same sums taken in any other order
// (the search's buckets, the classes) stay finite, and so do the
// proportional shares' denominators.
const MaxSum = math.MaxFloat64 / 2

// prepared describes a recorded snapshot.
type prepared struct {
	total float64        // ΣT_i
	keys  selection.Span // the least and the greatest key min(β_i, 2)

	// unscale is 1, or 1/WeightScale when the weights w of ws.recs hold
	// T_i·WeightScale/√(β_i−1).
	unscale float64
}

// WeightScale = 2^900 scales the weights T_i/√(β_i−1) of a snapshot whose
// jobs with β_i < 2 all have T_i below 2^−900: unscaled, those weights
// lie below 2^−874, where subnormal ones keep only a few digits and the
// shares proportional to them would be off by far more than rounding
// (T = 2^−1074 and 3·2^−1074 with β = 1 + 10^−9 split S 1 : 2.99997). The
// water-filling only compares Σw/√a with S (S·2^900 may overflow
// to +Inf: then no breakpoint is reached, as is true) and divides weights
// by weights, so it runs on the scaled weights and unscales what it
// returns. Any larger T_i keeps every weight within 2^−122 of the
// largest's precision.
const WeightScale = 0x1p900

// Reset starts recording a snapshot of n jobs. O(1) (amortised: the
// records grow to the largest n seen).
func (ws *Workspace) Reset(n int) {
	ws.recs = slices.Grow(ws.recs[:0], n)
	ws.snap = prepared{unscale: 1}
	ws.sumW, ws.maxT = 0, 0
}

// Add records the next job, T_i = remaining and β_i = beta (finite, ≥ 0
// and > 1: validated by the caller), and returns the running sums ΣT_i
// and ΣT_i/√(β_i−1) in index order, which the caller bounds by MaxSum.
// O(1).
func (ws *Workspace) Add(remaining, beta float64) (total, sumW float64) {
	r := record{key: 2, v: remaining}
	if beta < 2 {
		r = record{key: beta, w: remaining / math.Sqrt(beta-1), v: 2 / beta * remaining}
		ws.maxT = max(ws.maxT, remaining)
	}
	ws.snap.total += remaining
	ws.sumW += r.w
	ws.snap.keys = ws.snap.keys.With(r.key)
	ws.recs = append(ws.recs, r)
	return ws.snap.total, ws.sumW
}

// Finish completes the recording of remaining (the T_i given to Add, in
// order): when every job with β_i < 2 has T_i below 2^−900 it rescales the
// weights (WeightScale). O(n) then, O(1) otherwise.
func (ws *Workspace) Finish(remaining []float64) {
	if ws.maxT > 0 && ws.maxT < 1/WeightScale { // rare: every weight lies near the subnormals
		ws.snap.unscale = 1 / WeightScale
		for i := range ws.recs {
			if r := &ws.recs[i]; r.key < 2 {
				r.w = remaining[i] * WeightScale / math.Sqrt(r.key-1) // the product is exact
			}
		}
	}
}

// Prepare records a snapshot (Reset, Add for every job, Finish) without
// checking it: every T_i finite and ≥ 0, every β_i finite and > 1, len(beta)
// = len(remaining), ΣT_i and ΣT_i/√(β_i−1) at most MaxSum. O(n).
func (ws *Workspace) Prepare(remaining, beta []float64) {
	ws.Reset(len(remaining))
	for i, t := range remaining {
		ws.Add(t, beta[i])
	}
	ws.Finish(remaining)
}

// Slots is the integer form of Fill (stragglers.AllocateSlots, whose doc
// comment gives the rounding's guarantees): the real shares for S =
// slots, apportioned by largest remainder with ties to the smaller T_i,
// then the smaller index; all 0 when no job has work. On Fill's
// precondition, with dst of len(remaining) ints and 0 ≤ slots ≤ 2^53. O(n).
func (ws *Workspace) Slots(dst []int, remaining []float64, slots int) {
	shares := selection.Shares(&ws.sel, len(remaining))
	total := 0
	if ws.Fill(shares, remaining, float64(slots)) {
		total = slots
	}
	selection.Apportion(&ws.sel, dst, shares, total, remaining)
}

// Fill is the K-class water-filling of Algorithm 4 (stragglers.Allocate,
// whose doc comment gives the algorithm, its KKT derivation, special cases
// and O(n) cost) on the snapshot ws has recorded (Prepare, or
// stragglers' validating pass through Add and Finish), writing every job's
// real-valued slots to dst. It reports whether any job has work.
//
// Precondition (what the caller has validated): remaining is the snapshot
// recorded, every T_i finite and ≥ 0 and every β_i finite and > 1, with
// ΣT_i and ΣT_i/√(β_i−1) (β_i < 2) at most MaxSum; dst has len(remaining)
// elements and overlaps neither remaining nor the β; slots finite and ≥ 0.
func (ws *Workspace) Fill(dst, remaining []float64, slots float64) bool {
	p := &ws.snap
	if p.total == 0 || slots == 0 {
		clear(dst)
		return p.total != 0
	}
	// The weights may be scaled by 1/p.unscale (see weightScale); S is
	// compared with them scaled likewise, shares made from them unscaled.
	cut := ws.search(slots/p.unscale, p.keys.Least(), p.keys.Most())
	g := cut.key
	rootSlope := math.Sqrt(slope(g))
	atLevel := cut.before.w / rootSlope * p.unscale // what the classes before g hold at λ = a_g

	switch {
	case cut.before.w == 0 || (slots > atLevel && slots <= atLevel+cut.group.v):
		// λ = a_g: class g shares what the classes before it leave, by
		// Algorithm 1 — below its virtual sizes, or, when no class before
		// it has work, on its own (Algorithm 1 with all of S).
		share := slots
		if cut.before.w > 0 {
			share = slots - atLevel
		}
		ws.classShare(remaining, g, share)
		next := 0 // position in ws.subDst of the next job of class g
		for i := range ws.recs {
			r := &ws.recs[i]
			switch {
			case r.key < g:
				dst[i] = r.w / rootSlope * p.unscale
			case r.key == g:
				dst[i] = ws.subDst[next]
				next++
			default:
				dst[i] = 0
			}
		}
	case slots <= atLevel:
		// Only through rounding at the previous class's end: the level
		// lies above a_g, and the classes before g share S.
		for i := range ws.recs {
			if r := &ws.recs[i]; r.key < g {
				dst[i] = Portion(r.w, cut.before.w, slots)
			} else {
				dst[i] = 0
			}
		}
	case g < 2:
		// The level lies below a_g: every job of the classes up to g is
		// past its virtual size, S_i ∝ T_i/√(β_i−1).
		served := cut.before.w + cut.group.w
		for i := range ws.recs {
			if r := &ws.recs[i]; r.key <= g {
				dst[i] = Portion(r.w, served, slots)
			} else {
				dst[i] = 0
			}
		}
	default:
		// The β ≥ 2 class holds T_i, all it can use; the classes with
		// β < 2 share the rest.
		rest := slots - cut.group.v
		for i := range ws.recs {
			if r := &ws.recs[i]; r.key < 2 {
				dst[i] = Portion(r.w, cut.before.w, rest)
			} else {
				dst[i] = r.v
			}
		}
	}
	return true
}

// classShare runs Algorithm 1 (alloc.Allocate's kernel) with the given slots on the
// jobs whose key is g, gathered in index order into ws.sub, leaving their
// slots in ws.subDst, in the same order.
func (ws *Workspace) classShare(remaining []float64, g, slots float64) {
	ws.sub = ws.sub[:0]
	for i := range ws.recs {
		if ws.recs[i].key == g {
			ws.sub = append(ws.sub, remaining[i])
		}
	}
	// The class's β is g itself below 2; for the β ≥ 2 class any β ≥ 2 is
	// the same model (no speculation). The jobs were validated by prepare.
	ws.subDst = slices.Grow(ws.subDst[:0], len(ws.sub))[:len(ws.sub)]
	hopper.Allocate(ws.subDst, ws.sub, max(0, slots), hopper.Summarize(ws.sub, g), &ws.sel)
}
