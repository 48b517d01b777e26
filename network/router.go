package network

import (
	"cmp"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network/topology"
	"github.com/flitsim/flitsim/switch/iq"
	"github.com/flitsim/flitsim/switch/model"
	"github.com/flitsim/flitsim/traffic"
)

// RouterConfig selects a switch model registered through the public seam
// (package switch/model; router.model: iq is the input-queued
// virtual-channel router, docs/vc.md) and sets its pipeline. The names
// follow BookSim2's (docs/vc.md maps them). Absent pointers are the
// defaults.
type RouterConfig struct {
	Model        string `yaml:"model" json:"model,omitempty" allowed:"iq, or a model registered through switch/model (empty: the model the switching key selects)" default:""`
	RoutingDelay int    `yaml:"routing_delay" json:"routing_delay,omitempty" allowed:"an integer from 0 to 65536 (cycles of route computation per head; router.model: iq)" default:"0"`
	VCAllocDelay *int   `yaml:"vc_alloc_delay" json:"vc_alloc_delay,omitempty" allowed:"an integer from 1 to 65536 (cycles of VC allocation; router.model: iq)" default:"1"`
	SWAllocDelay *int   `yaml:"sw_alloc_delay" json:"sw_alloc_delay,omitempty" allowed:"an integer from 1 to 65536 (cycles of switch allocation; router.model: iq)" default:"1"`
	STFinalDelay *int   `yaml:"st_final_delay" json:"st_final_delay,omitempty" allowed:"an integer from 1 to 65536 (cycles of switch traversal; router.model: iq)" default:"1"`
	CreditDelay  int    `yaml:"credit_delay" json:"credit_delay,omitempty" allowed:"an integer from 0 to 65536 (cycles a credit takes beyond the link's latency; router.model: iq)" default:"0"`
	VCAllocator  string `yaml:"vc_allocator" json:"vc_allocator,omitempty" allowed:"round-robin, islip, wavefront, separable-input-first, separable-output-first (router.model: iq)" default:"islip"`
	SWAllocator  string `yaml:"sw_allocator" json:"sw_allocator,omitempty" allowed:"round-robin, islip, wavefront, separable-input-first, separable-output-first (router.model: iq)" default:"islip"`
	AllocIters   *int   `yaml:"alloc_iters" json:"alloc_iters,omitempty" allowed:"an integer from 1 to 64 (iSLIP iterations; router.model: iq)" default:"1"`
	// BookSim's speedups (docs/booksim.md): crossbar inputs per input
	// port, crossbar outputs per output port.
	InputSpeedup  *int `yaml:"input_speedup" json:"input_speedup,omitempty" allowed:"an integer from 1 to 16 (crossbar inputs per input port, its VCs spread over them: VC v on input v mod S; router.model: iq)" default:"1"`
	OutputSpeedup *int `yaml:"output_speedup" json:"output_speedup,omitempty" allowed:"an integer from 1 to 16 (crossbar outputs per output port, into an unbounded output buffer that sends one flit a cycle; router.model: iq)" default:"1"`
}

// VCConfig sets how virtual channels are held (router.model: iq).
type VCConfig struct {
	// Release: tail frees an output VC when the packet's tail leaves
	// through it; tail-credit when the tail's credit has come back
	// (BookSim's wait_for_tail_credit = 1).
	Release string `yaml:"release" json:"release,omitempty" allowed:"tail, tail-credit (router.model: iq; routing: adaptive refuses tail)" default:"tail (with routing: adaptive, tail-credit on the adaptive VCs and tail on the escape ones)"`
}

// routerTag is tag (default, allowed, yaml) of RouterConfig's field: an
// absent key's value is its default tag (one home for the default).
func routerTag(field, tag string) string {
	f, _ := reflect.TypeFor[RouterConfig]().FieldByName(field)
	return f.Tag.Get(tag)
}

// orDefault is s, or field's default when s is empty.
func orDefault(s, field string) string {
	if s == "" {
		return routerTag(field, "default")
	}
	return s
}

// VCs is buffers.vcs, 1 when absent.
func (c *Config) VCs() int {
	if c.Buffers.VCs == nil {
		return 1
	}
	return *c.Buffers.VCs
}

// publicModel checks the router.*, vc.* and buffers.vcs keys and returns
// the registered model router.model names (ok false: none is named) and
// its parameters. buffers.vcs > 1 needs a model that reads it: the flit
// crossbar has one channel per buffer, and running it with more would
// silently be another router, so it is refused with a pointer to iq.
func publicModel(c *Config) (model.Info, model.Params, bool, error) {
	var p model.Params
	v := c.VCs()
	if v < 1 || v > iq.MaxVCs {
		return model.Info{}, p, false, inputerr.New("buffers.vcs", v, "an integer from 1 to %d", iq.MaxVCs)
	}
	name := strings.ToLower(strings.TrimSpace(c.Router.Model))
	info, known := model.Lookup(name)
	if err := checkMsgClasses(c, name, info); err != nil {
		return model.Info{}, p, false, err
	}
	if name == "" {
		if v > 1 {
			return model.Info{}, p, false, inputerr.New("buffers.vcs", v, "1 unless router.model names a model with virtual channels (router.model: iq)")
		}
		return model.Info{}, p, false, nil
	}
	if !known {
		return info, p, false, inputerr.New("router.model", c.Router.Model, "%s", strings.Join(model.Names(), ", "))
	}
	if isPacket(c) || isSlotted(c) || IsLockstepMesh(c) || !strings.EqualFold(strings.TrimSpace(c.Switching), "wormhole") {
		return info, p, false, inputerr.New("switching", c.Switching, "wormhole (or absent) with router.model: %s", name)
	}
	if c.Traffic.Trace == "" && len(c.Traffic.Packets) == 0 {
		if err := checkPublicUnicast(c, nil); err != nil {
			return info, p, false, err
		}
	}
	if v > 1 && !info.VCs {
		return info, p, false, inputerr.New("buffers.vcs", v, "1 with router.model: %s (it has no virtual channels)", name)
	}
	r := c.Router
	p = model.Params{VCs: v, Classes: c.classes(), ReplyQueue: c.Traffic.ReplyQueue, Routing: c.Routing, RoutingDelay: r.RoutingDelay, CreditDelay: r.CreditDelay,
		VCAllocator: r.VCAllocator, SWAllocator: r.SWAllocator, VCRelease: c.VC.Release}
	ints := []struct {
		field  string
		ptr    *int
		to     *int
		lo, hi int
	}{
		{"VCAllocDelay", r.VCAllocDelay, &p.VCAllocDelay, 1, 1 << 16},
		{"SWAllocDelay", r.SWAllocDelay, &p.SWAllocDelay, 1, 1 << 16},
		{"STFinalDelay", r.STFinalDelay, &p.STFinalDelay, 1, 1 << 16},
		{"AllocIters", r.AllocIters, &p.AllocIters, 1, 64},
		{"InputSpeedup", r.InputSpeedup, &p.InputSpeedup, 1, iq.MaxSpeedup},
		{"OutputSpeedup", r.OutputSpeedup, &p.OutputSpeedup, 1, iq.MaxSpeedup},
		{"RoutingDelay", &r.RoutingDelay, &p.RoutingDelay, 0, 1 << 16},
		{"CreditDelay", &r.CreditDelay, &p.CreditDelay, 0, 1 << 16},
	}
	for _, k := range ints {
		*k.to, _ = strconv.Atoi(routerTag(k.field, "default"))
		if k.ptr != nil {
			*k.to = *k.ptr
		}
		if *k.to < k.lo || *k.to > k.hi {
			return info, p, false, inputerr.New("router."+routerTag(k.field, "yaml"), *k.to, "%s", routerTag(k.field, "allowed"))
		}
	}
	p.VCAllocator, p.SWAllocator = orDefault(r.VCAllocator, "VCAllocator"), orDefault(r.SWAllocator, "SWAllocator")
	return info, p, true, nil // (an empty vc.release is the model's default)
}

// checkPublicUnicast refuses hardware multicast with a public model: a
// model routes a packet to one port (a multicast worm needs the flit
// crossbar). A software multicast (unicasts) runs. pkts are a trace's or
// the inline packets, or nil for a pattern.
func checkPublicUnicast(c *Config, pkts []traffic.Packet) error {
	if c.Router.Model == "" {
		return nil
	}
	if sc, err := traffic.ParseScheme(c.Multicast.Scheme); err == nil && sc.Software() {
		return nil
	}
	const allowed = "unicast with router.model (a hardware multicast needs the flit crossbar; or multicast.scheme: separate, umin or cmin)"
	if pkts == nil && traffic.IsMulticastPattern(c.Traffic.Pattern) {
		return inputerr.New("traffic.pattern", c.Traffic.Pattern, allowed)
	}
	for i, p := range pkts {
		if len(p.Dsts) > 1 {
			if c.Traffic.Trace != "" {
				return inputerr.New("traffic.trace", c.Traffic.Trace, "%s; packet %d has %d destinations", allowed, i+1, len(p.Dsts))
			}
			return inputerr.New("traffic.packets", fmt.Sprintf("entry %d: %d destinations", i+1, len(p.Dsts)), allowed)
		}
	}
	return nil
}

// checkClasses refuses a routing function that needs more virtual
// channels than buffers.vcs gives (a dateline's two classes), whatever
// the model.
func checkClasses(c *Config, t *topology.Topology) error {
	if ar, ok := t.Router.(topology.AdaptiveRouter); ok && (c.VCs() <= ar.EscapeVCs() || c.Router.Model == "") {
		// (The flit crossbar would take several ports for a multicast.)
		if ar.EscapeVCs() == 0 { // (a turn model: any VCs)
			return inputerr.New("routing", c.Routing, "router.model: iq (an adaptive routing: the VC router picks one of its ports)")
		}
		return inputerr.New("routing", c.Routing, "buffers.vcs ≥ %d and router.model: iq (escape VCs: %d, and adaptive ones; buffers.vcs is %d)", ar.EscapeVCs()+1, ar.EscapeVCs(), c.VCs())
	}
	cr, ok := t.Router.(topology.ClassRouter)
	if !ok || c.VCs() >= cr.Classes() {
		return nil
	}
	return inputerr.New("routing", c.Routing, "buffers.vcs ≥ %d and router.model: iq (one virtual channel per class; buffers.vcs is %d)", cr.Classes(), c.VCs())
}

// iqParams are the iq router's parameters when c runs it (link latency
// included), for its zero-load latency.
func iqParams(c *Config) (model.Params, bool) {
	info, p, ok, err := publicModel(c)
	if !ok || err != nil || info.Name != "iq" {
		return p, false
	}
	p.LinkLatency = c.Link.Latency
	return p, true
}

// RouterText describes the router of a public model (router.model) for
// reports: the model, its VCs and pipeline; "" when none is selected.
func RouterText(c *Config) string {
	_, p, ok, err := publicModel(c)
	if !ok || err != nil {
		return ""
	}
	return fmt.Sprintf("router %s, %d VC × %d flits, link latency %d, delays routing %d / VC %d / switch %d / traversal %d / credit %d, allocators %s / %s ×%d, release %s",
		strings.ToLower(strings.TrimSpace(c.Router.Model)), p.VCs, c.Buffers.Input, c.Link.Latency, p.RoutingDelay, p.VCAllocDelay, p.SWAllocDelay,
		p.STFinalDelay, p.CreditDelay, p.VCAllocator, p.SWAllocator, p.AllocIters, cmp.Or(p.VCRelease, "default"))
}

// BookSimStats are a run's figures under BookSim2's names (its
// TrafficManager's summary), for side-by-side comparisons: the same
// measurements as Result's, renamed (docs/statistics.md).
type BookSimStats struct {
	PacketLatencyAverage  float64 `json:"packet_latency_average"`  // Result.Latency.Mean: creation to tail arrival
	NetworkLatencyAverage float64 `json:"network_latency_average"` // Result.NetworkLatency.Mean: head injection to tail arrival
	InjectedFlitRate      float64 `json:"injected_flit_rate"`      // Result.Offered, flits/node/cycle
	AcceptedFlitRate      float64 `json:"accepted_flit_rate"`      // Result.Throughput, flits/node/cycle
}

// fillBookSim sets r.BookSim for a run of a public model.
func fillBookSim(r *Result) {
	if r.Config.Router.Model == "" {
		return
	}
	r.BookSim = &BookSimStats{PacketLatencyAverage: r.Latency.Mean, NetworkLatencyAverage: r.NetworkLatency.Mean,
		InjectedFlitRate: r.Offered, AcceptedFlitRate: r.Throughput}
}
