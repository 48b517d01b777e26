package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit/header"
	"github.com/flitsim/flitsim/network/topology"
)

const encodeSynopsis = `Usage: flitsim encode --scheme S --dests SPEC [--nodes N] [--flit-bits B]
                      [--k K] [--n N] [--min KIND] [--eoh] [--trace SRC] [--format table|json]

Encodes a multicast header (Chiang 1995, Ch. 2–4) and prints its flits.
SPEC lists destinations: 1:12:1,32:50:2,90 means nodes 1–12, 32–50 step 2,
and 90. Schemes: ad, pseudo-ad, bs-buffered, bs-hierarchical, mrb, mrs, mrm,
mrbs (or all-destination, bit-string-buffered, region-broadcast,
region-stride, region-mask, region-bit-string, ...). Region schemes start
with a region counter (the Delta-MIN form Table 3.1 counts); --eoh ends them
with an EOH region instead. --trace decodes the header switch by switch from
source SRC through the k^n-node MIN of kind --min.

Example (Table 3.1, pattern 1):
  flitsim encode --scheme mrb --dests 1:12:1,32:50:2,60:75:1,90:117:3
`

// encodeJSON is the --format json output.
type encodeJSON struct {
	Scheme       string       `json:"scheme"`
	Nodes        int          `json:"nodes"`
	FlitBits     int          `json:"flit_bits"`
	K            int          `json:"k"`
	N            int          `json:"n"`
	MIN          string       `json:"min"`
	EOH          bool         `json:"eoh"`
	Destinations []int        `json:"destinations"`
	Flits        int          `json:"flits"`
	Regions      int          `json:"regions,omitempty"`
	Notation     string       `json:"notation"`
	Header       []flitJSON   `json:"header"`
	Trace        *traceJSON   `json:"trace,omitempty"`
	trace        *header.Tree // the decoded tree behind Trace, for the table
}

type flitJSON struct {
	Index  int    `json:"index"`
	Kind   string `json:"kind"`
	Value  uint64 `json:"value"`
	Binary string `json:"binary"`
	Bits   int    `json:"bits,omitempty"` // bit-string flits: meaningful bits
}

type traceJSON struct {
	Source    int         `json:"source"`
	Delivered []int       `json:"delivered"`
	Switches  []visitJSON `json:"switches"`
}

type visitJSON struct {
	Switch string     `json:"switch"`
	In     string     `json:"in"`
	Out    []portJSON `json:"out"`
}

type portJSON struct {
	Port      int    `json:"port"`
	To        string `json:"to"`
	EnabledAt int    `json:"enabled_at"`
	Flits     int    `json:"flits"`
	Header    string `json:"header"`
}

func cmdEncode(args []string, stdout io.Writer) error {
	fs := newFlags("encode")
	scheme := fs.StringP("scheme", "s", "", "encoding `S`: "+header.SchemeNames())
	dests := fs.StringP("dests", "d", "", "destinations, e.g. `1:12:1,32:50:2,90`")
	nodes := fs.Int("nodes", 256, "number of nodes `N`, a power of --k")
	flitBits := fs.Int("flit-bits", 8, "flit width `B` in bits")
	k := fs.Int("k", 2, "switch radix `K` (nodes = k^n)")
	n := fs.Int("n", 0, "stages `N` (sets --nodes to k^n when --nodes is not given)")
	minKind := fs.String("min", "cube", "Delta MIN `KIND` for bit order, pseudo-ad padding and --trace: "+strings.Join(header.MINKinds, ", "))
	eoh := fs.Bool("eoh", false, "region schemes: end with an EOH region instead of a leading counter")
	trace := fs.Int("trace", -1, "decode through the MIN from source terminal `SRC` and show every switch")
	format := fs.StringP("format", "f", "table", "output format: table or json")
	if help, err := parseFlags(fs, encodeSynopsis, args, stdout); help || err != nil {
		return err
	}
	if err := checkFormat(*format, "table", "json"); err != nil {
		return err
	}
	if len(fs.Args()) > 0 {
		return fmt.Errorf("encode: unexpected argument %q", fs.Args()[0])
	}
	s, err := header.ParseScheme(*scheme)
	if err != nil {
		return flagError(err)
	}
	if fs.Changed("n") && *k >= 2 { // a bad --k is reported below
		if *nodes, err = nodesOfStages(*k, *n, *nodes, fs.Changed("nodes")); err != nil {
			return err
		}
	}
	o := header.Options{Nodes: *nodes, FlitBits: *flitBits, K: *k, MIN: *minKind, EOH: *eoh}
	stages, err := o.Validate()
	if err != nil {
		return flagError(err)
	}
	d, err := header.ParseDests(*dests, *nodes)
	if err != nil {
		return flagError(err)
	}
	h, err := header.Encode(s, d, o)
	if err != nil {
		return flagError(err)
	}
	out := encodeJSON{Scheme: string(h.Scheme), Nodes: h.Nodes, FlitBits: h.FlitBits, K: h.K, N: stages, MIN: h.MIN,
		EOH: h.EOH, Destinations: d, Flits: h.Len(), Regions: h.Regions(), Notation: h.String()}
	for i, f := range h.Flits {
		out.Header = append(out.Header, flitJSON{Index: i, Kind: string(f.Kind), Value: f.Value, Binary: binary(f.Value, h.FlitBits), Bits: f.Bits})
	}
	if fs.Changed("trace") {
		if *trace < 0 || *trace >= *nodes {
			return inputerr.New("--trace", *trace, "a source terminal from 0 to %d", *nodes-1)
		}
		if err := traceEncoded(&out, h, stages, *trace); err != nil {
			return err
		}
	}
	if *format == "json" {
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		_, err = stdout.Write(append(b, '\n'))
		return err
	}
	return writeEncodeTable(stdout, out)
}

// nodesOfStages is the node count k^n that --n gives, checked against a
// --nodes also given.
func nodesOfStages(k, n, nodes int, nodesGiven bool) (int, error) {
	pw := 1
	for i := 0; i < n && pw <= topology.MaxTerminals; i++ {
		pw *= k
	}
	switch {
	case n < 1 || pw > topology.MaxTerminals:
		return 0, inputerr.New("--n", n, "a number of stages ≥ 1 with k^n ≤ %d", topology.MaxTerminals)
	case nodesGiven && pw != nodes:
		return 0, inputerr.New("--n", n, "n with %d^n = --nodes %d, or leave --n out", k, nodes)
	}
	return pw, nil
}

// traceEncoded decodes header h through its MIN from terminal src and
// records every switch it visits in out.
func traceEncoded(out *encodeJSON, h *header.Header, stages, src int) error {
	m, err := header.NewMIN(h.MIN, h.K, stages)
	if err != nil {
		return flagError(err)
	}
	tr, err := m.Multicast(src, h)
	if err != nil {
		return err
	}
	out.trace = tr
	out.Trace = &traceJSON{Source: src, Delivered: tr.Delivered}
	for _, v := range tr.Visits {
		vj := visitJSON{Switch: v.Label, In: v.In.String()}
		for _, o := range v.Out {
			vj.Out = append(vj.Out, portJSON{Port: o.Port, To: o.To, EnabledAt: o.EnabledAt, Flits: o.Header.Len(), Header: o.Header.String()})
		}
		out.Trace.Switches = append(out.Trace.Switches, vj)
	}
	return nil
}

// flagError names the flag in a header package error (whose Key is the
// flag's name): "--nodes: 6 is not allowed (...)".
func flagError(err error) error {
	if e, ok := inputerr.As(err); ok && e.Pos == "" && !strings.HasPrefix(e.Key, "--") {
		c := *e
		c.Key = "--" + e.Key
		return &c
	}
	return err
}

// binary writes v in w binary digits.
func binary(v uint64, w int) string {
	s := strconv.FormatUint(v, 2)
	if len(s) < w {
		s = strings.Repeat("0", w-len(s)) + s
	}
	return s
}

func writeEncodeTable(w io.Writer, e encodeJSON) error {
	name := e.Scheme
	for _, si := range header.Schemes() {
		if string(si.Scheme) == e.Scheme {
			name += " (" + si.Desc + ")"
		}
	}
	fmt.Fprintf(w, "scheme: %s\n", name)
	fmt.Fprintf(w, "network: %d nodes (k = %d, n = %d, %s MIN), %d-bit flits\n", e.Nodes, e.K, e.N, e.MIN, e.FlitBits)
	fmt.Fprintf(w, "destinations: %d: %s\n", len(e.Destinations), header.FormatDests(e.Destinations))
	rows := make([][]string, len(e.Header))
	for i, f := range e.Header {
		kind := f.Kind
		if f.Bits > 0 && f.Bits < e.FlitBits {
			kind += fmt.Sprintf(" (first %d bits)", f.Bits)
		}
		rows[i] = []string{strconv.Itoa(f.Index), kind, f.Binary, strconv.FormatUint(f.Value, 10)}
	}
	if err := renderTable(w, []string{"index", "kind", "binary", "decimal"}, rows); err != nil {
		return err
	}
	flits := count(e.Flits, "flit")
	if e.Regions > 0 {
		flits += ", " + count(e.Regions, "region")
	}
	fmt.Fprintf(w, "header: %s: %s\n", flits, e.Notation)
	if e.trace == nil {
		return nil
	}
	var trows [][]string
	for _, v := range e.trace.Visits {
		for _, o := range v.Out {
			trows = append(trows, []string{v.Label, v.In.String(), strconv.Itoa(o.Port), o.To, strconv.Itoa(o.EnabledAt), o.Header.String()})
		}
	}
	fmt.Fprintf(w, "\ndecoding from source %d:\n", e.Trace.Source)
	if err := renderTable(w, []string{"switch", "header in", "port", "to", "enabled at flit", "header out"}, trows); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "delivered: %s\n", header.FormatDests(e.trace.Delivered))
	return err
}
