package overlap

import "testing"

// TestKLPSLimitedShuffle, worked by hand under 2-LPS at speed 1: a job in
// service whose available shuffle work is zero gets its production rate
// (y/x)·p at the shuffle station, capped by the water-fill, not the level
// θ of the jobs that have available work.
//
//  1. One job (1, 1): map rate 1, production 1, its shuffle keeps pace
//     (limited to 1, the whole station): both end at t = 1.
//  2. (1, 1) and (1, 3) at 0: map rates 1/2 each, productions 1/2 and 3/2,
//     both limited (nothing available yet); the water-fill gives 1/2 to
//     the first (1/2·2 ≤ 1) and the rest, 1/2, to the second. At t = 2 both
//     maps end; the first has shuffled 1 = all: it leaves (2). The second
//     has shuffled 1 of 3, alone at rate 1: it leaves at 4.
//  3. (2, 1) at 0, (1, 1/2) at 1/2: until 1/2 the first alone maps at 1
//     and shuffles at its production 1/2 (1/2 map, 1/4 shuffle done); then
//     both map at 1/2, producing 1/4 each, both limited (1/4 + 1/4 ≤ 1):
//     the second ends map and shuffle at 1/2 + 2 = 5/2 (response 2), the
//     first has 1/2 map and 1/4 shuffle left, alone again at map 1 and
//     production 1/2: it ends at 3.
func TestKLPSLimitedShuffle(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		jobs []Arrival
		want []float64
	}{
		{[]Arrival{{Map: 1, Shuffle: 1}}, []float64{1}},
		{[]Arrival{{Map: 1, Shuffle: 1}, {Map: 1, Shuffle: 3}}, []float64{2, 4}},
		{[]Arrival{{Map: 2, Shuffle: 1}, {Time: 0.5, Map: 1, Shuffle: 0.5}}, []float64{3, 2}},
	} {
		got, err := Simulate(nil, c.jobs, 1, Discipline{Algorithm: KLPS, K: 2}, nil)
		if err != nil || len(got) != len(c.want) {
			t.Fatalf("Simulate(%v) = %v, %v", c.jobs, got, err)
		}
		for i := range got {
			if !near(got[i], c.want[i], c.want[i]) {
				t.Errorf("Simulate(%v)[%d] = %v, want %v", c.jobs, i, got[i], c.want[i])
			}
		}
	}
}
