package network

import (
	"errors"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// TestDeflectionClosedNetwork: at p0 = 1 the deflection node is the
// thesis's closed network: every link carries a packet every slot, so the
// total throughput λ is bounded by 2(N − 1) (eq. 5.45), with equality at
// d = 1 where no packet is ever deflected; the mean path is the mean
// distance plus two hops a deflection (eq. 5.46, within sampling); priority
// deflects less than simple.
func TestDeflectionClosedNetwork(t *testing.T) {
	for d := 1; d <= 6; d++ {
		mean := map[string]float64{}
		for _, scheme := range []string{"deflection-simple", "deflection-priority"} {
			r := runPlain(t, slottedConfig(d, scheme, "0", 1, 2000))
			N := float64(int(1) << d)
			lambda := *r.ThroughputPerNode * N
			if lambda > 2*(N-1)+1e-9 || d == 1 && lambda != 2 {
				t.Errorf("%s d=%d: total throughput %v, bound 2(N−1) = %v", scheme, d, lambda, 2*(N-1))
			}
			if r.ChannelUtilMean != 1 || r.Status != StatusOK || r.Violations.Misdelivered != 0 {
				t.Errorf("%s d=%d: link use %v (want 1), status %s, %d misdelivered", scheme, d, r.ChannelUtilMean, r.Status, r.Violations.Misdelivered)
			}
			if r.Deflections == nil {
				t.Fatalf("%s d=%d: no deflections field", scheme, d)
			}
			dist := float64(d) / 2 * N / (N - 1)
			if got, want := r.Hops, dist+2*r.Deflections.Mean; got < want-0.05*want || got > want+0.05*want {
				t.Errorf("%s d=%d: mean path %v, eq. 5.46 gives %v", scheme, d, got, want)
			}
			if d == 1 && r.Deflections.Mean != 0 || d >= 3 && r.Deflections.Mean == 0 {
				t.Errorf("%s d=%d: mean deflections %v", scheme, d, r.Deflections.Mean)
			}
			mean[scheme] = r.Deflections.Mean
		}
		if d >= 3 && mean["deflection-priority"] >= mean["deflection-simple"] {
			t.Errorf("d=%d: priority deflects %v a packet, simple %v", d, mean["deflection-priority"], mean["deflection-simple"])
		}
	}
}

// TestDeflectionLockout: Fig. 6.7. On the 2-cube, once 00 and 11 send each
// other two packets a slot, the packets crossing 01 and 10 fill their links
// every slot, so those two nodes never inject again.
func TestDeflectionLockout(t *testing.T) {
	for _, scheme := range []string{"deflection-simple", "deflection-priority"} {
		c := slottedConfig(2, scheme, "0", 1, 1000)
		c.Slotted.Fixed = []int32{3, -1, -1, 0}
		n, err := Build(c)
		if err != nil {
			t.Fatal(err)
		}
		r, err := n.RunPlain()
		if err != nil {
			t.Fatal(err)
		}
		by := n.k.SlottedCounts().InjectedBy
		if by[1] != 0 || by[2] != 0 || by[0] != 2000 || by[3] != 2000 || r.Deflections.Mean != 0 {
			t.Errorf("%s: injected by node %v over 1000 slots, %v deflections a packet", scheme, by, r.Deflections.Mean)
		}
	}
}

// TestDeflectionBadInput: the crossbar node has no waiting places, and
// fixed destinations belong to the deflection schemes and the cube.
func TestDeflectionBadInput(t *testing.T) {
	for _, tc := range []struct {
		edit func(*Config)
		key  string
	}{
		{func(c *Config) { c.Slotted.K = "1" }, "slotted.k"},
		{func(c *Config) { c.Slotted.K = "inf" }, "slotted.k"},
		{func(c *Config) { c.Slotted.Scheme = "simple"; c.Slotted.Fixed = []int32{1} }, "slotted.scheme"},
		{func(c *Config) { c.Slotted.Fixed = []int32{0} }, "slotted.fixed"},
		{func(c *Config) { c.Slotted.Fixed = []int32{9} }, "slotted.fixed"},
	} {
		c := slottedConfig(3, "deflection-simple", "0", 1, 10)
		tc.edit(&c)
		_, err := Build(c)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Key != tc.key {
			t.Errorf("want an input error naming %s, got %v", tc.key, err)
		}
	}
}

// TestSlottedMeasuredPackets: measured_packets counts the packets that
// entered in the measured slots (the offered load's packets), and the run
// drains them, so measured_delivered + measured_dropped equals it.
func TestSlottedMeasuredPackets(t *testing.T) {
	for _, tc := range []struct{ scheme, k string }{{"simple", "0"}, {"priority", "1"}, {"simple", "inf"}, {"deflection-priority", "0"}} {
		r := runPlain(t, slottedConfig(4, tc.scheme, tc.k, 0.5, 500))
		nodes, slots := float64(16), float64(500)
		if r.MeasuredPackets == 0 || float64(r.MeasuredPackets) != r.Offered*nodes*slots {
			t.Errorf("%+v: measured %d packets, offered %v a node a slot", tc, r.MeasuredPackets, r.Offered)
		}
		if r.MeasuredDelivered+r.MeasuredDropped != r.MeasuredPackets || r.Incomplete || r.Status != StatusOK {
			t.Errorf("%+v: %d delivered + %d dropped of %d measured, status %s", tc, r.MeasuredDelivered, r.MeasuredDropped, r.MeasuredPackets, r.Status)
		}
		if tc.k == "0" && tc.scheme != "deflection-priority" && r.MeasuredDropped == 0 {
			t.Errorf("%+v: no measured packet dropped", tc)
		}
	}
}
