package hopper

// NoSpeculationBeta is the tail index at and above which the model assumes
// no speculation (alloc.NoSpeculationBeta).
const NoSpeculationBeta = 2

// Factor is the speculation factor c of eq. 3.2: 2/β, or 1 for β ≥
// NoSpeculationBeta (alloc.VirtualSize is c·T). β must be > 1.
func Factor(beta float64) float64 {
	if beta >= NoSpeculationBeta {
		return 1
	}
	return 2 / beta
}

// Level is the speculation level k of eq. 3.2 (eq. 3.4) for T = remaining
// tasks holding S_i = slots: see alloc.SpeculationLevel, which it computes
// for valid arguments. S_i/T must not overflow.
func Level(remaining, slots, beta float64) float64 {
	switch {
	case remaining == 0:
		return 0
	case beta >= NoSpeculationBeta:
		return 1
	default:
		return max(2/beta, slots/remaining)
	}
}
