package volcano

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"

	"github.com/specsched/specsched"
	"volcano.sh/volcano/pkg/scheduler/api"

	"volcano.sh/volcano/pkg/scheduler/framework"
)

// TestBadBetaAnnotations: β ≤ 1, NaN, ±Inf, text and an empty string on a
// PodGroup are logged and the job falls back to the default β — the same
// targets and placements as an unannotated job — never a panic (thesis
// §3.1: the model needs β > 1).
func TestBadBetaAnnotations(t *testing.T) {
	for _, raw := range []string{"1", "0.5", "-3", "NaN", "nan", "+Inf", "-Inf", "one point five", "", " ", "1.5x", "1e400"} {
		t.Run(raw, func(t *testing.T) {
			bad := sessionSpec{nodes: 2, cpus: 3, eps: DefaultEpsilon, jobs: []jobSpec{
				{name: "a", pending: 4, copies: 2, beta: raw},
				{name: "b", pending: 6},
			}}
			// jobSpec's "" means no annotation; an empty value is set here
			// by hand through a space-only variant.
			if raw == "" {
				bad.jobs[0].beta = " "
			}
			plain := bad
			plain.jobs = []jobSpec{{name: "a", pending: 4, copies: 2}, {name: "b", pending: 6}}
			got := runSession(t, bad, true)
			want := runSession(t, plain, false)
			if diff := cmp.Diff(want.bound, got.bound); diff != "" {
				t.Errorf("placements (-default β +bad annotation):\n%s", diff)
			}
			if diff := cmp.Diff(want.targets, got.targets); diff != "" {
				t.Errorf("targets (-default β +bad annotation):\n%s", diff)
			}
			if len(got.logs) != 1 || !strings.Contains(got.logs[0], AnnotationBeta) || !strings.Contains(got.logs[0], "ns/a") {
				t.Errorf("log lines %q: want one naming the job and the annotation", got.logs)
			}
		})
	}
}

// TestGoodBetaAnnotation: a valid annotation changes the job's virtual size
// (eq. 3.5) and is not logged.
func TestGoodBetaAnnotation(t *testing.T) {
	spec := sessionSpec{nodes: 2, cpus: 3, eps: 1, jobs: []jobSpec{
		{name: "a", pending: 4, copies: 4, beta: "1.1"},
		{name: "b", pending: 6, beta: "1.9"},
	}}
	got := runSession(t, spec, false)
	if len(got.logs) != 0 {
		t.Errorf("log lines %q, want none", got.logs)
	}
	var dec Decision
	if err := Decide(&dec, []JobDemand{{4, 1.1}, {6, 1.9}}, 6, DefaultBeta, 1, &Workspace{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(dec.Targets, got.targets); diff != "" {
		t.Errorf("targets (-Decide +plug-in):\n%s", diff)
	}
}

// TestArguments: the plug-in's arguments as volcano-scheduler.conf gives
// them (YAML floats, ints, strings), and bad ones falling back to the
// defaults with a log line (thesis §3.5 for ε).
func TestArguments(t *testing.T) {
	cases := []struct {
		name      string
		args      framework.Arguments
		eps, beta float64
		samples   int
		logs      int
	}{
		// The documented defaults as numbers, so a changed constant
		// fails here: ε = 10% (§3.5, §6), β = 1.5 (Table 2.1, §2.1),
		// 20 finished tasks.
		{"none", nil, 0.1, 1.5, 20, 0},
		{"floats", framework.Arguments{ArgEpsilon: 0.25, ArgBeta: 1.3, ArgMinFitSamples: 50}, 0.25, 1.3, 50, 0},
		{"strings", framework.Arguments{ArgEpsilon: "0", ArgBeta: "1.9", ArgMinFitSamples: "2"}, 0, 1.9, 2, 0},
		{"ints", framework.Arguments{ArgEpsilon: 1, ArgBeta: 3}, 1, 3, DefaultMinFitSamples, 0},
		{"out of range", framework.Arguments{ArgEpsilon: 1.5, ArgBeta: 1.0, ArgMinFitSamples: 1}, DefaultEpsilon, DefaultBeta, DefaultMinFitSamples, 3},
		{"NaN", framework.Arguments{ArgEpsilon: math.NaN(), ArgBeta: math.NaN(), ArgMinFitSamples: math.NaN()}, DefaultEpsilon, DefaultBeta, DefaultMinFitSamples, 3},
		{"Inf", framework.Arguments{ArgEpsilon: math.Inf(-1), ArgBeta: math.Inf(1), ArgMinFitSamples: 2.5}, DefaultEpsilon, DefaultBeta, DefaultMinFitSamples, 3},
		{"wrong types", framework.Arguments{ArgEpsilon: true, ArgBeta: []int{2}, ArgMinFitSamples: "many"}, DefaultEpsilon, DefaultBeta, DefaultMinFitSamples, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sink := &logSink{}
			p := newPlugin(c.args, sink.logf)
			if p.eps != c.eps || p.beta != c.beta || p.minFitSamples != c.samples {
				t.Errorf("got %v, want ε=%v β=%v minFitSamples=%d", p, c.eps, c.beta, c.samples)
			}
			if len(sink.lines) != c.logs {
				t.Errorf("log lines %q, want %d", sink.lines, c.logs)
			}
		})
	}
}

// TestBadBetaEvents: every job whose β annotation the plug-in cannot use
// gets one Warning event on its own PodGroup, through the session's event
// recorder, with the annotation's text verbatim (a "%" in it is not read as
// a format); good and missing annotations get none.
func TestBadBetaEvents(t *testing.T) {
	bad := []string{"1", "-3", "NaN", "+Inf", "one point five", " ", "1.5x", "1e400", "50%d"}
	spec := sessionSpec{nodes: 2, cpus: 3, eps: DefaultEpsilon, jobs: []jobSpec{
		{name: "good", pending: 2, beta: "1.7"},
		{name: "none", pending: 2},
	}}
	for i, raw := range bad {
		spec.jobs = append(spec.jobs, jobSpec{name: fmt.Sprintf("bad%d", i), pending: 1 + i%3, beta: raw})
	}
	recorder := &eventLog{}
	ssn, plugin, sink := openSession(spec, recorder)
	defer framework.CloseSession(ssn)
	if plugin == nil {
		t.Fatal("the session did not build the hopper plug-in")
	}
	if len(sink.lines) != len(bad) {
		t.Errorf("%d log lines, want %d: %q", len(sink.lines), len(bad), sink.lines)
	}
	byName := map[string][]event{}
	for _, e := range recorder.events {
		byName[e.name] = append(byName[e.name], e)
	}
	for i, raw := range bad {
		name := fmt.Sprintf("bad%d", i)
		got := byName[name]
		if len(got) != 1 {
			t.Errorf("job %s (β %q): %d events, want 1: %+v", name, raw, len(got), got)
			continue
		}
		e := got[0]
		if e.namespace != testNamespace || e.eventType != v1.EventTypeWarning || e.reason != EventBadBeta {
			t.Errorf("job %s: event %+v, want a Warning %s on %s/%s", name, e, EventBadBeta, testNamespace, name)
		}
		for _, part := range []string{string(jobID(name)), AnnotationBeta, strconv.Quote(raw)} {
			if !strings.Contains(e.message, part) {
				t.Errorf("job %s: event message %q does not name %s", name, e.message, part)
			}
		}
		delete(byName, name)
	}
	if len(byName) != 0 {
		t.Errorf("events on other objects: %+v", byName)
	}
}

// TestDecideErrorFields: Decide's bad inputs come back as an InputError
// naming the job and field, and a nil dst as an error, not a panic; a nil
// workspace computes what a fresh one does.
func TestDecideErrorFields(t *testing.T) {
	cases := []struct {
		name    string
		dst     *Decision
		jobs    []JobDemand
		betaRef float64
		slots   int
		index   int
		field   string
	}{
		{"nil dst", nil, []JobDemand{{3, 1.5}}, 1.5, 10, -1, "dst"},
		{"slots -1", &Decision{}, []JobDemand{{3, 1.5}}, 1.5, -1, -1, "slots"},
		{"slots MinInt", &Decision{}, []JobDemand{{3, 1.5}}, 1.5, math.MinInt, -1, "slots"},
		{"ref β 1", &Decision{}, []JobDemand{{3, 1.5}}, 1, 10, -1, "betaRef"},
		{"ref β +Inf", &Decision{}, []JobDemand{{3, 1.5}}, math.Inf(1), 10, -1, "betaRef"},
		{"job 1 tasks -2", &Decision{}, []JobDemand{{3, 1.5}, {-2, 1.5}}, 1.5, 10, 1, "Tasks"},
		{"job 2 β NaN", &Decision{}, []JobDemand{{3, 1.5}, {1, 1.2}, {4, math.NaN()}}, 1.5, 10, 2, "Beta"},
		{"job 0 β 0.9", &Decision{}, []JobDemand{{3, 0.9}}, 1.5, 10, 0, "Beta"},
	}
	for _, c := range cases {
		err := Decide(c.dst, c.jobs, c.slots, c.betaRef, 0.1, nil)
		var ie *specsched.InputError
		if !errors.As(err, &ie) || ie.Func != "volcano.Decide" || ie.Index != c.index || ie.Field != c.field {
			t.Errorf("%s: error %v, want an InputError of volcano.Decide on job %d field %s", c.name, err, c.index, c.field)
		}
	}
	jobs := []JobDemand{{4, 1.5}, {6, 1.2}, {0, 3}}
	var withNil, withWS Decision
	if err := Decide(&withNil, jobs, 6, 1.5, 0.1, nil); err != nil {
		t.Fatal(err)
	}
	if err := Decide(&withWS, jobs, 6, 1.5, 0.1, &Workspace{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(withWS, withNil); diff != "" {
		t.Errorf("nil workspace (-fresh +nil):\n%s", diff)
	}
}

// TestNilInputs: the exported methods on a nil plug-in and OnSessionOpen on
// a nil session do nothing, and the hooks' helpers refuse what is not a
// job or a task, rather than panic.
func TestNilInputs(t *testing.T) {
	var nilPlugin *Plugin
	nilPlugin.OnSessionOpen(nil)
	nilPlugin.OnSessionClose(nil)
	if target, ok := nilPlugin.Target("x"); target != 0 || ok || nilPlugin.Floor() != 0 || nilPlugin.Slots() != 0 || nilPlugin.String() != "hopper(nil)" || nilPlugin.Name() != PluginName {
		t.Errorf("a nil plug-in answers target %d (known %v), floor %d, slots %d, %q", target, ok, nilPlugin.Floor(), nilPlugin.Slots(), nilPlugin.String())
	}
	sink := &logSink{}
	p := newPlugin(nil, sink.logf)
	p.OnSessionOpen(nil)
	if p.jobs != nil {
		t.Errorf("OnSessionOpen(nil) left jobs %v", p.jobs)
	}
	(&Plugin{}).OnSessionClose(nil)
	for _, obj := range []interface{}{nil, "job", (*api.JobInfo)(nil), &api.JobInfo{UID: "unknown"}} {
		if j, ok := p.jobOf(obj); ok || j != nil {
			t.Errorf("jobOf(%#v) = %v, %v", obj, j, ok)
		}
	}
	for _, obj := range []interface{}{nil, "task", (*api.TaskInfo)(nil), &api.TaskInfo{}} {
		if isSpeculativeTask(obj) {
			t.Errorf("isSpeculativeTask(%#v) = true", obj)
		}
	}
	if got := p.victims(nil, []*api.TaskInfo{nil, {Job: "a"}}); got != nil {
		t.Errorf("victims of a nil preemptor: %v", got)
	}
}
