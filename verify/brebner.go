package verify

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/flitsim/flitsim/verify/compare"
)

// Brebner 1983 chapter 3 (digest §5.3, §5.5): every table entry of the
// standard two-phase scheme is a row, measured by running the packet
// router in batch experiments and compared by the protocol of package
// compare. `flitsim verify --only brebner` runs them all with
// brebnerExperiments experiments per graph (the full tier); plain `flitsim
// verify` runs a quick subset (the cube for n ≤ 6 and three d-shuffles)
// under the same protocol.
const (
	brebnerExperiments      = 2000
	brebnerQuickExperiments = 2000
)

const brebnerSource = "Brebner 1983 (thesis), Table "

// brebnerFamily names an entry's table family (digest §5.5).
func brebnerFamily(e bEntry) string {
	f := strings.ReplaceAll(strings.ToLower(e.graph), " ", "-")
	if e.variant == "h-relation" {
		f += "-h"
	}
	return f
}

// exclusion is why the digest (§8.1) expects an entry to miss the thesis,
// or "". An excluded entry still passes when it agrees with the thesis; when
// it does not, it is a deviation only if it agrees with the reference model
// (agreesWithReference), and a failure otherwise. The family rule leaves it
// out.
func exclusion(e bEntry) string {
	switch {
	case e.graph == "CCC" && e.n >= 3 && (e.table == "3-17" || e.table == "3-18" || e.table == "3-22"):
		return "CCC phase 2 for s ≥ 3: the thesis is 0.7–1.4 steps slower (queues larger) than the text-faithful routing; some unrecorded detail of the 1983 program (digest §8.1 item 1)"
	case e.graph == "CCC" && e.table == "3-20" && e.n >= 5:
		return "CCC phase-2 population for s ≥ 5: the text-faithful routing is 0.15–0.2 lower (digest §8.1 item 1)"
	case e.table == "3-26":
		return "shuffle-exchange phase-1 population: the thesis's values are reproduced only by counting queued packets, not arrived ones, against its own definition (digest §8.1 item 2); the measured column adds flitsim's queued-only population (max_queued_population) beside the defined one, and the defined one is what is compared"
	case oddTorus(e) && e.measure == "time":
		return "torus of odd side: the thesis's times fit a diameter of 2⌈n/2⌉, shortest-path routing has n − 1 (digest §8.1 item 3)"
	case e.table == "3-12" && e.d == 5 && e.n == 3, e.table == "3-15" && e.d == 6 && e.n == 3:
		return "suspected copy between the phase tables (identical rows; digest §8.1 item 9)"
	case e.graph == "wrapped grid" && e.variant == "random" && e.n == 10 && (e.table == "3-48" || e.table == "3-49"):
		return "torus 10×10, random strategy, phase 2 (and its total): a mild outlier, the text-faithful reference model gives 10.66 / 0.58 against the thesis's 10.84 / 0.80 (digest §8.1 item 10)"
	}
	return ""
}

// inFamily is whether an entry counts in its family's rule: not when the
// digest excludes it, nor any entry of the odd torus (digest §8.1 item 3:
// informational). The thesis's odd-torus routes are longer than shortest
// paths, which moves its populations and queues a little too: each agrees
// on its own (|z| ≤ 3.1 in verify's runs), but 18 of the 24 lie below the
// thesis and 5 between −2 and −3.1, a bias the family rule would count
// against the even torus.
func inFamily(e bEntry) bool {
	return exclusion(e) == "" && !oddTorus(e)
}

func oddTorus(e bEntry) bool { return e.graph == "wrapped grid" && e.n%2 == 1 }

// entryZLimit is the per-entry |z| bound.
func entryZLimit(bEntry) float64 { return compare.EntryZ }

// balanced is whether the maximum's block rule applies (digest §5.5: not
// for the shuffle-exchange, CCC and grid, which have rogue outliers).
func balanced(e bEntry) bool {
	return e.graph == "cube" || e.graph == "d-shuffle" || e.graph == "wrapped grid" && !oddTorus(e)
}

func (e bEntry) setup(experiments int) bSetup {
	return bSetup{graph: e.graph, variant: e.variant, d: e.d, n: e.n, h: max(1, e.h), experiments: experiments}
}

func (e bEntry) size() string {
	var s string
	switch e.graph {
	case "d-shuffle":
		s = fmt.Sprintf("d%d-n%d", e.d, e.n)
	case "CCC":
		s = fmt.Sprintf("s%d", e.n)
	case "grid", "wrapped grid":
		s = fmt.Sprintf("%s-%d", e.variant, e.n)
	default:
		s = fmt.Sprintf("n%d", e.n)
	}
	if e.variant == "h-relation" {
		s += fmt.Sprintf("-h%d", e.h)
	}
	return s
}

func (e bEntry) id(prefix string) string {
	t := strings.TrimPrefix(e.table, "3-")
	if len(t) == 1 {
		t = "0" + t
	}
	return fmt.Sprintf("%s-3-%s-%s-%s", prefix, t, e.size(), e.measure)
}

func (e bEntry) describe() string {
	ph := map[string]string{"1": "phase 1", "2": "phase 2", "total": "both phases"}[e.phase]
	m := map[string]string{"time": "completion time", "maxpop": "max node population", "maxqueue": "max queue"}[e.measure]
	g := e.graph
	switch e.graph {
	case "d-shuffle":
		g = fmt.Sprintf("%d-shuffle n=%d", e.d, e.n)
	case "CCC":
		g = fmt.Sprintf("CCC s=%d", e.n)
	case "grid", "wrapped grid":
		g = fmt.Sprintf("%s %d×%d (%s)", e.graph, e.n, e.n, e.variant)
	default:
		g = fmt.Sprintf("%s n=%d", e.graph, e.n)
	}
	if e.variant == "h-relation" {
		g += fmt.Sprintf(", h=%d", e.h)
	}
	return fmt.Sprintf("%s (N=%d): %s, %s", g, e.nodes, ph, m)
}

// target is what an entry's measured distribution is held to: the thesis's
// printed figures (over compare.BlockSize experiments) or the reference
// model's (over its trials). Both under one rule (agree), so an entry
// judged by the reference meets what a passing entry meets by the thesis.
type target struct {
	mean, variance float64
	max            int64
	n              int  // experiments behind the figures: the block size of the maximum's rule
	checkMax       bool // whether the maximum's block rule applies
}

func thesisTarget(e bEntry) target {
	return target{mean: e.mean, variance: e.variance, max: e.max, n: compare.BlockSize,
		checkMax: balanced(e) && e.max >= 0 && !strings.Contains(e.note, "inconsistent")}
}

// refTarget is the reference model's figures for e, if it has any.
func refTarget(e bEntry) (target, bool) {
	if e.ref == nil {
		return target{}, false
	}
	r := e.ref
	return target{mean: r.mean, variance: r.variance, max: r.max, n: r.trials, checkMax: balanced(e) && r.max >= 0}, true
}

// agreement is a measured distribution against a target: the means' z,
// the variance within ±30 % (skipped when near-degenerate), the maximum
// by the block rule over blocks of target.n (maxOK when it does not
// apply).
type agreement struct {
	z                 float64
	varOK, varSkipped bool
	maxOK             bool
	pMax              float64 // P(the target's maximum is a block maximum)
	medMax            int64   // the median block maximum
}

func agree(hist compare.Histogram, sim compare.Sample, t target) agreement {
	a := agreement{z: compare.Z(sim, compare.Sample{N: t.n, Mean: t.mean, Variance: t.variance}), maxOK: true}
	a.varOK, a.varSkipped = compare.VarianceOK(sim.Variance, t.variance)
	if t.checkMax {
		a.maxOK = compare.MaxOKBlocks(hist, t.n, t.max)
		a.pMax, a.medMax = compare.BlockMax(hist, t.n, t.max)
	}
	return a
}

// ok is the entry's tolerance: mean, variance and maximum all agree.
func (a agreement) ok(e bEntry) bool { return math.Abs(a.z) <= entryZLimit(e) && a.varOK && a.maxOK }

// describe is the agreement as text: "z +0.42, var -3 %, max 9: P 0.12 as
// a block max, median 9".
func (a agreement) describe(sim compare.Sample, t target) string {
	s := fmt.Sprintf("z %+.2f", a.z)
	if a.varSkipped {
		s += ", var not compared"
	} else {
		s += fmt.Sprintf(", var %+.0f %%", 100*(sim.Variance-t.variance)/t.variance)
	}
	if t.checkMax {
		s += fmt.Sprintf(", max %d: P %.2f as a block max, median %d", t.max, a.pMax, a.medMax)
	}
	return s
}

// entryVerdict compares one entry with the simulation: the measured text,
// whether it passes (against the thesis), and its z.
func entryVerdict(e bEntry, res bResult) (string, bool, float64, error) {
	if res.err != nil {
		return "", false, 0, res.err
	}
	hist, sim, maxima, err := pooled(res, e.phase, e.measure)
	if err != nil {
		return "", false, 0, err
	}
	th := thesisTarget(e)
	a := agree(hist, sim, th)
	var b strings.Builder
	fmt.Fprintf(&b, "%.3f / %.3f (%s", sim.Mean, sim.Variance, a.describe(sim, th))
	if th.checkMax {
		fmt.Fprintf(&b, ", blocks %v", maxima) // (the rule weighs every block of 500 the pooled runs allow)
	}
	fmt.Fprintf(&b, "; %d runs)", sim.N)
	if e.table == "3-26" && e.measure == "maxpop" {
		// The queued-only reading (digest §8.1 item 2), for comparison.
		if _, q, _, err := pooled(res, e.phase, "maxqpop"); err == nil {
			pub := compare.Sample{N: compare.BlockSize, Mean: e.mean, Variance: e.variance}
			fmt.Fprintf(&b, "; queued only %.3f / %.3f (z %+.2f, var %+.0f %%)", q.Mean, q.Variance, compare.Z(q, pub), 100*(q.Variance-e.variance)/e.variance)
		}
	}
	if rt, ok := refTarget(e); ok && exclusion(e) != "" {
		fmt.Fprintf(&b, "; reference model %.3f / %.3f / %d over %d runs (%s)", rt.mean, rt.variance, rt.max, rt.n, agree(hist, sim, rt).describe(sim, rt))
	}
	return b.String(), a.ok(e), a.z, nil
}

func init() {
	es, err := brebnerEntries()
	if err != nil {
		panic("verify: " + err.Error())
	}
	registerBrebner(es, "brebner", brebnerExperiments, TierFull, func(bEntry) bool { return true })
	registerBrebner(es, "brebner-ci", brebnerQuickExperiments, TierQuick, func(e bEntry) bool {
		return e.variant == "" && (e.graph == "cube" && e.n <= 6 ||
			e.graph == "d-shuffle" && (e.d == 2 && e.n == 6 || e.d == 3 && e.n == 4 || e.d == 4 && e.n == 3))
	})
}

// registerBrebner registers a row per selected entry and a family row per
// table family.
func registerBrebner(all []bEntry, prefix string, experiments int, tier string, keep func(bEntry) bool) {
	families := map[string][]bEntry{}
	for _, e := range all {
		if !keep(e) {
			continue
		}
		families[brebnerFamily(e)] = append(families[brebnerFamily(e)], e)
		set := e.setup(experiments)
		Register(entryClaim(e, prefix, tier, experiments, func() bResult { return brebnerRun(set) }))
	}
	names := make([]string, 0, len(families))
	for f := range families {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		es := families[f]
		Register(Claim{
			ID: prefix + "-family-" + f, Source: brebnerSource + es[0].table + " …", Tier: tier,
			Claim:     fmt.Sprintf("%s tables: %d entries, means by the family rule (totals, §8.1 exclusions and the odd torus left out)", f, len(es)),
			Published: "thesis means", Tolerance: "≤ 12 % of entries over |z| 2, none over 4",
			Measure: func() (string, bool, error) { return familyVerdict(es, experiments) },
		})
	}
}

// entryClaim is an entry's row, measured on run's experiments. It passes
// when it agrees with the thesis; outside that, Explain's reasons make it a
// deviation (an excluded entry's only if it agrees with the reference
// model), and it fails when none applies.
func entryClaim(e bEntry, prefix, tier string, experiments int, run func() bResult) Claim {
	tol := fmt.Sprintf("mean |z| ≤ %.1f (500 vs %d runs); variance ±30 %% (not when ≤ 0.05)", entryZLimit(e), experiments)
	if balanced(e) {
		tol += "; max: block rule"
	}
	if exclusion(e) != "" {
		tol += "; outside it, excluded (digest §8.1): a deviation only within the same rules against the reference model"
	}
	return Claim{
		ID: e.id(prefix), Source: brebnerSource + e.table, Claim: e.describe(),
		Published: fmt.Sprintf("%.2f / %.2f / %d", e.mean, e.variance, e.max), Tolerance: tol, Tier: tier,
		Explain: func() string { return explainEntry(e, run()) },
		Measure: func() (string, bool, error) {
			m, ok, _, err := entryVerdict(e, run())
			return m, ok, err
		},
	}
}

// familyVerdict runs (or waits for) every entry's setup and applies the
// family rule to the means' z.
func familyVerdict(es []bEntry, experiments int) (string, bool, error) {
	var zs []compare.Entry
	for _, e := range es {
		if e.phase == "total" {
			continue // (not independent of the phase entries)
		}
		_, _, z, err := entryVerdict(e, brebnerRun(e.setup(experiments)))
		if err != nil {
			return "", false, err
		}
		zs = append(zs, compare.Entry{Z: z, Excluded: !inFamily(e)})
	}
	r := compare.Family(zs)
	return fmt.Sprintf("%d entries: %d over |z| 2 (%.1f %%), max |z| %.2f; %d excluded", r.Entries, r.OverTwo, 100*r.Share, r.Worst, r.Excluded), r.OK, nil
}

// agreesWithReference explains an entry outside tolerance whose
// simulation agrees with the reference model (the digest's text-faithful
// reading) by the rules the thesis's figures are held to, scaled to the
// model's runs, while the thesis does not: the disagreement is the
// thesis's, not the router's. For an excluded entry it is the exclusion,
// confirmed.
func agreesWithReference(e bEntry, res bResult) string {
	rt, ok := refTarget(e)
	if !ok || res.err != nil {
		return ""
	}
	hist, sim, _, err := pooled(res, e.phase, e.measure)
	if err != nil {
		return ""
	}
	a := agree(hist, sim, rt)
	if !a.ok(e) {
		return ""
	}
	why := fmt.Sprintf("this simulation matches the digest's text-faithful reference model (%.3f / %.3f / max %d over %d runs; %s), so the thesis's %.2f / %.2f / %d departs from that reading, not from the router",
		rt.mean, rt.variance, rt.max, rt.n, a.describe(sim, rt), e.mean, e.variance, e.max)
	if x := exclusion(e); x != "" {
		return x + "; " + why
	}
	return why
}
