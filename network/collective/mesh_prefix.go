package collective

import (
	"fmt"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// meshPrefix is the mesh PMNB's rank computation (Phase 1, §3.4.1, digest
// §5.6) as messages on the links, along the prefix tree P: d forward
// subphases of p−1 steps (along virtual dimension v the nodes whose lower
// digits are all p−1 pass a running sum up their line, so the line's last
// node learns its block's total) and d reverse subphases (each line's
// offset and the total M pass back down; a node's rank is its offset at
// level 0). A step lasts window router slots (t_p); its message is one
// packet sent in the step's first slot. Instance c works on digits rotated
// by c (P^c), so concurrent instances use different dimensions. nosplit
// runs a second round that ranks each class r mod d among its members.
type meshPrefix struct {
	g      *grid
	window int64
	insts  []int // per round: its instances
	member func(round, c, node int) bool
	base   int     // the keys of prefix messages are base + message number
	msg    []pmMsg // per message
	queue  [][]int32
	st     [][]pmState // per round × instance: per node
	// want is the rank (or −1) and M the schedule uses for node x in
	// round r, instance c: what the prefix must compute.
	want func(r, c, x int) (rank, m int)
}

type pmMsg struct{ from, round, step, c int32 }

type pmState struct {
	sub     []int32 // level v: the block total (nodes on the level-v line)
	recv    []int32 // level v: the sum of the line's blocks before the node
	lineOff int32
	off     int32
	tot     int32
	rank    int32
}

func newMeshPrefix(g *grid, window int64, insts []int, base int, member func(round, c, node int) bool) *meshPrefix {
	p := &meshPrefix{g: g, window: window, insts: insts, member: member, base: base, queue: make([][]int32, g.N)}
	for _, n := range insts {
		var per []pmState
		for range n * g.N {
			per = append(per, pmState{sub: make([]int32, g.d+1), recv: make([]int32, g.d), rank: -1, tot: -1})
		}
		p.st = append(p.st, per)
	}
	return p
}

func (p *meshPrefix) steps() int { return 2 * p.g.d * (p.g.p - 1) }

// slots is the channel's length: its rounds of 2d(p−1) steps.
func (p *meshPrefix) slots() int64 { return int64(len(p.insts)*p.steps()) * p.window }

func (p *meshPrefix) vd(x, v, c int) int { return p.g.digit(x, (v+c)%p.g.d) }

// onLine: x's virtual digits below v are all p−1.
func (p *meshPrefix) onLine(x, v, c int) bool {
	for u := 0; u < v; u++ {
		if p.vd(x, u, c) != p.g.p-1 {
			return false
		}
	}
	return true
}

// step decodes step s of a round: the direction, the virtual dimension and
// the position on the line of the node that sends.
func (p *meshPrefix) step(s int) (forward bool, v, at int) {
	q := p.g.p - 1
	if s < p.g.d*q {
		return true, s / q, s % q
	}
	s -= p.g.d * q
	return false, p.g.d - 1 - s/q, q - s%q
}

func (p *meshPrefix) state(round, c, x int) *pmState { return &p.st[round][c*p.g.N+x] }

// load enqueues one message packet per send a node will make, in the
// order it makes them.
func (p *meshPrefix) load(k *kernel.Kernel) {
	for r, n := range p.insts {
		for s := 0; s < p.steps(); s++ {
			_, v, at := p.step(s)
			for x := 0; x < p.g.N; x++ {
				for c := 0; c < n; c++ {
					if p.onLine(x, v, c) && p.vd(x, v, c) == at {
						p.msg = append(p.msg, pmMsg{int32(x), int32(r), int32(s), int32(c)})
						p.queue[x] = append(p.queue[x], meshEnqueue(k, p.g, x, p.base+len(p.msg)-1))
					}
				}
			}
		}
	}
}

func (p *meshPrefix) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	x := int(node)
	if slot >= p.slots() || slot%p.window != 0 {
		return out
	}
	gs := int(slot / p.window)
	r, s := gs/p.steps(), gs%p.steps()
	fw, v, at := p.step(s)
	for c := 0; c < p.insts[r]; c++ {
		if !p.onLine(x, v, c) || p.vd(x, v, c) != at {
			continue
		}
		st := p.state(r, c, x)
		if v == 0 && fw {
			st.sub[0] = int32(b2n(p.member(r, c, x)))
		}
		if !fw && at == p.g.p-1 { // the line's last node starts the way down
			if v == p.g.d-1 {
				st.lineOff, st.tot = 0, st.sub[p.g.d]
			} else {
				st.lineOff = st.off
			}
			p.settle(r, st, v)
		}
		wi := p.queue[x][0]
		p.queue[x] = p.queue[x][1:]
		out = append(out, kernel.SlotSend{Packet: wi, Port: p.g.port[p.g.pi(x, (v+c)%p.g.d, b2n(fw))]})
	}
	return out
}

// settle sets a node's offset at level v from its line's offset.
func (p *meshPrefix) settle(r int, st *pmState, v int) {
	st.off = st.lineOff + st.recv[v]
	if v == 0 {
		st.rank = st.off
	}
}

// Arrived applies a message at the next node of its line; the message is
// delivered there.
func (p *meshPrefix) Arrived(slot int64, node int32, w *flit.Worm) {
	m := p.msg[int(w.Aux)-p.base]
	x, r, c := int(node), int(m.round), int(m.c)
	fw, v, _ := p.step(int(m.step))
	from, to := p.state(r, c, int(m.from)), p.state(r, c, x)
	if fw { // the running sum: the blocks before the sender and its own
		if v == 0 {
			to.sub[0] = int32(b2n(p.member(r, c, x)))
		}
		to.recv[v] = from.recv[v] + from.sub[v]
		if p.vd(x, v, c) == p.g.p-1 {
			to.sub[v+1] = to.recv[v] + to.sub[v]
		}
	} else {
		to.lineOff, to.tot = from.lineOff, from.tot
		p.settle(r, to, v)
	}
	w.Dst = int32(p.g.Term[x])
}

// check compares the computed ranks and M with what the schedule uses.
func (p *meshPrefix) check() error {
	for r, n := range p.insts {
		for c := 0; c < n; c++ {
			for x := 0; x < p.g.N; x++ {
				st := p.state(r, c, x)
				if w, m := p.want(r, c, x); w >= 0 && int(st.rank) != w || int(st.tot) != m {
					return fmt.Errorf("prefix round %d class %d: node %d computed rank %d and M %d, the schedule uses %d and %d", r, c, x, st.rank, st.tot, w, m)
				}
			}
		}
	}
	return nil
}
