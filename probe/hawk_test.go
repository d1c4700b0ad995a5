package probe

import (
	"testing"

	"pgregory.net/rapid"
)

// refSteal models the victim's node as one sequence (running task, then the
// queue) and cuts out the short probes that follow its first long task.
func refSteal(queueLong []bool, runningLong bool) (int, int) {
	seq := append([]bool{runningLong}, queueLong...)
	firstLong := -1
	for i, l := range seq {
		if l {
			firstLong = i
			break
		}
	}
	if firstLong < 0 {
		return 0, 0
	}
	var batch []int
	for i := firstLong + 1; i < len(seq); i++ {
		if !seq[i] {
			batch = append(batch, i-1) // queue index
		} else if len(batch) > 0 {
			break
		}
	}
	if len(batch) == 0 {
		return 0, 0
	}
	return batch[0], batch[len(batch)-1] + 1
}

func testStealBatch(t *rapid.T) {
	q := rapid.SliceOfN(rapid.Bool(), 0, 12).Draw(t, "queueLong")
	running := rapid.Bool().Draw(t, "runningLong")
	s, e := StealBatch(q, running)
	ws, we := refSteal(q, running)
	if s != ws || e != we {
		t.Fatalf("StealBatch(%v, %v) = [%d, %d); want [%d, %d)", q, running, s, e, ws, we)
	}
	for i := s; i < e; i++ {
		if q[i] {
			t.Fatalf("stole long entry %d", i)
		}
	}
}

func TestStealBatch(t *testing.T) { t.Parallel(); rapid.Check(t, testStealBatch) }
func FuzzStealBatch(f *testing.F) { f.Fuzz(rapid.MakeFuzz(testStealBatch)) }

func TestStealBatchWorked(t *testing.T) {
	t.Parallel()
	S, L := false, true
	cases := []struct {
		q       []bool
		running bool
		s, e    int
	}{
		{nil, true, 0, 0},
		{[]bool{S, S}, true, 0, 2},              // all behind the running long task
		{[]bool{S, L, S, S, L, S}, false, 2, 4}, // first batch only
		{[]bool{S, S}, false, 0, 0},
		{[]bool{L, L, S}, false, 2, 3}, // the first shorts behind a long
		{[]bool{S, L, L}, false, 0, 0}, // no short behind a long
	}
	for _, c := range cases {
		if s, e := StealBatch(c.q, c.running); s != c.s || e != c.e {
			t.Errorf("StealBatch(%v, %v) = [%d,%d); want [%d,%d)", c.q, c.running, s, e, c.s, c.e)
		}
	}
}
