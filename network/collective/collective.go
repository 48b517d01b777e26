// Package collective runs collective communication tasks (Varvarigos 1992,
// digest 000a) as schedules that the simulated nodes carry out on the
// packet-switched router (kernel.PacketSpec.Schedule): time is slotted, a
// packet crosses a link in one slot, one packet per link direction per
// slot, all ports at once, store-and-forward, unbounded node storage, and
// every packet of the (static) task exists at slot 0. The router refuses a
// schedule that breaks those rules; this package checks that every packet
// reached every node it must, exactly once.
//
// A task that splits packets (wmnb) runs the router with one slot per
// mini-slot and each packet as d mini-packets (digest 000a §10.1); Slots is
// then mini-slots/d and MiniSlots is set. The t_p prefix channel
// (prefix.go) computes PMNB's and PE's ranks by messages when task.tp > 0;
// with t_p = 0 the ranks are known in advance.
package collective

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

// Result is one collective run.
type Result struct {
	Task        string   `json:"task"`
	Topology    string   `json:"topology"`
	Nodes       int      `json:"nodes"`
	D           int      `json:"d"`
	Params      []string `json:"params,omitempty"`
	Slots       float64  `json:"slots"` // completion time in slots (a fraction when packets are split)
	MiniSlots   *int64   `json:"mini_slots,omitempty"`
	Formula     *float64 `json:"formula"`
	FormulaText string   `json:"formula_text"`
	UpperBound  *float64 `json:"upper_bound,omitempty"`
	UpperText   string   `json:"upper_bound_text,omitempty"`
	LowerBound  float64  `json:"lower_bound"`
	LowerText   string   `json:"lower_bound_text"`
	Packets     int64    `json:"packets"`
	// Transmissions are packet-hops: packets (or copies) crossing a link.
	Transmissions   int64   `json:"transmissions"`
	Links           int     `json:"links"` // directed links
	LinkUtilisation float64 `json:"link_utilisation"`
	PerSlot         []int64 `json:"per_slot"` // links used in each slot
	Delivered       bool    `json:"delivered"`
	Deliveries      int64   `json:"deliveries"`
	Missing         int64   `json:"missing"`
	Duplicates      int64   `json:"duplicates"`
	Stray           int64   `json:"stray"`
	Reading         string  `json:"reading,omitempty"`
	// MaxAtNode (packing, pmnb): the most packets a node held after a
	// packing slot in which it received one (1: node-disjoint paths).
	MaxAtNode int `json:"max_packets_at_a_node,omitempty"`
	// Alternative (banded): another reading's slots, measured on the
	// hardware alongside, and what it is.
	Alternative     *float64 `json:"alternative_slots,omitempty"`
	AlternativeText string   `json:"alternative_text,omitempty"`
	// Dilation and Bandwidth (sparse-embed): the embedding's measured
	// dilation and the guest's bandwidth B after relabelling.
	Dilation  *int `json:"dilation,omitempty"`
	Bandwidth *int `json:"bandwidth,omitempty"`
	// UniversalBound (banded): Theorem 7's lower bound over every column
	// assignment (banded_bound.go), beside the layout's own LowerBound.
	UniversalBound *float64 `json:"universal_lower_bound,omitempty"`
	UniversalText  string   `json:"universal_lower_bound_text,omitempty"`
	// Status is StatusInterrupted for the partial result of a run stopped
	// by Options.Stop (Slots are the slots run, Delivered false), empty
	// for a run to the end.
	Status string `json:"status,omitempty"`
}

// StatusInterrupted is Result.Status of a run stopped by Options.Stop.
const StatusInterrupted = "interrupted"

// MaxD is the largest hypercube a collective task runs on unless maxDOf
// names the task.
const MaxD = 12

// maxDOf is the largest d per hypercube task where it is not MaxD, by
// memory (measured: flitsim collective under /usr/bin/time -v): TE holds
// N(N−1) packets of 24 bytes (a 20-byte router record, a 4-byte row slot:
// d = 13 takes about 1.7 GB, d = 14 6.6); MNB holds the offsets held at once, about
// 0.28·N per node (d = 14 takes about 2 GB, d = 15 would take 8, d = 16
// about 30) on the router; the lock-step hardware (mnb_lockstep.go, the
// default) holds them in registers (d = 16: 151 MB of them, 1 GB in all
// with the checker's bit per pair); SNB holds N packets; PMNG records
// every hop of the PE it reverses (M = N at d = 10: 5 M hops of 16 bytes).
var maxDOf = map[string]int{"te": 13, "kl-exchange": 13, "mnb": 16, "snb": 16, "pmng": 10}

// MaxDOf is the largest d the hypercube task runs on.
func MaxDOf(task string) int {
	if d, ok := maxDOf[task]; ok {
		return d
	}
	return MaxD
}

// A family is the collective tasks of one topology kind: each task's
// task.* keys, and the runner that carries a task out on a built network
// of that kind. Each family registers itself (registerFamily) from its own
// file, so a new topology's tasks are one new file.
type family struct {
	keys map[string][]string // task → the task.* keys it reads
	run  func(spec topology.Spec, task string, params map[string]string, seed uint64, o *Options) (*Result, error)
}

var families = map[string]*family{}

// registerFamily makes kind's tasks runnable (called from init).
func registerFamily(kind string, f *family) {
	if _, dup := families[kind]; dup {
		panic("collective: family " + kind + " registered twice")
	}
	families[kind] = f
}

// Kinds are the topology kinds that have collective tasks, sorted.
func Kinds() []string {
	out := make([]string, 0, len(families))
	for k := range families {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Tasks are the task names Run accepts on some topology kind, sorted.
func Tasks() []string {
	var out []string
	for _, f := range families {
		for t := range f.keys {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TasksOf are kind's task names, sorted (nil for a kind without tasks).
func TasksOf(kind string) []string {
	f := families[strings.ToLower(kind)]
	if f == nil {
		return nil
	}
	out := make([]string, 0, len(f.keys))
	for t := range f.keys {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// Run carries out task on the network spec with the given task.*
// parameters.
func Run(spec topology.Spec, task string, params map[string]string, seed uint64) (*Result, error) {
	return runTask(spec, task, params, seed, nil)
}

// runTask is Run with options (nil: none).
func runTask(spec topology.Spec, task string, params map[string]string, seed uint64, o *Options) (*Result, error) {
	kind := strings.ToLower(spec.Kind)
	f := families[kind]
	if f == nil {
		return nil, inputerr.New("topology.kind", spec.Kind, "%s (the kinds with collective tasks)", strings.Join(Kinds(), ", "))
	}
	keys, ok := f.keys[task]
	if !ok {
		return nil, inputerr.New("--task", task, "on %s: %s", kind, strings.Join(TasksOf(kind), ", "))
	}
	for key := range params {
		if !slices.Contains(keys, key) {
			allowed := strings.Join(keys, ", ")
			if allowed == "" {
				allowed = "none"
			}
			return nil, &inputerr.Error{Key: key, Value: params[key], Problem: "unknown key for task " + task, Allowed: "task keys for " + task + ": " + allowed}
		}
	}
	return f.run(spec, task, params, seed, o)
}

func init() {
	registerFamily("hypercube", &family{
		keys: map[string][]string{
			"snb": {"task.root"}, "mnb": {"task.hardware"}, "te": nil, "kl-exchange": {"task.k", "task.l"},
			"pmnb": {"task.m", "task.algorithm", "task.tp"}, "packing": {"task.m"}, "wmnb": {"task.m"}, "wte": {"task.m"},
			"banded": {"task.beta", "task.schedule"}, "banded-multi": {"task.beta"}, "pe": {"task.m", "task.tp"}, "pmng": {"task.m"}, "sparse-embed": {"task.graph", "task.degree"}, "block-diagonal": {"task.blocks"},
		},
		run: runHypercube,
	})
}

// runHypercube carries out one of the hypercube's tasks.
func runHypercube(spec topology.Spec, task string, params map[string]string, seed uint64, o *Options) (*Result, error) {
	if m := MaxDOf(task); spec.D > m {
		return nil, inputerr.New("topology.d", spec.D, "an integer from 1 to %d for collective %s (by the memory its packets take)", m, task)
	}
	if task == "mnb" {
		var err error
		if params, err = mnbHardwareOf(spec, params, o); err != nil {
			return nil, err
		}
		lock, err := mnbOnLockstep(spec, params)
		if err != nil {
			return nil, err
		}
		if lock {
			return runMNBLockstep(spec, seed, o)
		}
	}
	return runOn(spec, task, seed, o, func(k *kernel.Kernel, c *cube, ck *checker, px *proxy, r *Result) error {
		return setup(k, c, task, params, seed, ck, px, r)
	})
}

// RunTags carries out the isotropic task whose task matrix has rows tags
// (every node s sends a packet to s ⊕ tag for each tag) on the d-cube by
// the symmetric OCTR schedule. Slots should equal the critical sum h
// (Theorem 5), which is also the Theorem 1 lower bound.
func RunTags(d int, tags []uint32, seed uint64) (*Result, error) {
	spec := topology.Spec{Kind: "hypercube", D: d}
	return runOn(spec, "isotropic", seed, nil, func(k *kernel.Kernel, c *cube, ck *checker, px *proxy, r *Result) error {
		for _, t := range tags {
			if t == 0 || int(t) >= c.n {
				return fmt.Errorf("tag %d is not a nonzero %d-bit string", t, d)
			}
		}
		setupRows(k, c, tags, ck, px, r)
		r.Formula, r.FormulaText = nil, ""
		return nil
	})
}

// runOn builds the hypercube of spec with a scheduled packet router, lets
// load enqueue the task's packets and set its schedule, and runs it.
func runOn(spec topology.Spec, task string, seed uint64, o *Options, load func(*kernel.Kernel, *cube, *checker, *proxy, *Result) error) (*Result, error) {
	return runNet(spec, task, seed, o, func(k *kernel.Kernel, g *Net, px *proxy, r *Result) (*checker, error) {
		c, err := newCube(g.Topo)
		if err != nil {
			return nil, err
		}
		r.D = c.d
		ck := newChecker(c.n)
		return ck, load(k, c, ck, px, r)
	})
}

// runNet builds the network of spec (any kind) with a scheduled packet
// router, attaches o's tracer, lets load enqueue the task's packets, set
// its schedule and return the delivery checker, runs it and fills in the
// common measures. o is nil for a helper run (a schedule recorded, a
// reading run alongside).
func runNet(spec topology.Spec, task string, seed uint64, o *Options, load func(*kernel.Kernel, *Net, *proxy, *Result) (*checker, error)) (*Result, error) {
	px := &proxy{opts: o}
	k, g, err := buildScheduled(spec, seed, px)
	if err != nil {
		return nil, err
	}
	if o.stopped() { // (before the files Attach opens)
		return nil, &Interrupted{Task: task, Slot: -1}
	}
	px.pk = k.ScheduledPackets()
	if err := o.attach(k); err != nil {
		return nil, err
	}
	r := newResult(spec, task, g)
	ck, err := load(k, g, px, r)
	if err != nil {
		return nil, err
	}
	return finish(k, r, ck, px, o)
}

// buildNet builds spec's topology (with its kind's default routing).
func buildNet(spec topology.Spec) (*topology.Topology, *Net, error) {
	if spec.Routing == "" {
		spec.Routing = topology.DefaultRouting(spec.Kind)
	}
	topo, err := topology.Build(spec)
	if err != nil {
		return nil, nil, err
	}
	g, err := NewNet(topo)
	return topo, g, err
}

// buildScheduled builds spec's network with a scheduled packet router
// driven by sch.
func buildScheduled(spec topology.Spec, seed uint64, sch kernel.SlotScheduler) (*kernel.Kernel, *Net, error) {
	topo, g, err := buildNet(spec)
	if err != nil {
		return nil, nil, err
	}
	k, err := kernel.NewKernel(topo, kernel.KernelSpec{Mode: xbar.SAF, OutDepth: 1, Latency: 1, Reuse: true, Seed: seed,
		Model: "packet", Packet: kernel.PacketSpec{Schedule: sch}})
	return k, g, err
}

func newResult(spec topology.Spec, task string, g *Net) *Result {
	return &Result{Task: task, Topology: strings.ToLower(spec.Kind), Nodes: g.N, D: spec.D, Links: g.Links}
}

// finish runs the loaded network k to the end (or until o stops it) and
// fills in the common measures.
func finish(k *kernel.Kernel, r *Result, ck *checker, px *proxy, o *Options) (*Result, error) {
	if err := drive(k, r, px.limit, o); err != nil {
		if in, ok := err.(*Interrupted); ok {
			in.Result = partial(r, ck, px)
		}
		return nil, err
	}
	if px.split > 1 {
		ms := k.Now()
		r.MiniSlots, r.Slots = &ms, float64(ms)/float64(px.split)
	}
	if px.after != nil {
		px.after(r)
	}
	r.Missing, r.Duplicates, r.Stray, r.Deliveries = ck.tally()
	r.Delivered = r.Missing == 0 && r.Duplicates == 0 && r.Stray == 0
	if r.Slots > 0 {
		r.LinkUtilisation = float64(r.Transmissions) / (float64(r.Links) * float64(len(r.PerSlot)))
	}
	return r, nil
}

// partial is the result of a run interrupted after the slots in r.PerSlot:
// what those slots sent and delivered (Status StatusInterrupted); the
// schedule's own measures (px.after) are left out.
func partial(r *Result, ck *checker, px *proxy) *Result {
	r.Status = StatusInterrupted
	if r.PerSlot == nil {
		r.PerSlot = []int64{}
	}
	n := int64(len(r.PerSlot))
	r.Slots = float64(n)
	if px.split > 1 {
		r.MiniSlots, r.Slots = &n, float64(n)/float64(px.split)
	}
	r.Missing, r.Duplicates, r.Stray, r.Deliveries = ck.tally()
	if n > 0 {
		r.LinkUtilisation = float64(r.Transmissions) / (float64(r.Links) * float64(n))
	}
	return r
}

// drive steps the router slot by slot until every packet has left it (or
// o stops it).
func drive(k *kernel.Kernel, r *Result, limit int64, o *Options) error {
	if o.stopped() { // (a load cut short leaves the router idle)
		return &Interrupted{Task: r.Task, Slot: k.Now() - 1}
	}
	for !k.Idle() {
		if o.stopped() {
			return &Interrupted{Task: r.Task, Slot: k.Now() - 1}
		}
		if k.Now() > limit {
			return fmt.Errorf("collective %s: packets still queued after %d slots (the schedule ended)", r.Task, limit)
		}
		before := k.FlitHops
		k.Step()
		if err := k.ScheduleError(); err != nil {
			return err
		}
		r.PerSlot = append(r.PerSlot, k.FlitHops-before)
		r.Transmissions += k.FlitHops - before
	}
	r.Slots = float64(k.Now())
	if v := k.Violations; v.Total() > 0 {
		return fmt.Errorf("collective %s: the router counted violations %+v", r.Task, v)
	}
	return nil
}

// proxy is the router's scheduler, set once the task is known.
type proxy struct {
	// SlotScheduler is a schedule that reads a packet's fields from a
	// worm view (scheduler); native one that reads them from the router's
	// store (kernel.ScheduledPackets) itself. One of them is set.
	SlotScheduler scheduler
	native        kernel.SlotScheduler
	pk            *kernel.ScheduledPackets
	view          flit.Worm
	limit         int64
	split         int64         // router slots per packet time (mini-slots), 0 for 1
	after         func(*Result) // reports the schedule's own measures
	opts          *Options      // the run's (nil for a helper run)
}

// A scheduler is a schedule whose Arrived reads the packet's fields (Src,
// Dst, Aux) from a flit.Worm view the proxy fills from the router's
// compact store; the view is scratch (writes to it change nothing). wi is
// the packet's index in the store (SlotSend.Packet).
type scheduler interface {
	Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend
	Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool
}

func (p *proxy) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	if p.native != nil {
		return p.native.Sends(slot, node, out)
	}
	return p.SlotScheduler.Sends(slot, node, out)
}

func (p *proxy) Arrived(slot int64, node, inPort int32, pkt int32) bool {
	if p.native != nil {
		return p.native.Arrived(slot, node, inPort, pkt)
	}
	p.view = flit.Worm{Src: p.pk.Src(pkt), Dst: p.pk.Dst(pkt), Aux: p.pk.Aux(pkt), Len: 1, Dests: 1}
	return p.SlotScheduler.Arrived(slot, node, inPort, &p.view, pkt)
}

// intParam is task.* key's integer value in [lo, hi], or def when unset.
func intParam(params map[string]string, key string, def, lo, hi int) (int, error) {
	v, ok := params[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo || n > hi {
		return 0, inputerr.New(key, v, "an integer from %d to %d", lo, hi)
	}
	return n, nil
}

// cube is the built hypercube's ports by dimension.
type cube struct {
	d, n, d1 int
	port     []int32 // node × dimension: the out-port
	dimIn    []int32 // node × in-port: the dimension, or −1
	term     []int   // node: its terminal
	node     []int   // terminal: its node
}

func newCube(t *topology.Topology) (*cube, error) {
	n := len(t.Switches)
	d := bits.TrailingZeros(uint(n))
	c := &cube{d: d, n: n, d1: d + 1, port: make([]int32, n*d), dimIn: make([]int32, n*(d+1)), term: make([]int, n), node: make([]int, n)}
	for i := range c.dimIn {
		c.dimIn[i] = -1
	}
	for si, sw := range t.Switches {
		if len(sw.Out) != d+1 {
			return nil, fmt.Errorf("hypercube node %d has %d ports, want %d", si, len(sw.Out), d+1)
		}
		for o, e := range sw.Out {
			if e.Switch < 0 {
				c.term[si], c.node[e.Terminal] = int(e.Terminal), si
				continue
			}
			x := si ^ int(e.Switch)
			if bits.OnesCount(uint(x)) != 1 {
				return nil, fmt.Errorf("hypercube link %d→%d is not along one dimension", si, e.Switch)
			}
			j := bits.TrailingZeros(uint(x))
			c.port[si*d+j] = int32(o)
			c.dimIn[int(e.Switch)*(d+1)+int(e.Port)] = int32(j)
		}
	}
	return c, nil
}

// checker counts deliveries per (node, origin): each expected pair once.
// It keeps a bit per pair for "received" and one for "expected" (none
// with expectOthers, where every pair but (v, v) is expected), so the
// 16-cube's 2^32 pairs take 512 MB; the few pairs received twice are kept
// by name. Missing, duplicate and stray deliveries are counted exactly.
type checker struct {
	n      int      // columns: origins (or origin × class)
	rows   int      // nodes
	recv   []uint64 // bit per pair: received at least once (made at first use)
	exp    []uint64 // bit per pair: expected; nil with others
	others bool     // every pair (v, o ≠ v) is expected (exp unused)
	// square: rows = cols = 2^k, pairs numbered by offset (v ⊕ o, v), so
	// the deliveries of one offset at consecutive nodes (a symmetric
	// schedule's) are adjacent bits.
	square bool
	expN   int64 // pairs expected
	dup    map[int64]bool
	stray  int64
	got1   int64
}

func newChecker(n int) *checker { return newCheckerCols(n, n) }

// newCheckerCols counts deliveries to rows nodes of cols packets each.
func newCheckerCols(rows, cols int) *checker {
	return &checker{n: cols, rows: rows, square: rows == cols && rows&(rows-1) == 0}
}

// bit is pair (node, col)'s bit.
func (c *checker) bit(node, col int) int {
	if c.square {
		return (node^col)*c.n + node
	}
	return node*c.n + col
}

// alloc makes the bitsets at first use (a task may replace the checker).
func (c *checker) alloc() {
	if c.recv == nil {
		words := (c.rows*c.n + 63) / 64
		c.recv = make([]uint64, words)
		if !c.others {
			c.exp = make([]uint64, words)
		}
	}
}

// newCheckerOthers expects, at each of n nodes, one packet from every
// other node (multinode broadcast, total exchange) without an expected
// bit per pair; expect is then a no-op.
func newCheckerOthers(n int) *checker {
	return &checker{n: n, rows: n, others: true, expN: int64(n) * int64(n-1), square: n&(n-1) == 0}
}

func (c *checker) expect(node, origin int) {
	if c.others {
		return
	}
	c.alloc()
	i := c.bit(node, origin)
	if c.exp[i>>6]&(1<<(i&63)) == 0 {
		c.exp[i>>6] |= 1 << (i & 63)
		c.expN++
	}
}

func (c *checker) expected(node, origin int) bool {
	if c.others {
		return node != origin
	}
	i := c.bit(node, origin)
	return c.exp[i>>6]&(1<<(i&63)) != 0
}

// got is a packet from origin delivered at node (ok false: it stopped at a
// node that is not its destination).
func (c *checker) got(node, origin int, ok bool) {
	c.alloc()
	if !ok || !c.expected(node, origin) {
		c.stray++
		return
	}
	i := c.bit(node, origin)
	if c.recv[i>>6]&(1<<(i&63)) == 0 {
		c.recv[i>>6] |= 1 << (i & 63)
		c.got1++
		return
	}
	if c.dup == nil {
		c.dup = map[int64]bool{}
	}
	c.dup[int64(i)] = true
}

func (c *checker) tally() (missing, dup, stray, got int64) {
	return c.expN - c.got1, int64(len(c.dup)), c.stray, c.got1
}
