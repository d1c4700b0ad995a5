package sim

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/specsched/specsched"
)

// Tests that the policy model's exported surface — Decision's methods, the
// built-in allocators and rules called directly, the names and presets,
// Config.Validate — never panics, whatever it is given.

// inputError returns err as a *specsched.InputError, or nil.
func inputError(err error) *specsched.InputError {
	var ie *specsched.InputError
	if errors.As(err, &ie) {
		return ie
	}
	return nil
}

// wantInputError fails unless err is an InputError of function fn about
// field at index.
func wantInputError(t fataler, err error, fn string, index int, field string) {
	t.Helper()
	ie := inputError(err)
	if ie == nil || ie.Func != fn || ie.Index != index || ie.Field != field {
		t.Fatalf("error %v (%#v); want an InputError of %s, index %d, field %q", err, ie, fn, index, field)
	}
}

// misuser is a user allocator and rule that commit one misuse of the
// Decision at their first call and then leave the run to the preset's
// parts.
type misuser struct {
	allocate func(d *Decision)
	use      func(d *Decision, k int)
	a        Allocator
	r        InJobRule
	done     bool
}

func (m *misuser) Allocate(d *Decision, target []int, key []float64) error {
	if m.allocate != nil && !m.done {
		m.done = true
		m.allocate(d)
	}
	return m.a.Allocate(d, target, key)
}

func (m *misuser) Use(d *Decision, k, g int) error {
	if m.use != nil && !m.done {
		m.done = true
		m.use(d, k)
	}
	return m.r.Use(d, k, g)
}

func (m *misuser) CanUse(d *Decision, k int) bool { return m.r.CanUse(d, k) }

// TestDecisionMisuse: a caller's allocator or rule that gives a Decision
// method a position, task or count out of range makes Simulate return an
// InputError naming the method, the job position and the field, and no
// result (before the fix: an index-out-of-range panic).
func TestDecisionMisuse(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, fn, field string
		index           int
		m               misuser
	}{
		{"Job(Active())", "sim.Decision.Job", "k", 2, misuser{allocate: func(d *Decision) { d.Job(d.Active()) }}},
		{"Remaining(-1)", "sim.Decision.Remaining", "k", -1, misuser{allocate: func(d *Decision) { d.Remaining(-1) }}},
		{"Copy(k, Running(k))", "sim.Decision.Copy", "i", 0, misuser{use: func(d *Decision, k int) { d.Copy(k, d.Running(k)) }}},
		{"RunningTask(k, -1)", "sim.Decision.RunningTask", "i", 0, misuser{use: func(d *Decision, k int) { d.RunningTask(k, -1) }}},
		{"Launch(k, -1)", "sim.Decision.Launch", "n", 0, misuser{use: func(d *Decision, k int) { d.Launch(k, -1) }}},
		{"Phase(k, Phases(k))", "sim.Decision.Phase", "p", 1, misuser{allocate: func(d *Decision) { d.Phase(1, d.Phases(1)) }}},
		{"PhaseMoments(0, -1)", "sim.Decision.PhaseMoments", "p", 0, misuser{allocate: func(d *Decision) { d.PhaseMoments(0, -1) }}},
		{"Copies(k, -1)", "sim.Decision.Copies", "i", 0, misuser{use: func(d *Decision, k int) { d.Copies(k, -1) }}},
		{"AppendRunning(-1)", "sim.Decision.AppendRunning", "k", -1, misuser{use: func(d *Decision, _ int) { d.AppendRunning(nil, -1) }}},
		{"Stragglers(-1)", "sim.Decision.Stragglers", "k", -1, misuser{use: func(d *Decision, _ int) { d.Stragglers(-1) }}},
		{"AppendStragglers(Active())", "sim.Decision.AppendStragglers", "k", 2, misuser{allocate: func(d *Decision) { d.AppendStragglers(nil, d.Active(), 1) }}},
	} {
		m := c.m
		m.a, m.r = &HopperAllocator{}, &SpeculateRule{}
		cfg := DefaultConfig(Hopper, 6)
		cfg.Allocator, cfg.Rule = &m, &m
		var r *Result
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("panic: %v", p)
				}
			}()
			r, err = Simulate(ThesisExample(), cfg)
		}()
		if r != nil {
			t.Errorf("%s: a result", c.name)
		}
		ie := inputError(err)
		if ie == nil || ie.Func != c.fn || ie.Field != c.field || ie.Index != c.index {
			t.Errorf("%s: %v; want an InputError of %s, field %s, index %d", c.name, err, c.fn, c.field, c.index)
		}
	}
}

// TestZeroDecision: a nil and a zero Decision answer zeros, start nothing
// and record nothing.
func TestZeroDecision(t *testing.T) {
	t.Parallel()
	for _, d := range []*Decision{nil, {}} {
		c, el, rem := d.RunningTask(0, 0)
		if d.Now() != 0 || d.Capacity() != 0 || d.Active() != 0 || d.ClusterBeta() != 0 || d.Job(0) != 0 ||
			d.Beta(0) != 0 || d.Remaining(0) != 0 || d.Held(0) != 0 || d.Unscheduled(0) != 0 || d.Demand(0) != 0 ||
			d.Running(0) != 0 || c != 0 || el != 0 || rem != 0 || d.Launch(0, 1) != 0 || d.Copy(0, 0) ||
			d.Config().Slots != 0 || d.NewCopy(0) != 0 || d.PoolHeld(0) != 0 || d.Waiting(0) != 0 ||
			d.Capped(0) != 0 || d.Copies(0, 0) != 0 || d.Phases(0) != 0 || d.Phase(0, 0) != (PhaseStatus{}) ||
			d.MayHaveStraggler(0) || len(d.AppendRunning(nil, 0)) != 0 || d.PoolKey(0) != 0 || d.Grant() != 0 ||
			len(d.AppendRemaining(nil)) != 0 || d.Stragglers(0) != 0 || len(d.AppendStragglers(nil, 0, 1)) != 0 {
			t.Errorf("%#v: non-zero answers", d)
		}
	}
}

// probe is a user allocator and rule wrapping a built-in allocator and rule
// that, at some of its calls, calls Decision's methods (and the built-in
// parts) with drawn arguments, in range or not, checks each answer against
// the model, and records the first misuse it commits: the InputError
// Simulate must return.
type probe struct {
	t       *rapid.T
	jobs    []Job
	slots   int
	service Service
	a       Allocator
	r       InJobRule
	calls   int // probing calls left
	now     float64
	want    *specsched.InputError // the first misuse
}

// probing draws whether this call probes: about one in three, until the
// probe's budget of calls is spent.
func (p *probe) probing() bool {
	if p.calls == 0 || rapid.IntRange(0, 2).Draw(p.t, "probe") != 0 {
		return false
	}
	p.calls--
	return true
}

// miss records a misuse if it is the first.
func (p *probe) miss(fn string, index int, field string) {
	if p.want == nil {
		p.want = &specsched.InputError{Func: fn, Index: index, Field: field}
	}
}

// position draws a job position, out of range about a third of the time.
func (p *probe) position(d *Decision, label string) int {
	return rapid.IntRange(-2, d.Active()+1).Draw(p.t, label)
}

// look calls the read-only methods on a drawn job position and checks the
// answers: in range, they agree with the jobs and with each other; out of
// range, they are zeros and the misuse is recorded.
func (p *probe) look(d *Decision) {
	t := p.t
	if now := d.Now(); now < p.now || d.Capacity() < 1 || d.Capacity() > p.slots || d.Active() < 1 ||
		d.ClusterBeta() <= 1 {
		t.Fatalf("now %g (before %g), capacity %d of %d slots, %d active, cluster β %g",
			now, p.now, d.Capacity(), p.slots, d.Active(), d.ClusterBeta())
	}
	p.now = d.Now()
	k := p.position(d, "k")
	in := k >= 0 && k < d.Active()
	method := rapid.IntRange(0, 18).Draw(t, "method")
	var fn string
	var zero bool
	switch method {
	case 0:
		fn = "Job"
		j := d.Job(k)
		zero = j == 0
		if in && !(j >= 0 && j < len(p.jobs)) {
			t.Fatalf("Job(%d) = %d of %d jobs", k, j, len(p.jobs))
		}
	case 1:
		fn = "Beta"
		b := d.Beta(k)
		zero = b == 0
		if in && b != p.jobs[d.Job(k)].Beta {
			t.Fatalf("Beta(%d) = %g, the job's %g", k, b, p.jobs[d.Job(k)].Beta)
		}
	case 2:
		fn = "Remaining"
		n := d.Remaining(k)
		zero = n == 0
		if in && !(n >= d.Unscheduled(k)+d.Running(k) && n <= jobTasks(&p.jobs[d.Job(k)])) {
			t.Fatalf("Remaining(%d) = %d, %d unscheduled, %d running", k, n, d.Unscheduled(k), d.Running(k))
		}
		if in {
			all := d.AppendRemaining([]float64{-1})
			if len(all) != d.Active()+1 || all[0] != -1 || all[k+1] != float64(n) {
				t.Fatalf("AppendRemaining: %v, Remaining(%d) = %d", all, k, n)
			}
		}
	case 3:
		fn = "Held"
		n := d.Held(k)
		zero = n == 0
		if in && !(n >= d.Running(k) && n <= p.slots) {
			t.Fatalf("Held(%d) = %d, %d running, %d slots", k, n, d.Running(k), p.slots)
		}
	case 4:
		fn = "Unscheduled"
		n := d.Unscheduled(k)
		zero = n == 0
		if in && n < 0 {
			t.Fatalf("Unscheduled(%d) = %d", k, n)
		}
	case 5:
		fn = "Demand"
		n := d.Demand(k)
		zero = n == 0
		if in && n < d.Held(k)+d.Unscheduled(k) {
			t.Fatalf("Demand(%d) = %d < held %d + unscheduled %d", k, n, d.Held(k), d.Unscheduled(k))
		}
	case 6:
		fn = "Running"
		n := d.Running(k)
		zero = n == 0
		if in && n < 0 {
			t.Fatalf("Running(%d) = %d", k, n)
		}
	case 7:
		fn = "RunningTask"
		kk := k
		if !in {
			kk = 0
		}
		i := rapid.IntRange(-1, d.Running(kk)).Draw(t, "i")
		c, el, rem := d.RunningTask(k, i)
		zero = c == 0 && el == 0 && rem == 0
		if in && i >= 0 && i < d.Running(k) {
			if !(c >= 1 && c <= MaxCopies && el >= 0 && rem >= 0 && !math.IsInf(el, 0)) {
				t.Fatalf("RunningTask(%d, %d) = %d, %g, %g", k, i, c, el, rem)
			}
			return
		}
		if in {
			p.miss("sim.Decision.RunningTask", k, "i")
			if !zero {
				t.Fatalf("RunningTask(%d, %d) out of range = %d, %g, %g", k, i, c, el, rem)
			}
			return
		}
	default:
		var done bool
		fn, zero, done = p.lookMore(d, method, k, in)
		if done {
			return
		}
	}
	if !in {
		p.miss("sim.Decision."+fn, k, "k")
		if !zero {
			t.Fatalf("%s(%d) out of range: not zero", fn, k)
		}
	}
}

// lookMore is look for the methods a policy needs beyond the slots and the
// remaining tasks (method 8 on): it returns the method's name and whether
// its answer was zero, or done if it checked all there was to check.
func (p *probe) lookMore(d *Decision, method, k int, in bool) (fn string, zero, done bool) {
	t := p.t
	kk := k // a position in range, to draw further arguments from
	if !in {
		kk = 0
	}
	switch method {
	case 8:
		x := d.NewCopy(k)
		if in && (!(x > 0) || p.jobs[d.Job(k)].NewCopy != 0 && x != p.jobs[d.Job(k)].NewCopy) {
			t.Fatalf("NewCopy(%d) = %g, the job's %g", k, x, p.jobs[d.Job(k)].NewCopy)
		}
		return "NewCopy", x == 0, false
	case 9:
		n := d.PoolHeld(k)
		if in && !(n >= 0 && n <= p.slots-d.Capacity() && n <= d.Running(k)*MaxCopies) {
			t.Fatalf("PoolHeld(%d) = %d, pool %d, %d running", k, n, p.slots-d.Capacity(), d.Running(k))
		}
		return "PoolHeld", n == 0, false
	case 10:
		n := d.Waiting(k)
		if in && !(n >= 0 && n <= d.Held(k) && n <= d.Remaining(k)) {
			t.Fatalf("Waiting(%d) = %d, held %d, remaining %d", k, n, d.Held(k), d.Remaining(k))
		}
		return "Waiting", n == 0, false
	case 11:
		n := d.Capped(k)
		if in {
			capped := 0
			for i := range d.Running(k) {
				if d.Copies(k, i) == MaxCopies {
					capped++
				}
			}
			if n != capped {
				t.Fatalf("Capped(%d) = %d, %d running tasks at MaxCopies", k, n, capped)
			}
		}
		return "Capped", n == 0, false
	case 12:
		n := d.Phases(k)
		if in && n != len(p.jobs[d.Job(k)].Phases) {
			t.Fatalf("Phases(%d) = %d, the job's %d", k, n, len(p.jobs[d.Job(k)].Phases))
		}
		return "Phases", n == 0, false
	case 13, 14:
		// Phase and PhaseMoments: in range, the phases add up to the job's
		// counts; out of range, zeros and the misuse (field k, else p).
		name := "Phase"
		if method == 14 {
			name = "PhaseMoments"
		}
		ph := rapid.IntRange(-1, d.Phases(kk)).Draw(t, "p")
		var st PhaseStatus
		var mean, sd float64
		if method == 13 {
			st = d.Phase(k, ph)
		} else {
			mean, sd = d.PhaseMoments(k, ph)
		}
		if in && ph >= 0 && ph < d.Phases(k) {
			p.checkPhases(d, k, ph, mean, sd, method == 14)
			return name, false, true
		}
		zero = st == PhaseStatus{} && mean == 0 && sd == 0
		if !zero {
			t.Fatalf("%s(%d, %d) out of range: %+v, %g, %g", name, k, ph, st, mean, sd)
		}
		if in {
			p.miss("sim.Decision."+name, k, "p")
			return name, true, true
		}
		return name, true, false
	case 15:
		may := d.MayHaveStraggler(k)
		return "MayHaveStraggler", !may, false
	case 16:
		view := d.AppendRunning(nil, k)
		if in {
			if len(view) != d.Running(k) {
				t.Fatalf("AppendRunning(%d): %d tasks, %d running", k, len(view), d.Running(k))
			}
			for i, task := range view {
				c, el, rem := d.RunningTask(k, i)
				if task.Copies != c || task.Copies != d.Copies(k, i) || task.Elapsed != el ||
					task.Remaining != rem && !(c == MaxCopies && task.Remaining == 0) {
					t.Fatalf("AppendRunning(%d)[%d] = %+v, RunningTask %d, %g, %g", k, i, task, c, el, rem)
				}
			}
		}
		return "AppendRunning", len(view) == 0, false
	case 17:
		// Stragglers counts eligible running tasks; AppendStragglers gives
		// min(n, that many) distinct running positions, increasing, after
		// what dst held.
		e := d.Stragglers(k)
		n := rapid.IntRange(-1, 4).Draw(t, "n")
		got := d.AppendStragglers([]int{-7}, k, n)
		if in {
			if !(e >= 0 && e <= d.Running(k)) {
				t.Fatalf("Stragglers(%d) = %d of %d running", k, e, d.Running(k))
			}
			want := min(max(n, 0), e)
			if len(got) != 1+want || got[0] != -7 {
				t.Fatalf("AppendStragglers([-7], %d, %d) = %v: want -7 and %d positions", k, n, got, want)
			}
			for i, pos := range got[1:] {
				if pos < 0 || pos >= d.Running(k) || (i > 0 && pos <= got[i]) {
					t.Fatalf("AppendStragglers(%d, %d) = %v: positions not increasing within %d running", k, n, got, d.Running(k))
				}
			}
			return "Stragglers", e == 0, false
		}
		if e != 0 || len(got) != 1 {
			t.Fatalf("Stragglers(%d) = %d, AppendStragglers %v out of range", k, e, got)
		}
		p.miss("sim.Decision.Stragglers", k, "k")
		return "Stragglers", true, true
	default:
		x := d.PoolKey(k)
		if in && !(x >= 0) {
			t.Fatalf("PoolKey(%d) = %g", k, x)
		}
		return "PoolKey", x == 0, false
	}
}

// checkPhases checks, for the active job at position k, that phase ph's
// status is its phase's and that the phases' counts add up to the job's:
// the unfinished tasks to Remaining, the runnable phases' unscheduled
// tasks to Unscheduled; and, with moments, that the moments of phase ph
// are those of its first copies' durations when they are known.
func (p *probe) checkPhases(d *Decision, k, ph int, mean, sd float64, moments bool) {
	t := p.t
	job := &p.jobs[d.Job(k)]
	if moments {
		if !(mean > 0 && sd >= 0 && sd <= mean*math.Sqrt(float64(job.Phases[ph].Tasks))) {
			t.Fatalf("PhaseMoments(%d, %d) = %g, %g", k, ph, mean, sd)
		}
		if durs := job.Phases[ph].Durations; durs != nil && p.service == CopyService {
			var sum float64
			for _, x := range durs {
				sum += x
			}
			if want := sum / float64(len(durs)); !close(mean, want) {
				t.Fatalf("PhaseMoments(%d, %d) mean %g, the durations' %g", k, ph, mean, want)
			}
		}
		return
	}
	var unfinished, unscheduled int
	for q := range d.Phases(k) {
		st := d.Phase(k, q)
		if st.Tasks != job.Phases[q].Tasks || st.Computed < 0 || st.Unscheduled < 0 || st.Computed+st.Unscheduled > st.Tasks {
			t.Fatalf("Phase(%d, %d) = %+v of %d tasks", k, q, st, job.Phases[q].Tasks)
		}
		if q > 0 && st.Runnable && !d.Phase(k, q-1).Runnable {
			t.Fatalf("Phase(%d, %d) runnable before its upstream phase", k, q)
		}
		unfinished += st.Tasks - st.Computed
		if st.Runnable {
			unscheduled += st.Unscheduled
		}
	}
	if unfinished != d.Remaining(k) || unscheduled != d.Unscheduled(k) {
		t.Fatalf("phases of job %d: %d unfinished, %d unscheduled; Remaining %d, Unscheduled %d",
			k, unfinished, unscheduled, d.Remaining(k), d.Unscheduled(k))
	}
}

// again fails if the engine calls the probe after a misuse: the run
// must stop once the call that committed it returns.
func (p *probe) again() {
	if p.want != nil {
		p.t.Fatalf("the probe is called again after the misuse %+v", *p.want)
	}
}

func (p *probe) Allocate(d *Decision, target []int, key []float64) error {
	p.again()
	if p.probing() {
		p.look(d)
		// The built-in allocator rejects slices of the wrong length, and
		// leaves them alone.
		if n := rapid.IntRange(0, d.Active()+1).Draw(p.t, "len"); n != d.Active() {
			tg, ky := make([]int, n), make([]float64, d.Active())
			if rapid.Bool().Draw(p.t, "keyShort") {
				tg, ky = make([]int, d.Active()), make([]float64, n)
			}
			err := p.a.Allocate(d, tg, ky)
			field := "len(target)"
			if len(ky) == n {
				field = "len(key)"
			}
			wantInputError(p.t, err, "sim."+partName(p.a)+".Allocate", -1, field)
			if slices.ContainsFunc(tg, func(x int) bool { return x != 0 }) || slices.ContainsFunc(ky, func(x float64) bool { return x != 0 }) {
				p.t.Fatalf("Allocate wrote to its slices on error")
			}
		}
		// A priority that is NaN or negative is the caller's error too.
		if rapid.IntRange(0, 3).Draw(p.t, "badKey") == 0 {
			err := p.a.Allocate(d, target, key)
			k := rapid.IntRange(0, d.Active()-1).Draw(p.t, "badKeyK")
			key[k] = rapid.SampledFrom([]float64{math.NaN(), -1, math.Inf(-1), -5e-324}).Draw(p.t, "badKeyValue")
			p.miss("sim.Simulate", d.Job(k), "key")
			return err
		}
	}
	return p.a.Allocate(d, target, key)
}

func (p *probe) Use(d *Decision, k, g int) error {
	t := p.t
	p.again()
	if p.probing() {
		p.look(d)
		switch rapid.IntRange(0, 3).Draw(t, "act") {
		case 0: // Launch
			kk := p.position(d, "launchK")
			n := rapid.IntRange(-1, g+1).Draw(t, "n")
			in := kk >= 0 && kk < d.Active()
			before := 0
			if in {
				before = d.Unscheduled(kk)
			}
			got := d.Launch(kk, n)
			switch {
			case !in:
				p.miss("sim.Decision.Launch", kk, "k")
			case n < 0:
				p.miss("sim.Decision.Launch", kk, "n")
			}
			if got < 0 || got > max(n, 0) || got > g || (in && d.Unscheduled(kk) != before-got) {
				t.Fatalf("Launch(%d, %d) = %d with %d unscheduled before, %d after, g = %d", kk, n, got, before, d.Unscheduled(kk), g)
			}
		case 1: // Copy
			kk := k // the job granted the slots, most often
			if rapid.Bool().Draw(t, "copyOther") {
				kk = p.position(d, "copyK")
			}
			in := kk >= 0 && kk < d.Active()
			i := rapid.IntRange(-1, d.Running(max(0, min(kk, d.Active()-1)))).Draw(t, "copyI")
			ok := d.Copy(kk, i)
			switch {
			case !in:
				p.miss("sim.Decision.Copy", kk, "k")
			case i < 0 || i >= d.Running(kk):
				p.miss("sim.Decision.Copy", kk, "i")
			}
			if ok && (!in || i < 0 || i >= d.Running(kk)) {
				t.Fatalf("Copy(%d, %d) out of range started a copy", kk, i)
			}
		case 2: // the built-in rule, with a bad position or grant
			bad := rapid.SampledFrom([]int{-1, d.Active()}).Draw(t, "badK")
			wantInputError(t, p.r.Use(d, bad, g), "sim."+partName(p.r)+".Use", bad, "k")
			wantInputError(t, p.r.Use(d, k, 0), "sim."+partName(p.r)+".Use", k, "g")
		case 3: // the built-in rule's CanUse, with a bad position
			bad := rapid.SampledFrom([]int{-1, d.Active()}).Draw(t, "badK")
			if p.r.CanUse(d, bad) {
				t.Fatalf("CanUse(%d) of %d active", bad, d.Active())
			}
			switch p.r.(type) {
			case *SpeculateRule, *BestEffortRule, *IdleRule: // canJudge's
				p.miss("sim.InJobRule.CanUse", bad, "k")
			case *PlanRule:
				p.miss("sim.PlanRule.CanUse", bad, "k")
			}
		}
	}
	return p.r.Use(d, k, g)
}

func (p *probe) CanUse(d *Decision, k int) bool {
	p.again()
	if p.probing() {
		p.look(d)
	}
	return p.r.CanUse(d, k)
}

// testDecisionNoPanic: a caller's allocator and rule that call Decision's
// methods with any arguments never crash Simulate; answers in range agree
// with the jobs and each other, answers out of range are zeros, and
// Simulate returns the InputError of the first misuse (method, position,
// field), without calling the allocator or rule again, or, with none, a
// run within the model (checkRun).
func testDecisionNoPanic(t *rapid.T) {
	jobs := paretoJobs(t, 4)
	cfg := anyConfig(t)
	cfg.Record = true
	anyCombination(t, &cfg)
	if cfg.Policy == SRPTBudgeted {
		cfg.Policy = SRPT // the probe is no budgeted rule: no pool
	}
	p := &probe{t: t, jobs: jobs, slots: cfg.Slots, service: cfg.Service, a: cfg.Allocator, r: cfg.Rule, calls: rapid.IntRange(0, 12).Draw(t, "calls")}
	cfg.Allocator, cfg.Rule = p, p
	r, err := Simulate(jobs, cfg)
	if p.want == nil {
		if err != nil {
			t.Fatalf("no misuse, error %v", err)
		}
		checkRun(t, jobs, cfg, r, false)
		return
	}
	if r != nil {
		t.Fatalf("a result after the misuse %v", p.want)
	}
	wantInputError(t, err, p.want.Func, p.want.Index, p.want.Field)
}

func TestDecisionNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testDecisionNoPanic) }

func FuzzDecisionNow(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }
func FuzzDecisionCapacity(f *testing.F)    { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }
func FuzzDecisionActive(f *testing.F)      { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }
func FuzzDecisionJob(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }
func FuzzDecisionBeta(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }
func FuzzDecisionClusterBeta(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }
func FuzzDecisionRemaining(f *testing.F)   { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }
func FuzzDecisionHeld(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }
func FuzzDecisionUnscheduled(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }
func FuzzDecisionDemand(f *testing.F)      { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }
func FuzzDecisionRunning(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }
func FuzzDecisionRunningTask(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }
func FuzzDecisionLaunch(f *testing.F)      { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }
func FuzzDecisionCopy(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }
func FuzzDecisionStragglers(f *testing.F)  { f.Fuzz(rapid.MakeFuzz(testDecisionNoPanic)) }

// partName is the name of a built-in part's type as its functions' names
// spell it: "SRPTAllocator" for a *SRPTAllocator.
func partName(v any) string { return strings.TrimPrefix(strings.TrimPrefix(typeName(v), "*"), "sim.") }

// testPartsDirect: the built-in allocators and rules called directly with a
// nil or zero Decision, or through a nil pointer, return an InputError
// naming the field ("d", "receiver") and write nothing; CanUse is false.
func testPartsDirect(t *rapid.T) {
	var d *Decision
	if rapid.Bool().Draw(t, "zero") {
		d = &Decision{}
	}
	target := rapid.SliceOfN(rapid.IntRange(-3, 3), 0, 4).Draw(t, "target")
	key := rapid.SliceOfN(rapid.Float64(), 0, 4).Draw(t, "key")
	tg, ky := slices.Clone(target), slices.Clone(key)
	k, g := rapid.IntRange(-2, 3).Draw(t, "k"), rapid.IntRange(-2, 3).Draw(t, "g")
	nilPart := rapid.Bool().Draw(t, "nilPart")
	a, _ := NewAllocator(rapid.SampledFrom(AllocatorNames()).Draw(t, "allocator"))
	r, _ := NewRule(rapid.SampledFrom(RuleNames()).Draw(t, "rule"))
	field := "d"
	if nilPart {
		field = "receiver"
		switch a.(type) {
		case *SRPTAllocator:
			a = (*SRPTAllocator)(nil)
		case *FairAllocator:
			a = (*FairAllocator)(nil)
		case *HopperAllocator:
			a = (*HopperAllocator)(nil)
		case *EpsFairAllocator:
			a = (*EpsFairAllocator)(nil)
		case *DAGAllocator:
			a = (*DAGAllocator)(nil)
		case *HeteroAllocator:
			a = (*HeteroAllocator)(nil)
		case *SREWCAllocator:
			a = (*SREWCAllocator)(nil)
		}
	}
	wantInputError(t, a.Allocate(d, target, key), "sim."+partName(a)+".Allocate", -1, field)
	if !slices.Equal(tg, target) || !slices.EqualFunc(ky, key, func(x, y float64) bool { return x == y || x != x && y != y }) {
		t.Fatalf("Allocate wrote %v, %v on error", target, key)
	}
	ruleField := "d"
	if nilPart {
		switch r.(type) {
		case *SpeculateRule:
			r, ruleField = (*SpeculateRule)(nil), "receiver"
		case *BestEffortRule:
			r, ruleField = (*BestEffortRule)(nil), "receiver"
		case *PlanRule:
			r, ruleField = (*PlanRule)(nil), "receiver"
		}
	}
	wantInputError(t, r.Use(d, k, g), "sim."+partName(r)+".Use", -1, ruleField)
	if r.CanUse(d, k) {
		t.Fatalf("%T.CanUse(%v, %d) with no run", r, d, k)
	}
}

func TestPartsDirect(t *testing.T) { t.Parallel(); rapid.Check(t, testPartsDirect) }

func FuzzSRPTAllocatorAllocate(f *testing.F)    { f.Fuzz(rapid.MakeFuzz(testPartsDirect)) }
func FuzzFairAllocatorAllocate(f *testing.F)    { f.Fuzz(rapid.MakeFuzz(testPartsDirect)) }
func FuzzHopperAllocatorAllocate(f *testing.F)  { f.Fuzz(rapid.MakeFuzz(testPartsDirect)) }
func FuzzEpsFairAllocatorAllocate(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testPartsDirect)) }
func FuzzDAGAllocatorAllocate(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(testPartsDirect)) }
func FuzzHeteroAllocatorAllocate(f *testing.F)  { f.Fuzz(rapid.MakeFuzz(testPartsDirect)) }
func FuzzSREWCAllocatorAllocate(f *testing.F)   { f.Fuzz(rapid.MakeFuzz(testPartsDirect)) }
func FuzzLaunchRuleUse(f *testing.F)            { f.Fuzz(rapid.MakeFuzz(testPartsDirect)) }
func FuzzSpeculateRuleUse(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(testPartsDirect)) }
func FuzzBestEffortRuleUse(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testPartsDirect)) }
func FuzzBudgetedRuleUse(f *testing.F)          { f.Fuzz(rapid.MakeFuzz(testPartsDirect)) }
func FuzzPlanRuleUse(f *testing.F)              { f.Fuzz(rapid.MakeFuzz(testPartsDirect)) }
func FuzzRuleCanUse(f *testing.F)               { f.Fuzz(rapid.MakeFuzz(testPartsDirect)) }

// testNamesNoPanic: NewAllocator and NewRule accept exactly the listed
// names (case and blanks aside) and return a new value of the part the
// name lists; the lists are copies (changing one changes nothing); every
// known Policy's Parts are listed names and its Allocator and Rule the
// values NewAllocator and NewRule give for them; an unknown Policy has
// none.
func testNamesNoPanic(t *rapid.T) {
	an, rn := AllocatorNames(), RuleNames()
	s := rapid.OneOf(rapid.String(), rapid.SampledFrom(append(append(slices.Clone(an), rn...), "", " SRPT", "Plan\t", "oracle"))).Draw(t, "name")
	name := strings.ToLower(strings.TrimSpace(s))
	if a, err := NewAllocator(s); slices.Contains(an, name) != (err == nil) || (err == nil) != (a != nil) {
		t.Fatalf("NewAllocator(%q) = %v, %v", s, a, err)
	}
	if r, err := NewRule(s); slices.Contains(rn, name) != (err == nil) || (err == nil) != (r != nil) {
		t.Fatalf("NewRule(%q) = %v, %v", s, r, err)
	}
	if len(an) > 0 {
		an[0] = "x"
		rn[0] = "x"
		if AllocatorNames()[0] == "x" || RuleNames()[0] == "x" {
			t.Fatalf("the name lists are shared")
		}
	}
	p := Preset(rapid.IntRange(0, 255).Draw(t, "policy"))
	a, r := p.Parts()
	if p >= numPolicies {
		if a != "" || r != "" || p.Allocator() != nil || p.Rule() != nil {
			t.Fatalf("unknown %v has parts %q, %q", p, a, r)
		}
		return
	}
	na, err := NewAllocator(a)
	if err != nil {
		t.Fatal(err)
	}
	nr, err := NewRule(r)
	if err != nil {
		t.Fatal(err)
	}
	if typeName(p.Allocator()) != typeName(na) || typeName(p.Rule()) != typeName(nr) {
		t.Fatalf("%v: %T, %T; by name %T, %T", p, p.Allocator(), p.Rule(), na, nr)
	}
}

func TestNamesNoPanic(t *testing.T)        { t.Parallel(); rapid.Check(t, testNamesNoPanic) }
func FuzzNewAllocator(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(testNamesNoPanic)) }
func FuzzNewRule(f *testing.F)             { f.Fuzz(rapid.MakeFuzz(testNamesNoPanic)) }
func FuzzAllocatorNames(f *testing.F)      { f.Fuzz(rapid.MakeFuzz(testNamesNoPanic)) }
func FuzzRuleNames(f *testing.F)           { f.Fuzz(rapid.MakeFuzz(testNamesNoPanic)) }
func FuzzPolicyParts(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(testNamesNoPanic)) }
func FuzzPolicyAllocatorRule(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testNamesNoPanic)) }

// testValidateNoPanic: Config.Validate on any configuration returns nil or
// an InputError, and is Simulate's verdict: on the thesis's example (valid
// jobs) Simulate fails with the same error, or runs.
func testValidateNoPanic(t *rapid.T) {
	slots := rapid.IntRange(-2, 12).Draw(t, "slots")
	cfg := DefaultConfig(Preset(rapid.IntRange(0, int(numPolicies)+1).Draw(t, "policy")), slots)
	cfg.Beta = rapid.SampledFrom([]float64{0, 0.5, 1, 1.3, math.NaN(), math.Inf(1), math.MaxFloat64}).Draw(t, "beta")
	cfg.Eps = anyValue(t, "eps") / 50
	cfg.SREWCBeta = anyValue(t, "srewcBeta") / 50
	cfg.Lambda = anyValue(t, "lambda") - rapid.Float64Range(0, 1).Draw(t, "lambdaShift")
	cfg.Budget = rapid.IntRange(-1, 13).Draw(t, "budget")
	cfg.Dampening = anyValue(t, "dampening") / 50
	cfg.Service = Service(rapid.IntRange(0, 2).Draw(t, "service"))
	cfg.ServiceCV = anyValue(t, "serviceCV") * 2
	cfg.Speculation.Threshold = anyValue(t, "threshold") / 50
	cfg.Speculation.EstimateError = anyValue(t, "estimateError") / 5
	cfg.Speculation.Detect = anyValue(t, "detect")
	cfg.Speculation.Estimator = Estimator(rapid.IntRange(0, 2).Draw(t, "estimator"))
	if rapid.Bool().Draw(t, "parts") {
		cfg.Allocator, _ = NewAllocator(rapid.SampledFrom(AllocatorNames()).Draw(t, "allocator"))
		cfg.Rule, _ = NewRule(rapid.SampledFrom(RuleNames()).Draw(t, "rule"))
	}
	err := cfg.Validate()
	if err != nil && inputError(err) == nil {
		t.Fatalf("Validate: %v is no InputError", err)
	}
	_, serr := Simulate(ThesisExample(), cfg)
	if (err == nil) != (serr == nil) || err != nil && err.Error() != serr.Error() {
		t.Fatalf("Validate: %v; Simulate: %v", err, serr)
	}
}

func TestValidateNoPanic(t *testing.T) { t.Parallel(); rapid.Check(t, testValidateNoPanic) }
func FuzzConfigValidate(f *testing.F)  { f.Fuzz(rapid.MakeFuzz(testValidateNoPanic)) }

// TestNilParts: a built-in allocator or rule given to Simulate as a nil
// pointer (or reached through one) makes Simulate return an InputError
// naming the receiver, never panic (before the fix: a nil dereference,
// for a nil *SpeculateRule already when the run was laid out).
func TestNilParts(t *testing.T) {
	t.Parallel()
	run := func(name string, a Allocator, r InJobRule) {
		cfg := DefaultConfig(SRPTBudgeted, 6)
		cfg.Allocator, cfg.Rule = a, r
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("panic: %v", p)
				}
			}()
			_, err = Simulate(ThesisExample(), cfg)
		}()
		if ie := inputError(err); ie == nil || ie.Field != "receiver" {
			t.Errorf("%s: %v; want an InputError about the receiver", name, err)
		}
	}
	for _, a := range []Allocator{(*SRPTAllocator)(nil), (*FairAllocator)(nil), (*HopperAllocator)(nil),
		(*EpsFairAllocator)(nil), (*DAGAllocator)(nil), (*HeteroAllocator)(nil), (*SREWCAllocator)(nil)} {
		run(typeName(a), a, nil)
	}
	for _, r := range []InJobRule{(*SpeculateRule)(nil), (*BestEffortRule)(nil), (*BudgetedRule)(nil), (*PlanRule)(nil)} {
		run(typeName(r), nil, r)
	}
}

// TestWrappedSREWC: an SREWCAllocator called by the caller's own allocator
// runs exactly as the preset — it computes the phases' moments itself
// (before the fix they were computed only when the run's allocator was an
// *SREWCAllocator, and a wrapped one ranked every job by Υ = 0) — and
// rejects an SREWCBeta outside (0, 1], which Config.Validate cannot see
// through the wrapper.
func TestWrappedSREWC(t *testing.T) {
	t.Parallel()
	jobs := ThesisExample()
	cfg := DefaultConfig(SREWC, 6)
	cfg.Record = true
	want, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	inner := &SREWCAllocator{}
	cfg.Allocator = allocatorFunc(func(d *Decision, target []int, key []float64) error {
		return inner.Allocate(d, target, key)
	})
	got, err := Simulate(jobs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("wrapped SREW+C differs from the preset (-preset +wrapped):\n%s", diff)
	}
	cfg.SREWCBeta = 0
	_, err = Simulate(jobs, cfg)
	wantInputError(t, err, "sim.SREWCAllocator.Allocate", -1, "SREWCBeta")
}

// TestBadKeys: a caller's allocator whose priority of a job is NaN or
// negative makes Simulate return an InputError naming the job and the
// field "key" (before: the jobs were served in an order the sort made up).
func TestBadKeys(t *testing.T) {
	t.Parallel()
	for _, bad := range []float64{math.NaN(), -1, math.Inf(-1)} {
		cfg := DefaultConfig(Hopper, 6)
		cfg.Allocator = allocatorFunc(func(d *Decision, target []int, key []float64) error {
			err := (&HopperAllocator{}).Allocate(d, target, key)
			key[d.Active()-1] = bad
			return err
		})
		_, err := Simulate(ThesisExample(), cfg)
		wantInputError(t, err, "sim.Simulate", 1, "key")
	}
}

// TestSREWCLambdaBound: SREW+C's λ is bounded by MaxSREWCLambda (before:
// λ = 1e308 passed Validate and the effective workloads overflowed into an
// "internal error"); at the bound it runs, and the other policies, which
// do not weigh workloads by λ, accept any λ ≥ 0.
func TestSREWCLambdaBound(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig(SREWC, 6)
	cfg.Lambda = 1e308
	wantInputError(t, cfg.Validate(), "sim.Simulate", -1, "Lambda")
	_, err := Simulate(ThesisExample(), cfg)
	wantInputError(t, err, "sim.Simulate", -1, "Lambda")
	cfg.Lambda = MaxSREWCLambda
	if _, err := Simulate(ThesisExample(), cfg); err != nil {
		t.Errorf("λ = MaxSREWCLambda: %v", err)
	}
	cfg.Policy, cfg.Lambda = Hopper, 1e308
	if _, err := Simulate(ThesisExample(), cfg); err != nil {
		t.Errorf("Hopper, λ = 1e308: %v", err)
	}
}
