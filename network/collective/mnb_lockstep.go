package collective

import (
	"fmt"
	"math/bits"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

// The multinode broadcast on lock-step hardware (task.hardware=lockstep,
// the default): the symmetric schedule of mnbSteps makes every node send
// the same offset over the same dimension in a slot, so one control unit
// can broadcast each slot's register moves to all nodes at once
// (kernel's "lockstep" model, a SIMD hypercube). The registers are the
// offsets' holding registers of bcastSched (an interval colouring of the
// offsets' holding times), each node's register r holding the packet whose
// origin is node ⊕ offset. It is the schedule bcastSched runs node by node
// on the scheduled router (task.hardware=router), with the same slots,
// transmissions and deliveries (TestMNBLockstepMatchesRouter); without a
// record per packet copy it takes the 16-cube (18 425 registers × 65 536
// nodes: 151 MB of valid bits, the keys kept as one offset per register:
// kernel's lockstep_keys.go) where the router stops at the 14-cube.

// mnbHardware are task.hardware's values for mnb.
var mnbHardware = []string{"lockstep", "router"}

// maxDRouterMNB is the largest d the router runs MNB on (by memory: a
// 20-byte record per packet copy held, 0.28·N per node; d = 14 takes
// about 2 GB).
const maxDRouterMNB = 14

// mnbOnLockstep reads task.hardware for mnb: true for the lock-step
// hardware.
func mnbOnLockstep(spec topology.Spec, params map[string]string) (bool, error) {
	hw, ok := params["task.hardware"]
	if !ok || hw == "lockstep" {
		return true, nil
	}
	if hw != "router" {
		return false, inputerr.New("task.hardware", hw, "lockstep or router")
	}
	if spec.D > maxDRouterMNB {
		return false, inputerr.New("topology.d", spec.D, "an integer from 1 to %d for mnb with task.hardware=router (by the memory its packet copies take; task.hardware=lockstep runs to d = %d)", maxDRouterMNB, MaxDOf("mnb"))
	}
	return false, nil
}

// lockMnb is the MNB's lock-step schedule: per slot its register moves.
type lockMnb struct {
	moves [][]kernel.RegMove
	home  int32 // offset 0's register: each origin's own packet at slot 0
	ck    *checker
	n     int
}

// newLockMnb turns the symmetric schedule's entries into register moves:
// entry (x, j) sends register reg(x) over dimension j's port; the receiver
// keeps offset x ⊕ e_j in its register while it has sends of it left.
func newLockMnb(c *cube, ck *checker) (*lockMnb, int, error) {
	s := newBcastSched(c, mnbSteps(c.d), ck)
	s.registers()
	for j := 0; j < c.d; j++ {
		for v := 0; v < c.n; v++ {
			if c.port[v*c.d+j] != c.port[j] {
				return nil, 0, fmt.Errorf("hypercube node %d has dimension %d on port %d, node 0 on port %d: lock-step hardware needs one port per dimension", v, j, c.port[v*c.d+j], c.port[j])
			}
		}
	}
	l := &lockMnb{ck: ck, n: c.n, home: s.reg[0], moves: make([][]kernel.RegMove, len(s.steps))}
	for t, st := range s.steps {
		for _, e := range st {
			y := e.Off ^ 1<<e.Dim
			to := int32(-1)
			if s.last[y] > int32(t) {
				to = s.reg[y]
			}
			l.moves[t] = append(l.moves[t], kernel.RegMove{From: s.reg[e.Off], Port: c.port[e.Dim], To: to, Copy: !e.final})
		}
	}
	return l, s.nreg, nil
}

func (l *lockMnb) Moves(slot int64) []kernel.RegMove {
	if slot < int64(len(l.moves)) {
		return l.moves[slot]
	}
	return nil
}

// Arrived checks a move's deliveries: node u received origin key.At(u).
func (l *lockMnb) Arrived(_ int64, _ kernel.RegMove, at []uint64, key kernel.Keys) {
	for w, word := range at {
		l.ck.gotWord(w<<6, word, key)
	}
}

// gotWord is got(u, key.At(u)) for each node u = u0 + b with bit b of word
// set. When all of them received the same offset y ≠ 0 (origin = u ⊕ y: a
// symmetric schedule's arrivals, which the lock-step hardware hands over
// as the form y), their bits in the square checker are one aligned word of
// offset y's row, checked and set at once.
func (c *checker) gotWord(u0 int, word uint64, key kernel.Keys) {
	if word == 0 {
		return
	}
	c.alloc()
	if c.square && c.others && c.n&63 == 0 {
		y, same := int(key.Xor), key.Xor > 0
		if key.Xor < 0 { // (keys node by node: the same offset at all 64?)
			y = u0 ^ int(key.Of[u0+bits.TrailingZeros64(word)])
			same = y != 0 && sameOffset(u0, word, key.Of, y)
		}
		if i := (y*c.n + u0) >> 6; same && c.recv[i]&word == 0 {
			c.recv[i] |= word
			c.got1 += int64(bits.OnesCount64(word))
			return
		}
	}
	for ; word != 0; word &= word - 1 {
		u := u0 + bits.TrailingZeros64(word)
		c.got(u, int(key.At(u)), true)
	}
}

// sameOffset reports whether every node u = u0 + b with bit b of word set
// received origin u ⊕ y.
func sameOffset(u0 int, word uint64, key []uint16, y int) bool {
	if word == ^uint64(0) { // (the common case, without a jump per node)
		diff := 0
		for b, k := range key[u0 : u0+64] {
			diff |= (u0 + b) ^ int(k) ^ y
		}
		return diff == 0
	}
	for b := u0; b < u0+64; b++ {
		if word>>(b-u0)&1 != 0 && b^int(key[b]) != y {
			return false
		}
	}
	return true
}

// runMNBLockstep runs the multinode broadcast on the d-cube's lock-step
// hardware.
func runMNBLockstep(spec topology.Spec, seed uint64, o *Options) (*Result, error) {
	topo, g, err := buildNet(spec)
	if err != nil {
		return nil, err
	}
	c, err := newCube(topo)
	if err != nil {
		return nil, err
	}
	if c.n > 1<<16 {
		return nil, inputerr.New("topology.d", c.d, "at most 16 for the lock-step hardware (16-bit packet keys)")
	}
	ck := newCheckerOthers(c.n)
	s, nreg, err := newLockMnb(c, ck)
	if err != nil {
		return nil, err
	}
	k, err := kernel.NewKernel(topo, kernel.KernelSpec{Mode: xbar.SAF, OutDepth: 1, Latency: 1, Reuse: true, Seed: seed,
		Model: "lockstep", Lockstep: kernel.LockstepSpec{Schedule: s, Registers: nreg}})
	if err != nil {
		return nil, err
	}
	for v := 0; v < c.n; v++ {
		if err := k.LoadRegister(int32(v), s.home, uint16(v)); err != nil {
			return nil, err
		}
	}
	r := newResult(spec, "mnb", g)
	r.D, r.Params = c.d, []string{"task.hardware=lockstep"}
	describeMNB(r, c.n, c.d)
	return finish(k, r, ck, &proxy{limit: int64(len(s.moves)) + 1}, o)
}
