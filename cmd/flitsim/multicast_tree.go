package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit/header"
	"github.com/flitsim/flitsim/network/esmintree"
	"github.com/flitsim/flitsim/network/topology"
)

const mtreeSynopsis = `Usage: flitsim multicast-tree --set topology.kind=esmin --set topology.dims=LIST
       --source S --dests LIST|all --algorithm lb|fb|rb|rm|omt
       [--trials N] [--seed S] [--max-trees N] [-c FILE.yaml] [--format table|json]
   or: flitsim multicast-tree [-c FILE.yaml]... --dests random:A-B --algorithm LIST
       [--trials N] [--seed S] [--plot FILE.svg|png] [--format table|json]

Builds a multicast tree on an extra-stage cube MIN, CU-ESMIN(N: dims) (Chiang
1995 Ch. 6, docs/multicast.md): Latest Branch (lb, traffic-optimal), First
Branch (fb), Random Branch (rb, can block), Random Mapping (rm), or every
optimal multicast tree (omt). Prints the channels used after each stage
(per_stage), the traffic T (channels: the injection link plus every used
stage output, ejection links included) and each destination's port at every
stage. The simulated ESMIN carries the same trees (multicast.tree).

  --dests      destinations: 1,3 or ranges 1:12:1,32:50:2 (as encode), or
               all (every node, the source included); random:K or
               random:A-B is a study (Chiang §6.5, Figs 6.8–6.12): for each
               size, --trials random destination sets (the source may be
               among them), each algorithm of the list on each -c network:
               mean channels T of the trees that do not block, blocking B
  --trials     rb: random tag assignments drawn; blocking is the fraction
               that block (default 1000); a study: sets per size
  --plot       a study: T against the destinations (B if every curve is
               rb), one curve per network and algorithm, into FILE
  --seed       seed of rb's and rm's random choices (one draw per tree)
  --max-trees  omt: the most trees listed; more is refused (exit 2)

  flitsim multicast-tree --set topology.kind=esmin --set topology.dims=1,2,1,2,0 \
      --source 0 --dests 1,3 --algorithm omt
`

// mtreeJSON is the --format json output.
type mtreeJSON struct {
	Network      string         `json:"network"`
	Nodes        int            `json:"nodes"`
	Stages       int            `json:"stages"`
	ExtraStages  int            `json:"extra_stages"`
	Algorithm    string         `json:"algorithm"`
	Source       int            `json:"source"`
	Destinations []int          `json:"destinations"`
	PerStage     []int          `json:"per_stage"`
	Channels     int            `json:"channels"`
	Blocked      bool           `json:"blocked"`
	Paths        []mtreePath    `json:"paths"`
	Blocking     *mtreeBlocking `json:"blocking,omitempty"`
	Trees        []mtreeTree    `json:"trees,omitempty"`
}

type mtreePath struct {
	Destination int    `json:"destination"`
	Ports       string `json:"ports"` // leftmost stage first
}

type mtreeBlocking struct {
	Trials   int     `json:"trials"`
	Blocked  int     `json:"blocked"`
	Fraction float64 `json:"fraction"`
}

type mtreeTree struct {
	Channels int         `json:"channels"`
	Paths    []mtreePath `json:"paths"`
}

func cmdMulticastTree(args []string, stdout io.Writer) error {
	fs := newFlags("multicast-tree")
	files := fs.StringArrayP("config", "c", nil, "experiment YAML `FILE` (its topology block; several: one curve each with --dests random:…)")
	sets := fs.StringArray("set", nil, "override a key: `key=value` (topology.kind=esmin, topology.dims)")
	src := fs.Int("source", 0, "source node `S`")
	destSpec := fs.String("dests", "", "destinations `LIST` (1,3 or 1:12:1,32:50:2), all, or random:K / random:A-B (a study)")
	alg := fs.String("algorithm", "lb", "lb, fb, rb, rm or omt (a study: a comma list of lb, fb, rb, rm)")
	trials := fs.Int("trials", 1000, "rb: random tag assignments `N` for the blocking fraction; a study: random sets per size")
	seed := fs.Uint64("seed", 1, "seed of rb's and rm's random choices (and a study's sets)")
	maxTrees := fs.Int("max-trees", 10000, "omt: the most optimal trees listed")
	plotFile := fs.String("plot", "", "a study: draw T (B for rb alone) against the destinations into `FILE` (.svg or .png)")
	format := fs.StringP("format", "f", "table", "output format: table or json")
	if help, err := parseFlags(fs, mtreeSynopsis, args, stdout); help || err != nil {
		return err
	}
	if err := checkFormat(*format, "table", "json"); err != nil {
		return err
	}
	if len(fs.Args()) > 0 {
		return fmt.Errorf("multicast-tree: unexpected argument %q", fs.Args()[0])
	}
	if *trials < 1 {
		return inputerr.New("--trials", *trials, "an integer ≥ 1")
	}
	if lo, hi, study, err := studyRange(*destSpec); study {
		if err != nil {
			return err
		}
		warnUnused(fs, false, "max-trees", "a study lists no trees")
		curves, err := studyCurves(*files, *sets, *alg, *src, hi)
		if err != nil {
			return err
		}
		return runStudy(stdout, curves, lo, hi, *trials, *seed, *plotFile, *format)
	}
	if len(*files) > 1 || *plotFile != "" {
		return inputerr.New("--dests", *destSpec, "random:K or random:A-B with several -c files or --plot (a study)")
	}
	a, isAlg := esmintree.ParseAlg(*alg)
	if !isAlg && *alg != "omt" {
		return inputerr.New("--algorithm", *alg, "lb, fb, rb, rm, omt")
	}
	warnUnused(fs, isAlg && a == esmintree.RB, "trials", "only --algorithm rb draws trials")
	warnUnused(fs, isAlg && (a == esmintree.RB || a == esmintree.RM), "seed", "only rb and rm draw at random")
	warnUnused(fs, !isAlg, "max-trees", "only --algorithm omt lists trees")
	cfg, err := loadConfig(strings.Join(*files, ""), *sets)
	if err != nil {
		return err
	}
	net, err := topology.ESMINTrees(cfg.Topology)
	if err != nil {
		return err
	}
	dests, err := mtreeDests(*destSpec, *src, 1<<net.Bits())
	if err != nil {
		return err
	}
	if *maxTrees < 1 {
		return inputerr.New("--max-trees", *maxTrees, "an integer ≥ 1")
	}
	out := mtreeJSON{Network: fmt.Sprintf("CU-ESMIN(%d:%s)", 1<<net.Bits(), joinInts(cfg.Topology.Dims)), Nodes: 1 << net.Bits(),
		Stages: net.Stages(), ExtraStages: net.Extra(), Algorithm: strings.ToLower(*alg), Source: *src, Destinations: dests}
	if err := buildMtree(&out, net, a, isAlg, *seed, *trials, *maxTrees); err != nil {
		return err
	}
	if *format == "json" {
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		_, err = stdout.Write(append(b, '\n'))
		return err
	}
	return writeMtreeTable(stdout, &out)
}

// mtreeDests checks the source and reads the destination list (or all).
func mtreeDests(spec string, src, nodes int) ([]int, error) {
	if src < 0 || src >= nodes {
		return nil, inputerr.New("--source", src, "a node from 0 to %d", nodes-1)
	}
	if strings.TrimSpace(spec) == "all" {
		dests := make([]int, nodes)
		for i := range dests {
			dests[i] = i
		}
		return dests, nil
	}
	dests, err := header.ParseDests(spec, nodes)
	return dests, flagError(err)
}

// buildMtree builds the tree of algorithm a (or every optimal tree when
// !isAlg) into out.
func buildMtree(out *mtreeJSON, net *esmintree.Net, a esmintree.Alg, isAlg bool, seed uint64, trials, maxTrees int) error {
	src, dests := out.Source, out.Destinations
	rng := rand.New(rand.NewPCG(seed, 0x6d74726565))
	var tr esmintree.Tree
	switch {
	case !isAlg:
		trees, err := net.Optimal(src, dests, maxTrees)
		if errors.Is(err, esmintree.ErrTooMany) {
			return inputerr.New("--max-trees", maxTrees, "at least the number of optimal trees, which is larger here; "+
				"raise it or ask fewer destinations")
		}
		tr = trees[0]
		for _, t := range trees {
			out.Trees = append(out.Trees, mtreeTree{Channels: t.Channels, Paths: mtreePaths(dests, t)})
		}
	default:
		out.Algorithm = a.String()
		tr = net.Build(a, rng.Uint64(), src, dests)
		if a == esmintree.RB {
			// The tree shown is the first of the trials.
			b := 0
			for i := range trials {
				if i == 0 && tr.Blocked || i > 0 && net.Build(a, rng.Uint64(), src, dests).Blocked {
					b++
				}
			}
			out.Blocking = &mtreeBlocking{Trials: trials, Blocked: b, Fraction: float64(b) / float64(trials)}
		}
	}
	out.PerStage, out.Channels, out.Blocked, out.Paths = tr.PerStage, tr.Channels, tr.Blocked, mtreePaths(dests, tr)
	return nil
}

// warnUnused warns that flag was given where it does nothing (unless used).
func warnUnused(fs *pflag.FlagSet, used bool, flag, why string) {
	if fs.Changed(flag) && !used {
		warn([]string{"--" + flag + ": ignored, " + why})
	}
}

func mtreePaths(dests []int, t esmintree.Tree) []mtreePath {
	p := make([]mtreePath, len(dests))
	for k, d := range dests {
		p[k] = mtreePath{Destination: d, Ports: t.Paths[k]}
	}
	return p
}

// joinInts writes a list as 1,2,0.
func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// writeMtreeTable prints the tree as a summary, then each destination's
// ports (and for omt, one line per tree).
func writeMtreeTable(w io.Writer, o *mtreeJSON) error {
	rows := [][]string{
		{"network", o.Network},
		{"algorithm", o.Algorithm},
		{"source", strconv.Itoa(o.Source)},
		{"destinations", strconv.Itoa(len(o.Destinations))},
		{"per stage", strings.Trim(fmt.Sprint(o.PerStage), "[]")},
		{"channels", strconv.Itoa(o.Channels)},
		{"blocked", strconv.FormatBool(o.Blocked)},
	}
	if b := o.Blocking; b != nil {
		rows = append(rows, []string{"blocking", fmt.Sprintf("%d of %d (%.4f)", b.Blocked, b.Trials, b.Fraction)})
	}
	if len(o.Trees) > 0 {
		rows = append(rows, []string{"optimal trees", strconv.Itoa(len(o.Trees))})
	}
	if err := renderTable(w, []string{"tree", "value"}, rows); err != nil {
		return err
	}
	trees := o.Trees
	if len(trees) == 0 {
		trees = []mtreeTree{{Channels: o.Channels, Paths: o.Paths}}
	}
	var prows [][]string
	for i, t := range trees {
		for _, p := range t.Paths {
			prows = append(prows, []string{strconv.Itoa(i + 1), strconv.Itoa(t.Channels), strconv.Itoa(p.Destination), p.Ports})
		}
	}
	fmt.Fprintln(w)
	return renderTable(w, []string{"tree", "channels", "destination", "ports"}, prows)
}
