package collective

import (
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// prefixChan is the t_p prefix channel (digest 000a §5.6, §10.1): the
// rank computation of PMNB as real messages on the links of a d-cube (the
// hypercube, or a d-cube F_c embedded in the folded cube: prefixNet). A
// prefix is 2d hops, each over links of one dimension: an up-sweep
// (hop j: a node whose label ends in 1 0^j sends its block sum to the
// node with bit j cleared) and a down-sweep (hop j = d−1..0: a node whose
// label ends in 0^{j+1} sends the count of members below its neighbour,
// and the total M, across dimension j). Each hop takes a window of t_p
// packet times: the message crosses its link in the window's first slot
// and the rest of the window is the hop's combine time, so a prefix costs
// 2d·t_p — the seed's figure. Afterwards every node knows its rank r_s
// (members with a smaller label; digest §9 item 1) and M.
//
// Several prefixes (instances) may run at once on labels rotated by
// different amounts (class c uses dimension (j+c) mod d where class 0
// uses j; on the folded cube, F_c's folded dimension (c+1+j) mod (d+1)),
// so they never share a link; rounds run one after another, and
// a round's membership may depend on the ranks of the round before
// (Algorithm III's classes).
type prefixChan struct {
	net    prefixNet
	d, n   int
	window int64 // router slots per hop (t_p × mini-slots per packet time)
	rounds [][]int
	member func(round, inst, node int) bool // a node's own bit, asked when its round begins
	base   uint64                           // tags of prefix messages: base + message id
	begun  int                              // rounds begun
	// per instance × node of the current round
	sum, off, total []int32
	part            []int32 // per instance × node × level: block sums of the up-sweep
	msgs            [][]pmsg
	val, tot, inst  []int32 // per message id: its payload and instance
	rank, count     [][]int32
}

// pmsg is one prefix message a node will send: its packet, its id, its
// round, hop and instance.
type pmsg struct {
	wi               int32
	id               int32
	round, hop, inst int32
}

// prefixNet is the network a prefix channel runs on: every instance sees
// the nodes as a d-cube, labels whose bit j is crossed by one link of the
// network. The hypercube's instances are its labels rotated; the folded
// cube's are the d-cubes F_c left when one dimension's links are removed.
type prefixNet interface {
	size() (d, n int)
	// label is node x's label in instance inst; hop its neighbour across
	// label bit j and the out-port to it.
	label(inst, x int) int
	hop(inst, x, j int) (to int, port int32)
	// enqueue loads a message from → to tagged tag.
	enqueue(k *kernel.Kernel, from, to int, tag uint64) int32
}

// cubePrefix is the hypercube with instance rot the labels rotated by rot.
type cubePrefix struct{ c *cube }

func (q cubePrefix) size() (int, int)     { return q.c.d, q.c.n }
func (q cubePrefix) label(rot, x int) int { return rotR(x, rot, q.c.d) }
func (q cubePrefix) hop(rot, x, j int) (int, int32) {
	dim := (j + rot) % q.c.d
	return x ^ 1<<dim, q.c.port[x*q.c.d+dim]
}
func (q cubePrefix) enqueue(k *kernel.Kernel, from, to int, tag uint64) int32 {
	return enqueueTagged(k, q.c, from, to, tag)
}

// newPrefixChan runs rounds (each a list of instance rotations) on the
// hypercube with hops of window router slots; messages are tagged base + id.
func newPrefixChan(c *cube, window int64, rounds [][]int, member func(round, inst, node int) bool, base uint64) *prefixChan {
	return newPrefixChanOn(cubePrefix{c}, window, rounds, member, base)
}

// newPrefixChanOn runs rounds (each a list of net's instances) on net.
func newPrefixChanOn(net prefixNet, window int64, rounds [][]int, member func(round, inst, node int) bool, base uint64) *prefixChan {
	d, n := net.size()
	return &prefixChan{net: net, d: d, n: n, window: window, rounds: rounds, member: member, base: base, msgs: make([][]pmsg, n)}
}

// slots is the channel's length in router slots: 2d hops per round.
func (p *prefixChan) slots() int64 { return int64(len(p.rounds)*2*p.d) * p.window }

// label is node x's label in instance rot.
func (p *prefixChan) label(x, rot int) int { return p.net.label(rot, x) }

// rotR moves bit i of the d-bit x to bit i−rot (mod d); rotL undoes it.
func rotR(x, rot, d int) int { return (x>>rot | x<<(d-rot)) & (1<<d - 1) }

func rotL(x, rot, d int) int { return rotR(x, (d-rot)%d, d) }

// sends reports whether the node with (rotated) label l sends in hop h,
// and the (logical) dimension.
func (p *prefixChan) sends(l, h int) (bool, int) {
	d := p.d
	if h < d { // up-sweep, dimension h
		return l&(1<<(h+1)-1) == 1<<h, h
	}
	j := 2*d - 1 - h // down-sweep, dimension j
	return l&(1<<(j+1)-1) == 0, j
}

// load enqueues every message of every round at its sender, in send
// order (the schedule decides when each goes; its payload is set then).
func (p *prefixChan) load(k *kernel.Kernel) {
	d := p.d
	id := int32(0)
	for r, insts := range p.rounds {
		for h := 0; h < 2*d; h++ {
			for i, rot := range insts {
				for x := 0; x < p.n; x++ {
					if ok, j := p.sends(p.label(x, rot), h); ok {
						to, _ := p.net.hop(rot, x, j)
						wi := p.net.enqueue(k, x, to, p.base+uint64(id))
						p.msgs[x] = append(p.msgs[x], pmsg{wi: wi, id: id, round: int32(r), hop: int32(h), inst: int32(i)})
						id++
					}
				}
			}
		}
	}
	p.val, p.tot, p.inst = make([]int32, id), make([]int32, id), make([]int32, id)
	for _, ms := range p.msgs {
		for _, m := range ms {
			p.inst[m.id] = m.inst
		}
	}
}

// begin starts round r: fresh state, each node's own membership bit.
func (p *prefixChan) begin(r int) {
	if r > 0 {
		p.keep()
	}
	ni := len(p.rounds[r])
	p.sum, p.off, p.total = make([]int32, ni*p.n), make([]int32, ni*p.n), make([]int32, ni*p.n)
	p.part = make([]int32, ni*p.n*p.d)
	for i := 0; i < ni; i++ {
		for x := 0; x < p.n; x++ {
			if p.member(r, i, x) {
				p.sum[i*p.n+x] = 1
			}
		}
	}
	p.begun = r + 1
}

// keep saves the finished round's ranks and totals.
func (p *prefixChan) keep() {
	p.rank, p.count = append(p.rank, p.off), append(p.count, p.total)
}

// finish saves the last round's results (once its last hop has arrived).
func (p *prefixChan) finish() {
	if len(p.rank) < len(p.rounds) {
		p.keep()
	}
}

// Sends is node's prefix messages for slot (relative to the channel's
// start): the messages of the hop whose window begins at slot.
func (p *prefixChan) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	if slot%p.window != 0 || slot >= p.slots() {
		return out
	}
	g := int(slot / p.window)
	r, h := g/(2*p.d), g%(2*p.d)
	if r >= p.begun {
		p.begin(r)
	}
	x, d, n := int(node), p.d, p.n
	for len(p.msgs[x]) > 0 && int(p.msgs[x][0].round) == r && int(p.msgs[x][0].hop) == h {
		m := p.msgs[x][0]
		p.msgs[x] = p.msgs[x][1:]
		i, rot := int(m.inst), p.rounds[r][m.inst]
		at := i*n + x
		if h < d {
			p.val[m.id] = p.sum[at]
		} else {
			j := 2*d - 1 - h
			if p.label(x, rot) == 0 && h == d {
				p.total[at] = p.sum[at] // (label 0 holds the total after the up-sweep)
			}
			p.val[m.id], p.tot[m.id] = p.off[at]+p.part[at*d+j], p.total[at]
		}
		_, port := p.net.hop(rot, x, jOf(h, d))
		out = append(out, kernel.SlotSend{Packet: m.wi, Port: port})
	}
	return out
}

func jOf(h, d int) int {
	if h < d {
		return h
	}
	return 2*d - 1 - h
}

// Arrived applies a prefix message at its receiver; it is delivered there.
func (p *prefixChan) Arrived(slot int64, node int32, w *flit.Worm) {
	id := int32(w.Aux - p.base)
	g := int(slot / p.window)
	r, h := g/(2*p.d), g%(2*p.d)
	d, n := p.d, p.n
	if r >= p.begun {
		return // (cannot happen: a message arrives in the round it was sent)
	}
	at := int(p.inst[id])*n + int(node)
	if h < d {
		p.part[at*d+h] = p.sum[at]
		p.sum[at] += p.val[id]
		return
	}
	p.off[at], p.total[at] = p.val[id], p.tot[id]
}
