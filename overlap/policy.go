package overlap

import "github.com/specsched/specsched/internal/check"

// An Algorithm names a scheduling policy of the overlapping tandem queue:
// the paper's two algorithms, each as analysed and as its experiments run
// it, and its two baselines.
type Algorithm int

const (
	// MaxSRPT is Algorithm 1 (§4.1) as the paper's experiments run it: both
	// stations serve jobs in increasing order of max(x_i(t), y_i(t)) (ties
	// by arrival, then index). The map station gives all its speed to the
	// first job with map work left; the shuffle station is work conserving
	// in the same order: each job in turn gets as much as its available
	// work allows (unlimited while it has available work, (y_i/x_i)·p_i
	// when it has none) until the speed is used up. Theorem 3: it is
	// 2α/(1+α)-speed 1-competitive, α = max_i max(x_i/y_i, y_i/x_i).
	MaxSRPT Algorithm = iota
	// MaxSRPTStrict is Algorithm 1 exactly as analysed in Theorem 3: the
	// shuffle station serves only the first job, in the same order, that has
	// shuffle work left, at the largest rate its available work allows, and
	// idles the rest of its speed.
	MaxSRPTStrict
	// SplitSRPT is Algorithm 2 (§4.2) as the paper's experiments must
	// have run it. With β(t) the least imbalance max(x_i/y_i, y_i/x_i) over
	// the jobs present (original sizes), μ₁ = 1/(1+β(t)) and
	// μ₂ = β(t)/(1+β(t)), the map-heavy jobs (x_i ≥ y_i, the paper's S₁) get
	// map capacity μ₂·s and shuffle capacity μ₁·s and are served in SRPT
	// order of x_i(t); the shuffle-heavy jobs (x_i < y_i, S₂) get map
	// capacity μ₁·s and shuffle capacity μ₂·s in SRPT order of y_i(t).
	// Capacity a class cannot use at a station (it has no work there, or its
	// work there is rate-limited by constraint (1)) goes to the other class.
	// Within a class each station serves the class's jobs in order, each as
	// fast as its available work allows, as MaxSRPT's shuffle station does.
	//
	// Why this and not SplitSRPTStrict: on the §5.3 workload about 78% of
	// the map work belongs to map-heavy jobs (P(γ ≤ 1) ≈ 0.78 and γ is
	// independent of x), and as soon as one nearly balanced job is present
	// β(t) ≈ 1, so the strict split gives that work about half of the map
	// station: at loads 0.75 and 0.9 (0.59 and 0.71 > 0.5) the strict
	// version is unstable (its mean response time grows linearly with the
	// number of jobs), while §5.3 reports SplitSRPT close to MaxSRPT and far
	// better than k-LPS. Theorem 5 is proved for the strict version.
	SplitSRPT
	// SplitSRPTStrict is Algorithm 2 exactly as written and analysed in
	// Theorem 5 ((1+1/β)-speed 1-competitive, β = min_t β(t)) and
	// Corollary 6: the classes keep their capacities μ·s even when they
	// cannot use them. Along the model's sample paths each class then
	// serves only its first job: a map-heavy head's shuffle needs
	// (y/x)·μ₂ ≤ μ₁ since x/y ≥ β(t), so no map-heavy job ever has
	// available shuffle work; a shuffle-heavy head can take (y/x)·μ₁ ≥ μ₂,
	// all of its class's shuffle capacity.
	SplitSRPTStrict
	// KLPS is the §5.1 baseline modelling Hadoop's Fair Scheduler: k-limited
	// processor sharing at the map station (the K earliest jobs with map
	// work left share the speed equally, the others wait in arrival order)
	// and processor sharing at the shuffle station, as a water-fill that
	// gives every job with shuffle work left an equal share, capped by its
	// rate limit, with what the capped jobs leave shared by the others.
	KLPS
	// FIFO serves jobs in arrival order at both stations, the shuffle
	// station work conserving as in MaxSRPT; it is the order the §2.1
	// example uses, and on a batch (equal arrival times) it serves the jobs
	// in index order, which is how the paper's alternative schedules of
	// Corollaries 4 and 6 are run.
	FIFO
	numAlgorithms
)

// DefaultK is the k of k-LPS in the paper's experiments (§5.1: "k = 100,
// which is reasonable for a huge cluster").
const DefaultK = 100

var algorithmNames = [numAlgorithms]string{"maxsrpt", "maxsrpt-strict", "splitsrpt", "splitsrpt-strict", "klps", "fifo"}

// String returns the policy's name as ParseAlgorithm accepts it, or "unknown"
// for a value that is not one of the constants.
func (a Algorithm) String() string {
	if a < 0 || a >= numAlgorithms {
		return "unknown"
	}
	return algorithmNames[a]
}

// ParseAlgorithm returns the Algorithm whose String is name (exact, lower
// case), or an *specsched.InputError for any other name, with the name as its Text (the
// message quotes at most specsched.MaxQuoted characters of it).
func ParseAlgorithm(name string) (Algorithm, error) {
	for a, s := range algorithmNames {
		if s == name {
			return Algorithm(a), nil
		}
	}
	return 0, check.ErrText("overlap.ParseAlgorithm", check.Scalar, "name", name,
		"unknown policy: want maxsrpt, maxsrpt-strict, splitsrpt, splitsrpt-strict, klps or fifo")
}

// A Discipline is the service discipline of the two stations (Rates, Simulate):
// an Algorithm with its parameter.
type Discipline struct {
	Algorithm Algorithm
	// K is the k of k-LPS: how many jobs the map station serves at once.
	// 0 means DefaultK. The other algorithms ignore it.
	K int
}

// k is the k of k-LPS: K, or DefaultK for 0.
func (d Discipline) k() int {
	if d.K == 0 {
		return DefaultK
	}
	return d.K
}

// Validate returns the *specsched.InputError that Rates, Simulate and
// Theorem2Instance would return for d, naming the Discipline field
// (Func "overlap.Discipline.Validate"), or nil: Algorithm must be one of
// the constants and K ≥ 0. O(1).
func (d Discipline) Validate() error { return d.validate("overlap.Discipline.Validate") }

// validate is Validate for the function fn.
func (d Discipline) validate(fn string) error {
	if d.Algorithm < 0 || d.Algorithm >= numAlgorithms {
		return check.Err(fn, check.Scalar, "Algorithm", float64(d.Algorithm), "must be one of the Algorithm constants")
	}
	if d.K < 0 {
		return check.Err(fn, check.Scalar, "K", float64(d.K), "must be ≥ 0 (0 means DefaultK)")
	}
	return nil
}
