package testutil

import (
	"testing"
	"time"
)

// Interleave is the measurement behind every ratio the project quotes: it
// runs alg and base alternately, call by call, b.N times, and reports the
// mean time of each per call and their ratio. On a shared, noisy machine
// the ratio is stable where separately run benchmarks drift, since both
// sides see the same interference. b's allocation report (with
// b.ReportAllocs) counts both sides; the baselines allocate nothing.
func Interleave(b *testing.B, alg, base func()) {
	alg() // warm workspaces and caches
	base()
	var algTime, baseTime time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		alg()
		mid := time.Now()
		base()
		algTime += mid.Sub(start)
		baseTime += time.Since(mid)
	}
	b.StopTimer()
	b.ReportMetric(float64(algTime.Nanoseconds())/float64(b.N), "alg-ns/op")
	b.ReportMetric(float64(baseTime.Nanoseconds())/float64(b.N), "base-ns/op")
	b.ReportMetric(float64(algTime)/float64(baseTime), "ratio")
}
