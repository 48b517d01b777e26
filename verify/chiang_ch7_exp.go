package verify

import (
	"fmt"
	"math"
	"strings"

	"github.com/flitsim/flitsim/network"
)

// Chiang 1995 §7.5, Figs 7.5–7.8: software multicast (C-min, U-min,
// separate addressing) on 64-node MINs, run from configs/chiang/fig7_*.yaml.
// The figures' curves are lost; each row checks a stated ordering. Runs
// past saturation are compared as measured (a longer run's latency is
// larger, the order is not).

// ch7 runs the embedded configs/chiang/file with the overrides; every
// measured message must arrive (verify's delivered).
func ch7(file string, sets ...string) (*network.Result, error) {
	r, err := chiangRun(file, sets)
	if err != nil {
		return nil, err
	}
	return r, delivered(fmt.Sprintf("%s %v", file, sets), r)
}

// ch7Saturated is ch7 for a run past saturation: measured messages may be
// left undelivered only when the run says it is saturated (or was stopped
// by its backlog); a deadlock, a stall or a broken invariant fails.
func ch7Saturated(file string, sets ...string) (*network.Result, error) {
	r, err := chiangRun(file, sets)
	if err != nil {
		return nil, err
	}
	if r.Saturated || r.BacklogStop != nil {
		if r.Deadlock == nil && r.Stall == nil && r.Violations.Total() == 0 {
			return r, nil
		}
	}
	return r, delivered(fmt.Sprintf("%s %v", file, sets), r)
}

// kindKN sets a 64-node network of k×k switches of kind.
func kindKN(kind string, k int) []string {
	n := map[int]int{2: 6, 4: 3, 8: 2}[k]
	return []string{"topology.kind=" + kind, fmt.Sprintf("topology.k=%d", k), fmt.Sprintf("topology.n=%d", n)}
}

var swSchemes = []string{"cmin", "umin", "separate"}

func init() {
	Register(Claim{
		ID:     "chiang-fig7.5sw-orderings",
		Source: "Chiang 1995 §7.5, Fig 7.5 (digest §5.6)",
		Claim: "16 multicasts started together (nodes 0, 5, 10, 15 of each 16-node cluster, 64 flits, configs/chiang/fig7_5.yaml) " +
			"on 64-node 4×4 cube, baseline, butterfly: cube with C-min best; butterfly worst for each scheme; U-min beats " +
			"C-min on baseline and butterfly; SA alike on cube and baseline",
		Published: "cube C-min lowest; butterfly ≥ others; U-min < C-min (baseline, butterfly); SA cube ≈ baseline",
		Tolerance: "orders strict on mean latency; ≈ within 5 %",
		Measure:   measureFig75,
	})
	for _, t := range []struct {
		suffix, tier string
		ks           []int
		measure      string
	}{{"", TierQuick, []int{4, 8}, "run.measure=5000"}, {"-full", TierFull, []int{2, 4, 8}, "run.measure=20000"}} {
		Register(Claim{
			ID:     "chiang-fig7.6-networks" + t.suffix,
			Source: "Chiang 1995 §7.5, Fig 7.6 (digest §5.6)",
			Tier:   t.tier,
			Claim: fmt.Sprintf("non-blocking C-min, 16-node clusters, load 0.3 (configs/chiang/fig7_6.yaml, %s), switches %v: "+
				"the cube always lowest; larger switches help cube and baseline, not the butterfly; 8×8 cube = baseline",
				t.measure, t.ks),
			Published: "cube lowest; cube, baseline fall with k; butterfly does not; 8×8 cube = baseline",
			Tolerance: "strict orders on mean latency; = exact",
			Measure:   func() (string, bool, error) { return measureFig76(t.ks, t.measure) },
		})
	}
	Register(Claim{
		ID:     "chiang-fig7.7-light",
		Source: "Chiang 1995 §7.5, Fig 7.7 (digest §5.6)",
		Tier:   TierQuick,
		Claim: "64-node 4×4 cube, 16-node clusters, load 0.1 (configs/chiang/fig7_7.yaml, 5000 cycles measured): " +
			"C-min and U-min have lower latency than separate addressing",
		Published: "C-min, U-min < SA at light load",
		Tolerance: "strict, on mean latency",
		Measure:   func() (string, bool, error) { return measureFig77Light([]string{"16"}, "run.measure=5000") },
	})
	registerFig77Full()
}

// measureFig75 runs the 9 network-scheme pairs of Fig 7.5.
func measureFig75() (string, bool, error) {
	lat := map[string]float64{}
	var desc []string
	for _, kind := range []string{"cube", "baseline", "butterfly"} {
		var row []string
		for _, s := range swSchemes {
			r, err := ch7("fig7_5.yaml", append(kindKN(kind, 4), "multicast.scheme="+s)...)
			if err != nil {
				return "", false, err
			}
			lat[kind+" "+s] = r.Latency.Mean
			row = append(row, fmt.Sprintf("%s %.0f", s, r.Latency.Mean))
		}
		desc = append(desc, kind+": "+strings.Join(row, ", "))
	}
	best := lat["cube cmin"]
	ok := true
	for k, v := range lat {
		ok = ok && (k == "cube cmin" || v > best)
	}
	for _, s := range swSchemes {
		ok = ok && lat["butterfly "+s] >= lat["baseline "+s] && lat["butterfly "+s] > lat["cube "+s]
	}
	ok = ok && lat["baseline umin"] < lat["baseline cmin"] && lat["butterfly umin"] < lat["butterfly cmin"] &&
		math.Abs(lat["cube separate"]-lat["baseline separate"]) <= 0.05*lat["cube separate"]
	return strings.Join(desc, "; "), ok, nil
}

// measureFig76 runs C-min on the three networks for each switch size.
func measureFig76(ks []int, measure string) (string, bool, error) {
	lat := map[string]float64{}
	var desc []string
	for _, k := range ks {
		var row []string
		for _, kind := range []string{"cube", "baseline", "butterfly"} {
			r, err := ch7Saturated("fig7_6.yaml", append(kindKN(kind, k), measure)...)
			if err != nil {
				return "", false, err
			}
			lat[fmt.Sprint(kind, k)] = r.Latency.Mean
			row = append(row, fmt.Sprintf("%s %.0f", kind, r.Latency.Mean))
		}
		desc = append(desc, fmt.Sprintf("%d×%d: %s", k, k, strings.Join(row, ", ")))
	}
	ok := true
	for i, k := range ks {
		ok = ok && lat[fmt.Sprint("cube", k)] <= lat[fmt.Sprint("baseline", k)] && lat[fmt.Sprint("cube", k)] < lat[fmt.Sprint("butterfly", k)]
		if i > 0 {
			p := ks[i-1]
			ok = ok && lat[fmt.Sprint("cube", k)] < lat[fmt.Sprint("cube", p)] && lat[fmt.Sprint("baseline", k)] < lat[fmt.Sprint("baseline", p)] &&
				lat[fmt.Sprint("butterfly", k)] >= lat[fmt.Sprint("butterfly", p)]
		}
	}
	ok = ok && lat["cube8"] == lat["baseline8"]
	return strings.Join(desc, "; "), ok, nil
}

// fig77 runs scheme at a cluster size and load on fig7_7.yaml, past
// saturation allowed.
func fig77(scheme, cluster, load string, extra ...string) (*network.Result, error) {
	return ch7Saturated("fig7_7.yaml", append([]string{"multicast.scheme=" + scheme, "traffic.cluster=" + cluster, "traffic.load=" + load}, extra...)...)
}

// measureFig77Light compares the schemes at load 0.1.
func measureFig77Light(clusters []string, extra ...string) (string, bool, error) {
	ok := true
	var desc []string
	for _, cl := range clusters {
		var l [3]float64
		for i, s := range swSchemes {
			r, err := ch7("fig7_7.yaml", append([]string{"multicast.scheme=" + s, "traffic.cluster=" + cl, "traffic.load=0.1"}, extra...)...)
			if err != nil {
				return "", false, err
			}
			l[i] = r.Latency.Mean
		}
		ok = ok && l[0] < l[2] && l[1] < l[2]
		desc = append(desc, fmt.Sprintf("%s-node clusters: C-min %.0f, U-min %.0f, SA %.0f", cl, l[0], l[1], l[2]))
	}
	return strings.Join(desc, "; "), ok, nil
}
