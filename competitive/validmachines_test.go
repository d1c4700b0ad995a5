package competitive

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// testValidMachines: the unchecked path Simulate takes on its own
// snapshots (Υ_j(t) by Job.remaining, then the kernel) gives, on every
// snapshot Machines accepts, exactly what Machines gives with its
// validating scan — the loads of the remaining work Υ_j(t) (eq. 25), not
// of the whole job Υ_j (eq. 19).
func testValidMachines(t *rapid.T) {
	jobs := someJobs(t, 0, 60)
	beta := drawBeta(t)
	lambda := rapid.SampledFrom([]float64{0, 0.5, 1, 3}).Draw(t, "lambda")
	machines := rapid.IntRange(0, 300).Draw(t, "machines")
	want, err := Machines(nil, jobs, machines, beta, lambda, nil)
	if err != nil {
		t.Skip("not a valid snapshot")
	}
	var ws Workspace
	if got := ws.validMachines(nil, jobs, machines, beta, lambda); !slices.Equal(got, want) {
		t.Fatalf("validMachines = %v, Machines = %v", got, want)
	}
}

func TestValidMachines(t *testing.T) { t.Parallel(); rapid.Check(t, testValidMachines) }
