package plot

import (
	"fmt"
	"math"
	"strings"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/sweep"
	"github.com/flitsim/flitsim/network/topology"
)

// curve is one line: the rows of one combination of the other keys.
type curve struct {
	label string
	rows  []*sweep.Row
}

// loadKey is the key that runs along the curves: traffic.load if it is
// varied, otherwise the last varied key ("" without varied keys).
func loadKey(f *sweep.File) string {
	vary := f.Sweep.Vary
	if len(vary) == 0 {
		return ""
	}
	key := vary[len(vary)-1].Key
	for _, v := range vary {
		if v.Key == LoadKey {
			key = LoadKey
		}
	}
	return key
}

// curves groups f's rows (in grid order) by the varied keys other than the
// load key.
func curves(f *sweep.File) (out []*curve) {
	vary := f.Sweep.Vary
	if len(vary) == 0 {
		return []*curve{{label: "measured", rows: rowPtrs(f)}}
	}
	lk := loadKey(f)
	byLabel := map[string]*curve{}
	for i := range f.Rows {
		r := &f.Rows[i]
		var parts []string
		for _, kv := range r.Values {
			if kv.Key != lk {
				parts = append(parts, inWords(kv.Key, kv.Value))
			}
		}
		label := strings.Join(parts, ", ")
		c := byLabel[label]
		if c == nil {
			c = &curve{label: label}
			byLabel[label] = c
			out = append(out, c)
		}
		c.rows = append(c.rows, r)
	}
	if len(out) == 1 && out[0].label == "" {
		out[0].label = "measured" // (only the load varies: the title says the rest)
	}
	return out
}

func rowPtrs(f *sweep.File) []*sweep.Row {
	out := make([]*sweep.Row, len(f.Rows))
	for i := range f.Rows {
		out[i] = &f.Rows[i]
	}
	return out
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// drawn reports whether r is a point of its curve: not deadlocked, with a
// finite offered load.
func drawn(r *sweep.Row) bool { return r.DeadlockCycle == nil && finite(float64(r.Offered)) }

// Saturation is what a curve's legend says about its saturation.
type Saturation struct {
	// Saturated is whether any point of the curve is saturated (its status
	// or flag: accepted throughput short of the offered load, network.Judge).
	Saturated bool
	// Throughput is the curve's saturation throughput: the largest accepted
	// throughput of its points (deadlocked ones left out), defined only when
	// Saturated. Past saturation the accepted throughput levels off, so its
	// largest value is the most the network delivered at this setting.
	Throughput float64
	// From is the offered load of the first saturated point (lowest
	// offered) when Saturated; otherwise the largest offered load measured.
	From float64
}

// saturation finds c's Saturation.
func (c *curve) saturation() Saturation {
	var s Saturation
	s.From = math.Inf(1)
	maxOffered := 0.0
	for _, r := range c.rows {
		if !drawn(r) {
			continue
		}
		x, y := float64(r.Offered), float64(r.Throughput)
		maxOffered = max(maxOffered, x)
		if finite(y) {
			s.Throughput = max(s.Throughput, y)
		}
		if r.Saturated {
			s.Saturated = true
			s.From = min(s.From, x)
		}
	}
	if !s.Saturated {
		s.Throughput, s.From = 0, maxOffered
	}
	return s
}

// legendLabel is c's legend entry: its label and its saturation.
func (c *curve) legendLabel() string {
	s := c.saturation()
	if !s.Saturated {
		return fmt.Sprintf("%s: not saturated up to offered load %.3g", c.label, s.From)
	}
	return fmt.Sprintf("%s: saturation throughput %.3f (saturated from offered load %.3g)", c.label, s.Throughput, s.From)
}

// zeroLoad is c's zero-load latency from the closed form of docs/hardware.md
// (network.MeanZeroLoadLatency) at the mean routers passed measured at the
// curve's lowest offered load, or ok false with the reason it does not
// apply.
func (c *curve) zeroLoad(f *sweep.File) (t float64, ok bool, why string) {
	if loadKey(f) != LoadKey {
		return 0, false, "traffic.load is not varied"
	}
	var low *sweep.Row
	for _, r := range c.rows {
		if drawn(r) && finite(float64(r.Hops)) && (low == nil || r.Offered < low.Offered) {
			low = r
		}
	}
	if low == nil || low.Hops < 1 {
		return 0, false, "no packet measured"
	}
	cfg, err := f.Sweep.Load(low.Point)
	if err != nil {
		return 0, false, "the config does not load here"
	}
	t, why = network.MeanZeroLoadLatency(&cfg, float64(low.Hops))
	return t, why == "", why
}

// zeroLoads is the zero-load latency of each curve (NaN where the formula
// does not apply) and the reasons it did not.
func zeroLoads(f *sweep.File, cs []*curve) (ts []float64, whys []string) {
	seen := map[string]bool{}
	for _, c := range cs {
		t, ok, why := c.zeroLoad(f)
		if !ok {
			t = math.NaN()
			if !seen[why] {
				seen[why] = true
				whys = append(whys, why)
			}
		}
		ts = append(ts, t)
	}
	return ts, whys
}

// describeSetup names the topology and the traffic for the title: the
// config of the first point, with a varied key's values listed.
func describeSetup(f *sweep.File) string {
	if len(f.Rows) == 0 {
		return ""
	}
	cfg, err := f.Sweep.Load(f.Rows[0].Point)
	if err != nil {
		return ""
	}
	varied := map[string]string{}
	for _, v := range f.Sweep.Vary {
		varied[v.Key] = strings.Join(v.Values, ",")
	}
	value := func(key, v string) string {
		if vs, ok := varied[key]; ok {
			return vs
		}
		return v
	}
	topo := value("topology.kind", cfg.Topology.Kind)
	var params []string
	for _, key := range topologyParams(cfg.Topology) {
		v, _ := cfg.Topology.Value(key)
		params = append(params, key+"="+value("topology."+key, v))
	}
	if len(params) > 0 {
		topo += " " + strings.Join(params, " ")
	}
	parts := []string{topo}
	if cfg.Traffic.Trace != "" || len(cfg.Traffic.Packets) > 0 {
		parts = append(parts, "trace traffic")
	} else {
		parts = append(parts, value("traffic.pattern", cfg.Traffic.Pattern)+" traffic",
			value("traffic.flits", cfg.Traffic.Flits.String())+"-flit packets")
	}
	if _, ok := varied["switching"]; !ok {
		parts = append(parts, cfg.Switching)
	}
	return strings.Join(parts, ", ")
}

// topologyParams are the parameters of t's kind that are set, routing
// details (order, path, tie) left out: what sizes the network.
func topologyParams(t network.TopologyConfig) []string {
	k, ok := topology.Kind(t.Kind)
	if !ok {
		return nil
	}
	var out []string
	for _, key := range k.ParamNames() {
		switch key {
		case "order", "path", "path_index", "tie":
			continue
		}
		if t.IsSet(key) {
			out = append(out, key)
		}
	}
	return out
}
