package overlap

import (
	"math"
	"testing"
)

// TestSimulateUnstartedTie is the regression test of a key tie the engine
// broke the other way than Rates (found by TestSimulatePath): job 0 (map 0,
// shuffle 3) and job 1 (map 1.03125, shuffle 3) arrive together and both
// have MaxSRPT key max(x, y) = 3; the tie goes to the smaller index, so job
// 0 holds the shuffle station until 3/s while job 1 maps, and job 1's 3
// units of shuffle then take until 6/s. The engine computed job 1's
// remaining shuffle as (y/x)·x in its units (sizes divided by the speed),
// which rounds an ulp below y/s, and served job 1 first (under
// MaxSRPTStrict the responses 3/s and 6/s were swapped).
func TestSimulateUnstartedTie(t *testing.T) {
	t.Parallel()
	const speed = 1.502029619688853
	jobs := []Arrival{{Time: 0, Map: 0, Shuffle: 3}, {Time: 0, Map: 1.03125, Shuffle: 3}}
	for _, k := range []Algorithm{MaxSRPT, MaxSRPTStrict} {
		got, err := Simulate(nil, jobs, speed, Discipline{Algorithm: k}, nil)
		if err != nil {
			t.Fatalf("%v: %v", k, err)
		}
		want := []float64{3 / speed, 6 / speed}
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12*want[i] {
				t.Errorf("%v: job %d response %v, want %v (ties go to the smaller index)", k, i, got[i], want[i])
			}
		}
	}
}

// TestSimulateMapEndTie is the regression test of a key tie the engine
// broke the other way than Rates after a map ended (found by CI's run of
// TestSimulatePath): at speed s, jobs 1 and 2 (shuffle 1 each) leave at
// 1/s and 2/s; job 3 (map 0, shuffle 3) arrives at 0.5 and job 4 (map 1,
// shuffle 3) at 1, with job 6 (shuffle 1), served from 2/s to 3/s while
// job 4 maps. At 3/s jobs 3 and 4 both have key 3 and the earlier arrival
// wins: job 3 leaves at 6/s, job 4 at 9/s. The engine summed job 4's
// produced shuffle work interval by interval, an ulp short of 3 in its
// units, and served job 4 first.
func TestSimulateMapEndTie(t *testing.T) {
	t.Parallel()
	const s = 1.5035934448242188
	jobs := []Arrival{{0, 0, 0}, {0, 0, 1}, {0, 0, 1}, {0.5, 0, 3}, {1, 1, 3}, {1, 0, 0}, {1, 0, 1}}
	want := []float64{0, 1 / s, 2 / s, 6/s - 0.5, 9/s - 1, 0, 3/s - 1}
	for _, k := range []Algorithm{MaxSRPT, MaxSRPTStrict} {
		got, err := Simulate(nil, jobs, s, Discipline{Algorithm: k}, nil)
		if err != nil {
			t.Fatalf("%v: %v", k, err)
		}
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12*want[i] {
				t.Errorf("%v: job %d response %v, want %v (ties go to the earlier arrival)", k, i, got[i], want[i])
			}
		}
	}
}
