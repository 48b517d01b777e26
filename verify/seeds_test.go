package verify

import (
	"flag"
	"fmt"
	"testing"
)

var seeds = flag.Int("seeds", 0, "run every latency row of Figs 4.8–4.12 and 7.6–7.8 on seeds 1..N (slow: about 30 s of CPU per seed); "+
	"0 runs the quick variant")

// seeded lists the rows whose verdict rests on random traffic.
var seeded = []string{"chiang-fig4.8-quarter", "chiang-fig4.8-doubled", "chiang-fig4.8-medium", "chiang-fig4.9-switch-size",
	"chiang-fig4.10-butterfly", "chiang-fig4.11-cluster-size", "chiang-fig4.12-rb-vs-ad",
	"chiang-fig7.6-networks", "chiang-fig7.6-networks-full", "chiang-fig7.7-light", "chiang-fig7.7-light-full",
	"chiang-fig7.7-umin-saturates", "chiang-fig7.7-heavy", "chiang-fig7.8-umin-throughput", "chiang-fig7.8-cmin-vs-sa",
	// Chiang ch. 5's tasks (chiang_ch5_exp.go; the same verdicts on seeds 1–4)
	"chiang-ch5-fig5.1-cube-utilisation", "chiang-ch5-fig5.1-random-utilisation", "chiang-ch5-fig5.1-cube-minus-one-utilisation",
	"chiang-ch5-fig5.1-cube-latency-flat", "chiang-ch5-fig5.9-cube-latency", "chiang-ch5-fig5.9-random-m-tcomm",
	"chiang-ch5-fig5.10-throughput", "chiang-ch5-fig5.11-cube-unstable", "chiang-ch5-fig5.11-random-unstable",
	"chiang-ch5-fig5.12-cube-saturation"}

// The latency rows' verdicts hold whatever the seed (issue 14 item 15:
// fig4.11 failed on 11 of 20 seeds, fig4.10 on 1). The full check,
//
//	go test ./verify -run TestSeedRobust -seeds 20 -timeout 60m
//
// runs every row on seeds 1–20; by default (CI) seed 2, which the rows'
// configs do not use, runs the two rows that used to depend on the seed.
func TestSeedRobust(t *testing.T) {
	ids, from, to := []string{"chiang-fig4.10-butterfly", "chiang-fig4.11-cluster-size"}, uint64(2), uint64(2)
	if *seeds > 0 {
		ids, from, to = seeded, 1, uint64(*seeds)
	}
	t.Cleanup(func() { seed = 0 })
	for s := from; s <= to; s++ {
		seed = s
		for _, id := range ids {
			t.Run(fmt.Sprintf("%s/seed%d", id, s), func(t *testing.T) {
				c := claim(t, id)
				r := measure(c)
				want := Pass
				if c.Deviation != "" {
					want = Deviation // (its documented reading holds)
				}
				if r.Status != want {
					t.Fatalf("seed %d: %s (%s)", s, r.Status, r.Measured)
				}
				t.Logf("seed %d: %s", s, r.Measured) // the margins, with -v
			})
		}
	}
}
