package collective

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

func run(t *testing.T, d int, task string, params map[string]string) *Result {
	t.Helper()
	r, err := Run(topology.Spec{Kind: "hypercube", D: d}, task, params, 1)
	if err != nil {
		t.Fatalf("%s d=%d: %v", task, d, err)
	}
	if !r.Delivered || r.Deliveries == 0 {
		t.Fatalf("%s d=%d: not delivered (missing %d, duplicates %d, stray %d)", task, d, r.Missing, r.Duplicates, r.Stray)
	}
	if r.Slots < float64(r.LowerBound) {
		t.Fatalf("%s d=%d: %g slots beat the lower bound %g", task, d, r.Slots, r.LowerBound)
	}
	return r
}

// TE in exactly N/2 slots on the d-cube (digest 000a §4.5), every link busy
// in every slot; SNB in d; MNB in ⌈(N−1)/d⌉, within ⌈N/d⌉+2d−1.
func TestHypercubeExact(t *testing.T) {
	for d := 2; d <= 8; d++ {
		n := 1 << d
		if r := run(t, d, "te", nil); r.Slots != float64(n/2) || r.LowerBound != float64(n/2) || r.LinkUtilisation != 1 || r.Deliveries != int64(n*(n-1)) {
			t.Errorf("te d=%d: %g slots (lower bound %g, utilisation %g, %d deliveries), want N/2 = %d", d, r.Slots, r.LowerBound, r.LinkUtilisation, r.Deliveries, n/2)
		}
		if r := run(t, d, "snb", map[string]string{"task.root": "1"}); r.Slots != float64(d) || r.Deliveries != int64(n-1) {
			t.Errorf("snb d=%d: %g slots, %d deliveries, want d", d, r.Slots, r.Deliveries)
		}
		r := run(t, d, "mnb", nil)
		if want := int64((n - 1 + d - 1) / d); r.Slots != float64(want) || r.Slots > *r.UpperBound || r.Deliveries != int64(n*(n-1)) {
			t.Errorf("mnb d=%d: %g slots, want ⌈(N−1)/d⌉ = %d (upper bound %g)", d, r.Slots, want, *r.UpperBound)
		}
	}
}

// (K,L)-exchange in h = max(L, Σ C(d,i)·i/d) (digest 000a §8 item 3).
func TestKLExchange(t *testing.T) {
	for _, c := range []struct{ d, k, l, h int }{
		{4, 1, 1, 1}, {4, 1, 2, 4}, {4, 2, 2, 3}, {4, 2, 4, 7}, {5, 2, 3, 10}, {6, 3, 3, 10}, {6, 1, 6, 32}, {8, 1, 2, 8},
	} {
		r := run(t, c.d, "kl-exchange", map[string]string{"task.k": itoa(c.k), "task.l": itoa(c.l)})
		if r.Slots != float64(c.h) || *r.Formula != float64(c.h) {
			t.Errorf("kl-exchange d=%d (%d,%d): %g slots, formula %g, want %d", c.d, c.k, c.l, r.Slots, *r.Formula, c.h)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		task string
		p    map[string]string
		key  string
	}{
		{"nope", nil, "--task"},
		{"te", map[string]string{"task.k": "1"}, "task.k"},
		{"kl-exchange", map[string]string{"task.k": "x"}, "task.k"},
		{"kl-exchange", map[string]string{"task.l": "9"}, "task.l"},
		{"snb", map[string]string{"task.root": "16"}, "task.root"},
	} {
		_, err := Run(topology.Spec{Kind: "hypercube", D: 4}, c.task, c.p, 1)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Key != c.key {
			t.Errorf("%s %v: error %v, want an input error for %s", c.task, c.p, err, c.key)
		}
	}
	if _, err := Run(topology.Spec{Kind: "mesh", K: 4, N: 2}, "te", nil, 1); err == nil {
		t.Error("te on a mesh was accepted")
	}
}

// badSched puts both packets of node 0 on its dimension-0 link in slot 0.
type badSched struct{ wi []int32 }

func (b *badSched) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	if node != 0 {
		return out
	}
	for _, wi := range b.wi {
		out = append(out, kernel.SlotSend{Packet: wi, Port: 0})
	}
	return out
}

func (b *badSched) Arrived(int64, int32, int32, int32) bool { return false }

// The hardware refuses two packets on one link direction in one slot: the
// error names the link, the slot and both packets, and nothing moves.
func TestRefusesConflict(t *testing.T) {
	topo, err := topology.Build(topology.Spec{Kind: "hypercube", D: 3, Routing: "ecube"})
	if err != nil {
		t.Fatal(err)
	}
	b := &badSched{}
	k, err := kernel.NewKernel(topo, kernel.KernelSpec{Mode: xbar.SAF, OutDepth: 1, Latency: 1, Model: "packet", Packet: kernel.PacketSpec{Schedule: b}})
	if err != nil {
		t.Fatal(err)
	}
	b.wi = []int32{k.EnqueueScheduled(0, 1, 0), k.EnqueueScheduled(0, 1, 0)}
	k.Step()
	err = k.ScheduleError()
	var sc *kernel.ScheduleConflict
	if !errors.As(err, &sc) || sc.Slot != 0 || len(sc.Packets) != 2 || sc.Link == "" || !strings.Contains(err.Error(), "two packets on one link") {
		t.Fatalf("error %v, want a conflict naming the link, slot 0 and two packets", err)
	}
	if k.FlitHops != 0 || k.Idle() {
		t.Fatalf("a refused slot moved packets: %d hops", k.FlitHops)
	}
	t.Log(err)
}

// PMNB 𝒜_0 (no splitting, t_p = 0) takes exactly d + Σ⌈M/2^k⌉ (digest
// 000a §7.3's 𝒜_0 column), within Lemma 5's M(N−1)/N + 2d; its packing
// keeps the paths node-disjoint.
func TestPMNB(t *testing.T) {
	for _, c := range []struct{ d, m, want int }{{3, 1, 6}, {3, 4, 7}, {3, 8, 10}, {4, 5, 11}, {4, 16, 19}, {5, 16, 21}, {5, 32, 36}, {8, 16, 27}, {8, 100, 111}, {8, 256, 263}} {
		for seed := uint64(1); seed <= 3; seed++ {
			r, err := Run(topology.Spec{Kind: "hypercube", D: c.d}, "pmnb", map[string]string{"task.m": itoa(c.m)}, seed)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Delivered || r.Slots != float64(c.want) || *r.Formula != float64(c.want) || r.Slots > *r.UpperBound || r.Slots < float64(r.LowerBound) || r.MaxAtNode > 1 {
				t.Errorf("pmnb d=%d M=%d seed %d: %g slots (formula %g, bounds %g..%g), delivered %v, %d at a node; want %d",
					c.d, c.m, seed, r.Slots, *r.Formula, r.LowerBound, *r.UpperBound, r.Delivered, r.MaxAtNode, c.want)
			}
		}
	}
	for m := 1; m <= 64; m += 7 {
		r, err := Run(topology.Spec{Kind: "hypercube", D: 6}, "packing", map[string]string{"task.m": itoa(m)}, uint64(m))
		if err != nil {
			t.Fatal(err)
		}
		if !r.Delivered || r.Slots > 6 || r.MaxAtNode > 1 {
			t.Errorf("packing d=6 M=%d: %g slots, delivered %v, %d at a node", m, r.Slots, r.Delivered, r.MaxAtNode)
		}
	}
}

// WMNB with packets split into d mini-packets takes exactly M+1 mini-slots
// for every 1 ≤ m < d ≤ 8 (digest 000a §5.13), (M+1)/d slots.
func TestWMNB(t *testing.T) {
	for d := 2; d <= 8; d++ {
		for m := 1; m < d; m++ {
			r := run(t, d, "wmnb", map[string]string{"task.m": itoa(m)})
			mm := int64(1) << m
			if r.MiniSlots == nil || *r.MiniSlots != mm+1 || r.Slots != float64(mm+1)/float64(d) || r.Deliveries != (mm-1)*mm*int64(d) {
				t.Errorf("wmnb d=%d m=%d: %g slots, mini-slots %v, %d deliveries; want %d mini-slots", d, m, r.Slots, r.MiniSlots, r.Deliveries, mm+1)
			}
		}
	}
}

// PMNB Algorithm II (packets split into d mini-packets, class c on labels
// rotated by c) takes exactly 1 + Σ⌈M/2^k⌉/d (digest 000a §7.3's II
// column, t_p = 0) with no two classes on one link in a mini-slot.
func TestPMNBII(t *testing.T) {
	for _, c := range []struct {
		d, m int
		want float64
	}{{3, 1, 2}, {3, 4, 7.0 / 3}, {4, 5, 2.75}, {4, 16, 4.75}, {5, 16, 4.2}, {8, 16, 3.375}, {8, 100, 13.875}, {8, 256, 32.875}} {
		r, err := Run(topology.Spec{Kind: "hypercube", D: c.d}, "pmnb", map[string]string{"task.m": itoa(c.m), "task.algorithm": "ii"}, 7)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Delivered || math.Abs(r.Slots-c.want) > 1e-9 || r.Slots > *r.UpperBound || r.Slots < r.LowerBound {
			t.Errorf("pmnb II d=%d M=%d: %g slots (mini-slots %v), delivered %v; want %g", c.d, c.m, r.Slots, r.MiniSlots, r.Delivered, c.want)
		}
	}
}
