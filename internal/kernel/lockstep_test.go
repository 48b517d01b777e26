package kernel

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

// fixedMoves is a lock-step schedule given slot by slot; it records the
// arrivals it is told of.
type fixedMoves struct {
	slots [][]RegMove
	got   []regArrival
}

type regArrival struct {
	slot int64
	node int
	key  uint16
	m    RegMove
}

func (f *fixedMoves) Moves(slot int64) []RegMove {
	if slot < int64(len(f.slots)) {
		return f.slots[slot]
	}
	return nil
}

func (f *fixedMoves) Arrived(slot int64, m RegMove, at []uint64, key Keys) {
	for u := range len(at) * 64 {
		if at[u>>6]&(1<<(u&63)) != 0 {
			f.got = append(f.got, regArrival{slot, u, key.At(u), m})
		}
	}
}

func lockKernel(t *testing.T, ts topology.Spec, s LockstepScheduler, regs int) *Kernel {
	t.Helper()
	topo, err := topology.Build(ts)
	if err != nil {
		t.Fatal(err)
	}
	k, err := NewKernel(topo, KernelSpec{Mode: xbar.SAF, OutDepth: 1, Latency: 1, Model: "lockstep", Lockstep: LockstepSpec{Schedule: s, Registers: regs}})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// cubePort is the out-port of hypercube node 0 along dimension j.
func cubePort(k *Kernel, j int) int32 {
	for o, e := range k.Topo.Switches[0].Out {
		if e.Switch == 1<<j {
			return int32(o)
		}
	}
	return -1
}

// regs reads register reg at every node: the key, or −1 when empty.
func regs(k *Kernel, reg int32) []int {
	l := k.lock()
	out := make([]int, l.n)
	for v := range out {
		out[v] = -1
		if l.row(reg)[v>>6]&(1<<(v&63)) != 0 {
			out[v] = int(l.keyAt(reg, v))
		}
	}
	return out
}

// A slot reads the registers as they were at its start: two nodes swap
// their packets through one register, which each emptied and refilled in
// the same slot; a copy keeps the sender's.
func TestLockstepSwapAndCopy(t *testing.T) {
	f := &fixedMoves{}
	k := lockKernel(t, topology.Spec{Kind: "hypercube", D: 1}, f, 2)
	p := cubePort(k, 0)
	f.slots = [][]RegMove{{{From: 0, Port: p, To: 0}}, {{From: 0, Port: p, To: 1, Copy: true}}, {{From: 1, Port: p, To: -1}}}
	for v := range 2 {
		if err := k.LoadRegister(int32(v), 0, uint16(10+v)); err != nil {
			t.Fatal(err)
		}
	}
	k.Step()
	if got := regs(k, 0); !slices.Equal(got, []int{11, 10}) || k.FlitHops != 2 {
		t.Fatalf("after the swap: register 0 %v, hops %d", got, k.FlitHops)
	}
	k.Step()
	if r0, r1 := regs(k, 0), regs(k, 1); !slices.Equal(r0, []int{11, 10}) || !slices.Equal(r1, []int{10, 11}) || k.LockstepHeld() != 4 {
		t.Fatalf("after the copy: %v %v, held %d", r0, r1, k.LockstepHeld())
	}
	k.Step()
	if r1 := regs(k, 1); !slices.Equal(r1, []int{-1, -1}) || k.LockstepHeld() != 2 || k.Idle() {
		t.Fatalf("after delivering register 1: %v, held %d", r1, k.LockstepHeld())
	}
	want := []regArrival{{0, 0, 11, f.slots[0][0]}, {0, 1, 10, f.slots[0][0]}, {1, 0, 10, f.slots[1][0]}, {1, 1, 11, f.slots[1][0]},
		{2, 0, 11, f.slots[2][0]}, {2, 1, 10, f.slots[2][0]}}
	if !slices.Equal(f.got, want) {
		t.Fatalf("arrivals %v, want %v", f.got, want)
	}
	if k.ScheduleError() != nil {
		t.Fatal(k.ScheduleError())
	}
}

// A slot that breaks the hardware's rules is refused whole: nothing
// moves and ScheduleError says what went wrong.
func TestLockstepRefusals(t *testing.T) {
	cases := []struct {
		name  string
		moves func(p0, p1, term int32) []RegMove
		want  string
	}{
		{"one link twice", func(p0, _, _ int32) []RegMove {
			return []RegMove{{From: 0, Port: p0, To: 2, Copy: true}, {From: 1, Port: p0, To: 3}}
		}, "two packets on one link direction"},
		{"sent twice", func(p0, p1, _ int32) []RegMove {
			return []RegMove{{From: 0, Port: p0, To: 2}, {From: 0, Port: p1, To: 3}}
		}, "sent on two links"},
		{"full register", func(p0, _, _ int32) []RegMove { return []RegMove{{From: 0, Port: p0, To: 1}} }, "which is full"},
		{"two arrivals", func(p0, p1, _ int32) []RegMove {
			return []RegMove{{From: 0, Port: p0, To: 2, Copy: true}, {From: 1, Port: p1, To: 2, Copy: true}}
		}, "two arrivals for register 2"},
		{"no such register", func(p0, _, _ int32) []RegMove { return []RegMove{{From: 0, Port: p0, To: 9}} }, "does not exist"},
		{"terminal port", func(_, _, term int32) []RegMove { return []RegMove{{From: 0, Port: term, To: 2}} }, "not a link"},
	}
	for _, c := range cases {
		f := &fixedMoves{}
		k := lockKernel(t, topology.Spec{Kind: "hypercube", D: 2}, f, 4)
		term := int32(-1)
		for o, e := range k.Topo.Switches[0].Out {
			if e.Switch < 0 {
				term = int32(o)
			}
		}
		f.slots = [][]RegMove{c.moves(cubePort(k, 0), cubePort(k, 1), term)}
		for v := range 4 {
			for r := range 2 {
				if err := k.LoadRegister(int32(v), int32(r), uint16(4*r+v)); err != nil {
					t.Fatal(err)
				}
			}
		}
		before := [][]int{regs(k, 0), regs(k, 1), regs(k, 2), regs(k, 3)}
		k.Step()
		err := k.ScheduleError()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
		after := [][]int{regs(k, 0), regs(k, 1), regs(k, 2), regs(k, 3)}
		for r := range after {
			if !slices.Equal(before[r], after[r]) {
				t.Errorf("%s: register %d changed %v → %v", c.name, r, before[r], after[r])
			}
		}
		if k.FlitHops != 0 || len(f.got) != 0 {
			t.Errorf("%s: %d hops, %d arrivals in a refused slot", c.name, k.FlitHops, len(f.got))
		}
	}
}

// Ports that are not a hypercube dimension (a ring's) take the general
// path: every packet goes to the neighbour the topology names.
func TestLockstepRingPort(t *testing.T) {
	f := &fixedMoves{}
	k := lockKernel(t, topology.Spec{Kind: "torus", K: 5, N: 1}, f, 1)
	l := k.lock()
	for p := range l.nbr {
		if l.xorOf[p] >= 0 {
			t.Fatalf("ring port %d taken for a hypercube dimension", p)
		}
	}
	f.slots = [][]RegMove{{{From: 0, Port: 0, To: 0}}}
	for v := range 5 {
		if err := k.LoadRegister(int32(v), 0, uint16(100+v)); err != nil {
			t.Fatal(err)
		}
	}
	k.Step()
	if err := k.ScheduleError(); err != nil {
		t.Fatal(err)
	}
	got := regs(k, 0)
	for v := range 5 {
		if u := k.Topo.Switches[v].Out[0].Switch; got[u] != 100+v {
			t.Errorf("node %d's packet: node %d holds %d", v, u, got[u])
		}
	}
}

// The hypercube's word and block copies move bit v and key v to v ⊕ c.
func TestLockstepXorCopies(t *testing.T) {
	const n = 1024
	r := rand.New(rand.NewPCG(1, 2))
	src, keys := make([]uint64, n/64), make([]uint16, n)
	for i := range src {
		src[i] = r.Uint64()
	}
	for i := range keys {
		keys[i] = uint16(r.Uint32())
	}
	for c := 1; c < n; c *= 2 {
		dst, dk := make([]uint64, n/64), make([]uint16, n)
		xorBits(dst, src, c)
		xorKeys(dk, keys, c)
		for v := range n {
			u := v ^ c
			if dst[u>>6]>>(u&63)&1 != src[v>>6]>>(v&63)&1 || dk[u] != keys[v] {
				t.Fatalf("c=%d: node %d → %d moved wrongly", c, v, u)
			}
		}
	}
}

// Registers with and without a form (lockstep_keys.go) against a model
// that keeps every node's key: random loads (one offset's keys at every
// node, at some nodes, or any keys) and random valid slots on the 7-cube
// give the same arrivals and registers, slot by slot.
func TestLockstepFormsMatchKeys(t *testing.T) {
	const d, nreg, slots = 7, 6, 200
	const n = 1 << d
	r := rand.New(rand.NewPCG(3, 4))
	f := &fixedMoves{}
	k := lockKernel(t, topology.Spec{Kind: "hypercube", D: d}, f, nreg)
	ref := make([][]int, nreg) // the model: per register, per node, the key or −1
	for reg := range ref {
		ref[reg] = make([]int, n)
		x, kind := r.IntN(n), r.IntN(4) // 0: empty, 1: one offset, 2: one offset at an eighth of the nodes, 3: any keys
		for v := range n {
			ref[reg][v] = -1
			if kind == 1 || kind == 2 && r.IntN(8) == 0 || kind == 3 {
				key := v ^ x
				if kind == 3 {
					key = r.IntN(1 << 16)
				}
				ref[reg][v] = key
				if err := k.LoadRegister(int32(v), int32(reg), uint16(key)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for slot := range slots {
		moves, want := randomSlot(r, ref, d, func(j int) int32 { return cubePort(k, j) })
		f.slots = append(f.slots, moves)
		f.got = f.got[:0]
		k.Step()
		if err := k.ScheduleError(); err != nil {
			t.Fatalf("slot %d: %v", slot, err)
		}
		if len(f.got) != len(want) {
			t.Fatalf("slot %d: %d arrivals, want %d", slot, len(f.got), len(want))
		}
		for i, a := range f.got {
			if a.node != want[i].node || a.key != want[i].key || a.m != want[i].m {
				t.Fatalf("slot %d: arrival %d is %+v, want %+v", slot, i, a, want[i])
			}
		}
		for reg := range ref {
			if got := regs(k, int32(reg)); !slices.Equal(got, ref[reg]) {
				t.Fatalf("slot %d: register %d %v, want %v", slot, reg, got, ref[reg])
			}
		}
	}
}

// randomSlot draws a valid slot for the model ref (one move per dimension
// at most, each from a different register, a few of them copies),
// carries it out on ref and returns it with its arrivals, move by move.
// A move's To is a register that holds no packet where the move's arrive
// (emptied by the slot, empty, or full elsewhere), or −1.
func randomSlot(r *rand.Rand, ref [][]int, d int, port func(int) int32) ([]RegMove, []regArrival) {
	nreg := len(ref)
	from, to := r.Perm(nreg), r.Perm(nreg)
	var moves []RegMove
	sent := make([]bool, nreg)
	for j := range min(d, 1+r.IntN(4)) {
		m := RegMove{From: int32(from[j]), Port: port(r.IntN(d)), Copy: r.IntN(3) == 0}
		if slices.ContainsFunc(moves, func(o RegMove) bool { return o.Port == m.Port }) {
			continue
		}
		sent[m.From] = sent[m.From] || !m.Copy
		moves = append(moves, m)
	}
	var want []regArrival
	arrived := make([][]int, len(moves))
	for i, m := range moves {
		c := 0
		for j := range d {
			if port(j) == m.Port {
				c = 1 << j
			}
		}
		arrived[i] = make([]int, len(ref[0]))
		for v, key := range ref[m.From] {
			arrived[i][v^c] = key
		}
		for u, key := range arrived[i] {
			if key >= 0 {
				want = append(want, regArrival{node: u, key: uint16(key)})
			}
		}
	}
	for reg := range ref {
		if sent[reg] {
			for v := range ref[reg] {
				ref[reg][v] = -1
			}
		}
	}
	free, a := 0, 0
	for i := range moves {
		moves[i].To = -1
		for ; free < nreg && moves[i].To < 0; free++ {
			if reg := to[free]; disjoint(ref[reg], arrived[i]) && r.IntN(4) > 0 {
				moves[i].To = int32(reg)
			}
		}
		for _, key := range arrived[i] { // (the arrivals' move, now that its To is known)
			if key >= 0 {
				want[a].m = moves[i]
				a++
			}
		}
	}
	for i, m := range moves {
		for u, key := range arrived[i] {
			if m.To >= 0 && key >= 0 {
				ref[m.To][u] = key
			}
		}
	}
	return moves, want
}

// disjoint reports whether no node holds a key in both a and b.
func disjoint(a, b []int) bool {
	for v := range a {
		if a[v] >= 0 && b[v] >= 0 {
			return false
		}
	}
	return true
}
