package kernel

import (
	"fmt"
	"math/bits"
)

// Lock-step slots (KernelSpec.Model "lockstep", KernelSpec.Lockstep): a
// SIMD machine of store-and-forward nodes — one control unit broadcasts
// each slot's register moves and every node carries them out at once, as
// the Connection Machine's hypercube nodes did. It is the hardware for a
// symmetric schedule (Varvarigos 1992, digest 000a §3.2: every node sends
// the packet of the same offset over the same dimension in a slot), where
// the scheduled router (packet_sched.go) would ask each of N nodes the
// same question every slot and keep every copy as a record.
//
// A node has a file of registers (LockstepSpec.Registers), numbered alike
// at every node; a register is empty or holds one packet, named by a 16-bit
// key (the schedule's packet: a broadcast's origin). In a slot the
// schedule gives moves; move m makes every node whose register m.From
// holds a packet send it over its out-port m.Port (the same port number
// at every node). The packet that arrives is delivered at the receiving
// node (reported to Arrived) and, when m.To ≥ 0, also kept there in
// register m.To. A move with Copy leaves the packet in m.From at the
// sender; without, m.From empties.
//
// One cycle, two phases: every move reads the registers as they were at
// the start of the slot (evaluate); then sent registers empty and arrivals
// fill their registers (commit) — so a register a slot empties can take
// an arrival of the same slot. The hardware refuses a slot (ScheduleError,
// the slot moves nothing) that puts two packets on one link direction, a
// packet on a port that is no link, the same packet on two links without
// Copy, or an arrival into a register that stays full.
//
// It keeps no per-packet records, flit.Worm or per-link statistics: a
// register file is N valid bits and N keys (or, for a register that holds
// one offset's packets at every node, the offset: lockstep_keys.go), and
// the slot's counts are FlitHops (packets crossing a link, copies
// included).

// RegMove is one register move of a lock-step slot, made by every node
// whose register From holds a packet.
type RegMove struct {
	From, Port int32
	To         int32 // the receiver's register, or −1: delivered only
	Copy       bool  // the sender keeps the packet
}

// LockstepScheduler is a lock-step schedule.
type LockstepScheduler interface {
	// Moves are slot's moves (nil: none).
	Moves(slot int64) []RegMove
	// Arrived reports move m's arrivals at the end of slot: node u
	// received the packet key.At(u) when bit u of at is set.
	Arrived(slot int64, m RegMove, at []uint64, key Keys)
}

// LockstepSpec configures the lock-step model.
type LockstepSpec struct {
	Schedule  LockstepScheduler
	Registers int // per node
}

// lockstep is the stepper.
type lockstep struct {
	s           LockstepScheduler
	n, words    int
	nreg        int
	nbr         [][]int32  // per out-port number: each node's neighbour over it, or −1
	valid       []uint64   // register × words: bit v, node v's register is full
	cnt         []int64    // per register: its valid bits
	form        []int32    // per register: x when node v holds the key v ⊕ x, else −1 (lockstep_keys.go)
	key         [][]uint16 // per register without a form: the key held at each node (valid bits say which)
	symbolic    bool       // forms are kept (node numbers fit a key)
	live        int64      // packets held
	hops        int64      // packets sent in the last slot
	xorOf       []int32    // per port: c when the neighbour of every node v is v ⊕ c, else −1
	used        [][]uint64
	arr         [][]uint64 // per move of the slot: the receivers
	arrForm     []int32    // per move of the slot: its arrivals' form, or −1
	arrKey      [][]uint16 // per move of the slot without a form: the packet by receiver
	emptied     []bool     // per register: a move without Copy sends it this slot
	filledBy    []int32    // per register: the first move of the slot that fills it, or −1
	err         *ScheduleConflict
	unreachable int32 // scratch: a node without a link on the port, or −1
}

func init() { switchModels["lockstep"] = newLockstep }

func newLockstep(k *Kernel) Stepper {
	spec := k.spec.Lockstep
	n := len(k.Topo.Switches)
	l := &lockstep{s: spec.Schedule, n: n, words: (n + 63) / 64, nreg: max(spec.Registers, 1)}
	ports := 0
	for _, sw := range k.Topo.Switches {
		ports = max(ports, len(sw.Out))
	}
	l.nbr, l.xorOf, l.used = make([][]int32, ports), make([]int32, ports), make([][]uint64, ports)
	for p := range l.nbr {
		l.nbr[p], l.used[p] = fill(n, -1), make([]uint64, l.words)
		for v, sw := range k.Topo.Switches {
			if p < len(sw.Out) && sw.Out[p].Switch >= 0 {
				l.nbr[p][v] = sw.Out[p].Switch
			}
		}
		l.xorOf[p] = xorPattern(l.nbr[p])
	}
	l.valid = make([]uint64, l.nreg*l.words)
	l.cnt, l.key = make([]int64, l.nreg), make([][]uint16, l.nreg)
	l.symbolic = n <= 1<<16
	l.form = fill(l.nreg, -1)
	if l.symbolic {
		clear(l.form)
	}
	l.emptied, l.filledBy = make([]bool, l.nreg), fill(l.nreg, -1)
	k.fast = false
	return l
}

// xorPattern is c when nbr[v] = v ⊕ c for every node v (a hypercube
// dimension's port, c a power of two), else −1.
func xorPattern(nbr []int32) int32 {
	if len(nbr) == 0 || nbr[0] <= 0 || nbr[0]&(nbr[0]-1) != 0 {
		return -1
	}
	c := nbr[0]
	for v, u := range nbr {
		if u != int32(v)^c {
			return -1
		}
	}
	return c
}

// lock is the kernel's lock-step model, or nil.
func (k *Kernel) lock() *lockstep {
	l, _ := k.stepper.(*lockstep)
	return l
}

// LoadRegister puts the packet key into register reg of node (before the
// first slot).
func (k *Kernel) LoadRegister(node, reg int32, key uint16) error {
	l := k.lock()
	if l == nil {
		return fmt.Errorf("kernel: LoadRegister needs the lockstep model")
	}
	if node < 0 || int(node) >= l.n || reg < 0 || int(reg) >= l.nreg {
		return fmt.Errorf("kernel: register %d of node %d does not exist (%d nodes, %d registers)", reg, node, l.n, l.nreg)
	}
	row := l.valid[int(reg)*l.words:]
	if row[node>>6]&(1<<(node&63)) != 0 {
		return fmt.Errorf("kernel: register %d of node %d is full", reg, node)
	}
	l.setKey(reg, int(node), key)
	row[node>>6] |= 1 << (node & 63)
	l.cnt[reg]++
	l.live++
	return nil
}

// LockstepHeld is the number of packets the registers hold.
func (k *Kernel) LockstepHeld() int64 {
	if l := k.lock(); l != nil {
		return l.live
	}
	return 0
}

func (l *lockstep) row(reg int32) []uint64 {
	return l.valid[int(reg)*l.words : int(reg+1)*l.words]
}

func (l *lockstep) step(k *Kernel) {
	k.nmoved = 0
	if l.err == nil && l.live > 0 {
		moves := l.s.Moves(k.now)
		if l.evaluate(k, moves) {
			l.commit(k, moves)
			k.nmoved = int(l.hops)
			k.FlitHops += l.hops
		}
	}
	k.now++
}

// moves and rule: a lock-step node never waits (a refused slot is an
// error, not a stall).
func (l *lockstep) moves(*Kernel, int32) bool        { return false }
func (l *lockstep) rule(*Kernel, int32, *holds) bool { return false }

// evaluate checks the slot's moves and stages their arrivals, changing no
// register; false refuses the slot (l.err).
func (l *lockstep) evaluate(k *Kernel, moves []RegMove) bool {
	for len(l.arr) < len(moves) {
		l.arr, l.arrKey, l.arrForm = append(l.arr, make([]uint64, l.words)), append(l.arrKey, nil), append(l.arrForm, -1)
	}
	for p := range l.used {
		clear(l.used[p])
	}
	for i, m := range moves {
		if problem := l.checkMove(i, m, moves); problem != "" {
			l.refuse(k, m, problem)
			return false
		}
		l.stage(i, m)
	}
	return l.checkFills(k, moves)
}

// checkMove checks move i's registers, port and link use.
func (l *lockstep) checkMove(i int, m RegMove, moves []RegMove) string {
	if m.From < 0 || int(m.From) >= l.nreg || m.To < -1 || int(m.To) >= l.nreg {
		return fmt.Sprintf("register %d or %d does not exist (%d registers)", m.From, m.To, l.nreg)
	}
	if m.Port < 0 || int(m.Port) >= len(l.nbr) {
		return fmt.Sprintf("port %d does not exist", m.Port)
	}
	from, used := l.row(m.From), l.used[m.Port]
	l.unreachable = -1
	for w, word := range from {
		if used[w]&word != 0 {
			return "two packets on one link direction in one slot"
		}
		used[w] |= word
	}
	if l.xorOf[m.Port] < 0 {
		for w, word := range from {
			for ; word != 0; word &= word - 1 {
				if v := w<<6 + bits.TrailingZeros64(word); l.nbr[m.Port][v] < 0 {
					l.unreachable = int32(v)
					return fmt.Sprintf("port %d is not a link to another node", m.Port)
				}
			}
		}
	}
	if !m.Copy {
		for _, o := range moves[:i] {
			if o.From == m.From && !o.Copy && anyBit(from) {
				return "a packet sent on two links in one slot (only copies may be)"
			}
		}
	}
	return ""
}

func anyBit(b []uint64) bool {
	for _, w := range b {
		if w != 0 {
			return true
		}
	}
	return false
}

// checkFills refuses an arrival into a register that stays full (not
// emptied by the slot, or filled by another move of the slot).
func (l *lockstep) checkFills(k *Kernel, moves []RegMove) bool {
	for _, m := range moves {
		if !m.Copy {
			l.emptied[m.From] = true
		}
	}
	defer func() {
		for _, m := range moves {
			l.emptied[m.From] = false
			if m.To >= 0 {
				l.filledBy[m.To] = -1
			}
		}
	}()
	for i, m := range moves {
		if m.To < 0 {
			continue
		}
		var clash []uint64
		if !l.emptied[m.To] {
			clash = l.row(m.To)
		}
		if j := l.filledBy[m.To]; j >= 0 {
			if overlaps(l.arr[j], l.arr[i]) {
				l.refuse(k, m, fmt.Sprintf("two arrivals for register %d in one slot", m.To))
				return false
			}
		} else {
			l.filledBy[m.To] = int32(i)
		}
		if clash != nil && overlaps(clash, l.arr[i]) {
			l.refuse(k, m, fmt.Sprintf("an arrival for register %d, which is full", m.To))
			return false
		}
	}
	return true
}

func overlaps(a, b []uint64) bool {
	for w := range a {
		if a[w]&b[w] != 0 {
			return true
		}
	}
	return false
}

// refuse records a refused slot: the move and what it broke.
func (l *lockstep) refuse(k *Kernel, m RegMove, problem string) {
	node := l.unreachable // (else the lowest node making the move: all do)
	for w, word := range l.row(m.From) {
		if node < 0 && word != 0 {
			node = int32(w<<6 + bits.TrailingZeros64(word))
		}
	}
	l.err = &ScheduleConflict{Slot: k.now, Node: node, Problem: fmt.Sprintf("%s (move register %d → port %d → register %d)", problem, m.From, m.Port, m.To)}
}

// commit empties the sent registers, fills the arrivals' and reports them.
func (l *lockstep) commit(k *Kernel, moves []RegMove) {
	l.hops = 0
	for _, m := range moves {
		l.hops += l.cnt[m.From] // (every full From sends: checkMove)
	}
	for _, m := range moves {
		if !m.Copy && l.cnt[m.From] > 0 {
			l.live -= l.cnt[m.From]
			l.cnt[m.From] = 0
			clear(l.row(m.From))
		}
	}
	for i, m := range moves {
		keys := Keys{l.arrForm[i], l.arrKey[i]}
		if m.To >= 0 {
			l.fill(m.To, l.arr[i], keys)
		}
		l.s.Arrived(k.now, m, l.arr[i], keys)
	}
}

// Idle reports (with Kernel.Idle) a lock-step network holding nothing.
func (l *lockstep) idle() bool { return l.live == 0 }
