package main

import (
	"fmt"
	"strconv"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/analytic"
)

// The figures `flitsim analytic --plot` draws: Varvarigos 1992's models
// (ch. 5, 6) against the slotted router simulated at a few loads.

// simulators are the schemes whose simulated points the figures show, each
// with what its run needs beyond slotted.scheme, slotted.k and
// traffic.p0: a scheme the simulator gains is one entry here. CSR's p0 in
// the figures is the attempt rate, so its NACKed packets are dropped and
// every attempt is fresh (csr.fresh), the attempts the analysis assumes.
var simulators = map[string]func(c *network.Config, p0 float64){
	"simple":              nil,
	"priority":            nil,
	"deflection-simple":   nil,
	"deflection-priority": nil,
	"csr":                 func(c *network.Config, _ float64) { c.CSR.Fresh = true },
}

// figCurve is one scheme's curve in a figure.
type figCurve struct {
	scheme, k string
}

// name is the curve's legend name.
func (c figCurve) name() string {
	if c.scheme == "csr" {
		return "CSR"
	}
	return fmt.Sprintf("%s, k = %s", c.scheme, c.k)
}

// figSpec is a figure over p0 (all but 6.5).
type figSpec struct {
	title  string
	d      int  // the thesis's dimension (topology.d overrides it)
	share  bool // y is p_d/p_1, the share of admitted packets delivered (Fig. 5.7)
	curves []figCurve
}

// figures are the figures over p0, by number; "6.5" is satFigure.
var figures = map[string]figSpec{
	"5.3": {title: "Simple scheme without buffers", d: 11, curves: []figCurve{{"simple", "0"}}},
	"5.4": {title: "Simple scheme, throughput per node for various buffer sizes", d: 11,
		curves: []figCurve{{"simple", "0"}, {"simple", "1"}, {"simple", "2"}, {"simple", "3"}, {"simple", "inf"}}},
	"5.5": {title: "Priority scheme without buffers", d: 11, curves: []figCurve{{"priority", "0"}}},
	"5.6": {title: "Priority scheme, throughput for various buffer sizes", d: 11,
		curves: []figCurve{{"priority", "0"}, {"priority", "1"}, {"priority", "2"}, {"priority", "3"}}},
	"5.7": {title: "Priority scheme, packets delivered as a share of those admitted (p_d/p_1)", d: 11, share: true,
		curves: []figCurve{{"priority", "0"}, {"priority", "1"}, {"priority", "2"}, {"priority", "3"}}},
	"6.4": {title: "Hypercube CSR: throughput against attempt rate, with the stable points", d: 11,
		curves: []figCurve{{"csr", "0"}}},
}

// figureNames are the --figure values, in order.
var figureNames = []string{"5.3", "5.4", "5.5", "5.6", "5.7", "6.4", "6.5"}

// simLoads are the loads a figure over p0 simulates.
var simLoads = []float64{0.02, 0.05, 0.1, 0.2, 0.4, 0.7, 1}

// modelAt is the analysis of a curve at load p0 on the d-cube: the
// throughput per node and p_1..p_d (CSR: at attempt rate p0).
func modelAt(c figCurve, d int, p0 float64) (float64, []float64, error) {
	if c.scheme == "csr" {
		m, err := analytic.CSRModel(d, p0)
		return m.ThroughputPerNode, m.PType, err
	}
	k := analytic.Inf
	if c.k != "inf" {
		var err error
		if k, err = strconv.Atoi(c.k); err != nil {
			return 0, nil, err
		}
	}
	var m analytic.Slotted
	var err error
	switch {
	case c.scheme == "priority" && k == 0:
		m, err = analytic.PriorityUnbuffered(d, p0)
	case c.scheme == "priority":
		m, err = analytic.PriorityBuffered(d, k, p0)
	default:
		m, err = analytic.SimpleScheme(d, k, p0)
	}
	return m.ThroughputPerNode, m.PType, err
}

// yOf is what a figure plots of a throughput and p_1..p_d.
func (f figSpec) yOf(R float64, p []float64) float64 {
	if !f.share {
		return R
	}
	if len(p) == 0 || p[0] == 0 {
		return 1 // (nothing admitted: nothing lost)
	}
	return p[len(p)-1] / p[0]
}

// simulateAt runs the slotted router for a curve at load p0 on the d-cube
// for slots measured slots; ok is false when the scheme has no simulator
// or the run did not end in status ok (a full infinite buffer).
func simulateAt(base network.Config, c figCurve, d int, p0 float64, slots int64) (*network.Result, bool, error) {
	adjust, has := simulators[c.scheme]
	if !has || slots <= 0 || (c.k == "inf" && 2*float64(d)*p0 >= 1.6) {
		return nil, false, nil // (k = inf: the buffers grow without end past 2d·p0 = 2, slowly near it)
	}
	cfg := base
	cfg.Topology = network.TopologyConfig{Kind: "hypercube", D: d}
	cfg.Switching = "slotted"
	cfg.Slotted = network.SlottedConfig{Scheme: c.scheme, K: c.k}
	cfg.Traffic.P0 = p0
	cfg.Run.Warmup, cfg.Run.Measure = max(50, slots/2), slots
	if adjust != nil {
		adjust(&cfg, p0)
	}
	r, err := network.Run(cfg)
	if err != nil {
		return nil, false, err
	}
	if r.Status != network.StatusOK || r.ThroughputPerNode == nil {
		return r, false, nil
	}
	return r, true, nil
}
