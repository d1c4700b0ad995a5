package online_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/fairness"
	"github.com/specsched/specsched/online"
)

// testFairEvents: after every event of a random stream (machine.events),
// Fair's shares equal fairness.Allocate's on the same jobs within
// shareTol·S, Target equals Snapshot, Next is the brute-force choice from
// the reference's shares, and a rejected event returns an InputError and
// changes nothing. ε includes 0 (Fair) and 1 (Algorithm 1).
func testFairEvents(t *rapid.T) { t.Repeat(fairMachine(t).events(t)) }

// fairMachine is a machine over a new Fair of drawn β, ε and slots.
func fairMachine(t *rapid.T) *machine {
	beta := rapid.SampledFrom([]float64{1.1, 1.5, 1.99, 2, 3}).Draw(t, "beta")
	eps := rapid.SampledFrom([]float64{0, 0.1, 0.5, 0.9, 1}).Draw(t, "eps")
	slots := count(t, "slots")
	f, err := online.NewFair(slots, beta, eps)
	if err != nil {
		t.Fatal(err)
	}
	m := &machine{
		a:   f,
		add: func(remaining, _ float64) (int, error) { return f.Add(remaining) },
		update: func(id int, remaining, _ float64) error {
			return f.Update(id, remaining)
		},
		ref: func(remaining, _ []float64, slots float64) []float64 {
			want, err := fairness.Allocate(nil, remaining, slots, beta, eps, nil)
			if err != nil {
				t.Fatalf("fairness.Allocate: %v", err)
			}
			return want
		},
		refSlots: func(remaining, _ []float64, slots int) ([]int, error) {
			return fairness.AllocateSlots(nil, remaining, slots, beta, eps, nil)
		},
		beta:  func(*rapid.T) float64 { return beta },
		slots: slots,
	}
	return m
}

func TestFairEvents(t *testing.T) { t.Parallel(); rapid.Check(t, testFairEvents) }

// FuzzFairEvents fuzzes testFairEvents' event stream: every method of Fair.
func FuzzFairEvents(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testFairEvents)) }
