package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/collective"
)

const collectiveSynopsis = `Usage: flitsim collective --task NAME [-c FILE.yaml] [--set key=value]... [--format table|json]
                          [--trace-vcd FILE.vcd] [--trace-events FILE.csv|FILE.jsonl] [--trace-perfetto FILE.json]
                          [--trace-perfetto-tracks worm|link] [--trace-window A:B] [--trace-only PATTERN]

Runs a collective communication task (Varvarigos 1992) as a schedule the
nodes of the configured network carry out on the packet-switched router:
time is slotted, one packet per link direction per slot, all ports at once,
store-and-forward, all packets present at slot 0. Prints the slots used,
the seed's formula for this case, the lower bound, the link utilisation and
the links used in each slot, and checks that every packet reached every
destination it must, exactly once.

Traces: the --trace-* flags of "flitsim run" (same files, same limits)
record what the router did, a cycle per slot (per mini-slot when packets
are split): each transmission is a move from the node holding the packet
(its store, named by its first link's buffer, e.g. n3.out_d0) over a link
into the receiving node; a packet that leaves the network is delivered at
its node's terminal (a broadcast copy a node keeps to forward is a move
into the node). Timeline tracks: worm or link (no router tracks: a node
sends its packets in its schedule's order, not a queue's). mnb is traced
on the router (task.hardware=router, d ≤ 14; the lock-step hardware has
no per-packet trace); dynamic traces one load's run, all its periods.

An interrupt (Ctrl-C, SIGINT or SIGTERM) stops the task at the end of the
slot (dynamic: of the period), completes every trace file, prints the
result so far (the slots run, links used, deliveries and packets missing so
far; status: interrupted, JSON "status": "interrupted"; dynamic: the periods
run, "periods_run") and exits with status 130.

Tasks (topology.kind: hypercube):
  te            total exchange by the symmetric OCTR schedule (N/2 slots)
  kl-exchange   (K,L)-neighbourhood exchange: --set task.k=K --set task.l=L
                (1 ≤ K ≤ L ≤ d; h = max(L, Σ C(d,i)·i/d) slots)
  snb           single-node broadcast from --set task.root=R (default 0; d slots)
  mnb           multinode broadcast (⌈(N−1)/d⌉ slots) on lock-step (SIMD) nodes,
                d ≤ 16; --set task.hardware=router (the default with a trace)
                runs it node by node on the scheduled router (d ≤ 14)
  pmnb          partial multinode broadcast 𝒜_0 of --set task.m=M active nodes
                (drawn from run.seed; default N/2): packing d + broadcast Σ⌈M/2^k⌉;
                --set task.algorithm=ii splits packets (Algorithm II, mini-slots),
                i (Algorithm I: packing, subcube SNB, subcube MNB), iii
                (Algorithm III: d classes without splitting); --set task.tp=T
                (default 0: ranks known) computes the ranks on the hardware by
                2d prefix hops of T slots each (4d for iii)
  packing       the packing phase alone: active packets to their ranks in d slots
  banded        banded-matrix transposition, bandwidth 2^{β+1}+1 (--set task.beta=β,
                0 ≤ β ≤ d−2): the digest's global-order construction (2^β slots);
                the per-node greedy reading runs alongside (--set
                task.schedule=greedy to run it as the task)
  banded-multi  ⌊d/β⌋ banded transpositions at once (--set task.beta=β ≥ 1)
  pe            partial exchange: --set task.m=M active nodes each send to every
                other node (§3.7 routes; M > N/2: the TE, active rows only, N/2),
                --set task.tp=T as for pmnb
  pmng          partial multinode gather: --set task.m=M active nodes each receive
                a packet from every other node, no combining; PE on the same
                active set recorded and run time-reversed (PE's time), d ≤ 10
  wmnb          window MNB among the 2^m nodes with the d−m high bits 0
                (--set task.m=m, 1 ≤ m < d): packets split into d mini-packets,
                M+1 mini-slots
  wte           window TE among the 2^m nodes with the d−m high bits 0 (--set
                task.m=m, 1 ≤ m < d), every link of the d-cube (our reading: §3.8
                leaves it open): split into d mini-packets, short tags inside the
                window, the rest through the copies; against its lower bound
  sparse-embed  §2.8: a sparse guest (--set task.graph=grid|torus|random,
                task.degree for random; labels shuffled by run.seed) relabelled by
                reverse Cuthill–McKee, embedded by Binary-Gray; bandwidth B,
                dilation (≤ β + 1 ≈ log₂ B) and its neighbour exchange
  block-diagonal  §2.9: blocks 2^{l_i}×2^{l_i} (--set task.blocks=l1,l2,...,
                Σ 2^{l_i} = N) on disjoint subcubes from a prefix code, each
                block transposed in its subcube (max 2^{l_i−1} slots)
  dynamic       dynamic broadcasting (ch. 4; hypercube, folded-cube, mesh and
                torus with topology.k, topology.n): Poisson
                requests at load --set task.rho=R (a list R1,R2,... sweeps),
                repeated PMNB periods on the router for task.periods;
                task.tp, task.intervals=fixed|hardware, task.backlog,
                task.warmup; mean delay against Eq. 4.1 and stability;
                on the hypercube task.algorithm=ii (default, split) or iii
                (Algorithm III, no splitting: V = 2d + 4d·t_p, X = 1/d);
                --plot FILE.svg|.png draws delay vs ρ

Tasks (topology.kind: folded-cube, d ≤ 10; the folded-cube paper and §7.4):
  te            total exchange by an edge colouring of the task matrix
                (2^{d−1} − ½·C(d,⌈d/2⌉) slots; ⌈·⌉ for d = 3, 7)
  te-greedy     the greedy symmetric TE (≤ that + d − 1)
  snb, sna      single-node broadcast / accumulation from --set task.root=R (⌈d/2⌉)
  mnb           multinode broadcast: d+1 classes, 𝒜_0 in each hypercube F_c
                (≤ ⌈N/(d+1)⌉ + 2d − 1); --set task.split=true splits packets
                into d+1 parts ((N−1)/(d+1), mini-slots; d ≤ 8)
  pmnb, pmna    partial multinode broadcast / accumulation of --set task.m=M
                active nodes (drawn from run.seed; ≤ ⌈M/(d+1)⌉ + 2d − 1, t_p = 0);
                --set task.tp=T computes the classes and ranks on the hardware
                first: a prefix over F_d, then the d+1 class prefixes, 4d hops of
                T slots (≤ ⌈M/(d+1)⌉ + 2d + 4d·T − 1)
  sng, sns      single-node gather into / scatter from --set task.root=R

Tasks (topology.kind: permutation-cube, d ≤ 10; enhanced-cube, d ≤ 16; §7.2–7.3):
  te            permutation cube: total exchange by the reasonable symmetric
                schedule (normal paths; ≤ N slots, lower bound N/2)
  permutation   enhanced cube: one packet per node to π(s), --set task.perm=
                random|bit-reversal|transpose; --set task.scheme=valiant (the
                extra link first, then the cube greedily) or cube (cube links only)

Tasks (topology.kind: mesh or torus, p = topology.k per dimension, d = topology.n):
  bcast         (d = 1) Theorem 2 broadcast: --set task.packets=W (every node) or
                W0,W1,... (one count per node); ring: task.algorithm=halves|whole
  mnb           multinode broadcast; d = 1: p−1 (array), ⌊p/2⌋ (ring, whole) or
                (p−1)/2 (halves); d ≥ 2: task.algorithm=nosplit (default)|split|a0|
                optimal (⌈(N−1)/(2d)⌉ torus, twice that array, ⌊N/2⌋ in 2-D:
                a searched tree, folded onto the array with slowdown 2)
  packing       packets of task.m sources (or task.sources=a,b,...) to their ranks, d(p−1)
  monotone      i-th source to i-th destination (task.dests), 2d(p−1)
  pmnb          partial MNB of task.m (or task.sources) active nodes:
                task.algorithm=a0 (default)|split (Theorem 6)|nosplit (§3.4.2);
                task.tp=T: ranks by prefix messages, T slots per hop (default 0)
  pe            (mesh, d = 2) partial exchange of task.m (or task.sources) nodes (§3.5)

Example:
  flitsim collective --task te --set topology.kind=hypercube --set topology.d=6
  flitsim collective --task te --set topology.kind=folded-cube --set topology.d=8
  flitsim collective --task pmnb --set topology.kind=torus --set topology.k=5 --set topology.n=2 --set task.algorithm=split
  flitsim collective --task te --set topology.kind=hypercube --set topology.d=3 --trace-vcd te.vcd --trace-events te.csv
`

func cmdCollective(args []string, stdout io.Writer) error {
	fs := newFlags("collective")
	file := fs.StringP("config", "c", "", "experiment YAML `FILE` (default: the embedded default)")
	sets := fs.StringArray("set", nil, "override a key: `key=value` (repeatable; task.* keys are the task's)")
	task := fs.String("task", "", "the task: "+strings.Join(collective.Tasks(), ", ")+", dynamic")
	format := fs.StringP("format", "f", "table", "output format: table or json")
	plotFile := fs.String("plot", "", "task dynamic: draw mean delay vs ρ to `FILE` (.svg or .png)")
	plotScale := plotScaleFlag(fs)
	tr := addTraceFlags(fs)
	if help, err := parseFlags(fs, collectiveSynopsis, args, stdout); help || err != nil {
		return err
	}
	if err := checkFormat(*format, "table", "json"); err != nil {
		return err
	}
	if err := tr.checkCollective(fs); err != nil {
		return err
	}
	if rest := fs.Args(); len(rest) > 0 {
		return fmt.Errorf("collective: unexpected argument %q", rest[0])
	}
	if *task != "dynamic" && !slices.Contains(collective.Tasks(), *task) {
		return inputerr.New("--task", *task, "%s, dynamic", strings.Join(collective.Tasks(), ", "))
	}
	if *plotFile != "" && *task != "dynamic" {
		return inputerr.New("--plot", *plotFile, "only with --task dynamic")
	}
	po, err := plotOptions(*plotScale)
	if err != nil {
		return err
	}
	params, cfgSets := taskParams(*sets)
	cfg, err := loadConfigChecked(*file, cfgSets, collectiveMemory(*task, tr))
	if err != nil {
		return err
	}
	files := configFiles(*file, cfg)
	tr.register(files)
	files.Output("--plot", *plotFile)
	if err := files.Check(); err != nil {
		return err
	}
	ct := &collectiveTraces{t: tr, activity: cfg.Run.RouterActivity}
	release := watchInterrupts("stopping at the end of this slot")
	defer release()
	if *task == "dynamic" {
		return runDynamicCmd(stdout, cfg.Topology, params, cfg.Run.Seed, *format, *plotFile, po, ct)
	}
	r, err := collective.RunWith(cfg.Topology, *task, params, cfg.Run.Seed, ct.options())
	var in *collective.Interrupted
	if errors.As(err, &in) && in.Result != nil {
		r = in.Result // (printed as far as it went, then the interrupt's exit)
	}
	err = ct.close(err)
	var sc *kernel.ScheduleConflict
	if errors.As(err, &sc) {
		return &exitError{exitInternal, err} // (a built-in schedule the hardware refused: a bug)
	}
	if err != nil && (in == nil || r == nil) {
		return err
	}
	if *format == "json" {
		if err := writeLayoutAny(stdout, r); err != nil {
			return err
		}
	} else if err := writeCollectiveTable(stdout, r); err != nil {
		return err
	}
	if in != nil {
		return err
	}
	if !r.Delivered {
		return &exitError{exitFailed, fmt.Errorf("collective %s: not delivered (missing %d, duplicates %d, stray %d)", r.Task, r.Missing, r.Duplicates, r.Stray)}
	}
	return nil
}

// taskParams splits --set arguments into the task's (task.* keys) and the
// config's.
func taskParams(sets []string) (params map[string]string, cfgSets []string) {
	params = map[string]string{}
	for _, s := range sets {
		key, val, ok := strings.Cut(s, "=")
		if !ok || !strings.HasPrefix(strings.TrimSpace(key), "task.") {
			cfgSets = append(cfgSets, s)
			continue
		}
		params[strings.TrimSpace(key)] = val
	}
	return params, cfgSets
}

// miniPer is the number of mini-slots in a slot of a split task.
func miniPer(r *collective.Result) int64 {
	if r.Slots <= 0 {
		return int64(r.D)
	}
	return int64(float64(*r.MiniSlots)/r.Slots + 0.5)
}

func writeCollectiveTable(w io.Writer, r *collective.Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "task\t%s\n", strings.TrimSpace(r.Task+" "+strings.Join(r.Params, " ")))
	if r.Status == collective.StatusInterrupted {
		fmt.Fprintf(tw, "status\tinterrupted: what the %d router cycles run did (slots, links used, deliveries so far)\n", len(r.PerSlot))
	}
	fmt.Fprintf(tw, "network\t%s, d = %d, N = %d, %d directed links\n", r.Topology, r.D, r.Nodes, r.Links)
	if r.MiniSlots != nil {
		fmt.Fprintf(tw, "slots\t%s (%d mini-slots of 1/%d)\n", num(r.Slots), *r.MiniSlots, miniPer(r))
	} else {
		fmt.Fprintf(tw, "slots\t%s\n", num(r.Slots))
	}
	if r.Formula != nil {
		fmt.Fprintf(tw, "formula\t%s = %s\n", num(*r.Formula), r.FormulaText)
	} else {
		fmt.Fprintf(tw, "formula\tnone\n")
	}
	if r.UpperBound != nil {
		fmt.Fprintf(tw, "upper bound\t%s = %s\n", num(*r.UpperBound), r.UpperText)
	}
	fmt.Fprintf(tw, "lower bound\t%s = %s\n", num(r.LowerBound), r.LowerText)
	if r.UniversalBound != nil {
		fmt.Fprintf(tw, "universal bound\t%s = %s\n", num(*r.UniversalBound), r.UniversalText)
	}
	fmt.Fprintf(tw, "packets\t%d (%d transmissions)\n", r.Packets, r.Transmissions)
	fmt.Fprintf(tw, "link utilisation\t%.4f\n", r.LinkUtilisation)
	fmt.Fprintf(tw, "delivered\t%v (%d deliveries; missing %d, duplicates %d, stray %d)\n", r.Delivered, r.Deliveries, r.Missing, r.Duplicates, r.Stray)
	if r.Alternative != nil {
		fmt.Fprintf(tw, "alongside\t%s slots: %s\n", num(*r.Alternative), r.AlternativeText)
	} else if r.AlternativeText != "" {
		fmt.Fprintf(tw, "alongside\t%s\n", r.AlternativeText)
	}
	if r.MaxAtNode > 0 {
		fmt.Fprintf(tw, "packing\tat most %d packet(s) at a node after any slot (1: node-disjoint paths)\n", r.MaxAtNode)
	}
	if r.Reading != "" {
		fmt.Fprintf(tw, "schedule\t%s\n", r.Reading)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nlinks used per slot (of %d):\n", r.Links)
	for i, n := range r.PerSlot {
		if len(r.PerSlot) > 40 && i == 20 {
			fmt.Fprintf(w, "  ... %s ...\n", count(len(r.PerSlot)-40, "slot"))
		}
		if len(r.PerSlot) > 40 && i >= 20 && i < len(r.PerSlot)-20 {
			continue
		}
		fmt.Fprintf(w, "  slot %d: %d\n", i, n)
	}
	return nil
}
