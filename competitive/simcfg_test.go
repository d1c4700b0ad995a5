package competitive

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/specsched/specsched"
)

// TestSimulateSigmaEdges: Simulate's service law X = Δ·B, B ~ Beta, has a
// variance only when σ² < Δ − 1, and needs shape parameters that are
// finite and > 0. At σ² = Δ − 1 (σ = 1, Δ = 2: a two-point law, no Beta)
// the error states the σ² < Δ − 1 rule. Where σ² < Δ − 1 holds in float64
// (checked here) but the shapes round to 0 (σ = 1.5524045547142946, Δ =
// 3.409959901497688: μ(1−μ)/v − 1 rounds to 0), to < 0 (σ ≈ 0.0393, Δ ≈
// 1.00154) or overflow (σ = 1e-170: v underflows to 0), Simulate still
// rejects σ, saying no Beta law is usable, rather than draw from Beta(0, 0)
// or Beta(+Inf, +Inf). Pairs found by searching σ just below √(Δ − 1).
func TestSimulateSigmaEdges(t *testing.T) {
	t.Parallel()
	jobs := []SimJob{{MapTasks: 1, MapWork: 1}}
	for _, c := range []struct {
		sigma, peak float64
		reason      string
	}{
		{1, 2, "sigma² < peak − 1"},
		{1.5524045547142946, 3.409959901497688, "no usable Beta law"},
		{0.039306471812269525, 1.0015449987263287, "no usable Beta law"},
		{1e-170, 2, "no usable Beta law"},
	} {
		if c.reason != "sigma² < peak − 1" && !(c.sigma*c.sigma < c.peak-1) {
			t.Fatalf("σ = %v, Δ = %v: σ² < Δ − 1 fails; the case tests nothing", c.sigma, c.peak)
		}
		_, _, err := simulate(jobs, Config{Machines: 2, Algorithm: AlgorithmFair, Sigma: c.sigma, Peak: c.peak, MaxSlots: 100}, rand.New(rand.NewPCG(1, 1)))
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Field != "Sigma" || !strings.Contains(ie.Reason, c.reason) {
			t.Errorf("σ = %v, Δ = %v: err = %v, want an InputError on Sigma saying %q", c.sigma, c.peak, err, c.reason)
		}
	}
}
