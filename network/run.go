package network

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
	"github.com/flitsim/flitsim/traffic"
)

// Network is a built experiment: the kernel, its traffic and its run control.
type Network struct {
	Cfg Config // the experiment as built (the routing key filled in)
	// k is the cycle kernel. This module's own packages (the tracers, the
	// command, the verify suite, the searches) reach it through kernel.Of;
	// the kernel is internal, so it is no part of the library's surface.
	k   *kernel.Kernel
	gen traffic.Generator

	start, end   int64 // measurement window
	trace        bool
	utilDone     bool
	hops0        int64    // the kernel's FlitHops when this batch experiment began
	util         []uint64 // per port: flits carried in the window
	stopped      bool
	replies      *replies                 // request/reply and per-class statistics, or nil
	external     bool                     // driven by Akita endpoints (see AttachEndpoints)
	stopAt       int64                    // if > 0, stop at this cycle (benchmarks)
	lastProgress int64                    // last cycle a flit moved (or nothing waited)
	stall        *Stall                   // set when no flit moved for run.stall_limit cycles
	cast         flit.Cast                // how multicast packets travel
	enc          Encoding                 // their header
	scheme       traffic.Scheme           // hardware or a software multicast
	emitErr      error                    // first multicast the kernel refused
	blocked      int64                    // multicasts dropped at the source: their tree blocks (multicast.go)
	payloads     map[uint64]any           // external packets' payloads by worm ID
	flow         shortfall                // offered minus accepted flits per batch (verdict.go)
	maxLive      int64                    // run.max_backlog in packets (0: no limit)
	backlogStop  *BacklogStop             // set when the backlog passed maxLive
	warnings     []string                 // see Warnings
	stopFlag     *atomic.Bool             // see StopOn
	interrupted  bool                     // the run stopped because *stopFlag was set
	adjust       func(*kernel.KernelSpec) // buildWith's hook
	activity     *activity                // run.router_activity's blocked-cycle counter, or nil
}

// StopOn makes the run stop at the end of the cycle in which *flag is found
// set (a user's interrupt), as if it had ended there: its Result is the
// partial one, marked Interrupted. Every tracer is closed normally.
func (n *Network) StopOn(flag *atomic.Bool) { n.stopFlag = flag }

// Validate checks every setting of c by building the experiment without
// running it. Errors are *inputerr.Error (one line naming the key).
func Validate(c *Config) error {
	n, err := Build(*c)
	if err == nil && len(n.k.Links) >= largePorts {
		// The network built only to be checked is garbage that the run's
		// own build would otherwise sit beside until the collector's next
		// cycle (after the heap doubles): on the 20-cube, 1.5 GB more resident.
		runtime.GC()
	}
	return err
}

// Run builds and runs c under Akita's engine and returns what it measured.
func Run(c Config) (*Result, error) {
	n, err := Build(c)
	if err != nil {
		return nil, err
	}
	return n.RunAkita()
}

// Build checks c and lays out the network.
func Build(c Config) (*Network, error) { return buildWith(c, nil) }

// buildWith is Build with a hook that adjusts the kernel's settings before
// the kernel is made (for example the packet router's phases,
// kernel.KernelSpec.Packet.Via); a batch's other experiments are built the same
// way.
func buildWith(c Config, adjust func(*kernel.KernelSpec)) (*Network, error) {
	if err := checkScalars(&c); err != nil {
		return nil, err
	}
	kspec, topo, err := kernelSetup(&c)
	if err != nil {
		return nil, err
	}
	if isLarge(topo) {
		defer holdGC()()
	}
	if adjust != nil {
		adjust(&kspec)
	}
	k, err := kernel.NewKernel(topo, kspec)
	if err != nil {
		return nil, err
	}
	k.SetWorkers(c.Run.Workers)
	n := &Network{Cfg: c, k: k, adjust: adjust}
	if n.cast, err = parseWorm(c.Multicast.Worm); err != nil {
		return nil, err
	}
	if n.enc, err = ParseEncoding(c.Multicast.Encoding); err != nil {
		return nil, inputerr.New("multicast.encoding", c.Multicast.Encoding, "%s", strings.Join(kernel.EncodingNames(), ", "))
	}
	if err := checkDecoded(&c, n); err != nil {
		return nil, err
	}
	if n.scheme, err = traffic.ParseScheme(c.Multicast.Scheme); err != nil {
		return nil, err
	}
	if err := n.buildTraffic(kspec.Mode); err != nil {
		return nil, err
	}
	n.instrument()
	return n, nil
}

// kernelSetup checks the switch settings of c, builds its topology (the
// routing key filled in) and gives the kernel's settings.
func kernelSetup(c *Config) (kernel.KernelSpec, *topology.Topology, error) {
	pspec, err := packetSpec(c)
	if err != nil {
		return kernel.KernelSpec{}, nil, err
	}
	mode, model, sspec, err := switchingOf(c)
	if err != nil {
		return kernel.KernelSpec{}, nil, err
	}
	pub, pparams, public, err := publicModel(c)
	if err != nil {
		return kernel.KernelSpec{}, nil, err
	}
	pol, err := xbar.ParsePolicy(c.Arbiter)
	if err != nil {
		return kernel.KernelSpec{}, nil, inputerr.New("arbiter", c.Arbiter, "%s", strings.Join(xbar.PolicyNames(), ", "))
	}
	if c.Routing == "" {
		c.Routing = topology.DefaultRouting(c.Topology.Kind)
	}
	spec := c.Topology
	spec.Routing = c.Routing
	spec.Seed = c.Run.Seed
	spec.Tree = c.Multicast.Tree
	if err := checkTree(spec); err != nil {
		return kernel.KernelSpec{}, nil, err
	}
	if model == "packet" {
		packetTies(&spec)
	}
	topo, err := topology.Build(spec)
	if err != nil {
		return kernel.KernelSpec{}, nil, err
	}
	if err := checkClasses(c, topo); err != nil {
		return kernel.KernelSpec{}, nil, err
	}
	if mode != xbar.Wormhole && model == "" && c.Traffic.Trace == "" && len(c.Traffic.Packets) == 0 {
		if err := checkWholePacket(c, mode, c.Traffic.Flits.Max, "traffic.flits", c.Traffic.Flits); err != nil {
			return kernel.KernelSpec{}, nil, err
		}
	}
	kspec := kernel.KernelSpec{
		Mode: mode, InDepth: c.Buffers.Input, OutDepth: c.Buffers.Output,
		Latency: c.Link.Latency, Delay: c.Switch.Delay, Reuse: c.ReuseOn(),
		Policy: pol, Seed: c.Run.Seed,
	}
	if public {
		kspec.Model, kspec.Public = pub.Name, pparams
		kspec.Public.Routing = c.Routing
	}
	if model == "slotted" {
		if sspec.Butterfly, err = checkSlottedTopology(c, topo, sspec.Scheme); err != nil {
			return kernel.KernelSpec{}, nil, err
		}
		sspec.Start, sspec.End = c.Run.Warmup, c.Run.Warmup+c.Run.Measure
		kspec.InDepth, kspec.OutDepth, kspec.Model, kspec.Slotted = 0, 1, model, sspec
	}
	if model == "packet" {
		// The packet router's queues are named by output buffers (one per
		// link); it keeps their packets itself.
		kspec.InDepth, kspec.OutDepth, kspec.Model, kspec.Packet = 0, 1, model, pspec
		vm, _ := valiantMode(c, true, pspec.Discipline) // (checked by packetSpec)
		setValiant(&kspec.Packet, vm, topo.Terminals())
	}
	return kspec, topo, nil
}

// instrument starts the statistics the run asks for (per node, per pair,
// router activity), the software multicast driver and presampling.
func (n *Network) instrument() {
	c, k := &n.Cfg, n.k
	st := k.CollectStats(n.start, n.end, n.trace)
	if c.Run.PerNode || c.Run.PerPair {
		st.CollectDetail(k.Topo.Terminals(), c.Run.PerPair)
	}
	if c.Run.RouterActivity {
		hi := n.end
		if n.trace {
			hi = math.MaxInt64 // (a trace's channels count the whole run too)
		}
		n.activity = newActivity(k, n.start, hi)
		k.SetTracer(n.activity)
	}
	n.flow = shortfall{start: n.start, end: n.end}
	n.maxLive = n.backlogLimit()
	n.hookTasks()
	n.hookClasses()
	if n.scheme.Software() {
		n.gen = newSWDriver(n, n.gen, n.scheme)
	}
	k.StartPresampling(n.gen)
}

func (n *Network) buildTraffic(mode xbar.Mode) error {
	c := &n.Cfg
	k := n.k
	t := k.Topo
	if c.Traffic.Trace != "" || len(c.Traffic.Packets) > 0 {
		var pkts []traffic.Packet
		var err error
		if c.Traffic.Trace != "" {
			if len(c.Traffic.Packets) > 0 {
				return inputerr.New("traffic.packets", "a list", "no inline packets when traffic.trace is set")
			}
			pkts, err = traffic.ReadTrace(c.Traffic.Trace, t.Terminals())
		} else {
			pkts, err = traffic.ParsePackets(c.Traffic.Packets, t.Terminals())
		}
		if err != nil {
			return err
		}
		n.gen = traffic.NewTrace(pkts)
		n.trace = true
		last, longest := int64(0), 0
		for _, p := range pkts {
			last = max(last, p.Cycle)
			longest = max(longest, p.Flits)
		}

		if err := checkPublicUnicast(c, pkts); err != nil {
			return err
		}
		if isPacket(c) && longest > 1 {
			src, val := "traffic.trace", any(c.Traffic.Trace)
			if c.Traffic.Trace == "" {
				src, val = "traffic.packets", fmt.Sprintf("a packet of %d flits", longest)
			}
			return inputerr.New(src, val, "packets of 1 flit with switching: packet")
		}
		if mode != xbar.Wormhole && !isPacket(c) {
			// The same rule as traffic.flits: a longer packet could never
			// be wholly received and would look like a deadlock.
			src, val := "traffic.trace", any(c.Traffic.Trace)
			if c.Traffic.Trace == "" {
				src, val = "traffic.packets", fmt.Sprintf("a packet of %d flits", longest)
			}
			if err := checkWholePacket(c, mode, longest, src, val); err != nil {
				// Placed at the inline entry that holds the longest packet.
				for i, e := range c.Traffic.Packets {
					if p, perr := traffic.ParsePackets([]string{e}, t.Terminals()); perr == nil && p[0].Flits == longest {
						err.Alt[0].Item = i + 1
						break
					}
				}
				return err
			}
		}
		n.start, n.end = 0, last+1
		return nil
	}
	length := traffic.Length{Min: c.Traffic.Flits.Min, Max: c.Traffic.Flits.Max}
	n.start, n.end = c.Run.Warmup, c.Run.Warmup+c.Run.Measure
	if isSlotted(c) {
		n.gen = idleGen{}
		return nil
	}
	if IsBatch(c) {
		return n.batchTraffic()
	}
	g, err := n.workload(length)
	if err != nil {
		return err
	}
	n.gen = g
	if !traffic.IsMulticastPattern(c.Traffic.Pattern) {
		n.warnFewPackets(length)
	}
	return nil
}

// warnFewPackets warns when the measurement window is expected to hold so
// few packets (long packets at a low load) that its figures say nothing;
// such a run used to end silently with zeros.
func (n *Network) warnFewPackets(length traffic.Length) {
	c := &n.Cfg
	exp := float64(n.k.Topo.Terminals()) * float64(c.Run.Measure) * c.Traffic.Load / length.Mean()
	if c.Traffic.Load > 0 && exp < minExpectedPackets {
		n.warnings = append(n.warnings, fmt.Sprintf("traffic.flits %s: at load %g the %d terminals are expected to generate %.3g packets "+
			"in the %d measured cycles, too few to measure (shorten the packets, raise traffic.load or lengthen run.measure)",
			c.Traffic.Flits, c.Traffic.Load, n.k.Topo.Terminals(), exp, c.Run.Measure))
	}
}

// minExpectedPackets is the fewest packets a measurement window is expected
// to generate before a run warns that it is too short to say anything.
const minExpectedPackets = 10

// Warnings lists what Build found suspicious but allowed, one line each,
// for the user to see before the run starts.
func (n *Network) Warnings() []string { return n.warnings }

// Emit queues a packet created by the traffic generator.
func (n *Network) Emit(src, dst, flits int) { n.k.EnqueueLater(src, dst, flits) }

// Cycle simulates one cycle: window bookkeeping, traffic, the kernel step and
// the deadlock check.
func (n *Network) Cycle() {
	k := n.k
	now := k.Now()
	if now == n.start {
		k.ResetChannels()
	}
	if now == n.end && !n.trace {
		n.snapshotUtil()
	}
	if n.gen.NextAt(now) == now && !k.EmitPresampled(now) {
		n.gen.Generate(now, n)
	}
	n.flushReplies(now)
	k.Presample(now + 1) // (drawn while this cycle waits for the helper)
	k.CheckDeadlock = now%n.Cfg.Run.DeadlockCheck == 0
	k.Step()
	offered, ejected := k.Stats().Window()
	n.flow.add(now, offered, ejected)
	n.checkBacklog(now)
	if k.Moved() > 0 || !k.AnyActive() {
		n.lastProgress = now
	} else if lim := n.Cfg.Run.StallLimit; lim > 0 && now-n.lastProgress >= lim && n.k.Deadlock == nil {
		n.stall = &Stall{Cycle: now, Since: n.lastProgress + 1}
	}
}

func (n *Network) snapshotUtil() {
	if n.utilDone {
		return
	}
	n.utilDone = true
	if len(n.util) != int(n.k.Channels()) { // (a batch's experiments reuse it)
		n.util = make([]uint64, n.k.Channels())
	}
	for i := range n.util {
		n.util[i] = n.k.ChannelFlits(int32(i))
	}
}

// channelLoads lists the wired channels' flits over a window of win cycles.
func (n *Network) channelLoads(win int64) []ChannelLoad {
	k := n.k
	var ls []ChannelLoad
	for ch := range k.Channels() {
		if !k.ChannelConnected(ch) {
			continue
		}
		f := n.util[ch]
		ls = append(ls, ChannelLoad{Channel: k.ChannelName(ch), To: k.ChannelEnd(ch),
			Flits: f, Utilisation: float64(f) / float64(win)})
	}
	return ls
}

// Done reports whether the run is over: a deadlock, every measured packet
// delivered after the window closed (for a trace: every packet), or the
// drain limit reached.
func (n *Network) Done() bool {
	if n.finished() {
		return true
	}
	if n.stopFlag != nil && n.stopFlag.Load() {
		n.interrupted = true
		return true
	}
	return false
}

// finished is Done without the interrupt.
func (n *Network) finished() bool {
	k := n.k
	if n.k.Deadlock != nil || n.stall != nil || n.backlogStop != nil || n.stopped || n.stopAt > 0 && k.Now() >= n.stopAt {
		return true
	}
	if n.external || k.Now() < n.end {
		return false
	}
	st := k.Stats().Counts()
	if n.trace {
		if k.Idle() && n.gen.NextAt(k.Now()) == math.MaxInt64 {
			return true
		}
	} else if isSlotted(&n.Cfg) {
		if k.SlottedDrained() {
			return true
		}
	} else if st.MeasuredDone+st.MeasuredDropped == st.Measured && !n.repliesPending() {
		return true
	}
	return k.Now() >= n.end+n.Cfg.Run.Drain
}

// RunPlain runs to the end with a plain loop (no event engine); benchmarks
// and studies that need no other Akita component use it.
func (n *Network) RunPlain() (*Result, error) {
	for !n.Done() {
		n.Cycle()
		if n.Done() {
			break // (as Component.Tick: no jump past the end)
		}
		n.skipIdle()
	}
	if n.emitErr != nil {
		return nil, n.emitErr
	}
	return n.batchResult()
}

// skipIdle jumps over cycles in which the network is empty and no packet is
// due, and reports the cycle it jumped to (or -1 if it did not jump).
func (n *Network) skipIdle() int64 {
	k := n.k
	if !k.Idle() {
		return -1
	}
	next := n.nextDue(k.Now())
	if next == math.MaxInt64 || next <= k.Now() {
		return -1
	}
	// Never jump over the window boundaries (they reset counters).
	if k.Now() <= n.start && next > n.start {
		next = n.start
	}
	if k.Now() <= n.end && next > n.end {
		next = n.end
	}
	if next <= k.Now() {
		return -1
	}
	k.SkipTo(next)
	return next
}

// RunAkita runs to the end under Akita's serial engine: the network is one
// ticking component that advances the whole fabric one cycle per tick and
// sleeps while the network is empty and no packet is due.
func (n *Network) RunAkita() (*Result, error) { return n.RunAkitaHooked() }

// RunAkitaHooked is RunAkita with hooks attached to Akita's engine (e.g. a
// progress display reading Kernel.Now after every event); the result is the
// same. Tracers are attached to n.k with SetTracer before the run.
func (n *Network) RunAkitaHooked(hooks ...sim.Hook) (*Result, error) {
	engine := sim.NewSerialEngine()
	for _, h := range hooks {
		engine.AcceptHook(h)
	}
	c := NewComponent("Network", engine, n)
	c.TickNow(0)
	if err := engine.Run(); err != nil {
		return nil, err
	}
	engine.Finished()
	if n.emitErr != nil {
		return nil, n.emitErr
	}
	return n.batchResult()
}

// Result summarises the run.
func (n *Network) Result() *Result {
	k := n.k
	st := k.Stats().Counts()
	lat, netLat := k.Stats().Latency()
	n.snapshotUtil()
	r := &Result{
		Config:             n.Cfg,
		Cycles:             k.Now(),
		Terminals:          k.Topo.Terminals(),
		InjectedPackets:    st.GeneratedPackets,
		DeliveredPackets:   st.DeliveredPackets,
		InjectedFlits:      st.GeneratedFlits,
		DeliveredFlits:     st.DeliveredFlits,
		MeasuredPackets:    st.Measured,
		MeasuredDelivered:  st.MeasuredDone,
		Latency:            lat,
		NetworkLatency:     netLat,
		MaxBufferOccupancy: k.MaxOccupancy(),
		Deadlock:           n.k.Deadlock,
		Stall:              n.stall,
		Deliveries:         k.Stats().Deliveries(),
		Violations:         k.Violations,
	}
	if isPacket(&n.Cfg) && strings.EqualFold(strings.TrimSpace(n.Cfg.Queue.Full), "drop") {
		r.Dropped, r.MeasuredDropped = &st.Dropped, st.MeasuredDropped
	}
	n.blockedResult(r)
	n.classResult(r)
	n.escapeResult(r)
	win := min(n.end, k.Now()) - n.start
	nt := float64(k.Topo.Terminals())
	switch {
	case IsBatch(&n.Cfg) && k.Now() > 0:
		// A batch is offered at cycle 0 and measured whole: its rates are
		// over the cycles it took (the window [0, 1) would count only the
		// packets that arrive in the cycle they were made).
		r.Offered = float64(st.Offered) / nt / float64(k.Now())
		r.Throughput = float64(st.DeliveredFlits) / nt / float64(k.Now())
	case win > 0:
		r.Offered = float64(st.WindowOffered) / nt / float64(win)
		r.Throughput = float64(st.WindowEjected) / nt / float64(win)
	case n.backlogStop != nil && k.Now() > 0:
		// Stopped before the window opened: what the whole run offered
		// and accepted.
		r.Offered = float64(st.Offered) / nt / float64(k.Now())
		r.Throughput = float64(st.DeliveredFlits) / nt / float64(k.Now())
	}
	r.ShortfallCI95, r.ShortfallCI95Note = n.shortfallCI95()
	r.Backlog = int64(k.Pool.Live())
	r.BacklogStop = n.backlogStop
	if n.trace {
		// A trace's window is its injection cycles; its channels count
		// every flit it moved, over the whole run.
		win = k.Now() - n.start
	}
	if win > 0 {
		n.fillChannelUtil(r, win)
	}
	n.fillDetail(r, win)
	if st.HopCount > 0 {
		r.Hops = float64(st.Hops) / float64(st.HopCount)
	}
	if isSlotted(&n.Cfg) {
		n.fillSlotted(r)
	}
	n.fillTasks(r)
	fillBookSim(r)
	if n.interrupted {
		r.Interrupted, r.InterruptedAt = true, &r.Cycles
	}
	Judge(r)
	return r
}

// fillChannelUtil sets the mean and largest utilisation over the connected
// channels in a window of win cycles, the busiest channel and, when asked
// for, every channel's load.
func (n *Network) fillChannelUtil(r *Result, win int64) {
	k := n.k
	var sum, best uint64
	busiest := -1
	used := 0
	for i, f := range n.util[:len(k.Links)] {
		if !k.ChannelConnected(int32(i)) {
			continue // unconnected port (mesh edge)
		}
		used++
		sum += f
		if busiest < 0 || f > best {
			best, busiest = f, i
		}
	}
	if used > 0 {
		r.ChannelUtilMean = float64(sum) / float64(used) / float64(win)
		r.ChannelUtilMax = float64(best) / float64(win)
		r.BusiestChannel = k.PortName(int32(busiest))
	}
	if n.Cfg.Run.Channels {
		r.Channels = n.channelLoads(win)
	}
}
