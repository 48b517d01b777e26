package verify

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/flitsim/flitsim/flit/header"
	"github.com/flitsim/flitsim/network"
)

// Chiang 1995 §3.5 and §4.3–4.4 run on the hardware: the multi-address
// headers of Table 3.1 carried by worms and decoded by the cube MIN's
// switches flit by flit (multicast.encoding; the cycle rule is in
// internal/kernel/mcast_hdr.go and docs/multicast.md).

// hdrEncodings maps Table 3.1's schemes to multicast.encoding names.
var hdrEncodings = map[header.Scheme]string{
	header.AllDestination: "ad", header.BitStringBuffered: "bit-string", header.BitStringHier: "hierarchical-bit-string",
	header.RegionBroadcast: "region-broadcast", header.RegionStride: "region-stride", header.RegionMask: "region-mask",
	header.RegionBitString: "region-bit-string",
}

func init() {
	Register(Claim{
		ID:     "chiang-table3.1-latency",
		Source: "Chiang 1995 §3.5, Table 3.1 (run on the 256-node cube MIN)",
		Claim: "one 64-flit multicast from node 0 to each pattern on the empty 256-node cube MIN of 2×2 switches, 8-bit flits, " +
			"synchronous worm, header decoded by the switches: the zero-load latency exceeds the all-destination one by " +
			"the difference of the Table 3.1 header lengths plus the switches' decoding waits",
		Published: "header flits (AD / BS / HBS / MRB / MRS / MRM): " + table31Published(),
		Tolerance: "exact: waits 0 for the hierarchical bit string (its enable bits come first), 15+7+3+1 = 26 for the buffered " +
			"bit string (each switch reads it whole), a region's fields per stage (8 × 2 or 3) for pattern 3's one region, ≥ 0 otherwise",
		Measure: measureTable31Latency,
	})
	Register(Claim{
		ID:     "chiang-3.5-region-deadlock",
		Source: "Chiang 1995 §4.3, Lemmas 4–5, Fig 4.7",
		Claim: "Fig 4.7's three synchronous worms (32-node cube MIN, clock priority) with each header the switches decode: " +
			"all-destination deadlocks (Lemma 4); one-flit and pseudo all-destination headers do not (Lemma 5); region " +
			"headers whose branches start at different regions are exposed to the same cyclic wait (the thesis: a dummy " +
			"region 'may' enforce a uniform distance)",
		Published: "AD deadlocks; pseudo-AD and single-flit do not; region schemes: no example printed",
		Tolerance: "AD deadlocks and single / pseudo-AD do not; the detector's cycle and worms reported for every deadlock",
		Measure:   measureRegionDeadlock,
	})
	Register(Claim{
		ID:     "chiang-3.5-region-deadlock-search",
		Source: "Chiang 1995 §4.3, Lemmas 4–5",
		Claim: "300 random Fig 4.7-like triples of synchronous worms (32-node cube MIN, 2–6 random destinations each, one " +
			"start a cycle before the other two): multi-region headers, whose branches start regions apart, deadlock; " +
			"contiguous sets as one region (region broadcast) never do (all branches in step, as with a one-flit header)",
		Published: "non-uniform branch distances are not deadlock-free (Lemma 4; a dummy region 'may' fix it, Lemma 5's idea); all-or-none headers are (Lemma 1)",
		Tolerance: "some region header deadlocks (the detector's first cycle reported); region broadcast of contiguous sets never; counts per header reported",
		Measure:   measureRegionDeadlockSearch,
		Tier:      TierFull,
	})
	Register(Claim{
		ID:     "chiang-fig4.12-decoded",
		Source: "Chiang 1995 §4.4, Fig 4.12",
		Claim: "fig4_12.yaml with the region-broadcast header decoded by the switches against pseudo all-destination: " +
			"the pseudo-AD latency grows faster with load and cluster size",
		Published: "AD − RB gap grows with load and #nodes (no number); RB header = 1 flit",
		Tolerance: "the published finding needs RB to deliver; the reading below predicts synchronous-worm deadlocks instead",
		Deviation: "the thesis's region-broadcast header is one flit naming the cluster without its source; the rest of a " +
			"cluster seen from an inner source is two regions, (b:s−1)(s+1:e), 5 flits with the counter, and the second " +
			"region's branches start a region behind the first's, which exposes the synchronous worms to Lemma 4's cyclic " +
			"wait: the runs deadlock (the detector's cycle reported). The one-flit reading is row chiang-fig4.12-rb-vs-ad",
		Measure: measureFig412Decoded,
		Tier:    TierFull,
	})
}

func table31Published() string {
	var parts []string
	for _, r := range table31Rows {
		parts = append(parts, slash(r.published[:]))
	}
	return strings.Join(parts, "; ")
}

// hdrRun runs fig4_7.yaml's network with the overrides (a sync worm, clock
// priority, one-flit output buffers) and, if any, these packets instead.
func hdrRun(packets []string, sets ...string) (*network.Result, error) {
	c, err := loadChiang("fig4_7.yaml", sets)
	if err != nil {
		return nil, err
	}
	if packets != nil {
		c.Traffic.Packets = packets
	}
	return simulate(c)
}

// zeroLoadMcast is the latency of one 64-flit multicast from node 0 to
// dests on the empty 256-node cube MIN with header enc.
func zeroLoadMcast(dests []int, enc string) (float64, error) {
	var d []string
	for _, x := range dests {
		d = append(d, fmt.Sprint(x))
	}
	r, err := hdrRun([]string{"0,0," + strings.Join(d, " ") + ",64"}, "topology.n=8", "multicast.encoding="+enc)
	if err != nil {
		return 0, err
	}
	if err := delivered("table 3.1 "+enc, r); err != nil {
		return 0, err
	}
	return r.Latency.Mean, nil
}

func measureTable31Latency() (string, bool, error) {
	ok := true
	var parts []string
	for p := 1; p <= 3; p++ {
		dests, err := header.ParseDests(header.Table31Patterns[p-1], 256)
		if err != nil {
			return "", false, err
		}
		ad, err := zeroLoadMcast(dests, "ad")
		if err != nil {
			return "", false, err
		}
		var waits []string
		for _, r := range table31Rows[1:] {
			l, err := zeroLoadMcast(dests, hdrEncodings[r.scheme])
			if err != nil {
				return "", false, err
			}
			wait := int(l-ad) - (r.published[p-1] - table31Rows[0].published[p-1])
			waits = append(waits, fmt.Sprint(wait))
			want := -1
			switch {
			case r.scheme == header.BitStringHier:
				want = 0
			case r.scheme == header.BitStringBuffered:
				want = 26
			case p == 3 && r.scheme == header.RegionBroadcast:
				want = 16
			case p == 3:
				want = 24
			}
			ok = ok && wait >= 0 && (want < 0 || wait == want)
		}
		parts = append(parts, fmt.Sprintf("pattern %d: AD %.0f cycles, decoding waits BS/HBS/MRB/MRS/MRM %s", p, ad, strings.Join(waits, "/")))
	}
	return strings.Join(parts, "; "), ok, nil
}

// deadlockText describes a run's deadlock, or "none".
func deadlockText(r *network.Result) string {
	if r.Deadlock == nil {
		return "none"
	}
	return fmt.Sprintf("cycle %d (%d worms)", r.Deadlock.Cycle, len(r.Deadlock.Worms))
}

func measureRegionDeadlock() (string, bool, error) {
	encs := []string{"ad", "pseudo-ad", "single", "bit-string", "hierarchical-bit-string", "region-broadcast",
		"region-stride", "region-mask", "region-bit-string"}
	ok := true
	var parts []string
	for _, e := range encs {
		r, err := hdrRun(nil, "multicast.encoding="+e)
		if err != nil {
			return "", false, err
		}
		dead := r.Deadlock != nil
		if e == "ad" {
			ok = ok && dead
		}
		// Lemma 5's and Lemma 1's headers must deliver everything.
		if !dead || e == "pseudo-ad" || e == "single" {
			if err := delivered("fig4_7 "+e, r); err != nil {
				return "", false, err
			}
		}
		parts = append(parts, e+": "+deadlockText(r))
	}
	return strings.Join(parts, "; "), ok, nil
}

// triple is three random multicasts as traffic.packets: the first starts a
// cycle before the others (Fig 4.7's timing); contiguous sets if runs.
func triple(rng *rand.Rand, runs bool) []string {
	var out []string
	for i := range 3 {
		m := 2 + rng.IntN(5)
		var d []string
		if runs {
			b := rng.IntN(32 - m + 1)
			for x := b; x < b+m; x++ {
				d = append(d, fmt.Sprint(x))
			}
		} else {
			for _, x := range rng.Perm(32)[:m] {
				d = append(d, fmt.Sprint(x))
			}
		}
		out = append(out, fmt.Sprintf("%d,%d,%s,16", min(i, 1), rng.IntN(32), strings.Join(d, " ")))
	}
	return out
}

func measureRegionDeadlockSearch() (string, bool, error) {
	const trials = 300
	encs := []string{"ad", "bit-string", "hierarchical-bit-string", "region-broadcast", "region-stride", "region-mask", "region-bit-string"}
	count := func(enc string, runs bool) (int, string, error) {
		rng := rand.New(rand.NewPCG(4, 7))
		n, first := 0, ""
		for range trials {
			pk := triple(rng, runs)
			r, err := hdrRun(pk, "multicast.encoding="+enc)
			if err != nil {
				return 0, "", err
			}
			if r.Deadlock != nil {
				if n == 0 {
					first = fmt.Sprintf(" (first: %s at %s)", strings.Join(pk, " | "), deadlockText(r))
				}
				n++
			}
		}
		return n, first, nil
	}
	var parts []string
	regionDead := 0
	for _, e := range encs {
		n, first, err := count(e, false)
		if err != nil {
			return "", false, err
		}
		if strings.HasPrefix(e, "region-") {
			regionDead += n
		}
		parts = append(parts, fmt.Sprintf("%s %d%s", e, n, first))
	}
	n, _, err := count("region-broadcast", true)
	if err != nil {
		return "", false, err
	}
	ok := regionDead > 0 && n == 0
	parts = append(parts, fmt.Sprintf("region-broadcast of contiguous sets %d", n))
	return fmt.Sprintf("deadlocks in %d triples: %s", trials, strings.Join(parts, "; ")), ok, nil
}

// measureFig412Decoded runs fig4_12.yaml with the decoded region-broadcast
// header at each point of the existing Fig 4.12 row and reports the
// pseudo-AD − RB gap where RB delivers, or the deadlock where it does not.
// The reading holds when a decoded two-region header deadlocks (a real
// cycle of at least two worms).
func measureFig412Decoded() (string, bool, error) {
	points := [][2]string{{"16", "0.1"}, {"16", "0.3"}, {"16", "0.5"}, {"4", "0.3"}, {"64", "0.3"}}
	ok := false
	var parts []string
	for _, pt := range points {
		sets := []string{"traffic.cluster=" + pt[0], "traffic.load=" + pt[1]}
		c, err := loadChiang("fig4_12.yaml", append(sets, "multicast.encoding=region-broadcast"))
		if err != nil {
			return "", false, err
		}
		rb, err := simulate(c)
		if err != nil {
			return "", false, err
		}
		what := fmt.Sprintf("%s nodes, load %s: ", pt[0], pt[1])
		if rb.Deadlock != nil {
			ok = ok || len(rb.Deadlock.Worms) >= 2
			parts = append(parts, what+"RB deadlock at "+deadlockText(rb))
			continue
		}
		if err := delivered("fig4_12 region-broadcast", rb); err != nil {
			return "", false, err
		}
		ad, err := ch4Lat("fig4_12.yaml", sets...)
		if err != nil {
			return "", false, err
		}
		parts = append(parts, fmt.Sprintf("%sgap %.1f", what, ad-rb.Latency.Mean))
	}
	return strings.Join(parts, "; "), ok, nil
}
