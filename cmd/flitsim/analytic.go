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

const analyticSynopsis = `Usage: flitsim analytic [-c FILE.yaml] [--set key=value]... [--scheme simple|priority] [--format table|json]

Evaluates Varvarigos's analytic model (1992, ch. 5) of the slotted
hypercube router (switching: slotted, docs/slotted.md) at the configured
topology.d, slotted.k and traffic.p0: the throughput per node R = 2d·p_d and
the link occupancies p_1..p_d. Its JSON's throughput_per_node and p_type are
the simulation's fields of the same name (flitsim run --format json).

  simple, slotted.k = 0        eqs. 5.1–5.8
  simple, slotted.k ≥ 1, inf   eqs. 5.9–5.22 (inf: R = 2d·p0/(1 + p0(d−1)))
  priority, slotted.k = 0      eqs. 5.31–5.38 (backward recursion)
  priority, slotted.k ≥ 1, inf eqs. 5.39–5.42 (Gauss–Seidel)

  flitsim analytic --set topology.d=8 --set traffic.p0=0.3642
  flitsim analytic --scheme priority --set topology.d=8 --set traffic.p0=1 --format json
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
	Idle              float64   `json:"idle"`
}

func cmdAnalytic(args []string, stdout io.Writer) error {
	fs := newFlags("analytic")
	file := fs.StringP("config", "c", "", "experiment YAML `FILE` (default: the embedded default, as a hypercube with switching: slotted)")
	sets := fs.StringArray("set", nil, "override a key: `key=value` (repeatable; dotted keys)")
	scheme := fs.String("scheme", "", "the scheme, a shortcut for --set slotted.scheme=`S` (simple or priority)")
	format := fs.StringP("format", "f", "table", "output format: table or json")
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
	cfg, err := configs.Load(*file, all)
	if err != nil {
		return err
	}
	st, err := network.CheckSlotted(&cfg)
	if err != nil {
		return err
	}
	rep, err := evaluateSlotted(st)
	if err != nil {
		return err
	}
	if *format == "json" {
		return writeLayoutAny(stdout, rep)
	}
	p := make([]string, len(rep.PType))
	for i, v := range rep.PType {
		p[i] = num(v)
	}
	return renderTable(stdout, []string{"analysis", "value"}, [][]string{
		{"model", rep.Model},
		{"scheme", rep.Scheme},
		{"d, k, p0", fmt.Sprintf("%d, %s, %s", rep.D, rep.K, num(rep.P0))},
		{"throughput per node", num(rep.ThroughputPerNode) + " packets/node/slot (R = 2d·p_d)"},
		{"p_1 … p_d", strings.Join(p, ", ")},
		{"idle links (e)", num(rep.Idle)},
	})
}

// evaluateSlotted evaluates the model that fits st.
func evaluateSlotted(st network.SlottedSettings) (*analyticReport, error) {
	k := strconv.Itoa(st.K)
	if st.K == analytic.Inf {
		k = "inf"
	}
	rep := &analyticReport{Scheme: st.Scheme, D: st.D, K: k, P0: st.P0}
	if st.D < 2 {
		return nil, inputerr.New("topology.d", st.D, "2 or more for the analysis (d = 1 delivers every packet after its one link)")
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
	rep.ThroughputPerNode, rep.PType, rep.Idle = m.ThroughputPerNode, m.PType, m.Idle
	return rep, nil
}
