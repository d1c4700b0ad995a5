package sim

import (
	"fmt"
	"testing"
)

func TestScratchExample(t *testing.T) {
	for _, det := range []float64{0, 0.5} {
		for _, p := range Policies() {
			cfg := DefaultConfig(p, 6)
			cfg.Speculation = Speculation{Estimator: Oracle, Detect: det}
			cfg.Budget = 2
			cfg.Record = true
			r, err := Simulate(ThesisExample(), cfg)
			if err != nil {
				t.Fatal(p, err)
			}
			fmt.Printf("%v %-16s A=%v B=%v\n", det, p, r.Jobs[0].Completion, r.Jobs[1].Completion)
			if det == 0.5 && p == Hopper {
				for _, c := range r.Copies {
					fmt.Printf("   %c%d#%d [%v,%v] killed=%v pool=%v\n", 'A'+rune(c.Job), c.Task+1, c.Copy, c.Start, c.End, c.Killed, c.Pool)
				}
			}
		}
	}
}
