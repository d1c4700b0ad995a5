package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// progressDelay: the bar appears only for runs longer than this.
const progressDelay = 2 * time.Second

// progress draws a progress bar on a terminal: the fraction of simulated
// job completions over all runs, redrawn every 200 ms once the run has
// taken progressDelay. A disabled bar only counts.
type progress struct {
	w       io.Writer
	total   int64
	count   atomic.Int64
	start   time.Time
	stop    chan struct{}
	stopped sync.WaitGroup
	drawn   bool
}

func newProgress(w io.Writer, enabled bool, total int) *progress {
	p := &progress{w: w, total: int64(total), start: time.Now()}
	if !enabled || total == 0 {
		return p
	}
	p.stop = make(chan struct{})
	p.stopped.Add(1)
	go func() {
		defer p.stopped.Done()
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-p.stop:
				return
			case now := <-tick.C:
				p.tick(now)
			}
		}
	}()
	return p
}

func (p *progress) add(n int) { p.count.Add(int64(n)) }

// tick draws the bar at time now once the run has taken progressDelay.
func (p *progress) tick(now time.Time) {
	if now.Sub(p.start) >= progressDelay {
		p.draw(now)
	}
}

func (p *progress) draw(now time.Time) {
	const width = 40
	frac := float64(p.count.Load()) / float64(p.total)
	filled := int(frac * width)
	fmt.Fprintf(p.w, "\r[%s%s] %3.0f%% %5.1fs", strings.Repeat("=", filled), strings.Repeat(" ", width-filled),
		100*frac, now.Sub(p.start).Seconds())
	p.drawn = true
}

// done stops the bar and clears its line.
func (p *progress) done() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	p.stopped.Wait()
	if p.drawn {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 60))
	}
}
