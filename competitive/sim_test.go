package competitive

import (
	"pgregory.net/rapid"
)

// checkStats checks a run's conservation figures.
func checkStats(t *rapid.T, jobs []SimJob, machines int, s Stats) {
	tasks := 0
	for _, j := range jobs {
		tasks += j.MapTasks + j.ReduceTasks
	}
	if s.TasksFinished != tasks {
		t.Fatalf("%d tasks finished, want %d", s.TasksFinished, tasks)
	}
	if s.BusyMachineSlots > machines*s.ActiveSlots || s.ActiveSlots > s.Slots {
		t.Fatalf("stats %+v exceed M = %d", s, machines)
	}
	if s.Launched < tasks {
		t.Fatalf("%d copies launched for %d tasks", s.Launched, tasks)
	}
}
