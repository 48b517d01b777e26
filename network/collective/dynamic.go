package collective

import (
	"math"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

// Dynamic broadcasting (Varvarigos ch. 4; digest 000a §6): broadcast
// requests arrive at every node as a Poisson process of rate λ; time is a
// sequence of back-to-back PMNB periods, each a reservation interval (the
// rank computation, 2d·t_p on the hypercube, and the packing) followed by
// the broadcast of the packets reserved. A node takes part in a period with
// the head of its queue if that packet arrived before the period began; a
// packet is served at the end of its period. Every period's PMNB runs on
// the scheduled packet router (dynamic_cube.go: the hypercube's;
// dynamic_folded.go, dynamic_mesh.go: the folded cube's, the mesh's).

// dynPMNB is a topology kind's PMNB as the dynamic scheme runs it, period
// after period, on one router. A family plugs in by adding its constructor
// to dynFamilies (the mesh and torus: dynamic_mesh.go).
type dynPMNB interface {
	Split() int      // router slots per packet time (mini-slots)
	Bound() Eq41     // X and V of the PMNB's length bound X·M + V (time units)
	Prefix() float64 // the rank computation's length (time units), not run on the router
	Describe() string
	// Period loads one PMNB of the active nodes' packets (one each) and
	// returns its schedule, in slots from 0, and its length in slots.
	Period(k *kernel.Kernel, active []int) (kernel.SlotScheduler, int64)
	// Settle checks the period's deliveries once it has run.
	Settle(active []int) (missing, dup, stray int64)
}

var dynFamilies = map[string]func(spec topology.Spec, g *Net, tp float64) (dynPMNB, error){
	"hypercube":   func(_ topology.Spec, g *Net, tp float64) (dynPMNB, error) { return newCubeDyn(g, tp) },
	"folded-cube": func(_ topology.Spec, g *Net, tp float64) (dynPMNB, error) { return newFoldedDyn(g, tp) },
	"mesh":        func(s topology.Spec, g *Net, tp float64) (dynPMNB, error) { return newMeshDyn(s, g, tp, false) },
	"torus":       func(s topology.Spec, g *Net, tp float64) (dynPMNB, error) { return newMeshDyn(s, g, tp, true) },
}

// DynKeys are the task.* keys of the dynamic task.
var DynKeys = []string{"task.rho", "task.periods", "task.tp", "task.intervals", "task.warmup", "task.backlog", "task.algorithm"}

// DynParams are a dynamic run's parameters.
type DynParams struct {
	Rho     float64 // load ρ = λNX
	Periods int     // PMNB periods to run
	Tp      float64 // prefix hop time t_p
	// Fixed: the periods have the scheme's fixed lengths, reservation V and
	// broadcast X·M (§4.2; the router's PMNB must fit, and the nodes wait
	// out the rest); otherwise a period ends when the router's PMNB does
	// (after 2d·t_p of prefix).
	Fixed  bool
	Warmup int // periods whose arrivals are not measured
	// Backlog requests wait at every node at time 0 (not measured): from
	// a saturated start the queues drain below the threshold and grow above.
	Backlog int
	// Algorithm is the hypercube's PMNB: "ii" (Algorithm II, the default)
	// or "iii" (Algorithm III, dynamic_cube3.go); "" on other kinds.
	Algorithm string
}

// ParseDynParams reads the task.* keys of the dynamic task.
func ParseDynParams(params map[string]string) (DynParams, error) {
	p := DynParams{Rho: 0.5, Periods: 2000, Fixed: true, Warmup: -1}
	for key, v := range params {
		var err error
		switch key {
		case "task.rho":
			p.Rho, err = floatParam(key, v, 0, 1, "a number with 0 < ρ < 1 (the load λNX)", true)
		case "task.tp":
			p.Tp, err = floatParam(key, v, 0, 16, "a number from 0 to 16 (prefix time per hop, in packet times)", false)
		case "task.periods":
			p.Periods, err = intParam(params, key, 0, 1, 10_000_000)
		case "task.backlog":
			p.Backlog, err = intParam(params, key, 0, 0, 1_000_000)
		case "task.warmup":
			p.Warmup, err = intParam(params, key, 0, 0, 10_000_000)
		case "task.algorithm":
			p.Algorithm, err = dynAlgorithm(v)
		case "task.intervals":
			switch strings.TrimSpace(v) {
			case "fixed":
				p.Fixed = true
			case "hardware":
				p.Fixed = false
			default:
				err = inputerr.New(key, v, "fixed (reservation V and broadcast X·M, §4.2) or hardware (a period ends when the router's PMNB does)")
			}
		default:
			return p, &inputerr.Error{Key: key, Value: v, Problem: "unknown key for task dynamic", Allowed: "task keys for dynamic: " + strings.Join(DynKeys, ", ")}
		}
		if err != nil {
			return p, err
		}
	}
	if p.Warmup < 0 {
		p.Warmup = p.Periods / 10
	}
	if p.Warmup >= p.Periods {
		return p, inputerr.New("task.warmup", p.Warmup, "fewer than task.periods (%d)", p.Periods)
	}
	return p, nil
}

// dynAlgorithm reads the dynamic task's task.algorithm.
func dynAlgorithm(v string) (string, error) {
	switch a := strings.TrimSpace(v); a {
	case "ii", "iii":
		return a, nil
	}
	return "", inputerr.New("task.algorithm", v, "ii (Algorithm II, split into d mini-packets: V = 2dt_p + 2, X = (N−1)/(dN)) or iii (Algorithm III, no splitting: V = 2d + 4dt_p, X = 1/d); hypercube only")
}

// floatParam is a number in [lo, hi] (open at lo when open is set).
func floatParam(key, v string, lo, hi float64, allowed string, open bool) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(x) || x < lo || x > hi || open && (x == lo || x == hi) {
		return 0, inputerr.New(key, v, "%s", allowed)
	}
	return x, nil
}

// DynResult is one dynamic-broadcasting run.
type DynResult struct {
	Task      string  `json:"task"`
	Topology  string  `json:"topology"`
	Nodes     int     `json:"nodes"`
	D         int     `json:"d"`
	K         int     `json:"k,omitempty"` // the mesh's and torus's side p (d is its dimension count)
	Rho       float64 `json:"rho"`
	Lambda    float64 `json:"lambda"` // requests per node per packet time
	Tp        float64 `json:"tp"`
	Intervals string  `json:"intervals"`
	X         float64 `json:"x"`
	V         float64 `json:"v"`
	Periods   int     `json:"periods"`
	Warmup    int     `json:"warmup_periods"`
	// Time is the simulated time in packet times (the end of the last period).
	Time float64 `json:"time"`
	// MeanDelay is the mean time from a measured request (one arriving
	// after the warm-up) to the end of its broadcast; Served counts them.
	MeanDelay float64 `json:"mean_delay"`
	DelayCI95 float64 `json:"delay_ci95"` // half-width, from batch means
	Served    int64   `json:"served"`
	Unserved  int64   `json:"unserved"` // measured requests still queued at the end
	// The theorem (Eq. 4.1) for this load.
	TheoremLow   float64 `json:"theorem_t_low"`  // min(T(a_lo), T(a_hi))
	TheoremHigh  float64 `json:"theorem_t_high"` // max(T(a_lo), T(a_hi))
	TheoremBound float64 `json:"theorem_bound"`  // W(a_lo) + X + min((N−1)X/2, ρW(a_lo))
	Threshold    float64 `json:"threshold"`      // ρ* = 1/(1 + V/(NX))
	// Algorithm is task.algorithm when given (hypercube: ii or iii);
	// ThresholdPrinted is §4.4's printed threshold for Algorithm III,
	// 1/(1 + (2d+2dt_p)d/N), beside the derived Threshold (a typo, digest
	// 000a §9 item 25).
	Algorithm        string   `json:"algorithm,omitempty"`
	ThresholdPrinted *float64 `json:"threshold_printed,omitempty"`
	WithinBound      bool     `json:"within_bound"`
	// Eq6Bound (folded cube, below ρ*): the paper's own delay bound, eq. 6
	// (folded_eq6.go), beside Eq. 4.1's.
	Eq6Bound  *float64 `json:"eq6_bound,omitempty"`
	Eq6Text   string   `json:"eq6_bound_text,omitempty"`
	WithinEq6 *bool    `json:"within_eq6_bound,omitempty"`
	// Stability: the backlog (requests queued at period starts) over the
	// run's quarters, and the verdict.
	MeanM      float64   `json:"mean_m"` // active nodes per period (the theorem's M̄)
	TheoremM   float64   `json:"theorem_m"`
	Backlog    []float64 `json:"backlog_quarters"`
	BacklogEnd int64     `json:"backlog_end"`
	Growth     float64   `json:"growth"`  // backlog growth per packet time over the second half
	Verdict    string    `json:"verdict"` // stable, unstable or undecided
	Stable     bool      `json:"stable"`
	StableText string    `json:"stable_reason"`
	// The saturated periods (all N nodes active): how many, their mean
	// length, the router's PMNB in them, and the load at which they serve
	// requests as fast as they arrive, NX/length: the queues grow above it.
	SatPeriods   int     `json:"saturated_periods"`
	SatPeriod    float64 `json:"saturated_period"`
	SatHardware  float64 `json:"saturated_hardware"`
	SatThreshold float64 `json:"saturated_threshold"`
	MaxPeriod    float64 `json:"max_period"`   // the longest period (packet times)
	MaxHardware  float64 `json:"max_hardware"` // the router's longest PMNB (packet times, with the prefix)
	// Checked deliveries of every period's PMNB on the router.
	Transmissions int64  `json:"transmissions"`
	Delivered     bool   `json:"delivered"`
	Missing       int64  `json:"missing"`
	Duplicates    int64  `json:"duplicates"`
	Stray         int64  `json:"stray"`
	Reading       string `json:"reading"`
	// Status is StatusInterrupted for the partial result of a run stopped
	// by Options.Stop, which ran PeriodsRun of its Periods; both are
	// empty otherwise.
	Status     string `json:"status,omitempty"`
	PeriodsRun int    `json:"periods_run,omitempty"`
}

// dynSlots is the router's scheduler: the current period's PMNB, its
// slots counted from the period's start.
type dynSlots struct {
	cur  kernel.SlotScheduler
	base int64
}

func (s *dynSlots) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	return s.cur.Sends(slot-s.base, node, out)
}

func (s *dynSlots) Arrived(slot int64, node, inPort int32, pkt int32) bool {
	return s.cur.Arrived(slot-s.base, node, inPort, pkt)
}

// RunDynamic runs dynamic broadcasting on spec's network.
func RunDynamic(spec topology.Spec, params map[string]string, seed uint64) (*DynResult, error) {
	p, err := ParseDynParams(params)
	if err != nil {
		return nil, err
	}
	return RunDynamicP(spec, p, seed)
}

// RunDynamicP is RunDynamic with parsed parameters.
func RunDynamicP(spec topology.Spec, p DynParams, seed uint64) (*DynResult, error) {
	return runDynamic(spec, p, seed, nil)
}

// RunDynamicWith is RunDynamic with options: o.Attach observes the one
// router every period runs on; o.Stop ends the run after the period in
// which it became true (an *Interrupted error).
func RunDynamicWith(spec topology.Spec, params map[string]string, seed uint64, o Options) (*DynResult, error) {
	p, err := ParseDynParams(params)
	if err != nil {
		return nil, err
	}
	return runDynamic(spec, p, seed, &o)
}

func runDynamic(spec topology.Spec, p DynParams, seed uint64, o *Options) (*DynResult, error) {
	kind := strings.ToLower(spec.Kind)
	newFam := dynFamilies[kind]
	if newFam == nil {
		return nil, inputerr.New("topology.kind", spec.Kind, "hypercube, folded-cube, mesh or torus (the kinds whose PMNB dynamic broadcasting runs)")
	}
	if kind == "hypercube" && spec.D > MaxD {
		return nil, inputerr.New("topology.d", spec.D, "an integer from 1 to %d for a collective", MaxD)
	}
	if kind == "folded-cube" && (spec.D < 2 || spec.D > MaxFoldedD) {
		return nil, inputerr.New("topology.d", spec.D, "an integer from 2 to %d for a folded-cube collective", MaxFoldedD)
	}
	if kind == "mesh" || kind == "torus" {
		if err := gridSpecErr(spec, kind == "torus"); err != nil {
			return nil, err
		}
	}
	if p.Algorithm != "" && kind != "hypercube" {
		return nil, inputerr.New("task.algorithm", p.Algorithm, "only on topology.kind hypercube (%s runs its one PMNB)", kind)
	}
	if kind == "hypercube" && p.Algorithm == "iii" {
		newFam = func(_ topology.Spec, g *Net, tp float64) (dynPMNB, error) { return newCubeDynIII(g, tp) }
	}
	sch := &dynSlots{}
	k, g, err := buildScheduled(spec, seed, sch)
	if err != nil {
		return nil, err
	}
	if err := o.attach(k); err != nil {
		return nil, err
	}
	fam, err := newFam(spec, g, p.Tp)
	if err != nil {
		return nil, err
	}
	run := newDynRun(k, g, fam, sch, p, seed)
	run.stop = o
	shape := func(r *DynResult) *DynResult {
		r.Topology, r.D = kind, spec.D
		if kind == "mesh" || kind == "torus" {
			r.D, r.K = spec.N, spec.K
		}
		return r
	}
	if err := run.loop(); err != nil {
		if in, ok := err.(*Interrupted); ok {
			in.Dynamic = shape(run.partial())
		}
		return nil, err
	}
	return shape(run.result()), nil
}
