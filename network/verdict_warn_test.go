package network

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestJudgeWarnings: the near-saturation and drop warnings on made-up
// results, each side of each rule.
func TestJudgeWarnings(t *testing.T) {
	cfg := Default()
	hops := 5.25
	zl, why := MeanZeroLoadLatency(&cfg, hops)
	if why != "" || !(zl > 5) {
		t.Fatalf("zero-load latency of the default config: %g (%q)", zl, why)
	}
	base := Result{Config: cfg, MeasuredPackets: 100, MeasuredDelivered: 100, Offered: 0.3, Throughput: 0.3, ShortfallCI95: 0.001,
		Hops: hops, Latency: Summary{Count: 100, P99: 2 * zl}}
	twelve := int64(12)
	for _, c := range []struct {
		name   string
		edit   func(r *Result)
		status string
		want   []string // one substring per warning, in order
	}{
		{"well below saturation", func(*Result) {}, StatusOK, nil},
		{"p99 just under 10× zero-load", func(r *Result) { r.Latency.P99 = 9.9 * zl }, StatusOK, nil},
		{"p99 past 10× zero-load", func(r *Result) { r.Latency.P99 = 10.1 * zl }, StatusOK, []string{"near saturation: latency p99"}},
		{"6 % short, the interval reaching offered", func(r *Result) { r.Throughput, r.ShortfallCI95 = 0.282, 0.02 },
			StatusOK, []string{"near saturation: accepted 0.282 flits/node/cycle, more than 5 % short of the 0.3 offered (within its 95 % CI ± 0.02, so not called saturated)"}},
		{"4 % short, a wide interval", func(r *Result) { r.Throughput, r.ShortfallCI95 = 0.288, 0.1 }, StatusOK, nil},
		{"accepted more than offered, a wide interval", func(r *Result) { r.Throughput, r.ShortfallCI95 = 0.31, 0.1 }, StatusOK, nil},
		{"6 % short beyond the interval: saturated", func(r *Result) { r.Throughput, r.ShortfallCI95 = 0.282, 0.01 }, StatusSaturated, nil},
		{"no interval, 6 % short", func(r *Result) { r.Throughput, r.ShortfallCI95 = 0.282, -1 },
			StatusOK, []string{"no confidence interval: too few batches"}},
		{"no interval, 4 % short", func(r *Result) { r.Throughput, r.ShortfallCI95 = 0.288, -1 }, StatusOK, nil},
		{"incomplete and near", func(r *Result) { r.MeasuredDelivered, r.Latency.P99 = 99, 20*zl }, StatusIncomplete, []string{"latency p99"}},
		{"saturated: the status says it", func(r *Result) { r.Throughput, r.Latency.P99 = 0.2, 50*zl }, StatusSaturated, nil},
		{"deadlock: the status says it", func(r *Result) { r.Deadlock, r.Latency.P99 = &Deadlock{}, 50*zl }, StatusDeadlock, nil},
		{"a trace has no rate", func(r *Result) { r.Config.Traffic.Trace, r.Throughput, r.ShortfallCI95 = "t.csv", 0.1, -1 }, StatusOK, nil},
		{"a batch has no rate", func(r *Result) { r.Config.Traffic.Mode, r.Latency.P99 = "batch", 50*zl }, StatusOK, nil},
		{"multicast: no zero-load formula", func(r *Result) { r.Config.Traffic.Pattern, r.Latency.P99 = "cluster-multicast", 50*zl }, StatusOK, nil},
		{"packets dropped", func(r *Result) { r.Dropped, r.MeasuredDropped, r.MeasuredDelivered = &twelve, 3, 97 },
			StatusOK, []string{"packets dropped: 12 by full queues (queue.full: drop), 3 of them measured: the latencies"}},
		{"dropped and near", func(r *Result) { r.Dropped, r.Latency.P99 = &twelve, 11*zl }, StatusOK, []string{"packets dropped: 12", "latency p99"}},
	} {
		r := base
		c.edit(&r)
		Judge(&r)
		Judge(&r) // (judged again, e.g. after an interrupted batch: nothing doubled)
		for _, w := range r.Warnings {
			if strings.Contains(w, ";") {
				t.Errorf("%s: warning %q holds the CSV's list separator", c.name, w)
			}
		}
		if r.Status != c.status || len(r.Warnings) != len(c.want) {
			t.Errorf("%s: status %s, warnings %q; want %s and %d warnings", c.name, r.Status, r.Warnings, c.status, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(r.Warnings[i], w) {
				t.Errorf("%s: warning %q does not say %q", c.name, r.Warnings[i], w)
			}
		}
	}
}

// TestNearSaturationRuns: the 8×8 mesh (saturating near 0.31
// flits/node/cycle) is ok with no warning at load 0.1, and ok but near
// saturation at 0.29, where its latency p99 passes 10× the zero-load
// latency.
func TestNearSaturationRuns(t *testing.T) {
	c := Default()
	c.Run.Warmup, c.Run.Measure = 1000, 10000
	c.Traffic.Load = 0.1
	if r := runCfg(t, c); r.Status != StatusOK || len(r.Warnings) != 0 {
		t.Errorf("load 0.1: status %s, warnings %q", r.Status, r.Warnings)
	}
	c.Traffic.Load = 0.29
	r := runCfg(t, c)
	if r.Status != StatusOK || len(r.Warnings) == 0 || !strings.HasPrefix(r.Warnings[0], "near saturation: latency p99") {
		t.Errorf("load 0.29: status %s, p99 %g, warnings %q", r.Status, r.Latency.P99, r.Warnings)
	}
}

// TestNoIntervalFromFewBatches: a run that deadlocks in the first of its
// 20 batches has no confidence interval: NaN with the reason, null in the
// JSON (not 0), and the Summary reads back from its JSON.
func TestNoIntervalFromFewBatches(t *testing.T) {
	c := Default()
	c.Topology = TopologyConfig{Kind: "torus", K: 8, N: 1}
	c.Buffers.Input, c.Routing = 2, "dor"
	c.Traffic.Load, c.Traffic.Flits = 0.8, FlitRange{Min: 16, Max: 16}
	c.Run.Warmup, c.Run.Measure = 0, 20000
	r := runCfg(t, c)
	if r.Deadlock == nil || r.Deadlock.Cycle > 1000 || r.Latency.Count == 0 {
		t.Fatalf("the ring did not deadlock in its first batch: %s, %d latencies", r.Status, r.Latency.Count)
	}
	for _, s := range []Summary{r.Latency, r.NetworkLatency} {
		if !math.IsNaN(s.CI95) || s.CI95Note != "1 of 20 batches measured, at least 10 needed" {
			t.Errorf("ci95 %g, note %q", s.CI95, s.CI95Note)
		}
	}
	if r.ShortfallCI95 != -1 || r.ShortfallCI95Note != "0 of 20 batches measured, at least 10 needed" {
		t.Errorf("shortfall ci95 %g, note %q", r.ShortfallCI95, r.ShortfallCI95Note)
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"ci95":null,"ci95_note":"1 of 20 batches measured, at least 10 needed"`) {
		t.Errorf("JSON latency: %s", js[strings.Index(string(js), `"latency"`):][:200])
	}
	var back Summary
	if err := json.Unmarshal([]byte(`{"count":3,"mean":2.5,"ci95":null,"ci95_note":"x"}`), &back); err != nil ||
		!math.IsNaN(back.CI95) || back.Count != 3 || back.Mean != 2.5 || back.CI95Note != "x" {
		t.Errorf("read back: %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"count":3,"ci95":0.5}`), &back); err != nil || back.CI95 != 0.5 {
		t.Errorf("read back 0.5: %+v, %v", back, err)
	}
}
