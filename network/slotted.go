package network

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
	"github.com/flitsim/flitsim/traffic"
)

// The slotted hypercube router (switching: slotted; docs/slotted.md): the
// settings, their checks and the result fields. The model itself is the
// kernel's "slotted" stepper (internal/kernel/slotted.go).

// SlottedConfig sets the slotted hypercube router of Varvarigos ch. 5.
type SlottedConfig struct {
	// Scheme resolves a conflict of two continuing packets over one
	// buffer: simple (random winner) or priority (the one that has crossed
	// more links wins, ties random); or selects the deflecting crossbar
	// node, its packets processed in random order (deflection-simple) or
	// closest first (deflection-priority).
	Scheme string `yaml:"scheme" json:"scheme,omitempty" allowed:"simple, priority, deflection-simple, deflection-priority, csr (switching: slotted)" default:"simple"`
	// K is the number of waiting places per link buffer: 0 drops a
	// conflict's loser, inf never drops.
	K string `yaml:"k" json:"k,omitempty" allowed:"an integer from 0 to 1024, or inf (waiting places per link buffer, switching: slotted)" default:"0"`
	// Fixed, not a key (Go callers only: verify's Fig. 6.7 lockout row),
	// fixes the destination of the deflection schemes' new packets per
	// source node; −1 or a missing node is uniform.
	Fixed []int32 `yaml:"-" json:"-"`
}

// slottedSchemes are the schemes by name.
var slottedSchemes = map[string]uint8{"simple": kernel.SlottedSimple, "priority": kernel.SlottedPriority,
	"deflection-simple": kernel.SlottedDeflSimple, "deflection-priority": kernel.SlottedDeflPriority,
	"csr": kernel.SlottedCSR}

// slottedSchemeList is slottedSchemes' names, for messages.
const slottedSchemeList = "simple, priority, deflection-simple, deflection-priority, csr"

// isSlotted reports whether c selects the slotted router.
func isSlotted(c *Config) bool {
	return strings.EqualFold(strings.TrimSpace(c.Switching), "slotted")
}

// slottedSpec checks the slotted router's settings of c; the measured
// window is set by the caller.
func slottedSpec(c *Config) (kernel.SlottedSpec, error) {
	var s kernel.SlottedSpec
	sc := c.Slotted
	scheme := strings.ToLower(strings.TrimSpace(sc.Scheme))
	if scheme == "" {
		scheme = "simple"
	}
	id, ok := slottedSchemes[scheme]
	if !ok {
		return s, inputerr.New("slotted.scheme", sc.Scheme, slottedSchemeList)
	}
	s.Scheme = id
	k, err := parseSlottedK(sc.K)
	if err != nil {
		return s, err
	}
	s.K = k
	if kernel.IsDeflection(id) && k != 0 {
		return s, inputerr.New("slotted.k", sc.K, "0 with slotted.scheme: "+scheme+" (the crossbar node holds no waiting packets)")
	}
	if id == kernel.SlottedCSR {
		if err := csrSpec(c, &s); err != nil {
			return s, err
		}
	}
	if sc.Fixed != nil {
		if !kernel.IsDeflection(id) && id != kernel.SlottedCSR {
			return s, inputerr.New("slotted.scheme", sc.Scheme, "a deflection scheme or csr with fixed destinations")
		}
		s.Fixed = sc.Fixed
	}
	p0 := c.Traffic.P0
	if !(p0 >= 0 && p0 <= 1) { // (NaN too)
		return s, inputerr.New("traffic.p0", p0, "a probability from 0 to 1 (a new packet per free link buffer per slot)")
	}
	s.P0 = p0
	switch {
	case c.Traffic.Trace != "":
		return s, inputerr.New("traffic.trace", c.Traffic.Trace, "none with switching: slotted (traffic.p0 makes its packets)")
	case len(c.Traffic.Packets) > 0:
		return s, inputerr.New("traffic.packets", "a list", "none with switching: slotted (traffic.p0 makes its packets)")
	case IsBatch(c):
		return s, inputerr.New("traffic.mode", c.Traffic.Mode, "open with switching: slotted")
	}
	return s, nil
}

// parseSlottedK reads slotted.k: "" (0), an integer from 0 to 1024 or inf.
func parseSlottedK(v string) (int, error) {
	t := strings.ToLower(strings.TrimSpace(v))
	switch t {
	case "":
		return 0, nil
	case "inf", "infinity", "∞":
		return kernel.SlottedInf, nil
	}
	k, err := strconv.Atoi(t)
	if err != nil || k < 0 || k > 1024 {
		return 0, inputerr.New("slotted.k", v, "an integer from 0 to 1024, or inf")
	}
	return k, nil
}

// checkSlottedTopology refuses a topology the slotted router (scheme, as
// slottedSpec read it) does not fit and reports whether it is the folded
// butterfly.
func checkSlottedTopology(c *Config, t *topology.Topology, scheme uint8) (bool, error) {
	nbr := func(s, p int) int {
		if p >= len(t.Switches[s].Out) {
			return -1
		}
		return int(t.Switches[s].Out[p].Switch)
	}
	_, fbfly := kernel.IsSlottedButterfly(nbr, len(t.Switches), len(t.Switches[0].Out))
	switch {
	case fbfly && scheme != kernel.SlottedSimple && scheme != kernel.SlottedPriority:
		return false, inputerr.New("slotted.scheme", c.Slotted.Scheme, "simple, priority with topology.kind: folded-butterfly (greedy routing, §5.5)")
	case !fbfly && !kernel.IsSlottedCube(nbr, len(t.Switches), len(t.Switches[0].Out)):
		return false, inputerr.New("topology.kind", c.Topology.Kind, "hypercube or folded-butterfly with switching: slotted")
	}
	for src, dst := range c.Slotted.Fixed {
		if dst >= 0 && (src >= len(t.Switches) || int(dst) >= len(t.Switches) || int(dst) == src) {
			return false, inputerr.New("slotted.fixed", fmt.Sprintf("%d → %d", src, dst), "another node of the cube")
		}
	}
	return fbfly, nil
}

// idleGen is the network's generator under the slotted router, whose
// packets appear per link buffer inside the model: it never emits.
type idleGen struct{}

func (idleGen) Generate(int64, traffic.Emitter) {}
func (idleGen) NextAt(int64) int64              { return math.MaxInt64 }

// SlotCount is one bin of Result.DeliverySlots.
type SlotCount struct {
	Slots   int64 `json:"slots"`
	Packets int64 `json:"packets"`
}

// fillSlotted sets r's figures from the slotted router's counts (packets
// are one flit, cycles are slots).
func (n *Network) fillSlotted(r *Result) {
	c := n.k.SlottedCounts()
	if c == nil {
		return
	}
	nodes := float64(n.k.Topo.Terminals())
	r.InjectedPackets, r.DeliveredPackets = c.TotalInjected, c.TotalDelivered
	r.InjectedFlits, r.DeliveredFlits = c.TotalInjected, c.TotalDelivered
	dropped := c.TotalDropped
	r.Dropped = &dropped
	r.Backlog = c.InFlight
	r.Violations.Misdelivered += c.Misrouted
	r.DroppedByCause = map[string]int64{}
	for i, v := range c.DroppedAll {
		if v > 0 {
			r.DroppedByCause[kernel.DropCauseNames[i]] = v
		}
	}
	r.MeasuredPackets, r.MeasuredDelivered, r.MeasuredDropped = c.Injected, c.MeasuredDone, c.MeasuredDropped
	r.ShortfallCI95, r.ShortfallCI95Note = -1, "switching: slotted drops packets by design (dropped_by_cause)"
	fillLivelock(r, c.Livelock)
	if c.Slots == 0 {
		return
	}
	defer n.fillCSR(r, c)
	slots := float64(c.Slots)
	tp := float64(c.Delivered) / nodes / slots
	r.ThroughputPerNode = &tp
	r.Offered = float64(c.Injected) / nodes / slots
	r.Throughput = tp
	d := n.Cfg.Topology.D
	links := float64(c.Links) // (the hypercube's 2d per node, internal ones included; the crossbar's d)
	var hops int64
	if c.Deflections == nil {
		r.PType = make([]float64, d)
		for t := 1; t <= d; t++ {
			r.PType[t-1] = float64(c.Occupancy[t]) / (links * slots)
			hops += c.Occupancy[t]
		}
		r.Pi = shares(c.Pi[1:])
	} else {
		hops = c.WindowHops
		r.Deflections = deflectionStats(c.Deflections)
	}
	// Its links are the model's, not the topology's channels.
	r.ChannelUtilMean = float64(hops) / (links * slots)
	r.ChannelUtilMax, r.BusiestChannel = 0, ""
	var sum, cnt int64
	for s, v := range c.DeliverySlots {
		if v > 0 {
			r.DeliverySlots = append(r.DeliverySlots, SlotCount{Slots: int64(s), Packets: v})
			sum += int64(s) * v
			cnt += v
		}
	}
	if cnt > 0 {
		r.Hops = float64(d)
		if c.Deflections != nil {
			r.Hops = float64(sum) / float64(cnt) // (one hop a slot)
		}
		r.Latency = slotSummary(r.DeliverySlots, sum, cnt)
		r.NetworkLatency = r.Latency
	}
}

// shares is h, each count divided by their sum (nil when it is 0).
func shares(h []int64) []float64 {
	var sum int64
	for _, v := range h {
		sum += v
	}
	if sum == 0 {
		return nil
	}
	out := make([]float64, len(h))
	for i, v := range h {
		out[i] = float64(v) / float64(sum)
	}
	return out
}

// DeflectionStats is Result.Deflections: of the packets delivered in the
// window, the mean number of deflections and the histogram.
type DeflectionStats struct {
	Mean      float64           `json:"mean"`
	Histogram []DeflectionCount `json:"histogram"`
}

// DeflectionCount is one bin of DeflectionStats.Histogram.
type DeflectionCount struct {
	Deflections int64 `json:"deflections"`
	Packets     int64 `json:"packets"`
}

// deflectionStats summarises the histogram h (h[j]: packets deflected j
// times), or nil when it is empty.
func deflectionStats(h []int64) *DeflectionStats {
	st := &DeflectionStats{}
	var sum, cnt int64
	for j, v := range h {
		if v > 0 {
			st.Histogram = append(st.Histogram, DeflectionCount{Deflections: int64(j), Packets: v})
			sum += int64(j) * v
			cnt += v
		}
	}
	if cnt == 0 {
		return nil
	}
	st.Mean = float64(sum) / float64(cnt)
	return st
}

// slotSummary summarises the delivery-slot histogram h (cnt packets, sum
// slots in all): the latency, from entry to delivery, of the packets
// delivered in the window.
func slotSummary(h []SlotCount, sum, cnt int64) Summary {
	s := Summary{Count: cnt, Mean: float64(sum) / float64(cnt), CI95: math.NaN(),
		CI95Note: "switching: slotted: no batch means"}
	q := func(f float64) float64 {
		need := int64(math.Ceil(f * float64(cnt)))
		var acc int64
		for _, b := range h {
			if acc += b.Packets; acc >= need {
				return float64(b.Slots)
			}
		}
		return float64(h[len(h)-1].Slots)
	}
	s.P50, s.P95, s.P99, s.Max = q(0.5), q(0.95), q(0.99), float64(h[len(h)-1].Slots)
	return s
}

// SlottedLinks is the number of links of the slotted router c configures
// (kernel.SlottedLinks: 2d per hypercube node — d per node for the
// deflecting crossbar — and two per folded-butterfly node, d·2^d nodes)
// and its waiting places per link (slotted.k; −1 is inf), from the checked
// keys, without building the network.
func SlottedLinks(c *Config) (links int64, k int, err error) {
	s, err := slottedSpec(c)
	if err != nil {
		return 0, 0, err
	}
	d := c.Topology.D
	if d < 1 || d > 20 {
		return 0, 0, inputerr.New("topology.d", d, "an integer from 1 to 20 with switching: slotted")
	}
	return int64(kernel.SlottedLinks(s.Scheme, d, 1<<d)), s.K, nil
}

// SlottedSettings are the checked settings of a slotted-router
// configuration (what `flitsim analytic` evaluates the thesis's models at).
type SlottedSettings struct {
	D      int     // topology.d
	Scheme string  // slotted.scheme: simple or priority
	K      int     // slotted.k; −1 is inf
	P0     float64 // traffic.p0
}

// CheckSlotted checks c's slotted-router keys (the same checks as Build)
// and returns them.
func CheckSlotted(c *Config) (SlottedSettings, error) {
	s, err := slottedSpec(c)
	if err != nil {
		return SlottedSettings{}, err
	}
	if kernel.IsDeflection(s.Scheme) {
		return SlottedSettings{}, inputerr.New("slotted.scheme", c.Slotted.Scheme,
			"simple, priority (the analysis has no deflection model: its bound is a verify row)")
	}
	if s.Scheme == kernel.SlottedCSR { // (its settings are CheckCSR's)
		return SlottedSettings{}, inputerr.New("slotted.scheme", c.Slotted.Scheme, "simple, priority (csr: network.CheckCSR)")
	}
	name := "simple"
	if s.Scheme == kernel.SlottedPriority {
		name = "priority"
	}
	return SlottedSettings{D: c.Topology.D, Scheme: name, K: s.K, P0: s.P0}, nil
}
