package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/han"
	"github.com/spf13/pflag"
)

const routeSynopsis = `Usage: flitsim route --algorithm q|h|greedy|greedy-ff [-c FILE.yaml] [--set key=value]...
       [--permutation NAME|file:F | --broadcast restricted] [--schedule static|actual] [--seed N]
       [--variant kstrip|k2|odd1|odd2|odd3|3d|kd [--set route.k=K]] [--trace-events F.csv] [--trace-vcd F.vcd]
       [--trace-perfetto F.json] [--format table|json]
       flitsim route --table [--set topology.k=N] [--format table|json]
       flitsim route --compare [--plot F.svg] [--set topology.k=N] [--format table|json]

Routes a permutation or a restricted broadcast on Han's lock-step mesh computer (Han 1990, docs/han.md)
with Algorithm Q (quarters, 5 buffers) or H (halves, 3 buffers), on an n×n
mesh (topology.kind mesh, topology.k = n: Q a power of two, H any side; or
a rectangle of C columns and R ≥ C rows, topology.k=C,R: Q powers of two,
H any), or with greedy
row-column routing (greedy: first come first served on the columns;
greedy-ff: farthest first), the baselines (any n ≤ 256). Every processor
has a pool of lockstep.buffers messages (0, the default: what the algorithm
needs); a configuration file says switching: lockstep-mesh (or leaves
switching out) and may set topology and lockstep.buffers, --set overrides;
lockstep.model illiac makes it the ILLIAC model (one send direction a step),
lockstep.wrap true links the rows' and columns' ends;
in one step a link direction carries at most one message, and a step that
breaks a rule is refused and reported: exit 3 when lockstep.buffers is
below what the algorithm needs, else 70 (the algorithm is wrong).

  --permutation  transpose | rot180 | bit-reversal | shuffle | random (from
                 --seed) | file:F (n² destinations, row-major, −1 for none)
  --broadcast    restricted: a random restricted broadcast (from --seed; each
                 message has one or more destinations, all distinct), Q and H
  --variant      kstrip: k-strip H (§4.6.3, --algorithm h): K strips a stage
                 (--set route.k=K, even, 4 … 64; default 4), a side n = K^p,
                 K + 1 buffers; k2: Q with K² partitions (§3.6.1, --algorithm
                 q, route.k even, 4 … 16; default 4), n = K^p, K² + 2 buffers;
                 odd1: Q on an odd square, §3.6.3's first mapping, 9 buffers;
                 odd2, odd3: its second and third mappings, 6 and 5 buffers
                 (odd3: 6 where the recursion meets a 7×7 or 9×9 region);
                 3d: H on n×n×n (--set topology.n=3), 3 buffers; kd: H or Q
                 on n^K (--set topology.n=K, 3 … 8; H 3 buffers, Q 2^K + 2)
  --trace-events F.csv  every message of every step, data and integer: the
                 step, stage and phase, sender, receiver, message and the
                 receiver's pool after the step
  --trace-vcd F.vcd  a value change dump, one time unit a step: every
                 processor's pool (p_R_C.held), every message's row and
                 column (mID.row, mID.col), the step's kind, stage and phase
  --trace-perfetto F.json  a timeline (1 µs a step): the phases, every
                 pool as a counter, a track per message and copy
  --schedule     static: every phase its worst-case length (the thesis's
                 machine counts clock ticks); actual: until its last message lands
  --table        Tables 5.1 and 5.2 of the thesis and its lower bounds, the
                 worst case measured on the n×n mesh (topology.k, default 64;
                 rectangles 2n×n) beside every formula
  --compare      greedy, greedy-ff, Q and H on the bad inputs (the
                 transpose: a row's messages to one column; Q's smoothing
                 worst cases) on n×n, n = 8, 16, … topology.k (default 64,
                 at most 256): the most messages a processor held
  --plot F.svg   with --compare: those maxima and the bounds against n

  flitsim route --algorithm q --set topology.k=8       24 data + 5 integer steps
`

func cmdRoute(args []string, stdout io.Writer) error {
	fs := newFlags("route")
	alg := fs.String("algorithm", "", "q, h, greedy or greedy-ff")
	file := fs.StringP("config", "c", "", "experiment YAML `FILE` (switching: lockstep-mesh; its topology and lockstep blocks; default: the embedded default)")
	sets := fs.StringArray("set", nil, "override a key: `key=value` (topology.k, lockstep.buffers, route.k)")
	perm := fs.String("permutation", "random", "transpose, rot180, bit-reversal, shuffle, random or file:`F`")
	sched := fs.String("schedule", han.Static, "static or actual")
	traces := addRouteTraceFlags(fs)
	bcast := fs.String("broadcast", "", "restricted: route a random restricted broadcast (from --seed) instead of a permutation")
	seed := fs.Uint64("seed", 1, "seed of the random permutation or broadcast")
	format := fs.StringP("format", "f", "table", "output format: table or json")
	variant := fs.String("variant", "", "kstrip: k-strip H, --set route.k=K strips (K + 1 buffers); k2: Q with K² partitions (K² + 2 buffers)")
	table := fs.Bool("table", false, "print the thesis's Tables 5.1 and 5.2 with the measured worst case beside every formula")
	compare := fs.Bool("compare", false, "greedy, greedy-ff, Q and H on the bad inputs, n = 8 … topology.k: the most buffers against n")
	plotPath := fs.String("plot", "", "with --compare: draw the buffers against n to `F.svg` (F.png: PNG)")
	if help, err := parseFlags(fs, routeSynopsis, args, stdout); help || err != nil {
		return err
	}
	if err := checkFormat(*format, "table", "json"); err != nil {
		return err
	}
	if rest := fs.Args(); len(rest) > 0 {
		return fmt.Errorf("route: unexpected argument %q", rest[0])
	}
	if done, err := routeSummaries(fs, *table, *compare, *plotPath, *sets, *format, stdout); done || err != nil {
		return err
	}
	if !slices.Contains(han.Algorithms, *alg) {
		return inputerr.New("--algorithm", *alg, strings.Join(han.Algorithms, ", "))
	}
	if !slices.Contains(han.Schedules, *sched) {
		return inputerr.New("--schedule", *sched, "static, actual")
	}
	rv, rest, err := routeVariant(*variant, *alg, *sets)
	if err != nil {
		return err
	}
	rows, n, buffers, hw, err := routeMesh(*file, rest, *alg, &rv)
	if err != nil {
		return err
	}
	need := han.Buffers(*alg, n)
	if rv.v != nil {
		need = rv.v.Buffers(n, rv.k)
	}
	if buffers == 0 {
		buffers = need
	}
	files := fileSet()
	files.Input("-c", *file)
	if path, ok := strings.CutPrefix(*perm, "file:"); ok && *bcast == "" {
		files.Input("--permutation", path)
	}
	traces.register(files)
	if err := files.Check(); err != nil {
		return err
	}
	dests, name, err := routeDestsFor(&rv, *bcast, *perm, fs.Changed("permutation"), *alg, *variant, rows, n, *seed)
	if err != nil {
		return err
	}
	*perm = name
	r, err := routeLogged(traces, buffers < need, func(log io.Writer) (*han.Result, error) {
		if rv.v != nil {
			return rv.v.Run(n, rv.k, buffers, dests, *sched, log)
		}
		return han.RunMeshOn(hw, *alg, rows, n, buffers, dests, *sched, log)
	})
	if err != nil {
		return err
	}
	r.Permutation = *perm
	if *format == "json" {
		return writeLayoutAny(stdout, r)
	}
	return writeRouteTable(stdout, r)
}

// routeSummaries runs --table or --compare, the commands that route many
// inputs and print a summary (done), after checking the flags that go with
// them.
func routeSummaries(fs *pflag.FlagSet, table, compare bool, plotPath string, sets []string, format string, stdout io.Writer) (done bool, err error) {
	switch {
	case table && compare:
		return true, fmt.Errorf("--table and --compare: give one")
	case plotPath != "" && !compare:
		return true, fmt.Errorf("--plot: needs --compare")
	case table:
		return true, routeTables(fs, sets, format, stdout)
	case compare:
		return true, routeCompare(fs, sets, plotPath, format, stdout)
	}
	return false, nil
}

// routeDestsFor is the messages' destinations and the input's name, on a
// K-D mesh when the variant rv is one.
func routeDestsFor(rv *routeVar, bcast, perm string, permGiven bool, alg, variant string, rows, n int, seed uint64) ([][]int32, string, error) {
	if rv.v != nil && rv.v.Dims != 0 {
		return routeDestsKD(bcast, perm, rv, n, seed)
	}
	return routeDests(bcast, perm, permGiven, alg, variant, rv.v != nil, rows, n, seed)
}

// routeMesh loads the config (file and --set rest) and returns the mesh's
// rows and columns, checked for the algorithm or the variant rv,
// and lockstep.buffers (0: what the algorithm needs). The configuration is
// decoded, not validated: validation builds run's network, which for a
// 1024×1024 mesh takes gigabytes route does not use.
func routeMesh(file string, rest []string, alg string, rv *routeVar) (rows, n, buffers int, hw han.Hardware, err error) {
	check := func(c *network.Config) error {
		if err := routeSwitching(c); err != nil {
			return err
		}
		hw = han.Hardware{Model: c.Lockstep.Model, Wrap: c.Lockstep.Wrap}
		if rv.v != nil && (hw.Model == han.ModelILLIAC || hw.Wrap) {
			return inputerr.New("lockstep.model", hw.Model+map[bool]string{true: " with lockstep.wrap", false: ""}[hw.Wrap],
				"distributed without wrap with --variant %s (the variants run on the thesis's machine, so far)", rv.v.Name)
		}
		if rv.v != nil {
			rows, n, err = routeVariantSides(rv, c)
		} else {
			rows, n, err = routeSides(alg, c)
		}
		buffers = c.Lockstep.Buffers
		return err
	}
	if _, err := configs.LoadDecoded(file, rest, check); err != nil {
		return 0, 0, 0, hw, err
	}
	return rows, n, buffers, hw, nil
}

// routeSwitching refuses a configuration that names another switch model
// than the lock-step mesh; the default's (a file that leaves switching
// out) is taken as it.
func routeSwitching(c *network.Config) error {
	if !network.IsLockstepMesh(c) && c.Switching != network.Default().Switching {
		return inputerr.New("switching", c.Switching, "%s (flitsim route runs Han's lock-step mesh)", network.SwitchingLockstepMesh)
	}
	return network.CheckLockstep(c)
}

// routeDests is each processor's destinations, a restricted broadcast's
// (bcast) or the permutation perm's, and the input's name for the result.
func routeDests(bcast, perm string, permGiven bool, alg, variant string, isVariant bool, rows, n int, seed uint64) ([][]int32, string, error) {
	switch {
	case bcast != "" && bcast != "restricted":
		return nil, "", inputerr.New("--broadcast", bcast, "restricted")
	case bcast != "" && permGiven:
		return nil, "", fmt.Errorf("--broadcast %s and --permutation %s: give one (a broadcast is drawn from --seed)", bcast, perm)
	case bcast != "" && (alg == han.AlgGreedy || alg == han.AlgGreedyFF):
		return nil, "", inputerr.New("--algorithm", alg, "q or h with --broadcast (greedy routing carries a message to one destination)")
	case bcast != "" && isVariant:
		return nil, "", inputerr.New("--variant", variant, "none with --broadcast (the variants route permutations, so far)")
	case bcast != "":
		return han.RandomBroadcastMesh(rows, n, seed), "restricted broadcast", nil
	}
	dest, err := routePermutation(perm, rows, n, seed)
	if err != nil {
		return nil, "", err
	}
	return han.Lists(dest), perm, nil
}

// routeSides are the mesh's rows and columns the algorithm runs on, or
// the bad key (topology.k=C,R: dimension 0, along a row, first).
func routeSides(alg string, c *network.Config) (rows, cols int, err error) {
	t := c.Topology
	if t.Kind != "mesh" {
		return 0, 0, inputerr.New("topology.kind", t.Kind, "mesh (route runs on a 2-D mesh)")
	}
	if len(t.Sides) > 2 || len(t.Sides) == 0 && t.N != 2 {
		return 0, 0, inputerr.New("topology.n", max(t.N, len(t.Sides)), "2 (route runs on a 2-D mesh)")
	}
	cols, rows = t.Side(0), t.Side(1)
	k := fmt.Sprint(t.K)
	if t.Rectangular() {
		k = fmt.Sprintf("%d,%d", cols, rows)
	}
	for _, s := range []int{cols, rows} {
		if !han.SideOK(alg, s) {
			return 0, 0, inputerr.New("topology.k", k, "sides %s", han.AllowedSide(alg))
		}
	}
	if err := han.Check(alg, rows, cols); err != nil {
		return 0, 0, inputerr.New("topology.k", k, han.RectangleRule(alg))
	}
	return rows, cols, nil
}

// routePermutation is the named permutation, or the file's.
func routePermutation(name string, rows, cols int, seed uint64) ([]int32, error) {
	path, isFile := strings.CutPrefix(name, "file:")
	if !isFile {
		p, err := han.PermutationMesh(name, rows, cols, seed)
		if err != nil && !slices.Contains(han.Permutations, name) {
			return nil, inputerr.New("--permutation", name, "%s, file:F", strings.Join(han.Permutations, ", "))
		}
		if err != nil {
			return nil, fmt.Errorf("--permutation: %v", err)
		}
		return p, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--permutation %s: %v", name, err)
	}
	defer f.Close()
	p, err := han.ReadPermutationMesh(f, rows, cols)
	if err != nil {
		return nil, fmt.Errorf("--permutation %s: not a permutation of the %d×%d mesh: %v", name, rows, cols, err)
	}
	return p, nil
}

// writeRouteTable prints the totals beside the thesis's bounds, then the
// phases of every stage.
func writeRouteTable(w io.Writer, r *han.Result) error {
	b := r.Bound
	mesh := "lock-step mesh"
	if r.Model == han.ModelILLIAC {
		mesh += " (ILLIAC model)"
	}
	if r.Wrap {
		mesh += " with wraparound"
	}
	size := fmt.Sprintf("%d×%d", r.Rows, r.Cols)
	if r.Dims != nil {
		size = strings.Trim(strings.Join(strings.Fields(fmt.Sprint(r.Dims)), "×"), "[]")
	}
	fmt.Fprintf(w, "algorithm %s, %s %s, %s, %s schedule, %d buffers, %d messages",
		strings.ToUpper(r.Algorithm), size, mesh, r.Permutation, r.Schedule, r.Buffers, r.Messages)
	if r.Copies > 0 {
		fmt.Fprintf(w, " (and %d copies)", r.Copies)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-22s %8s %10s\n", "", "measured", "bound")
	fmt.Fprintf(w, "%-22s %8d %10s\n", "data steps", r.DataSteps, num(b.DataSteps))
	fmt.Fprintf(w, "%-22s %8d %10s\n", "integer steps", r.IntegerSteps, num(b.IntegerSteps))
	fmt.Fprintf(w, "%-22s %8d %10s\n", "total steps", r.TotalSteps, num(b.TotalSteps))
	fmt.Fprintf(w, "%-22s %8d %10d\n", "max buffer", r.MaxBuffer, b.MaxBuffer)
	fmt.Fprintf(w, "%-22s %8d %10d\n", "max buffer after move", r.MaxBufferAfterMove, b.MaxBufferAfterMove)
	fmt.Fprintf(w, "bound: %s\n", b.Source)
	for _, d := range r.Deviations {
		fmt.Fprintf(w, "deviation: %s\n", d)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%5s  %-7s %-8s %-9s %6s %6s %6s %7s\n", "stage", "phase", "kind", "regions", "steps", "static", "actual", "buffer")
	for _, s := range r.Stages {
		for _, p := range s.Phases {
			fmt.Fprintf(w, "%5d  %-7s %-8s %-9s %6d %6d %6d %7d\n", s.Side, p.Phase, p.Kind, p.Region, p.Steps, p.Static, p.Actual, p.MaxBuffer)
		}
	}
	return nil
}
