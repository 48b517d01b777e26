package verify

import (
	"math"
	"strings"
	"testing"
)

// histNear is n experiments (a multiple of 500) distributed as a normal of
// the given mean and variance rounded to integers (the rounding's 1/12 taken
// out of the variance), clipped to 0..99 as blocksOf reads them, with one
// experiment at top (a maximum in the tail a normal would not reach; none
// when negative).
func histNear(mean, variance float64, top int64, n int) map[int64]int64 {
	sd := math.Sqrt(max(variance-1.0/12, 0.01))
	cdf := func(x float64) float64 { return 0.5 * math.Erfc(-(x-mean)/(sd*math.Sqrt2)) }
	h := map[int64]int64{}
	total, mode := int64(0), int64(math.Round(mean))
	for v := int64(0); v < 100; v++ {
		if c := int64(math.Round(float64(n) * (cdf(float64(v)+0.5) - cdf(float64(v)-0.5)))); c > 0 {
			h[v] = c
			total += c
		}
	}
	h[mode] += int64(n) - total // (rounding's leftovers to the mode)
	if top >= 0 && h[top] == 0 {
		h[top]++
		h[mode]--
	}
	return h
}

func entryByID(t *testing.T, id string) bEntry {
	t.Helper()
	es, err := brebnerEntries()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.id("brebner") == id {
			return e
		}
	}
	t.Fatalf("no entry %s", id)
	return bEntry{}
}

// TestExcludedEntryCanFail: an entry the digest excludes is a deviation
// only when measured like its reference model; fed a mean or a variance far
// from the reference it fails, and measured like the thesis it passes.
func TestExcludedEntryCanFail(t *testing.T) {
	for _, id := range []string{
		"brebner-3-17-s4-time",        // CCC phase 2: the thesis slower than the model
		"brebner-3-22-s8-maxqueue",    // CCC phase-2 queue
		"brebner-3-44-strict-25-time", // odd torus, once without reference data
		"brebner-3-26-n12-maxpop",     // shuffle-exchange population, once without reference data
		"brebner-3-48-random-10-time", // even torus: the maximum's block rule applies too
		"brebner-3-12-d5-n3-maxpop",   // suspected copy
		"brebner-3-49-random-25-time", // odd torus total
		"brebner-3-20-s8-maxpop",      // CCC phase-2 population
		"brebner-3-18-s6-time",        // CCC total
		"brebner-3-26-n2-maxpop",      // shuffle-exchange, smallest
		"brebner-3-46-strict-15-time", // odd torus total, strict
		"brebner-3-15-d6-n3-maxqueue", // suspected copy (agrees with the thesis)
		"brebner-3-47-random-5-time",  // odd torus, smallest
		"brebner-3-45-strict-25-time", // odd torus phase 2
		"brebner-3-17-s8-time",        // CCC, largest
		"brebner-3-22-s3-maxqueue",    // CCC, agrees with the thesis
		"brebner-3-20-s5-maxpop",      // CCC, agrees with the thesis
		"brebner-3-49-random-10-time", // even torus total
		"brebner-3-26-n11-maxpop",     // shuffle-exchange, once without reference data
		"brebner-3-44-strict-5-time",  // odd torus
		"brebner-3-48-random-15-time", // odd torus phase 2
		"brebner-3-18-s3-time",        // CCC total, smallest
		"brebner-3-17-s3-time",        // CCC phase 2, smallest
		"brebner-3-22-s5-maxqueue",    // CCC phase-2 queue
		"brebner-3-26-n7-maxpop",      // shuffle-exchange
		"brebner-3-46-strict-25-time", // odd torus total
		"brebner-3-45-strict-5-time",  // odd torus phase 2
		"brebner-3-47-random-15-time", // odd torus
		"brebner-3-48-random-5-time",  // odd torus
		"brebner-3-49-random-15-time", // odd torus total
		"brebner-3-20-s7-maxpop",      // CCC
	} {
		e := entryByID(t, id)
		if exclusion(e) == "" || e.ref == nil {
			t.Errorf("%s: exclusion %q, reference %v", id, exclusion(e), e.ref)
			continue
		}
		status := func(mean, variance float64, top int64) Row {
			res := blocksOf(histNear(mean, variance, top, 2000))
			return measure(entryClaim(e, "brebner", TierFull, 2000, func() bResult { return res }))
		}
		r := e.ref
		thesisFar := math.Abs(r.mean-e.mean) > 5*math.Sqrt(e.variance/500+r.variance/2000)
		if row := status(r.mean, r.variance, r.max); thesisFar && (row.Status != Deviation || !strings.Contains(row.Reason, exclusion(e)) || !strings.Contains(row.Reason, "reference model")) {
			t.Errorf("%s measured as its reference model: %s (%s; %s)", id, row.Status, row.Measured, row.Reason)
		} else if !thesisFar && row.Status == Fail {
			t.Errorf("%s measured as its reference model, which agrees with the thesis: %s (%s)", id, row.Status, row.Measured)
		}
		// Far from the reference, on the side away from the thesis.
		away := math.Copysign(max(1, 8*math.Sqrt(r.variance/float64(r.trials)+r.variance/2000)), r.mean-e.mean)
		if row := status(r.mean+away, r.variance, -1); row.Status != Fail {
			t.Errorf("%s measured %+.2f from its reference model: %s, want fail (%s; %s)", id, away, row.Status, row.Measured, row.Reason)
		}
		if row := status(r.mean, 2.5*max(r.variance, e.variance), -1); row.Status != Fail {
			t.Errorf("%s measured with the reference's mean and 2.5 times the variance: %s, want fail (%s; %s)", id, row.Status, row.Measured, row.Reason)
		}
		if row := status(e.mean, e.variance, e.max); row.Status != Pass {
			t.Errorf("%s measured as the thesis: %s, want pass (%s)", id, row.Status, row.Measured)
		}
	}
}

// TestExcludedEntriesHaveRecordedReference: every entry the digest
// excludes, and every entry of the odd torus and of the shuffle-exchange
// (once excluded without reference data: odd side 25, n = 11 and 12), has
// figures from a reference-model run recorded with its command, over enough
// runs for the mean to be judged.
func TestExcludedEntriesHaveRecordedReference(t *testing.T) {
	es, err := brebnerEntries()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range es {
		odd := e.graph == "wrapped grid" && e.n%2 == 1
		se := e.graph == "shuffle-exchange" && e.n >= 11
		if exclusion(e) == "" && !odd && !se {
			continue
		}
		checked++
		switch r := e.ref; {
		case r == nil:
			t.Errorf("%s: no reference-model figures", e.id("brebner"))
		case !r.recorded || r.trials < 500 || r.variance <= 0 || r.max < int64(math.Floor(r.mean)):
			t.Errorf("%s: reference %+v", e.id("brebner"), *r)
		}
	}
	// 79 excluded less the 24 odd-torus populations and queues, plus all 42
	// odd-torus entries and the 14 shuffle-exchange entries for n = 11, 12
	// (of which 2 excluded).
	if checked != 55+24+12 {
		t.Errorf("%d entries checked, want 91", checked)
	}
	if !strings.Contains(brebnerRefRunsCSV, "verify/testdata/brebner_refrun.py 1000 1 ") {
		t.Error("the recorded runs do not name the command that made them")
	}
}
