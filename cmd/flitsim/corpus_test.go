package main

import "fmt"

// The golden corpus: runs whose `flitsim run --format json` output (and exit
// status) golden_test.go checks byte for byte against testdata/golden, so
// that restructuring the kernel cannot change behaviour unnoticed. Each run
// is small (16-terminal networks, about a thousand cycles) so the whole
// corpus takes a few seconds; open-loop runs stay below saturation, so
// their output does not depend on when a saturated run is cut short.
//
// After a deliberate change of output:
//
//	go test ./cmd/flitsim -run TestGoldenCorpus -update
//
// and check that `git diff cmd/flitsim/testdata/golden` shows only it.

// corpusRun is one run of the corpus: its golden file's name and the
// arguments given to flitsim.
type corpusRun struct {
	name string
	args []string
}

// window is the short run window of the synthetic-traffic runs.
var window = []string{"run.warmup=100", "run.measure=1000"}

// run is `flitsim run` of the embedded default with the overrides sets.
func run(sets ...string) []string { return fileRun("", sets...) }

// fileRun is `flitsim run -c file` (the embedded default when file is "")
// with the overrides sets, printing JSON.
func fileRun(file string, sets ...string) []string {
	args := []string{"run"}
	if file != "" {
		args = append(args, "-c", file)
	}
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	return append(args, "--format", "json")
}

// with joins override lists.
func with(lists ...[]string) []string {
	var all []string
	for _, l := range lists {
		all = append(all, l...)
	}
	return all
}

// Small networks of every topology, 16 terminals each.
var corpusTopologies = []struct {
	name string
	sets []string
}{
	{"hypercube", []string{"topology.kind=hypercube", "topology.d=4"}},
	{"mesh", []string{"topology.kind=mesh", "topology.k=4", "topology.n=2"}},
	{"torus", []string{"topology.kind=torus", "topology.k=4", "topology.n=2"}},
	{"omega", []string{"topology.kind=omega", "topology.k=2", "topology.n=4"}},
	{"baseline", []string{"topology.kind=baseline", "topology.k=2", "topology.n=4"}},
	{"butterfly", []string{"topology.kind=butterfly", "topology.k=4", "topology.n=2"}},
	{"cube", []string{"topology.kind=cube", "topology.k=2", "topology.n=4"}},
	{"esmin", []string{"topology.kind=esmin", "topology.dims=1,2,3,1,0"}},
}

// Buffer arrangements: flits per input and per output port.
var corpusBuffers = []struct {
	name string
	sets []string
}{
	{"in", []string{"buffers.input=4", "buffers.output=0"}},
	{"out", []string{"buffers.input=0", "buffers.output=4"}},
	{"both", []string{"buffers.input=4", "buffers.output=4"}},
}

// Two loads, low and moderate: both below saturation for every topology,
// switching mode and buffer arrangement above (4-flit packets).
var corpusLoads = []struct {
	name string
	load string
}{
	{"low", "0.05"},
	{"mid", "0.2"},
}

// mesh4 and cube16 are the networks of most single-feature runs.
var (
	mesh4  = with(corpusTopologies[1].sets, window)
	cube16 = with(corpusTopologies[6].sets, window)
	// mcast16 is Chiang's multicast setup on a 16-node cube MIN (one-flit
	// output buffers, clock priority, 4-node clusters, short messages).
	mcast16 = with(corpusTopologies[6].sets, window, []string{"buffers.input=0", "buffers.output=1",
		"arbiter=clock", "traffic.pattern=cluster-multicast", "traffic.cluster=4", "traffic.load=0.1",
		"traffic.flits=8-16", "multicast.worm=sync"})
	// chiangShort shortens the Fig 4.8–4.12 load runs (64 nodes, 32–96
	// flit messages) to a few thousand cycles.
	chiangShort = []string{"run.warmup=200", "run.measure=2000"}
)

// corpus lists every run of the golden corpus.
func corpus() []corpusRun {
	rs := []corpusRun{
		// The shipped configurations, as written or with a shorter window.
		{"config-default", fileRun("../../configs/default.yaml", "topology.k=4", "run.warmup=200", "run.measure=2000")},
		{"config-ring-deadlock", fileRun("../../configs/ring_deadlock.yaml", "run.measure=2000")},
		{"config-mesh-complete", fileRun("../../configs/mesh_complete.yaml", "run.measure=2000")},
		{"chiang-fig4-1", fileRun("../../configs/chiang/fig4_1.yaml")},
		{"chiang-fig4-2", fileRun("../../configs/chiang/fig4_2.yaml")},
		{"chiang-fig4-3", fileRun("../../configs/chiang/fig4_3.yaml")},
		{"chiang-fig4-4", fileRun("../../configs/chiang/fig4_4.yaml")},
		{"chiang-fig4-5", fileRun("../../configs/chiang/fig4_5.yaml")},
		{"chiang-fig4-6", fileRun("../../configs/chiang/fig4_6.yaml")},
		{"chiang-fig4-6-upper-first", fileRun("../../configs/chiang/fig4_6.yaml", "arbiter=upper-first")},
		{"chiang-fig4-7", fileRun("../../configs/chiang/fig4_7.yaml")},
		{"chiang-fig4-7-pseudo", fileRun("../../configs/chiang/fig4_7_pseudo.yaml")},
		{"chiang-fig4-8", fileRun("../../configs/chiang/fig4_8.yaml", chiangShort...)},
		{"chiang-fig4-9", fileRun("../../configs/chiang/fig4_9.yaml", chiangShort...)},
		{"chiang-fig4-10", fileRun("../../configs/chiang/fig4_10.yaml", chiangShort...)},
		{"chiang-fig4-11", fileRun("../../configs/chiang/fig4_11.yaml", chiangShort...)},
		{"chiang-fig4-12", fileRun("../../configs/chiang/fig4_12.yaml", chiangShort...)},
		{"booksim-mesh88-1vc", fileRun("../../configs/booksim/mesh88_1vc.yaml", "run.warmup=300", "run.measure=1000")},
		{"booksim-mesh88-2vc", fileRun("../../configs/booksim/mesh88_2vc.yaml", "run.warmup=300", "run.measure=1000")},
		{"booksim-mesh88-16vc", fileRun("../../configs/booksim/mesh88_16vc.yaml", "run.warmup=300", "run.measure=1000")},

		// Arbiters (unicast on a mesh; clock and grab also in the Chiang runs).
		{"arbiter-round-robin", run(with(mesh4, []string{"arbiter=round-robin", "traffic.load=0.3"})...)},
		{"arbiter-oldest", run(with(mesh4, []string{"arbiter=oldest", "traffic.load=0.3"})...)},
		{"arbiter-upper-first", run(with(mesh4, []string{"arbiter=upper-first", "traffic.load=0.3"})...)},
		{"arbiter-source", run(with(mesh4, []string{"arbiter=source", "traffic.load=0.3"})...)},
		{"arbiter-clock", run(with(mesh4, []string{"arbiter=clock", "traffic.load=0.3"})...)},
		{"arbiter-grab", run(with(mesh4, []string{"arbiter=grab", "traffic.load=0.3"})...)},
		{"arbiter-grab-multicast", run(with(mcast16, []string{"arbiter=grab"})...)},

		// Hardware multicast worms and header encodings, software multicast.
		{"multicast-async", run(with(mcast16, []string{"multicast.worm=async"})...)},
		{"multicast-sync", run(with(mcast16, []string{"multicast.worm=sync"})...)},
		// With one-flit buffers asynchronous worms can deadlock (Fig 4.4) and
		// path worms block each other or themselves (Fig 4.1); with deeper
		// buffers (and, for paths, short worms at a low load) they deliver.
		{"multicast-async-deep", run(with(mcast16, []string{"multicast.worm=async", "buffers.output=16"})...)},
		{"multicast-path", run(with(mcast16, []string{"multicast.worm=path"})...)},
		{"multicast-path-short", run(with(mcast16, []string{"multicast.worm=path", "buffers.output=4",
			"traffic.flits=4", "traffic.load=0.05"})...)},
		{"multicast-encoding-single", run(with(mcast16, []string{"multicast.encoding=single"})...)},
		{"multicast-encoding-ad", run(with(mcast16, []string{"multicast.encoding=ad"})...)},
		{"multicast-encoding-pseudo-ad", run(with(mcast16, []string{"multicast.encoding=pseudo-ad"})...)},
		{"multicast-software-separate", run(with(mcast16, []string{"multicast.scheme=separate"})...)},
		{"multicast-software-umin", run(with(mcast16, []string{"multicast.scheme=umin"})...)},
		{"multicast-software-cmin", run(with(mcast16, []string{"multicast.scheme=cmin",
			"multicast.send_latency=2", "multicast.receive_latency=3"})...)},

		// One run per traffic pattern.
		{"pattern-uniform", run(with(mesh4, []string{"traffic.pattern=uniform"})...)},
		{"pattern-bit-complement", run(with(mesh4, []string{"traffic.pattern=bit-complement"})...)},
		{"pattern-bit-reversal", run(with(mesh4, []string{"traffic.pattern=bit-reversal"})...)},
		{"pattern-transpose", run(with(mesh4, []string{"traffic.pattern=transpose"})...)},
		{"pattern-perfect-shuffle", run(with(mesh4, []string{"traffic.pattern=perfect-shuffle"})...)},
		{"pattern-tornado", run(with(mesh4, []string{"traffic.pattern=tornado"})...)},
		{"pattern-neighbor", run(with(mesh4, []string{"traffic.pattern=neighbor"})...)},
		{"pattern-random-permutation", run(with(mesh4, []string{"traffic.pattern=random-permutation"})...)},
		{"pattern-hotspot", run(with(mesh4, []string{"traffic.pattern=hotspot", "traffic.hotspots=5,10",
			"traffic.hotspot_fraction=0.2", "traffic.load=0.1"})...)},
		{"pattern-cluster-multicast", run(with(cube16, []string{"traffic.pattern=cluster-multicast",
			"traffic.cluster=8", "traffic.load=0.1"})...)},

		// Threads: a network large enough to be cut in two lanes; results
		// must be identical for every run.workers (golden_test.go checks).
		// The automatic mode's tuner starts its trials after 4 k cycles, so
		// workers-0 runs longer, against workers-1-long.
		{"workers-1", run(with(workersNet, window, []string{"run.workers=1"})...)},
		{"workers-2", run(with(workersNet, window, []string{"run.workers=2"})...)},
		{"workers-0", run(with(workersNet, []string{"run.warmup=200", "run.measure=5000", "run.workers=0"})...)},
		{"workers-1-long", run(with(workersNet, []string{"run.warmup=200", "run.measure=5000", "run.workers=1"})...)},

		// Routing variants.
		{"routing-ecube", run(with(corpusTopologies[0].sets, window, []string{"routing=ecube", "traffic.load=0.2"})...)},
		{"routing-ecube-random", run(with(corpusTopologies[0].sets, window, []string{"routing=ecube-random", "traffic.load=0.2"})...)},
		{"routing-hypercube-order", run(with(corpusTopologies[0].sets, window, []string{"topology.order=3,1,0,2", "traffic.load=0.2"})...)},
		{"routing-mesh-order", run(with(mesh4, []string{"topology.order=1,0", "traffic.load=0.2"})...)},
		{"routing-esmin-latest", run(with(corpusTopologies[7].sets, window, []string{"topology.path=latest"})...)},
		{"routing-esmin-random", run(with(corpusTopologies[7].sets, window, []string{"topology.path=random"})...)},
		{"routing-esmin-given", run(with(corpusTopologies[7].sets, window, []string{"topology.path=given", "topology.path_index=1"})...)},
		{"routing-hypercube-random-order", run(with(corpusTopologies[0].sets, window, []string{"routing=random-order", "traffic.load=0.2"})...)},
		{"routing-hypercube-semi-strict", run(with(corpusTopologies[0].sets, window, []string{"routing=semi-strict", "traffic.load=0.2"})...)},
		{"routing-mesh-random-order", run(with(mesh4, []string{"routing=random-order", "traffic.load=0.2"})...)},
		{"routing-torus-tie-random", run(with(corpusTopologies[2].sets, window, []string{"topology.tie=random", "traffic.load=0.2"})...)},

		// Brebner's networks (configs/topologies), shortened.
		{"topology-dshuffle", fileRun("../../configs/topologies/dshuffle.yaml", "run.measure=2000")},
		{"topology-dshuffle-shortest", fileRun("../../configs/topologies/dshuffle.yaml", "routing=shortest", "run.measure=2000")},
		{"topology-ccc", fileRun("../../configs/topologies/ccc.yaml", "run.measure=2000")},
		{"topology-ccc-plus", fileRun("../../configs/topologies/ccc_plus.yaml", "run.measure=2000")},
		{"topology-shuffle-exchange", fileRun("../../configs/topologies/shuffle_exchange.yaml", "run.measure=2000")},
		{"topology-torus-random-order", fileRun("../../configs/topologies/torus_random_order.yaml", "run.measure=2000")},

		// Timing of the switch and the link.
		{"switch-delay-2", run(with(mesh4, []string{"switch.delay=2"})...)},
		{"link-latency-2", run(with(mesh4, []string{"link.latency=2"})...)},
		{"link-latency-2-min", run(with(cube16, []string{"link.latency=2", "buffers.input=0", "buffers.output=4"})...)},
		{"switch-reuse-false", run(with(mesh4, []string{"switch.reuse=false"})...)},
		{"switch-reuse-false-min", run(with(cube16, []string{"switch.reuse=false", "buffers.input=0", "buffers.output=1", "traffic.flits=2"})...)},
		{"seed-7", run(with(mesh4, []string{"run.seed=7", "traffic.flits=2-8"})...)},
		{"channels", run(with(mesh4, []string{"run.channels=true"})...)},

		// Traces: packets listed inline, and a trace file.
		{"trace-packets-mesh", fileRun("testdata/corpus-packets.yaml")},
		{"trace-packets-multicast", run(with(corpusTopologies[6].sets, []string{"buffers.input=0", "buffers.output=1",
			"traffic.packets=0,1,2;3;9;12,6", "run.warmup=0", "run.measure=1"})...)},
		{"trace-file", run(with(corpusTopologies[1].sets, []string{"traffic.trace=testdata/corpus-trace.csv"})...)},

		// The packet-switched router: open-loop traffic, a batch with
		// repeated experiments, a batch dropping packets, bounded queues
		// with backpressure, a shared queue.
		{"packet-open-hypercube", run(with(corpusTopologies[0].sets, window, packet, []string{"traffic.load=0.3"})...)},
		{"packet-batch-hypercube", run(with(corpusTopologies[0].sets, packet, []string{"routing=ecube-random",
			"traffic.mode=batch", "traffic.h=2", "traffic.pattern=random-permutation", "run.experiments=40"})...)},
		// Full queues drop packets: still ok, with the count in the
		// status and a warning.
		{"packet-batch-drop", run(with(corpusTopologies[0].sets, packet, []string{"routing=random-order", "valiant=separate",
			"traffic.mode=batch", "traffic.h=4", "traffic.pattern=random-permutation", "queue.full=drop", "buffers.output=1"})...)},
		{"packet-torus-backpressure", run(with(corpusTopologies[2].sets, window, packet, []string{"queue.full=backpressure",
			"buffers.output=2", "queue.discipline=furthest-first", "traffic.load=0.2"})...)},
		{"packet-mesh-shared-random", run(with(mesh4, packet, []string{"queue.shared=true", "queue.discipline=random",
			"queue.arrival_order=scan", "queue.routes=hop", "traffic.load=0.15"})...)},

		// The slotted router (Varvarigos ch. 5): a 4-cube, simple scheme,
		// one waiting place a buffer (conflicts, FIFOs and buffer-full drops).
		{"slotted-hypercube-simple-k1", run(with(corpusTopologies[0].sets, window, []string{"switching=slotted",
			"slotted.scheme=simple", "slotted.k=1", "traffic.p0=0.5"})...)},
	}
	rs = append(rs, corpusVarvarigos()...)
	return append(rs, corpusGrid()...)
}

// packet selects the packet-switched router (one-unit packets).
var packet = []string{"switching=packet", "traffic.flits=1"}

// workersNet is an 8×8 mesh: 320 buffers, enough for the automatic mode to
// consider two threads.
var workersNet = []string{"topology.kind=mesh", "topology.k=8", "topology.n=2", "traffic.load=0.2"}

// corpusGrid is every topology × switching mode × buffer arrangement at
// both loads.
func corpusGrid() []corpusRun {
	var rs []corpusRun
	for _, t := range corpusTopologies {
		for _, mode := range []string{"wormhole", "vct", "saf"} {
			for _, b := range corpusBuffers {
				for _, l := range corpusLoads {
					name := fmt.Sprintf("grid-%s-%s-%s-%s", t.name, mode, b.name, l.name)
					load := l.load
					if t.name == "torus" && l.name == "mid" {
						// Without virtual channels the torus deadlocks at 0.2
						// with store-and-forward output buffers.
						load = "0.15"
					}
					sets := with(t.sets, window, b.sets, []string{"switching=" + mode, "traffic.load=" + load})
					rs = append(rs, corpusRun{name, run(sets...)})
				}
			}
		}
	}
	return rs
}
