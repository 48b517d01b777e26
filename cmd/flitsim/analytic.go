package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/analytic"
)

const analyticSynopsis = `Usage: flitsim analytic [-c FILE.yaml] [--set key=value]... [--scheme simple|priority|csr] [--format table|json]
       flitsim analytic --plot FILE.svg|.png --figure F [--set key=value]... [--slots N] [--format table|json]

Evaluates Varvarigos's analytic models (1992, ch. 5 and 6) of the slotted
hypercube router (switching: slotted, docs/slotted.md) at the configured
topology.d, slotted.k and traffic.p0: the throughput per node R = 2d·p_d and
p_1..p_d. Its JSON's throughput_per_node and p_type are the simulation's
fields of the same name (flitsim run --format json). Every scheme's output
also has pi, the distance histogram π_1..π_d of eq. 5.47 (docs/analytic.md).
On topology.kind: folded-butterfly (simple, priority) R is per butterfly node.

  simple, slotted.k = 0        eqs. 5.1–5.8
  simple, slotted.k ≥ 1, inf   eqs. 5.9–5.22 (inf: R = 2d·p0/(1 + p0(d−1)))
  priority, slotted.k = 0      eqs. 5.31–5.38 (backward recursion)
  priority, slotted.k ≥ 1, inf eqs. 5.39–5.42 (Gauss–Seidel)
  csr                          eqs. 6.1–6.8: traffic.p0 is q_a (a new packet at
                               an entry buffer per slot), csr.retry q_r (default
                               1; csr.fresh: none, p0 is the attempt rate),
                               csr.beta β (throughput_per_time = R/(1 + β));
                               p_reserved is the model's p_i, a link reserved by
                               a flit at step i; p_type, the links' occupancy, p_d

--plot draws analysis against the simulated router (docs/analytic.md):
--figure 5.3 … 5.7 and 6.4 over p0 (at the thesis's d = 11 unless
topology.d is set), 6.5 the saturation point of every scheme against d
(simulated up to topology.d, default 8); --slots measured slots per point.

  flitsim analytic --set topology.d=8 --set traffic.p0=0.3642
  flitsim analytic --scheme priority --set topology.d=8 --set traffic.p0=1 --format json
  flitsim analytic --scheme csr --set topology.d=7 --set traffic.p0=0.05
  flitsim analytic --plot fig55.svg --figure 5.5 --set topology.d=8
`

// analyticReport is what flitsim analytic prints.
type analyticReport struct {
	Model             string    `json:"model"`
	Scheme            string    `json:"scheme"`
	D                 int       `json:"d"`
	K                 string    `json:"k"`
	P0                float64   `json:"p0"`
	ThroughputPerNode float64   `json:"throughput_per_node"`
	PType             []float64 `json:"p_type"`
	Idle              *float64  `json:"idle,omitempty"`
	*csrReport
	// Pi is π_1..π_d (eq. 5.47) and MeanDistance m̄, for destinations
	// uniform over the other nodes.
	Pi           []float64 `json:"pi"`
	MeanDistance float64   `json:"mean_distance"`
}

// csrReport is the CSR model's own fields.
type csrReport struct {
	// PReserved is the model's own p_1..p_d: a link reserved, by a
	// confirmed or a ghost booking, by a flit at step i (eq. 6.6).
	PReserved         []float64 `json:"p_reserved"`
	Beta              float64   `json:"beta"`
	Retry             float64   `json:"retry"`
	Fresh             bool      `json:"fresh"`
	ThroughputPerTime float64   `json:"throughput_per_time"`
	AttemptP0         float64   `json:"attempt_p0"`
	Backlogged        float64   `json:"backlogged"`
}

func cmdAnalytic(args []string, stdout io.Writer) error {
	fs := newFlags("analytic")
	file := fs.StringP("config", "c", "", "experiment YAML `FILE` (default: the embedded default, as a hypercube with switching: slotted)")
	sets := fs.StringArray("set", nil, "override a key: `key=value` (repeatable; dotted keys)")
	scheme := fs.String("scheme", "", "the scheme, a shortcut for --set slotted.scheme=`S` (simple, priority or csr)")
	format := fs.StringP("format", "f", "table", "output format: table or json")
	pf := addAnalyticPlotFlags(fs)
	if help, err := parseFlags(fs, analyticSynopsis, args, stdout); help || err != nil {
		return err
	}
	if err := checkFormat(*format, "table", "json"); err != nil {
		return err
	}
	if rest := fs.Args(); len(rest) > 0 {
		return fmt.Errorf("analytic: unexpected argument %q (give the config file with -c FILE)", rest[0])
	}
	all := append([]string{"topology.kind=hypercube", "switching=slotted"}, *sets...)
	if fs.Changed("scheme") {
		all = append(all, "slotted.scheme="+*scheme)
	}
	if fs.Changed("plot") || fs.Changed("figure") || fs.Changed("slots") {
		if fs.Changed("scheme") {
			return inputerr.New("--scheme", *scheme, "none with --plot (the figure draws its own schemes)")
		}
		return analyticPlot(pf, *file, all, stdout, *format)
	}
	// (the analysis builds no network, so any d up to 62 will do)
	var rep *analyticReport
	_, err := configs.LoadDecoded(*file, all, func(c *network.Config) (err error) {
		rep, err = evaluateConfig(c)
		return err
	})
	if err != nil {
		return err
	}
	if *format == "json" {
		return writeLayoutAny(stdout, rep)
	}
	return renderTable(stdout, []string{"analysis", "value"}, rep.rows())
}

// evaluateConfig evaluates the model of cfg's scheme, with π.
func evaluateConfig(cfg *network.Config) (*analyticReport, error) {
	var rep *analyticReport
	kind := strings.ToLower(strings.TrimSpace(cfg.Topology.Kind))
	fbfly := kind == "folded-butterfly" && !network.IsCSR(cfg)
	if kind != "hypercube" && !fbfly {
		return nil, inputerr.New("topology.kind", cfg.Topology.Kind, "hypercube, or folded-butterfly with slotted.scheme simple or priority, for the analysis")
	}
	if network.IsCSR(cfg) {
		st, err := network.CheckCSR(cfg)
		if err != nil {
			return nil, err
		}
		if rep, err = evaluateCSR(st); err != nil {
			return nil, err
		}
	} else {
		st, err := network.CheckSlotted(cfg)
		if err != nil {
			return nil, err
		}
		if rep, err = evaluateSlotted(st); err != nil {
			return nil, err
		}
	}
	if fbfly {
		// Greedy routing on the folded butterfly is the hypercube's scheme
		// slot by slot (§5.5), its d nodes a row to a hypercube node: the
		// same p_type, the throughput per node ÷ d (as flitsim run reports it).
		rep.Model += ", per folded-butterfly node (R/d)"
		rep.ThroughputPerNode /= float64(rep.D)
	}
	pi, mean, err := analytic.HypercubePi(rep.D)
	if err != nil {
		return nil, err
	}
	rep.Pi = analytic.Floats(pi)
	rep.MeanDistance, _ = mean.Float64()
	return rep, nil
}

// rows are the report's table.
func (rep *analyticReport) rows() [][]string {
	list := func(v []float64) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = num(x)
		}
		return strings.Join(s, ", ")
	}
	rows := [][]string{
		{"model", rep.Model},
		{"scheme", rep.Scheme},
		{"d, k, p0", fmt.Sprintf("%d, %s, %s", rep.D, rep.K, num(rep.P0))},
		{"throughput per node", num(rep.ThroughputPerNode) + " packets/node/slot (R = 2d·p_d)"},
	}
	if c := rep.csrReport; c != nil {
		rows = append(rows,
			[]string{"throughput per time", fmt.Sprintf("%s packets/node/time unit (R/(1 + β), β = %s)", num(c.ThroughputPerTime), num(c.Beta))},
			[]string{"attempt rate p0(m)", c.attempt()},
			[]string{"p_1 … p_d", list(rep.PType) + " (carried; every packet crosses d links)"},
			[]string{"reserved at step i", list(c.PReserved) + " (eq. 6.6, confirmed or ghost)"})
	} else {
		rows = append(rows, []string{"p_1 … p_d", list(rep.PType)}, []string{"idle links (e)", num(*rep.Idle)})
	}
	return append(rows, []string{"π_1 … π_d", list(rep.Pi) + fmt.Sprintf(" (eq. 5.47, m̄ = %s)", num(rep.MeanDistance))})
}

// checkHypercube refuses a topology the models do not describe.
func checkHypercube(c *network.Config) error {
	if kind := strings.ToLower(strings.TrimSpace(c.Topology.Kind)); kind != "hypercube" {
		return inputerr.New("topology.kind", c.Topology.Kind, "hypercube for the analysis")
	}
	return nil
}

// checkD refuses d = 1, which no model covers, and d past 62.
func checkD(d int) error {
	if d < 2 || d > 62 {
		return inputerr.New("topology.d", d, "2 to 62 for the analysis (d = 1 delivers every packet after its one link)")
	}
	return nil
}

// evaluateSlotted evaluates the ch. 5 model that fits st.
func evaluateSlotted(st network.SlottedSettings) (*analyticReport, error) {
	k := strconv.Itoa(st.K)
	if st.K == analytic.Inf {
		k = "inf"
	}
	rep := &analyticReport{Scheme: st.Scheme, D: st.D, K: k, P0: st.P0}
	if err := checkD(st.D); err != nil {
		return nil, err
	}
	var m analytic.Slotted
	var err error
	switch {
	case st.Scheme == "priority" && st.K != 0:
		rep.Model = "Varvarigos 1992 eqs. 5.39–5.42 (buffered priority, Gauss–Seidel)"
		m, err = analytic.PriorityBuffered(st.D, st.K, st.P0)
	case st.Scheme == "priority":
		rep.Model = "Varvarigos 1992 eqs. 5.31–5.38 (unbuffered priority, backward recursion)"
		m, err = analytic.PriorityUnbuffered(st.D, st.P0)
	case st.K == 0:
		rep.Model = "Varvarigos 1992 eqs. 5.1–5.8 (unbuffered simple)"
		m, err = analytic.SimpleScheme(st.D, 0, st.P0)
	default:
		rep.Model = "Varvarigos 1992 eqs. 5.9–5.22 (buffered simple)"
		m, err = analytic.SimpleScheme(st.D, st.K, st.P0)
	}
	if err != nil {
		return nil, err
	}
	rep.ThroughputPerNode, rep.PType, rep.Idle = m.ThroughputPerNode, m.PType, &m.Idle
	return rep, nil
}

// attempt is the table's attempt-rate row.
func (c *csrReport) attempt() string {
	if c.Fresh {
		return num(c.AttemptP0) + " = traffic.p0 (csr.fresh: NACKed packets dropped, none backlogged)"
	}
	return fmt.Sprintf("%s = (1 − m)·q_a + m·q_r (eq. 6.1; q_r = %s, backlogged m = %s)", num(c.AttemptP0), num(c.Retry), num(c.Backlogged))
}

// evaluateCSR evaluates the CSR model (eqs. 6.1–6.8) at the stable point
// for q_a = traffic.p0 and q_r = csr.retry.
func evaluateCSR(st network.CSRSettings) (*analyticReport, error) {
	if err := checkD(st.D); err != nil {
		return nil, err
	}
	if st.K != 0 {
		return nil, inputerr.New("csr.k", st.K, "0 for the analysis (eqs. 6.1–6.8 model link buffers of only the packet on the link)")
	}
	var c analytic.CSR
	var m float64
	var err error
	if st.Fresh {
		// (a NACKed packet is dropped: no entry buffer is backlogged, and
		// the attempt rate is traffic.p0, as in Table 6.1)
		c, err = analytic.CSRModel(st.D, st.P0)
	} else {
		c, m, err = analytic.CSRStable(st.D, st.P0, st.Retry)
	}
	if err != nil {
		return nil, err
	}
	// Every packet that enters crosses a link at each of its d steps, so
	// the links carry packets on their i-th link as often as on their
	// d-th: p_type (the run's occupancies) is p_d throughout.
	occ := make([]float64, st.D)
	for i := range occ {
		occ[i] = c.PType[st.D-1]
	}
	return &analyticReport{
		Model: "Varvarigos 1992 eqs. 6.1–6.8 (hypercube CSR, stable point of eq. 6.1)", Scheme: "csr",
		D: st.D, K: "0", P0: st.P0, ThroughputPerNode: c.ThroughputPerNode, PType: occ,
		csrReport: &csrReport{PReserved: c.PType, Beta: st.Beta, Retry: st.Retry, Fresh: st.Fresh,
			ThroughputPerTime: c.ThroughputPerNode / (1 + st.Beta), AttemptP0: c.Attempt, Backlogged: m},
	}, nil
}
