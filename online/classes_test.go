package online_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/specsched/specsched/online"
	"github.com/specsched/specsched/stragglers"
)

// testClassesEvents: after every event of a random stream (machine.events,
// each job with its own β, ties of β included, and updates that move a job
// between classes), Classes' shares equal stragglers.Allocate's on the
// same jobs within shareTol·S, Target equals Snapshot, Next is the
// brute-force choice from the reference's shares, and a rejected event
// returns an InputError and changes nothing.
func testClassesEvents(t *rapid.T) { t.Repeat(classesMachine(t).events(t)) }

// classesMachine is a machine over a new Classes of drawn slots.
func classesMachine(t *rapid.T) *machine {
	slots := count(t, "slots")
	c, err := online.NewClasses(slots)
	if err != nil {
		t.Fatal(err)
	}
	m := &machine{
		a:      c,
		add:    c.Add,
		update: c.Update,
		ref: func(remaining, beta []float64, slots float64) []float64 {
			want, err := stragglers.Allocate(nil, remaining, beta, slots, nil)
			if err != nil {
				t.Fatalf("stragglers.Allocate: %v", err)
			}
			return want
		},
		refSlots: func(remaining, beta []float64, slots int) ([]int, error) {
			return stragglers.AllocateSlots(nil, remaining, beta, slots, nil)
		},
		beta: func(t *rapid.T) float64 {
			return rapid.SampledFrom([]float64{1.1, 1.25, 1.5, 1.5, 1.99, 2, 3}).Draw(t, "beta")
		},
		slots: slots,
	}
	return m
}

func TestClassesEvents(t *testing.T) { t.Parallel(); rapid.Check(t, testClassesEvents) }

// FuzzClassesEvents fuzzes testClassesEvents' event stream: every method
// of Classes.
func FuzzClassesEvents(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testClassesEvents)) }
