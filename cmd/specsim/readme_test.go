package main

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeFragment declares what README's scheduler-loop fragment leaves to
// the reader — the snapshot, the reused slices and workspaces, the
// parameters and the two functions the comment says are the reader's —
// and wraps it in a function, so that the fragment, pasted, type-checks.
const readmeFragment = `package main

import (
	"github.com/specsched/specsched/alloc"
	"github.com/specsched/specsched/online"
	"github.com/specsched/specsched/stragglers"
)

var _, _ = alloc.AllocateSlots, online.New // each fragment uses some

func unfinished(tasks []stragglers.Task) int { return len(tasks) }

func start(job int, a stragglers.Action) {}

// The event loop's (online): events, their kinds, the free slots, a start.
type event struct{ Kind, Job, Tasks, Remaining int }

const (
	arrival = iota
	taskDone
	jobDone
)

func freeSlots() int { return 0 }

func startOn(job int) {}

func schedule(jobs [][]stragglers.Task, remaining []float64, shares []int, actions []stragglers.Action,
	totalSlots int, beta, tNew, judgeAfter float64, allocWS alloc.Workspace, specWS stragglers.Workspace,
	events chan event) error {
%s
	return nil
}
`

// TestReadmeGo: every Go code block of README.md type-checks against this
// module — a complete program as it is, a fragment inside readmeFragment —
// so that what a reader pastes compiles (the scheduler loop's
// "for _, a := range actions { // … }" did not: a declared and not used).
func TestReadmeGo(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)\n```go\n(.*?)\n```\n").FindAllStringSubmatch(string(data), -1)
	if len(blocks) < 2 {
		t.Fatalf("README has %d Go blocks, want the example and the scheduler loop", len(blocks))
	}
	fset := token.NewFileSet()
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	for i, b := range blocks {
		src := b[1]
		if !strings.HasPrefix(src, "package ") {
			src = strings.Replace(readmeFragment, "%s", src, 1)
		}
		f, err := parser.ParseFile(fset, "README.md block", src, parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("README's Go block %d does not parse: %v\n%s", i+1, err, src)
			continue
		}
		if _, err := conf.Check("main", fset, []*ast.File{f}, nil); err != nil {
			t.Errorf("README's Go block %d does not type-check: %v\n%s", i+1, err, src)
		}
	}
}
