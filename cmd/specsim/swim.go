package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/specsched/specsched/sim"
)

// swimFlags are the cluster command's flags for a SWIM workload (-swim).
type swimFlags struct {
	file        *string
	block, rate *float64
	rule        sim.SwimConfig // the rule of the file's cluster, -block and -rate applied
	cluster     string         // "FB-2009" or "FB-2010", from the file's name, or ""
}

// define adds -swim, -block and -rate to fs.
func (s *swimFlags) define(fs *flag.FlagSet) {
	s.file = fs.String("swim", "", "run a day of Facebook jobs from this SWIM file (FB-2009 or FB-2010 sample, told by its name; see sim.SwimJobs): times in seconds, -slots defaults to the cluster's machines × 4")
	s.block = fs.Float64("block", 0, "for -swim: MiB of input (map) or shuffle (reduce) data per task; 0 means 64 for FB-2009, 128 for FB-2010")
	s.rate = fs.Float64("rate", sim.SwimRate/sim.MiB, "for -swim: MiB a task processes per second (a task's mean duration is its bytes over the rate)")
}

// check validates the -swim flags once parsed (set: the flags given) and,
// without -slots, sets slots to the file's cluster: its machines ×
// sim.SwimSlotsPerMachine.
func (s *swimFlags) check(fs *flag.FlagSet, set map[string]bool, slots *int) error {
	if *s.file == "" {
		for _, name := range []string{"block", "rate"} {
			if set[name] {
				return usageError(fs, "-%s describes a SWIM workload and needs -swim", name)
			}
		}
		return nil
	}
	for _, name := range []string{"trace", "jobs", "load"} {
		if set[name] {
			return usageError(fs, "-%s cannot be combined with -swim", name)
		}
	}
	base := strings.ToUpper(filepath.Base(*s.file))
	machines := 0
	switch {
	case strings.Contains(base, "2009"):
		s.cluster, s.rule, machines = "FB-2009", sim.SwimFB2009(), sim.FB2009Machines
	case strings.Contains(base, "2010"):
		s.cluster, s.rule, machines = "FB-2010", sim.SwimFB2010(), sim.FB2010Machines
	case !set["block"] || !set["slots"]:
		return usageError(fs, "-swim %s: the name tells neither FB-2009 nor FB-2010; give -block and -slots", *s.file)
	default:
		s.rule = sim.SwimFB2010() // -block is given: only its rate and groups remain
	}
	if set["block"] {
		if !(*s.block > 0 && *s.block*sim.MiB <= 1<<50) {
			return usageError(fs, "-block %g: must lie in (0, 2^30] MiB", *s.block)
		}
		s.rule.BlockSize = max(1, int64(math.Round(*s.block*sim.MiB)))
	}
	if !(*s.rate > 0 && *s.rate*sim.MiB <= 1e15) {
		return usageError(fs, "-rate %g: must be a positive number of MiB/s, at most 1e15 bytes/s", *s.rate)
	}
	s.rule.Rate = *s.rate * sim.MiB
	if !set["slots"] {
		*slots = machines * sim.SwimSlotsPerMachine
	}
	return nil
}

// workload reads and converts the SWIM file with the job groups of -beta
// (groups are drawn with the seed, as for the synthetic workload), and
// describes it for the header.
func (s *swimFlags) workload(groups []sim.Group, seed uint64) ([]sim.Job, string, error) {
	rule := s.rule
	rule.Groups = groups
	jobs, err := readSwim(*s.file, rule, seed)
	if err != nil {
		return nil, "", err
	}
	name := filepath.Base(*s.file)
	if s.cluster != "" {
		name += " (" + s.cluster + ")"
	}
	return jobs, fmt.Sprintf("SWIM day %s: %g MiB per task, %g MiB/s per task, β %s",
		name, float64(rule.BlockSize)/sim.MiB, rule.Rate/sim.MiB, groupList(groups)), nil
}

// readSwim reads a SWIM file and converts its jobs by rule (sim.SwimJobs),
// the groups drawn with the seed as for the synthetic workload.
func readSwim(file string, rule sim.SwimConfig, seed uint64) ([]sim.Job, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := sim.ParseSwim(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: no jobs", file)
	}
	jobs, err := sim.SwimJobs(recs, rule, rand.New(rand.NewPCG(seed, 0x5eed)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return jobs, nil
}

// groupList formats the groups' tail indices as -beta takes them.
func groupList(groups []sim.Group) string {
	b := make([]string, len(groups))
	for i, g := range groups {
		b[i] = fmt.Sprint(g.Beta)
	}
	return strings.Join(b, ",")
}
