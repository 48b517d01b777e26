package network

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/flitsim/flitsim/network/topology"
)

// Config is one experiment. Its YAML form is what users write (see configs/
// docs/configuration.md and docs/reference.md); every key can also be set from the
// command line with --set key=value.
type Config struct {
	Topology  TopologyConfig  `yaml:"topology" json:"topology"`
	Switching string          `yaml:"switching" json:"switching"`
	Buffers   BufferConfig    `yaml:"buffers" json:"buffers"`
	Link      LinkConfig      `yaml:"link" json:"link"`
	Switch    SwitchConfig    `yaml:"switch" json:"switch"`
	Routing   string          `yaml:"routing" json:"routing"`
	Arbiter   string          `yaml:"arbiter" json:"arbiter"`
	Traffic   TrafficConfig   `yaml:"traffic" json:"traffic"`
	Multicast MulticastConfig `yaml:"multicast" json:"multicast"`
	Run       RunConfig       `yaml:"run" json:"run"`
	// Queue sets the packet-switched router's queues (switching: packet).
	Queue QueueConfig `yaml:"queue" json:"queue,omitzero"`
	// Valiant is Valiant's two-phase randomised routing on the packet
	// router (valiant.go): off, separate, merged-priority or merged.
	Valiant string `yaml:"valiant" json:"valiant,omitempty" allowed:"off, separate, merged-priority, merged (switching: packet)" default:"off"`
	// Slotted sets the slotted hypercube router (switching: slotted,
	// slotted.go).
	Slotted SlottedConfig `yaml:"slotted" json:"slotted,omitzero"`
	// CSR sets Conflict Sense Routing (slotted.scheme: csr,
	// slotted_csr.go).
	CSR CSRConfig `yaml:"csr" json:"csr,omitzero"`
	// Lockstep sets Han's lock-step mesh (switching: lockstep-mesh,
	// lockstep.go), which flitsim route runs.
	Lockstep LockstepConfig `yaml:"lockstep" json:"lockstep,omitzero"`
	// Router selects a switch model of the public seam (router.model: iq,
	// router.go) and sets its pipeline; VC sets its virtual channels.
	Router RouterConfig `yaml:"router" json:"router,omitzero"`
	VC     VCConfig     `yaml:"vc" json:"vc,omitzero"`
}

// QueueConfig sets the queues of the packet-switched router (switching:
// packet; docs/packet-router.md). Empty values are the
// defaults.
type QueueConfig struct {
	// Discipline picks the packet a queue sends: fifo (default; alias
	// fcfs), furthest-first (most hops left in its phase, oldest among
	// ties; alias ftgfo) or random (alias riro).
	Discipline string `yaml:"discipline" json:"discipline,omitempty" allowed:"fifo, furthest-first, random (aliases fcfs, ftgfo, riro)" default:"fifo"`
	// Shared keeps one queue per node for all its out-links: it sends one
	// packet a cycle, over the link that packet needs.
	Shared bool `yaml:"shared" json:"shared,omitempty"`
	// ArrivalOrder is the order in which packets joining one queue in one
	// cycle join it: random (default) or scan (in the order of the links
	// they arrive over; injections in creation order).
	ArrivalOrder string `yaml:"arrival_order" json:"arrival_order,omitempty" allowed:"random, scan" default:"random"`
	// Routes: source (default: the source computes the route and the
	// packet carries it) or hop (each node calls the routing function);
	// both give the same paths.
	Routes string `yaml:"routes" json:"routes,omitempty" allowed:"source, hop" default:"source"`
	// Full is what a queue does when full: unbounded (default: queues never
	// fill), backpressure (a queue holds at most buffers.output packets
	// and refuses arrivals; the packet stays in its upstream queue) or drop
	// (the same capacity; a packet arriving over a link at a full queue is
	// dropped and counted; a new packet waits at its source).
	Full string `yaml:"full" json:"full,omitempty" allowed:"unbounded, backpressure, drop (capacity buffers.output)" default:"unbounded"`
}

// MulticastConfig sets how packets with several destinations (multicast
// lines of a trace) travel.
type MulticastConfig struct {
	// Worm is async (a replicating multi-head worm whose branches advance on
	// their own), sync (a synchronous multi-head worm: all branches advance
	// together or none, by wired-AND backpressure) or path (path-based:
	// destinations visited in the order listed).
	Worm string `yaml:"worm" json:"worm"`
	// Encoding is the header: single (one flit, e.g. a region broadcast),
	// ad (all-destination: one address flit per destination and an
	// end-of-header flit), pseudo-ad (all-destination padded to equal
	// branch lags), or one of the headers a Delta MIN's switches decode flit
	// by flit (bit-string, hierarchical-bit-string, region-broadcast,
	// region-stride, region-mask, region-bit-string: Chiang's Table 3.1
	// formats, as flitsim encode writes them). Except with single,
	// traffic.flits and a trace's flits count the data flits after the
	// header.
	Encoding string `yaml:"encoding" json:"encoding"`
	// Scheme is hardware (one worm as set by Worm and Encoding) or a
	// software (unicast-based) multicast: separate (separate addressing),
	// umin or cmin (Chiang 1995 Ch. 7). A software multicast is a tree of
	// unicasts; a node forwards the message only once it has received all
	// of it, and sends its unicasts one after the other.
	Scheme string `yaml:"scheme" json:"scheme"`
	// SendLatency and ReceiveLatency are the software multicast's start-up
	// costs in cycles: a node's processor spends SendLatency on each unicast
	// it sends (one at a time) before handing it to the network, and a node
	// has the message ReceiveLatency cycles after its tail arrived. 0 (the
	// default) ignores them, as Chiang's Ch. 4 simulation does.
	SendLatency    int `yaml:"send_latency" json:"send_latency"`
	ReceiveLatency int `yaml:"receive_latency" json:"receive_latency"`

	// Tree is the ESMIN multicast tree algorithm (Chiang §6.4): lb, fb, rb
	// or rm; empty leaves the choice to topology.path (first = fb, latest =
	// lb). Only topology.kind esmin with extra stages has trees to choose.
	Tree string `yaml:"tree" json:"tree,omitempty"`
}

// TopologyConfig selects and sizes the network: topology.kind and the
// kind's parameters, declared by the kind's file in network/topology (see
// topology.Register). Its Routing field is not a key of this block: Build
// fills it from the top-level routing key.
type TopologyConfig = topology.Spec

// BufferConfig sets the depth in flits of the buffer at each switch input
// port and each switch output port; 0 means that side has no buffer (at least
// one side must have one).
type BufferConfig struct {
	Input  int `yaml:"input" json:"input"`
	Output int `yaml:"output" json:"output"`
	// VCs is the number of virtual channels per input buffer, each Input
	// flits deep (router.model: iq); absent is 1.
	VCs *int `yaml:"vcs" json:"vcs,omitempty" allowed:"an integer from 1 to 64 (virtual channels per input; more than 1 with router.model: iq)" default:"1"`
}

// LinkConfig sets the wires.
type LinkConfig struct {
	Latency int `yaml:"latency" json:"latency"` // cycles, ≥ 1
}

// SwitchConfig sets the switch timing.
type SwitchConfig struct {
	// Delay is the extra cycles a head waits at a switch for its routing
	// decision (0: routing, allocation and traversal in one cycle, as in
	// Chiang's model).
	Delay int `yaml:"delay" json:"delay"`
	// Reuse lets a buffer slot freed in a cycle take a new flit in the same
	// cycle (combinational ready), which one-flit buffers need to stream one
	// flit per cycle. When false, ready is purely registered.
	Reuse *bool `yaml:"reuse" json:"reuse"`
}

// TrafficConfig sets what the terminals send.
type TrafficConfig struct {
	Pattern string    `yaml:"pattern" json:"pattern"`
	Load    float64   `yaml:"load" json:"load"` // offered flits per node per cycle; a multicast counts once per destination (Chiang's system load)
	Flits   FlitRange `yaml:"flits" json:"flits"`
	Trace   string    `yaml:"trace" json:"trace,omitempty"` // CSV cycle,src,dst,flits
	// Packets lists packets inline, one "cycle,src,dst,flits" string each
	// (the trace format; a multicast lists its destinations separated by
	// spaces). Like a trace, it replaces the pattern and load.
	Packets []string `yaml:"packets" json:"packets,omitempty"`
	// Cluster is the cluster size of the cluster-multicast pattern: the
	// terminals form aligned clusters of this many consecutive addresses
	// (base cubes) and each multicasts to the rest of its cluster; 0 means
	// one cluster of all terminals.
	Cluster int `yaml:"cluster" json:"cluster,omitempty"`
	// ClusterSize is Cluster by the name of Chiang's ch. 5 experiments;
	// set one of the two (clusterSizeOf).
	ClusterSize int `yaml:"cluster_size" json:"cluster_size,omitempty" allowed:"an integer: nodes per cluster (task), as traffic.cluster" default:"0"`
	// Clusters places the clusters (Chiang §5.1): base cubes, cubes less
	// one node (which goes to the next cube's task), or random nodes.
	Clusters string `yaml:"clusters" json:"clusters,omitempty" allowed:"cube, cube-minus-one, random" default:"cube"`
	// Ratio is Chiang's communication ratio R = T_comm/(T_comm + T_comp)
	// of the task workloads (blocking-multicast, non-blocking-multicast).
	Ratio    float64 `yaml:"ratio" json:"ratio,omitempty" allowed:"a number above 0 and below 1 (communication ratio R of blocking-multicast, non-blocking-multicast)" default:"0 (unset: the task workloads ask for it)"`
	Hotspots IntList `yaml:"hotspots" json:"hotspots,omitempty"`
	// HotspotFraction is the share of packets sent to the hotspots.
	HotspotFraction float64 `yaml:"hotspot_fraction" json:"hotspot_fraction,omitempty"`
	// Mode is open (default: packets arrive by traffic.load) or batch
	// (switching packet: every node holds traffic.h packets at cycle 0 and
	// the run ends when all are delivered).
	Mode string `yaml:"mode" json:"mode,omitempty" allowed:"open, batch (switching: packet)" default:"open"`
	// H is the number of packets per node in a batch (default 1).
	H int `yaml:"h" json:"h,omitempty" allowed:"an integer from 1 to 65536 (packets per node in a batch)" default:"1"`
	// Fanout, Locations and Combine shape the multi-read and multi-write
	// batches (Brebner §4.8–4.9, network/multi.go).
	Fanout    int    `yaml:"fanout" json:"fanout,omitempty" allowed:"a power of two from 1 to N, of d on the d-shuffle (destinations per multi-read; 0: random wildcard sets, each digit * with probability 1/2)" default:"0"`
	Locations int    `yaml:"locations" json:"locations,omitempty" allowed:"an integer from 1 to h·N (memory locations a multi-write batch writes; 1: all to one, the OR of N)" default:"1"`
	Combine   string `yaml:"combine" json:"combine,omitempty" allowed:"or, and, sum, lowest, random (aliases lowest-writer, random-winner)" default:"or"`
	// Classes is the number of message classes, each on a disjoint set of
	// virtual channels (router.model: iq; docs/vc.md).
	Classes int `yaml:"classes" json:"classes,omitempty" allowed:"an integer from 1 to 64 dividing buffers.vcs (message classes on disjoint VC sets; more than 1 with router.model: iq)" default:"1"`
	// ReplyFlits > 0 makes request/reply traffic: every delivered packet of
	// class 0 (a request) makes its destination send a reply of this many
	// flits back to its source, on class 1 (on class 0 with one class).
	ReplyFlits int `yaml:"reply_flits" json:"reply_flits,omitempty" allowed:"an integer from 0 (no replies) to 65536 (flits of the reply each delivered request gets)" default:"0"`
	// ReplyQueue > 0 gives every terminal a reply queue of that many
	// places beside its source queue: a terminal whose places are all
	// taken refuses new requests, which wait in the network (protocol
	// deadlock when requests and replies share VCs; docs/vc.md).
	ReplyQueue int `yaml:"reply_queue" json:"reply_queue,omitempty" allowed:"an integer from 0 (none: replies join the source queue, never refused) to 65536 (replies a terminal holds before it refuses requests; with traffic.reply_flits and router.model: iq)" default:"0"`
	// P0 is the slotted router's load: the probability that a free link
	// buffer takes a new packet in a slot (2d buffers per node).
	P0 float64 `yaml:"p0" json:"p0,omitempty" allowed:"a probability from 0 to 1 (new packet per free link buffer per slot, switching: slotted)" default:"0"`
}

// RunConfig sets the run's length and seed.
type RunConfig struct {
	Warmup  int64  `yaml:"warmup" json:"warmup"`   // cycles before measuring
	Measure int64  `yaml:"measure" json:"measure"` // cycles in which generated packets are measured
	Drain   int64  `yaml:"drain" json:"drain"`     // at most this many cycles more to deliver them
	Seed    uint64 `yaml:"seed" json:"seed"`
	// DeadlockCheck is the period in cycles of the wait-for-graph check
	// (a check also runs on any cycle in which no flit moved).
	DeadlockCheck int64 `yaml:"deadlock_check" json:"deadlock_check"`
	// StallLimit stops a run in which no flit has moved for this many
	// cycles although flits are waiting and no deadlock was found (a
	// livelock or starvation); 0 never stops.
	StallLimit int64 `yaml:"stall_limit" json:"stall_limit"`
	// MaxBacklog stops an open-loop run (pattern traffic, not a trace) as
	// saturated when more than this many packets per terminal, on average,
	// have been generated and not delivered: its source queues would grow
	// without bound. 0 never stops.
	MaxBacklog int64 `yaml:"max_backlog" json:"max_backlog"`
	// Workers is the number of threads one run uses: 1 simulates serially,
	// 2 splits the network in two halves that each cycle's phases work on
	// at once, 0 times one against two now and then during the run and
	// uses the faster (networks of at least 256 buffers, two processors).
	// The results are the same either way.
	Workers int `yaml:"workers" json:"workers"`
	// Channels lists every channel's load over the measurement window in
	// the result (Result.Channels), not only the mean, the maximum and the
	// busiest channel.
	Channels bool `yaml:"channels" json:"channels"`
	// Experiments repeats a batch experiment this many times with
	// independent random streams (on all cores; default 1).
	Experiments int `yaml:"experiments" json:"experiments,omitempty" allowed:"an integer from 1 to 16777216 (batch experiments)" default:"1"`
	// PerNode, PerPair, Histogram and RouterActivity add the statistics of
	// that name to the result (Result.PerNode, PerPair, LatencyHistogram,
	// Routers). Off, they cost nothing and the result is as before.
	PerNode        bool `yaml:"per_node" json:"per_node,omitempty"`
	PerPair        bool `yaml:"per_pair" json:"per_pair,omitempty"`
	Histogram      bool `yaml:"histogram" json:"histogram,omitempty"`
	RouterActivity bool `yaml:"router_activity" json:"router_activity,omitempty"`
	// MaxMemory is the most memory a command may expect to take: each
	// command estimates its peak from the configuration before it builds
	// anything (package network/memory) and refuses a larger one. 0 (the
	// default) is 80 % of the machine's physical memory.
	MaxMemory ByteSize `yaml:"max_memory" json:"max_memory,omitempty" default:"80 % of physical memory"`
}

// IntList is a list of integers written either as a YAML sequence or as a
// comma-separated string ("1,2,1,2,0").
type IntList = topology.IntList

// ParseIntList reads "1,2,1,2,0" (spaces and brackets allowed).
func ParseIntList(s string) (IntList, error) { return topology.ParseIntList(s) }

// FlitRange is a packet length: fixed (Min == Max) or uniform in [Min, Max].
// YAML: 4, or "32-96" / "32:96".
type FlitRange struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// UnmarshalYAML accepts an integer or a range "a-b" / "a:b".
func (r *FlitRange) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: want a flit count like 4 or a range like 32-96", n.Line)
	}
	v, err := ParseFlitRange(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %v", n.Line, err)
	}
	*r = v
	return nil
}

// MarshalYAML writes the short form.
func (r FlitRange) MarshalYAML() (any, error) { return r.String(), nil }

func (r FlitRange) String() string {
	if r.Min == r.Max {
		return strconv.Itoa(r.Min)
	}
	return fmt.Sprintf("%d-%d", r.Min, r.Max)
}

// Mean is the expected packet length.
func (r FlitRange) Mean() float64 { return float64(r.Min+r.Max) / 2 }

// ParseFlitRange reads "4", "32-96" or "32:96".
func ParseFlitRange(s string) (FlitRange, error) {
	s = strings.TrimSpace(s)
	sep := strings.IndexAny(s, "-:")
	if sep < 0 {
		v, err := strconv.Atoi(s)
		if err != nil {
			return FlitRange{}, fmt.Errorf("%q is not a flit count (like 4) or range (like 32-96)", s)
		}
		return FlitRange{v, v}, nil
	}
	a, err1 := strconv.Atoi(strings.TrimSpace(s[:sep]))
	b, err2 := strconv.Atoi(strings.TrimSpace(s[sep+1:]))
	if err1 != nil || err2 != nil {
		return FlitRange{}, fmt.Errorf("%q is not a flit count (like 4) or range (like 32-96)", s)
	}
	return FlitRange{a, b}, nil
}

// Default is the embedded default experiment: an 8×8 mesh, wormhole, DOR,
// uniform traffic, 4-flit packets, load 0.2.
func Default() Config {
	reuse := true
	return Config{
		Topology:  TopologyConfig{Kind: "mesh", K: 8, N: 2},
		Switching: "wormhole",
		Buffers:   BufferConfig{Input: 4, Output: 0},
		Link:      LinkConfig{Latency: 1},
		Switch:    SwitchConfig{Delay: 0, Reuse: &reuse},
		Routing:   "",
		Arbiter:   "round-robin",
		Traffic:   TrafficConfig{Pattern: "uniform", Load: 0.2, Flits: FlitRange{4, 4}},
		Multicast: MulticastConfig{Worm: "async", Encoding: "single", Scheme: "hardware"},
		Run:       RunConfig{Warmup: 1000, Measure: 10000, Drain: 100000, Seed: 1, DeadlockCheck: 256, StallLimit: 10000, MaxBacklog: 50},
	}
}

// ReuseOn reports the effective same-cycle reuse setting (default on).
func (c *Config) ReuseOn() bool { return c.Switch.Reuse == nil || *c.Switch.Reuse }
