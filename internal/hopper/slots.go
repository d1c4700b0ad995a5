package hopper

import "github.com/specsched/specsched/internal/selection"

// AllocateSlots is the integer form of Algorithm 1 (alloc.AllocateSlots,
// whose doc comment gives the rounding's guarantees): Allocate's real
// shares for S = slots, apportioned by largest remainder with ties to the
// smaller T_i, then the smaller index (selection.Apportion). O(n);
// allocation-free with a reused ws.
//
// Precondition (what the caller has validated): dst has len(remaining)
// elements; every T_i finite and ≥ 0 with ΣT_i finite; 0 ≤ slots ≤ 2^53
// (alloc.MaxTotal); snap the Summary of remaining for a β > 1
// (Summarize, or alloc's validation).
func AllocateSlots(dst []int, remaining []float64, slots int, snap Summary, ws *selection.Workspace) {
	shares := selection.Shares(ws, len(remaining))
	Allocate(shares, remaining, float64(slots), snap, ws)
	// With no work every share is 0, and so is every apportioned slot.
	selection.Apportion(ws, dst, shares, slots, remaining)
}

// FairSlots is the integer form of Algorithm 2 (fairness.AllocateSlots,
// whose doc comment gives the rounding's guarantees): Fair's real shares
// for S = slots, apportioned by largest remainder with ties to the smaller
// T_i, then the smaller index; with no active job every slot is 0. O(n);
// allocation-free with a reused ws.
//
// Precondition (what the caller has validated): dst has len(remaining)
// elements; every T_i finite and ≥ 0; 0 ≤ slots ≤ 2^53; eps in [0, 1];
// snap the Summary of remaining for a β > 1 with Σ c·T_i, summed in
// index order, finite (Fair's precondition).
func FairSlots(dst []int, remaining []float64, slots int, eps float64, snap Summary, ws *selection.Workspace) {
	shares := selection.Shares(ws, len(remaining))
	total := 0
	if Fair(shares, remaining, float64(slots), eps, snap, ws) {
		total = slots
	}
	selection.Apportion(ws, dst, shares, total, remaining)
}
