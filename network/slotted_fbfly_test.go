package network

import (
	"math"
	"reflect"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// TestFoldedButterflyIsTheHypercubeSlotBySlot: greedy routing on the
// folded butterfly (§5.5) and the descending-dimensions hypercube are one
// network slot by slot: with the same seed every count is equal (packets
// entered, delivered, dropped by cause, on links; p_type; delivery slots;
// π), for both schemes, unbuffered and buffered. The butterfly has d nodes
// per hypercube node (a row), so its throughput per node is the hypercube's
// divided by d.
func TestFoldedButterflyIsTheHypercubeSlotBySlot(t *testing.T) {
	for _, scheme := range []string{"simple", "priority"} {
		for _, k := range []string{"0", "1", "inf"} {
			c := slottedConfig(5, scheme, k, 0.4, 300)
			cube := runPlain(t, c)
			c.Topology.Kind = "folded-butterfly"
			fb := runPlain(t, c)
			same := cube.InjectedPackets == fb.InjectedPackets && cube.DeliveredPackets == fb.DeliveredPackets &&
				*cube.Dropped == *fb.Dropped && cube.Backlog == fb.Backlog &&
				reflect.DeepEqual(cube.DroppedByCause, fb.DroppedByCause) && reflect.DeepEqual(cube.PType, fb.PType) &&
				reflect.DeepEqual(cube.DeliverySlots, fb.DeliverySlots) && reflect.DeepEqual(cube.Pi, fb.Pi)
			if !same || cube.DeliveredPackets == 0 {
				t.Errorf("%s k=%s: hypercube %d in, %d out, %d dropped; folded butterfly %d, %d, %d", scheme, k,
					cube.InjectedPackets, cube.DeliveredPackets, *cube.Dropped, fb.InjectedPackets, fb.DeliveredPackets, *fb.Dropped)
			}
			if got, want := *fb.ThroughputPerNode*5, *cube.ThroughputPerNode; math.Abs(got-want) > 1e-12*want {
				t.Errorf("%s k=%s: folded butterfly d·R = %g, hypercube R = %g", scheme, k, got, want)
			}
			if fb.Violations.Misdelivered != 0 {
				t.Errorf("%s k=%s: %d packets delivered away from their row", scheme, k, fb.Violations.Misdelivered)
			}
		}
	}
}

// TestFoldedButterflySchemes: only greedy routing (simple, priority) runs
// on the folded butterfly; the deflecting crossbar node is the hypercube's.
func TestFoldedButterflySchemes(t *testing.T) {
	for _, scheme := range []string{"deflection-simple", "deflection-priority"} {
		c := slottedConfig(4, scheme, "0", 0.5, 100)
		c.Topology.Kind = "folded-butterfly"
		_, err := Build(c)
		if e, ok := inputerr.As(err); !ok || e.Key != "slotted.scheme" {
			t.Errorf("%s on the folded butterfly: want an error naming slotted.scheme, got %v", scheme, err)
		}
	}
	c := slottedConfig(4, "simple", "0", 0.5, 100)
	c.Topology = TopologyConfig{Kind: "ccc-plus", N: 4} // (a wrapped butterfly, but ascending: not the layout)
	if _, err := Build(c); err == nil {
		t.Error("ccc-plus taken by the slotted router")
	}
}

// TestSlottedPiMatchesEq547: on a run that drops nothing (k = inf), the
// measured head-of-queue distance histogram is eq. 5.47's π_i =
// (2/d)·Σ_{j≥i} C(d,j)·2^−d (within 0.003 each), summing to 1; a dropping
// run (k = 0) is skewed towards the far distances, dropped packets never
// reaching the near ones; the deflection schemes have none.
func TestSlottedPiMatchesEq547(t *testing.T) {
	d := 4
	r := runPlain(t, slottedConfig(d, "simple", "inf", 0.5, 6000))
	if len(r.Pi) != d {
		t.Fatalf("pi %v, want %d values", r.Pi, d)
	}
	sum := 0.0
	for i, got := range r.Pi {
		want := 0.0
		for j := i + 1; j <= d; j++ {
			want += float64(binom(d, j))
		}
		want *= 2 / float64(d) / float64(int(1)<<d)
		if math.Abs(got-want) > 0.003 {
			t.Errorf("π_%d = %.5f, eq. 5.47 %.5f", i+1, got, want)
		}
		sum += got
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("Σπ = %g", sum)
	}
	drop := runPlain(t, slottedConfig(d, "simple", "0", 1, 2000))
	if drop.Pi[0] >= r.Pi[0] {
		t.Errorf("k = 0, p0 = 1: π_1 %.4f not below the no-drop %.4f", drop.Pi[0], r.Pi[0])
	}
	if defl := runPlain(t, slottedConfig(d, "deflection-simple", "0", 0.5, 100)); defl.Pi != nil {
		t.Errorf("deflection: pi %v", defl.Pi)
	}
}

// binom is C(n, k).
func binom(n, k int) int64 {
	r := int64(1)
	for i := 1; i <= k; i++ {
		r = r * int64(n-k+i) / int64(i)
	}
	return r
}
