package probe_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/specsched/specsched/probe"
)

// A node's queue holds the probe of a job with 30 s of work left (10 s
// tasks) that has already been overtaken by 45 s of work, the probe of a
// job with one 2 s task, and a long-task placeholder, which Algorithm 1
// never looks past. The 2 s job is shorter, and overtaking the first probe
// takes its counter to 47 s, within its cap of 5 × 10 s: SRPT picks it and
// the first probe's counter grows.
func ExampleGetProbeFromQueue() {
	queue := []probe.QueuedProbe{
		{EstJobLeft: 30, EstTask: 10, Bypassed: 45, Cap: probe.StarvationFactor * 10},
		{EstJobLeft: 2, EstTask: 2, Cap: probe.StarvationFactor * 2},
		{Long: true},
	}
	counters, next, err := probe.GetProbeFromQueue(nil, queue)
	if err != nil {
		panic(err)
	}
	fmt.Println("serve", next, "counters", counters)

	// Once the first probe has been overtaken by 49 s, a 2 s task would
	// take it past its cap: FIFO order wins.
	queue[0].Bypassed = 49
	counters, next, _ = probe.GetProbeFromQueue(counters, queue)
	fmt.Println("serve", next, "counters", counters)
	// Output:
	// serve 1 counters [47 0 0]
	// serve 0 counters [49 0 0]
}

// Eagle places a short job's probes uniformly at random, re-places the
// ones rejected by nodes holding long tasks among the nodes free of long
// tasks according to the freshest state vector, and sends probes rejected
// again to the short partition.
func ExamplePlaceProbes() {
	const nodes = 10 // nodes 8 and 9 form the short partition
	rng := rand.New(rand.NewPCG(1, 1))
	var ws probe.Workspace

	// First placement: max{K, 2t} probes for a 2-task job with K = 4.
	n, _ := probe.ProbeCount(2, 4, probe.EagleProbeRatio)
	first, _ := probe.PlaceProbes(nil, 0, nodes, n, rng, &ws)
	fmt.Println(n, "probes, distinct nodes:", len(first))

	// Two rejections came back with vectors stamped at times 3 and 7;
	// the freshest says nodes 0–5 hold long tasks.
	old, _ := probe.NewStateVector(nodes, 3)
	fresh, _ := probe.NewStateVector(nodes, 7)
	for i := 0; i < 6; i++ {
		fresh.SetLong(i, true)
	}
	v := []*probe.StateVector{old, fresh}[probe.Freshest([]*probe.StateVector{old, fresh})]
	again, _ := probe.ReplaceProbes(nil, v, 2, rng, &ws)
	for _, node := range again {
		fmt.Println("re-placed on a node free of long tasks:", !v.Long(node))
	}

	// Rejected again: the short partition.
	last, _ := probe.PlaceProbes(nil, 8, 2, 2, rng, &ws)
	fmt.Println("short partition:", last[0] >= 8 && last[1] >= 8)
	// Output:
	// 4 probes, distinct nodes: 4
	// re-placed on a node free of long tasks: true
	// re-placed on a node free of long tasks: true
	// short partition: true
}

// Eagle §4.1: four nodes with 100, 100, 10 and 10 units of queued work and
// a job of four 10-unit tasks, one probe per node. Without sticky batch
// probing the job waits for the 100-unit queues; with it, the two idle-soon
// nodes pull all four tasks.
func ExampleSimulate() {
	jobs := []probe.Job{
		{Submit: 0, Durations: []float64{100, 100, 10, 10}, EstTask: 55}, // long: the queues
		{Submit: 0, Durations: []float64{10, 10, 10, 10}, EstTask: 10},   // short: four probes
	}
	cfg := probe.Config{Policy: probe.Eagle, Nodes: 4, Threshold: 50, ProbeRatio: 1,
		StarvationFactor: probe.StarvationFactor, NoSSS: true}
	for _, noSBP := range []bool{true, false} {
		cfg.NoSBP = noSBP
		r, err := probe.Simulate(jobs, cfg, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			panic(err)
		}
		fmt.Printf("SBP %-5v job completes at %v\n", !noSBP, r.Completion[1])
	}
	// Output:
	// SBP false job completes at 110
	// SBP true  job completes at 30
}

// A worker with a free slot and requests of two jobs: 3 and 30 tasks left,
// 10 slots in the cluster, β = 1.5, ε = 10%. The virtual sizes 4 and 40
// exceed the slots: the system is slot-constrained and the smaller job,
// below its ε-fair target, gets the slot.
func ExampleHopperPick() {
	remaining := []float64{3, 30}
	running := []float64{1, 5}
	k, err := probe.HopperPick([]int{1, 0}, remaining, running, 10, 1.5, probe.HopperEps, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("serve job", []int{1, 0}[k])
	// Output:
	// serve job 0
}

// The Yahoo setting of the Eagle paper with the choices of the authors'
// simulator: cut-off, short partition and nodes from TraceSettings, probe
// targets drawn with replacement, every idle node stealing in Hawk, and
// the trace truncated to whole seconds as their reader does.
func ExampleAuthorsCode() {
	yahoo, _ := probe.LookupTraceSetting("yahoo")
	cfg := probe.AuthorsCode(yahoo.Config(probe.Hawk))
	fmt.Println(cfg.Nodes, cfg.Threshold, cfg.ShortFraction, cfg.Sampling, cfg.Thieves)
	jobs := probe.TruncateSeconds([]probe.Job{{Submit: 7.5, Durations: []float64{0.4, 12.9}, EstTask: 6.65}})
	fmt.Println(jobs[0].Submit, jobs[0].Durations, jobs[0].EstTask)
	// Output:
	// 4000 90.5811 0.02 replacement all
	// 7.5 [0 12] 6
}
