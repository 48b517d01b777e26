package main

import (
	"errors"
	"fmt"
	"github.com/flitsim/flitsim/configs/inputerr"
	"io"
	"strings"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/gridlayout"
	"github.com/flitsim/flitsim/network/topology"
)

const layoutSynopsis = `Usage: flitsim layout [-c FILE.yaml] [--set key=value]... [--format table|json|svg]

Builds the grid embedding (VLSI layout in Thompson's model, Brebner 1983
ch. 5) of the configured network, checks it against the network the
simulator wires (every edge once, paths edge-disjoint, no path through
another vertex's square), and prints its width, height, area, bounding box,
bisection bounds and edge-length distribution, or draws it (svg).

  --set topology.kind=torus --set topology.k=8     the folded k×k torus of
      Thm 5.5 (2-D, even k ≤ 256; topology.n defaults to 2 here)
  --set topology.kind=hypercube --set topology.d=6 the cube's Θ(N²) layout
      after Thm 5.8 (d ≤ 10)
  --set topology.kind=dshuffle --set topology.d=2 --set topology.n=8
      the d-shuffle (N = d^n ≤ 4096, N·d² ≤ 32768), complex-plane placement,
      channel-routed, self-loops not wired (a two-way link pair is one wire);
      prints the area against Θ((dN/log_d N)²) (Cor 5.10, Thm 5.12)
  --set topology.kind=folded-cube|permutation-cube|pseudocube --set topology.d=6
      Varvarigos §7.5's networks (d ≤ 10; the random ones drawn from
      run.seed), recursive cube placement, channel-routed, with §7.5's areas

An interrupt (Ctrl-C, SIGINT or SIGTERM) stops it at once with one line and
status 130 (a layout is printed whole or not at all).
`

// Layout size limits: the checker keeps a word per grid vertex and edge.
const (
	layoutMaxTorusK = 256
	layoutMaxCubeD  = gridlayout.MaxCubeDim
)

func cmdLayout(args []string, stdout io.Writer) error {
	fs := newFlags("layout")
	file := fs.StringP("config", "c", "", "experiment YAML `FILE` (default: the embedded default)")
	sets := fs.StringArray("set", nil, "override a key: `key=value` (repeatable; dotted keys)")
	format := fs.StringP("format", "f", "table", "output format: table, json or svg")
	if help, err := parseFlags(fs, layoutSynopsis, args, stdout); help || err != nil {
		return err
	}
	if err := checkFormat(*format, "table", "json", "svg"); err != nil {
		return err
	}
	switch rest := fs.Args(); {
	case len(rest) == 1 && *file == "":
		*file = rest[0]
	case len(rest) > 0:
		return fmt.Errorf("layout: unexpected argument %q (give the config file with -c FILE)", rest[0])
	}
	// A first, unchecked read finds the kind: a torus given without
	// topology.n (a --set topology.kind starts the block from zero) is 2-D
	// here.
	raw, err := configs.LoadUnchecked(*file, *sets)
	if err != nil {
		return err
	}
	all := *sets
	if strings.EqualFold(strings.TrimSpace(raw.Topology.Kind), "torus") && raw.Topology.N == 0 {
		all = append([]string{"topology.n=2"}, all...)
	}
	cfg, err := configs.Load(*file, all)
	if err != nil {
		return err
	}
	if err := configFiles(*file, cfg).Check(); err != nil { // (stdout redirected to the config)
		return err
	}
	tc := cfg.Topology
	tc.Seed = cfg.Run.Seed
	release := watchInterrupts("stopping now")
	defer release()
	var rep *layoutReport
	var emb *gridlayout.Embedding
	if untilInterrupted(func() { rep, emb, err = buildLayout(tc) }) {
		return interruptedError("layout interrupted while building and checking the layout: nothing printed")
	}
	var ie *inputerr.Error
	if err != nil && *file == "" && len(*sets) == 0 && errors.As(err, &ie) && ie.Key == "topology.kind" {
		// The user gave no network: the default experiment's has no
		// layout, so say which have.
		return fmt.Errorf("layout: the default configuration (%s) has no layout; flitsim layout lays out %s: give one with -c FILE or --set topology.kind=KIND", describeTopology(tc), layoutKinds)
	}
	if err != nil {
		return err
	}
	switch *format {
	case "json":
		return writeLayoutJSON(stdout, rep)
	case "svg":
		return gridlayout.WriteSVG(stdout, emb, rep.Topology+": "+rep.Construction)
	}
	return writeLayoutTable(stdout, rep)
}

const layoutKinds = "torus (2-D, even k), hypercube, dshuffle, folded-cube, permutation-cube, pseudocube"

// layoutReport is what flitsim layout prints (JSON field names as issue 15
// item 6 asks: width, height, area, edge_lengths).
type layoutReport struct {
	Topology     string `json:"topology"`
	Kind         string `json:"kind"`
	K            int    `json:"k,omitempty"`
	N            int    `json:"n,omitempty"`
	D            int    `json:"d,omitempty"`
	Nodes        int    `json:"nodes"`
	Edges        int    `json:"edges"`
	Degree       int    `json:"degree"`
	Construction string `json:"construction,omitempty"`
	VertexSide   int    `json:"vertex_side,omitempty"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
	Area         int64  `json:"area"`
	// AreaPerNode and AreaOverN2 compare with the O(N) torus and Θ(N²)
	// cube results.
	AreaPerNode float64         `json:"area_per_node,omitempty"`
	AreaOverN2  float64         `json:"area_over_n2,omitempty"`
	Box         *gridlayout.Box `json:"bounding_box,omitempty"`
	// SquaresArea is Thm 5.4's N·⌈d/4⌉²: the vertex squares alone.
	SquaresArea int64                 `json:"squares_area,omitempty"`
	Bisection   *gridlayout.Bisection `json:"bisection,omitempty"`
	EdgeLengths map[int]int           `json:"edge_lengths"`
	MaxLength   int                   `json:"max_edge_length,omitempty"`
	WireLength  int64                 `json:"wire_length,omitempty"`
	GridInCube  *gridlayout.GridMap   `json:"grid_in_cube,omitempty"`
	// AreaBound compares the area with what the thesis states (layout_kinds.go).
	AreaBound   *areaBound   `json:"area_bound,omitempty"`
	BinaryCoded *binaryCoded `json:"binary_coded,omitempty"`
	Scaling     []scaleRow   `json:"area_scaling,omitempty"`
	Checked     bool         `json:"checked"`
	Note        string       `json:"note,omitempty"`
}

// buildLayout builds and checks the layout of a torus or hypercube; a fault
// the checker finds is a bug in the construction (exit 70), not bad input.
func buildLayout(tc network.TopologyConfig) (*layoutReport, *gridlayout.Embedding, error) {
	kind := strings.ToLower(strings.TrimSpace(tc.Kind))
	rep := &layoutReport{Kind: kind}
	var emb *gridlayout.Embedding
	var spec topology.Spec
	var err error
	switch kind {
	case "torus":
		if tc.N != 2 {
			return nil, nil, badLayout("topology.n", tc.N, "2 (flitsim layout lays out 2-D tori)")
		}
		if tc.Rectangular() {
			return nil, nil, badLayout("topology.k", tc.Sides.String(), "a single even integer (flitsim layout lays out square k×k tori)")
		}
		if tc.K%2 != 0 || tc.K > layoutMaxTorusK {
			return nil, nil, badLayout("topology.k", tc.K,
				fmt.Sprintf("an even number from 2 to %d (Thm 5.5 folds the 2n×2n torus)", layoutMaxTorusK))
		}
		spec = topology.Spec{Kind: kind, K: tc.K, N: 2}
		rep.K, rep.N = tc.K, 2
		rep.Topology = fmt.Sprintf("torus %d×%d", tc.K, tc.K)
		b := gridlayout.TorusBisection(tc.K)
		rep.Bisection = &b
		if emb, err = gridlayout.FoldedTorus(tc.K / 2); err != nil {
			return nil, nil, err
		}
		if rep.GridInCube, err = gridlayout.GridInCube(tc.K, true); err != nil {
			return nil, nil, err
		}
	case "hypercube":
		if tc.D > layoutMaxCubeD {
			return nil, nil, badLayout("topology.d", tc.D,
				fmt.Sprintf("an integer from 1 to %d for a layout (the %d-cube's has about a million grid vertices)", layoutMaxCubeD, layoutMaxCubeD))
		}
		spec = topology.Spec{Kind: kind, D: tc.D}
		rep.D = tc.D
		rep.Topology = fmt.Sprintf("hypercube d=%d", tc.D)
		b := gridlayout.CubeBisection(tc.D)
		rep.Bisection = &b
		if emb, err = gridlayout.Cube(tc.D); err != nil {
			return nil, nil, err
		}
		if tc.D >= 2 {
			// The largest square grid the d-cube holds with dilation 1.
			if rep.GridInCube, err = gridlayout.GridInCube(1<<(tc.D/2), false); err != nil {
				return nil, nil, err
			}
		}
	default:
		return buildKindLayout(tc, rep)
	}
	topo, err := topology.Build(spec)
	if err != nil {
		return nil, nil, err
	}
	g := gridlayout.GraphOf(topo)
	if err := checkLayout(emb, len(topo.Switches), g); err != nil {
		return nil, nil, err
	}
	fillMeasures(rep, emb, len(topo.Switches), g)
	return rep, emb, nil
}

// checkLayout runs the checker; a fault is a bug in the construction.
func checkLayout(emb *gridlayout.Embedding, nodes int, g []gridlayout.Pair) error {
	if err := gridlayout.Check(emb, nodes, g); err != nil {
		return &exitError{code: exitInternal, err: fmt.Errorf("internal error: layout: %s: %v", emb.Name, err)}
	}
	return nil
}

func fillMeasures(rep *layoutReport, emb *gridlayout.Embedding, nodes int, g []gridlayout.Pair) {
	box := emb.Bounds()
	rep.Nodes, rep.Edges = nodes, len(g)
	rep.Degree = gridlayout.MaxDegree(nodes, g)
	rep.Construction = emb.Name
	rep.VertexSide = emb.Side
	rep.Width, rep.Height, rep.Area = box.Width(), box.Height(), box.Area()
	rep.AreaPerNode = float64(rep.Area) / float64(nodes)
	rep.AreaOverN2 = float64(rep.Area) / (float64(nodes) * float64(nodes))
	rep.Box = &box
	rep.SquaresArea = gridlayout.SquaresArea(nodes, rep.Degree)
	rep.EdgeLengths = map[int]int{}
	for _, lc := range emb.Lengths() {
		rep.EdgeLengths[lc.Length] = lc.Count
		rep.MaxLength = max(rep.MaxLength, lc.Length)
	}
	rep.WireLength = emb.WireLength()
	rep.Checked = true
}

// badLayout is the one-line bad-input error (exit 2) for a topology key the
// layout command cannot take.
func badLayout(key string, value any, allowed string) error {
	return inputerr.New(key, value, "%s", allowed)
}

func intPow(b, e int) (int, bool) {
	p := 1
	for range e {
		if p > (1<<62)/b {
			return 0, false
		}
		p *= b
	}
	return p, true
}
