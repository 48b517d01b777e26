package collective

import "testing"

// PMNG on the 10-cube with M = 32: PE recorded on one router, replayed
// reversed on another (both in the time).
func BenchmarkPMNG10(b *testing.B) {
	benchRunWith(b, "pmng", 10, 292, map[string]string{"task.m": "32"})
}

// Window TE on the 10-cube, m = 5: 32·31·10 mini-packets (six helper runs
// tune the split, then the run).
func BenchmarkWTE10(b *testing.B) { benchRunWith(b, "wte", 10, 5.5, map[string]string{"task.m": "5"}) }

// The 10-cube grid's neighbour exchange after RCM and Binary-Gray (and the
// shuffled labels' exchange alongside).
func BenchmarkSparseEmbed10(b *testing.B) {
	benchRunWith(b, "sparse-embed", 10, 7, map[string]string{"task.graph": "grid"})
}
