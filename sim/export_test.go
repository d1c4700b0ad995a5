package sim

import "pgregory.net/rapid"

// The package's test generators, for the tests of package sim_test that
// use only the exported API (public_test.go).

// AnyJobs draws a workload of at most five jobs: Pareto durations, or
// known durations with phase chains.
func AnyJobs(t *rapid.T) []Job {
	if rapid.Bool().Draw(t, "pareto") {
		return paretoJobs(t, 5)
	}
	return explicitJobs(t, 5, false)
}

// AnyConfig draws any valid Config of a preset (anyConfig).
func AnyConfig(t *rapid.T) Config { return anyConfig(t) }
