package verify

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Chiang 1995 §4.3, Lemma 5: pseudo all-destination padding (w_i =
// d_{i+1} − d_i − 1 copies of d_i after d_i, so that destination d sits at
// header position d − d_1 and each branch lags the first by a distance fixed
// by its addresses alone) makes synchronous multi-head worms deadlock-free.
// The thesis states the lemma without a proof; Fig 4.7's three worms are one
// case (chiang-3.5-region-deadlock). Here the padding meets a thousand
// random sets of worms on Fig 4.7's network.

func init() {
	Register(Claim{
		ID:     "chiang-lemma5-pseudo-ad",
		Source: "Chiang 1995 §4.3, Lemmas 4–5",
		Claim: "1000 random sets of 4–8 synchronous 16-flit worms (fig4_7.yaml's 32-node cube MIN, clock priority, distinct " +
			"sources, 4–12 random destinations each, starts at cycles 0–2), each run with the all-destination header and with " +
			"the pseudo all-destination padding (multicast.encoding: pseudo-ad): padded, none deadlocks and every worm is " +
			"delivered; unpadded, some deadlock (Lemma 4)",
		Published: "pseudo-AD deadlock-free (Lemma 5); AD not (Lemma 4)",
		Tolerance: "0 pseudo-AD deadlocks, every packet delivered; ≥ 1 AD deadlock",
		Measure:   measureLemma5,
		Tier:      TierFull,
	})
}

func measureLemma5() (string, bool, error) {
	const trials = 1000
	rng := rand.New(rand.NewPCG(5, 5))
	dead := map[string]int{}
	first := ""
	for range trials {
		pk := worms(rng)
		for _, enc := range []string{"ad", "pseudo-ad"} {
			r, err := hdrRun(pk, "multicast.encoding="+enc)
			if err != nil {
				return "", false, err
			}
			if r.Deadlock != nil {
				dead[enc]++
				if enc == "pseudo-ad" && first == "" {
					first = fmt.Sprintf("; first pseudo-AD deadlock: %s at %s", strings.Join(pk, " | "), deadlockText(r))
				}
				continue
			}
			if err := delivered("lemma 5 "+enc, r); err != nil {
				return "", false, err
			}
		}
	}
	m := fmt.Sprintf("deadlocks in %d sets: AD %d, pseudo-AD %d%s", trials, dead["ad"], dead["pseudo-ad"], first)
	return m, dead["pseudo-ad"] == 0 && dead["ad"] > 0, nil
}

// worms is 3–5 synchronous multicasts of 16 flits from distinct random
// sources to 3–10 random destinations each, starting at cycle 0 or 1: more
// and longer headers than Fig 4.7's, so that the unpadded ones deadlock
// often enough to show the search can find a cyclic wait.
func worms(rng *rand.Rand) []string {
	var out []string
	srcs := rng.Perm(32)
	for i := range 4 + rng.IntN(5) {
		var d []string
		for _, x := range rng.Perm(32)[:4+rng.IntN(9)] {
			d = append(d, fmt.Sprint(x))
		}
		out = append(out, fmt.Sprintf("%d,%d,%s,16", rng.IntN(3), srcs[i], strings.Join(d, " ")))
	}
	return out
}
