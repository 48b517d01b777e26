package network

import (
	"math"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// csrConfig is a CSR run on the d-cube at p0; retry 0 leaves csr.retry
// unset (1).
func csrConfig(d int, p0, retry float64, fresh bool, measure int64) Config {
	c := slottedConfig(d, "csr", "", p0, measure)
	c.CSR.Fresh = fresh
	if retry > 0 {
		c.CSR.Retry = &retry
	}
	return c
}

// TestCSRArrivesInExactlyD: every packet that entered arrives exactly d
// slots later at its destination, no two packets ever share a link-slot,
// every measured packet is delivered, and each entered packet confirmed
// exactly d bookings — with retries and with fresh attempts, light and
// full load.
func TestCSRArrivesInExactlyD(t *testing.T) {
	for d := 2; d <= 7; d++ {
		for _, tc := range []struct {
			p0, retry float64
			fresh     bool
		}{{0.2, 0, false}, {1, 0, false}, {0.6, 0.3, false}, {1, 0, true}} {
			r := runPlain(t, csrConfig(d, tc.p0, tc.retry, tc.fresh, 300))
			if len(r.DeliverySlots) != 1 || r.DeliverySlots[0].Slots != int64(d) {
				t.Errorf("d=%d %+v: delivery slots %v, want all at %d", d, tc, r.DeliverySlots, d)
			}
			if v := r.Violations; v.Total() != 0 {
				t.Errorf("d=%d %+v: violations %+v", d, tc, v)
			}
			if r.MeasuredDelivered != r.MeasuredPackets || r.MeasuredDropped != 0 || r.MeasuredPackets == 0 {
				t.Errorf("d=%d %+v: measured %d, delivered %d, dropped %d", d, tc, r.MeasuredPackets, r.MeasuredDelivered, r.MeasuredDropped)
			}
			if res := r.Reservations; res == nil || res.Confirmed != int64(d)*r.MeasuredPackets {
				t.Errorf("d=%d %+v: reservations %+v for %d packets", d, tc, res, r.MeasuredPackets)
			}
			if r.InjectedPackets != r.DeliveredPackets+r.Backlog {
				t.Errorf("d=%d %+v: entered %d ≠ delivered %d + in flight %d", d, tc, r.InjectedPackets, r.DeliveredPackets, r.Backlog)
			}
		}
	}
}

// TestCSRNacksAndGhosts: at full load flits are NACKed, a NACKed flit's
// bookings are ghosts (at most d − 1 each), backlogged entry buffers
// discard arrivals (retry) or NACKed packets are dropped (fresh), and
// each shows as its own drop cause.
func TestCSRNacksAndGhosts(t *testing.T) {
	const d = 6
	r := runPlain(t, csrConfig(d, 1, 0, false, 300))
	res := r.Reservations
	if res.Nacks == 0 || res.Ghost == 0 || res.Ghost > (d-1)*res.Nacks {
		t.Errorf("reservations %+v: want NACKs, and 0 < ghosts ≤ %d·NACKs", res, d-1)
	}
	if r.DroppedByCause["discarded"] == 0 || len(r.DroppedByCause) != 1 {
		t.Errorf("retry: drops %v, want discarded only", r.DroppedByCause)
	}
	r = runPlain(t, csrConfig(d, 1, 0, true, 300))
	if r.DroppedByCause["nacked"] == 0 || len(r.DroppedByCause) != 1 {
		t.Errorf("fresh: drops %v, want nacked only", r.DroppedByCause)
	}
}

// TestCSRTable61: d = 7, fresh attempts (the analysis's process), two rows
// of Table 6.1 within 1.5 % of the thesis's simulation column (the verify
// rows hold the table to 1 % over longer runs).
func TestCSRTable61(t *testing.T) {
	for _, row := range [][2]float64{{1, 1.409178}, {0.119931, 0.693059}} {
		r := runPlain(t, csrConfig(7, row[0], 0, true, 800))
		if got := *r.ThroughputPerNode; math.Abs(got-row[1]) > 0.015*row[1] {
			t.Errorf("p0 = %g: throughput/node %.4f, thesis %.4f", row[0], got, row[1])
		}
	}
}

// TestCSRRetryBacklogs: retrying the same packet (q_r = 1) keeps a blocked
// destination in the entry buffer, which costs throughput against fresh
// attempts at p0 = 1; a slower retry costs more.
func TestCSRRetryBacklogs(t *testing.T) {
	fresh := *runPlain(t, csrConfig(6, 1, 0, true, 600)).ThroughputPerNode
	retry := *runPlain(t, csrConfig(6, 1, 1, false, 600)).ThroughputPerNode
	slow := *runPlain(t, csrConfig(6, 1, 0.2, false, 600)).ThroughputPerNode
	if !(slow < retry && retry < fresh) {
		t.Errorf("p0 = 1: q_r 0.2 %.4f, q_r 1 %.4f, fresh %.4f: want increasing", slow, retry, fresh)
	}
}

// TestCSRThroughputPerTime: throughput_per_time is R/(1 + β).
func TestCSRThroughputPerTime(t *testing.T) {
	c := csrConfig(4, 0.5, 0, false, 200)
	c.CSR.Beta = 3
	r := runPlain(t, c)
	if r.ThroughputPerTime == nil || *r.ThroughputPerTime != *r.ThroughputPerNode/4 {
		t.Errorf("β = 3: per time %v, per node %g", r.ThroughputPerTime, *r.ThroughputPerNode)
	}
	if r := runPlain(t, slottedConfig(4, "simple", "0", 0.5, 100)); r.ThroughputPerTime != nil || r.Reservations != nil {
		t.Error("simple scheme: CSR fields set")
	}
}

// TestCSRBuffers: csr.k = 2 (§3.5's general form): packets may wait, so
// some take more than d slots, never fewer, no buffer ever holds more
// than k waiting, and buffering raises the throughput at full load.
func TestCSRBuffers(t *testing.T) {
	c := csrConfig(5, 1, 0, true, 300)
	c.CSR.K = 2
	r := runPlain(t, c)
	ds := r.DeliverySlots
	if ds[0].Slots < 5 || ds[len(ds)-1].Slots <= 5 {
		t.Errorf("k = 2: delivery slots %v, want from 5 up", ds)
	}
	if v := r.Violations; v.Total() != 0 || r.MeasuredDelivered != r.MeasuredPackets {
		t.Errorf("k = 2: violations %+v, measured %d, delivered %d", v, r.MeasuredPackets, r.MeasuredDelivered)
	}
	k0 := runPlain(t, csrConfig(5, 1, 0, true, 300))
	if *r.ThroughputPerNode <= *k0.ThroughputPerNode {
		t.Errorf("p0 = 1: k = 2 %.4f not above k = 0 %.4f", *r.ThroughputPerNode, *k0.ThroughputPerNode)
	}
}

// TestCSRDeterministic: a run is a function of its seed.
func TestCSRDeterministic(t *testing.T) {
	c := csrConfig(5, 0.4, 0.5, false, 300)
	c.CSR.K = 1
	slottedDeterministic(t, c)
}

// TestCSRSlotAllocatesNothing: a CSR slot in steady state allocates
// nothing (k = 0; k = 1 once its packet pool has grown).
func TestCSRSlotAllocatesNothing(t *testing.T) {
	for _, k := range []int{0, 1} {
		c := csrConfig(6, 0.7, 0, false, 100)
		c.CSR.K = k
		n, err := Build(c)
		if err != nil {
			t.Fatal(err)
		}
		for range 300 {
			n.k.Step()
		}
		if a := testing.AllocsPerRun(100, n.k.Step); a != 0 {
			t.Errorf("csr.k = %d: %g allocations per slot", k, a)
		}
	}
}

// TestCSRBadInput: each bad CSR setting is refused naming its key.
func TestCSRBadInput(t *testing.T) {
	bad := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		key  string
		edit func(*Config)
	}{
		{"csr.beta", func(c *Config) { c.CSR.Beta = -0.5 }},
		{"csr.beta", func(c *Config) { c.CSR.Beta = math.NaN() }},
		{"csr.retry", func(c *Config) { c.CSR.Retry = bad(0) }},
		{"csr.retry", func(c *Config) { c.CSR.Retry = bad(1.01) }},
		{"csr.k", func(c *Config) { c.CSR.K = -1 }},
		{"slotted.k", func(c *Config) { c.Slotted.K = "1" }},
		{"topology.kind", func(c *Config) { c.Topology = TopologyConfig{Kind: "folded-cube", D: 4} }},
	} {
		c := csrConfig(4, 0.5, 0, false, 100)
		tc.edit(&c)
		_, err := Build(c)
		e, ok := inputerr.As(err)
		if !ok || e.Key != tc.key {
			t.Errorf("want an error naming %s, got %v", tc.key, err)
		}
	}
}

// TestCSRPi: CSR drops nothing after entry, so its forward link-slots by
// distance follow eq. 5.47 as the k = inf runs do: 15/32, 11/32, 5/32,
// 1/32 for d = 4 (a light load, where entry favours no distance much).
func TestCSRPi(t *testing.T) {
	r := runPlain(t, csrConfig(4, 0.05, 0, false, 5000))
	for i, want := range []float64{15.0 / 32, 11.0 / 32, 5.0 / 32, 1.0 / 32} {
		if len(r.Pi) != 4 || math.Abs(r.Pi[i]-want) > 0.01 {
			t.Fatalf("π = %v, want %g at distance %d (±0.01)", r.Pi, want, i+1)
		}
	}
}
