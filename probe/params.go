package probe

// Parameters of the papers' evaluations, as defaults for the decision
// functions and the simulator. Each carries its source.
const (
	// EagleMinProbes is K in Eagle's max{K, 2t} probes per short job: "In
	// all the Eagle experiments, unless otherwise stated, the minimum number
	// of probes sent per job is 20" (Eagle §5).
	EagleMinProbes = 20

	// EagleProbeRatio is the 2 in Eagle's max{K, 2t} (Eagle §3.3), the same
	// batch-sampling ratio as Sparrow's and Hawk's.
	EagleProbeRatio = 2.0

	// SparrowProbeRatio is Sparrow's batch-sampling ratio d = 2 (probes per
	// task), used by the Sparrow and Hawk baselines (Eagle §2, [20]).
	SparrowProbeRatio = 2.0

	// HopperProbeRatio is decentralized Hopper's probe ratio: "we set ... probe
	// ratio as 4" (Hopper §7.2).
	HopperProbeRatio = 4.0

	// StarvationFactor is the starvation threshold of SBP + SRPT as a
	// multiple of the bypassed job's estimated task duration: "we set the
	// starvation threshold value to 5 times the estimated duration of a
	// single task in a job" (Eagle §5).
	StarvationFactor = 5.0

	// NetworkDelay is the one-way message delay in seconds: "We set the
	// network delay to 0.5 milliseconds" (Eagle §5).
	NetworkDelay = 0.5e-3

	// HawkStealAttempts is how many random nodes an idle general-partition
	// node contacts in Hawk's work stealing (Eagle §6.1, [5]).
	HawkStealAttempts = 10

	// HopperEps is the fairness allowance ε of decentralized Hopper, as a
	// fraction of the fair share: "we set the fairness allowance ε as 10%"
	// (Hopper §7.2).
	HopperEps = 0.1

	// HopperBeta is the simulator's default Pareto shape β of task
	// durations for decentralized Hopper: production traces have β < 2
	// (Hopper thesis §3.3); 1.5 lies in the middle of (1, 2).
	HopperBeta = 1.5
)

// Short-partition fractions of Eagle §5: "The size of the small partition is
// 17, 9 and 2 percent of the nodes, for the Google, Cloudera and Yahoo
// traces" — the share of task-seconds of short jobs in each trace.
const (
	ShortPartitionGoogle   = 0.17
	ShortPartitionCloudera = 0.09
	ShortPartitionYahoo    = 0.02
)
