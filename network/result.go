package network

// Result is what a run measured. Its JSON form is the machine-readable output
// of `flitsim run --format json`.
type Result struct {
	Config Config `json:"config"`
	// Cycles is the number of cycles simulated.
	Cycles int64 `json:"cycles"`
	// Terminals is the number of terminals (processors).
	Terminals int `json:"terminals"`

	// Packets and flits over the whole run.
	InjectedPackets  int64 `json:"injected_packets"`
	DeliveredPackets int64 `json:"delivered_packets"`
	InjectedFlits    int64 `json:"injected_flits"`
	DeliveredFlits   int64 `json:"delivered_flits"`
	// Dropped counts the packets dropped by full queues (queue.full: drop;
	// absent otherwise): injected = delivered + dropped + in flight.
	Dropped *int64 `json:"dropped,omitempty"`
	// BlockedMulticasts counts the multicasts whose Random Branch tree
	// blocked (multicast.tree: rb; absent otherwise): each was dropped at
	// its source before injection and is in no other count.
	BlockedMulticasts *int64 `json:"blocked_multicasts,omitempty"`
	// MeasuredPackets were generated in the measurement window; the latency
	// figures are over the ones delivered.
	MeasuredPackets   int64 `json:"measured_packets"`
	MeasuredDelivered int64 `json:"measured_delivered"`
	// MeasuredDropped of them were dropped (queue.full: drop): a run is
	// complete when every measured packet is delivered or dropped.
	MeasuredDropped int64 `json:"measured_dropped,omitempty"`

	// Latency runs from a packet's generation (queued at its source) to the
	// cycle its tail is ejected at its destination; NetworkLatency starts
	// when its head enters the network instead.
	Latency        Summary `json:"latency"`
	NetworkLatency Summary `json:"network_latency"`

	// Offered and Throughput are flits per terminal per cycle over the
	// measurement window: generated, and ejected (accepted). A multicast's
	// flits count once per destination, so the two agree below saturation.
	Offered    float64 `json:"offered"`
	Throughput float64 `json:"throughput"`

	// Hops is the mean number of switches a measured packet crossed.
	Hops float64 `json:"hops"`
	// Channel utilisation over the measurement window (for a trace, whose
	// window is its injection cycles, over the whole run): flits per cycle
	// per switch output channel (ejection channels included).
	ChannelUtilMean float64 `json:"channel_util_mean"`
	ChannelUtilMax  float64 `json:"channel_util_max"`
	BusiestChannel  string  `json:"busiest_channel"`
	// Channels is, with run.channels set, the load of every wired channel
	// (switch output links, then terminal injection links), in channel
	// order.
	Channels []ChannelLoad `json:"channels,omitempty"`
	// PerNode (run.per_node) is every terminal's traffic over the window,
	// PerPair (run.per_pair) every source–destination pair that delivered a
	// measured unicast packet, LatencyHistogram (run.histogram) the exact
	// distribution of Latency, and Routers (run.router_activity) every
	// switch's activity; see stats_detail.go. They have CSV files of
	// their own (flitsim run --per-node F.csv, ...), not columns in
	// --format csv's one row.
	PerNode          []NodeStats      `json:"per_node,omitempty" csv:"-"`
	PerPair          []PairStats      `json:"per_pair,omitempty" csv:"-"`
	LatencyHistogram []HistogramBin   `json:"latency_histogram,omitempty" csv:"-"`
	Routers          []RouterActivity `json:"routers,omitempty" csv:"-"`
	// Classes is every message class's measured packets and latency
	// (traffic.classes > 1 or traffic.reply_flits > 0), RoundTrip the
	// request/reply round trip (traffic.reply_flits > 0).
	Classes   []ClassStats `json:"classes,omitempty" csv:"-"`
	RoundTrip *RoundTrip   `json:"round_trip,omitempty" csv:"-"`
	// MaxBufferOccupancy is the most flits any switch buffer held (slots
	// reserved by flits still on the link count).
	MaxBufferOccupancy int `json:"max_buffer_occupancy"`

	// Deadlock is nil, or the wait-for cycle that stopped the run.
	Deadlock *Deadlock `json:"deadlock"`
	// EscapedCycles counts the deadlock checks that found a wait-for cycle
	// on adaptive VCs which only an escape VC broke, and names the first
	// (routing: adaptive with a VC model; nil otherwise: escape.go).
	EscapedCycles *EscapedCycles `json:"escaped_cycles,omitempty" csv:"-"`
	// BookSim repeats the headline figures under BookSim2's names when a
	// public switch model runs (router.model; router.go).
	BookSim *BookSimStats `json:"booksim,omitempty"`
	// Stall is nil, or when no flit moved for run.stall_limit cycles while
	// flits waited and no deadlock was found (livelock or starvation).
	Stall *Stall `json:"stall"`
	// Violations counts broken invariants of the simulator itself (a
	// channel used twice in a cycle, a flit out of order or at the wrong
	// terminal, a buffer over its depth); all zero in a correct run.
	Violations Violations `json:"invariant_violations"`
	// Deliveries lists, for trace and inline-packet runs, the first 100
	// packets delivered, in delivery order.
	Deliveries []Delivery `json:"deliveries,omitempty"`
	// Incomplete is true when not every measured packet (message) was
	// delivered, whatever stopped the run: the drain limit, run.max_backlog,
	// a deadlock or a stall.
	Incomplete bool `json:"incomplete"`

	// Status is the run's verdict (see Judge): ok, incomplete, saturated,
	// stall, deadlock or interrupted.
	Status string `json:"status"`
	// Warnings says, a line each, what Status does not: packets dropped by
	// full queues, a run near saturation (verdict_warn.go).
	Warnings []string `json:"warnings,omitempty"`
	// Saturated is true when the network did not accept the load offered:
	// the run was stopped by run.max_backlog (BacklogStop), or Offered −
	// Throughput exceeds ShortfallCI95.
	Saturated bool `json:"saturated"`
	// ShortfallCI95 is the half-width of the 95 % confidence interval of the
	// shortfall Offered − Throughput, by batch means over 20 batches of the
	// measurement window; −1 when there is none (a trace, or fewer than
	// stats.MinBatches batches run), and then ShortfallCI95Note says why.
	ShortfallCI95     float64 `json:"shortfall_ci95"`
	ShortfallCI95Note string  `json:"shortfall_ci95_note,omitempty"`
	// Backlog is the number of packets generated and not delivered when the
	// run ended (waiting at their sources or in the network).
	Backlog int64 `json:"backlog"`
	// BacklogStop is nil, or when the backlog passed run.max_backlog and the
	// run was stopped as saturated.
	BacklogStop *BacklogStop `json:"backlog_stop"`
	// Interrupted is true when the user stopped the run (SIGINT, SIGTERM;
	// see Network.StopOn) at the end of cycle InterruptedAt: the figures
	// are those of the cycles simulated so far. Both are left out of the
	// JSON of a run that was not interrupted.
	Interrupted   bool   `json:"interrupted,omitempty"`
	InterruptedAt *int64 `json:"interrupted_at,omitempty"`
	// SystemUtilization is Chiang's ρ for blocking-multicast tasks: the
	// share of the measurement window the tasks spent computing (1 − R
	// without contention; traffic/task.go).
	SystemUtilization *float64 `json:"system_utilization,omitempty" csv:"-"`
	// Experiments summarises a batch's experiments (traffic.mode: batch);
	// the fields above describe the first.
	Experiments *Experiments `json:"experiments,omitempty"`
	// The slotted router's figures (switching: slotted; docs/slotted.md),
	// over the measured slots: ThroughputPerNode is delivered packets per
	// node per slot (at most 2), PType the share p_1..p_d of link-slots
	// carrying a packet on its 1st..dth link, DeliverySlots the slots from
	// entry to delivery; DroppedByCause splits Dropped (the whole run's):
	// conflict (k = 0) or buffer_full.
	ThroughputPerNode *float64         `json:"throughput_per_node,omitempty"`
	PType             []float64        `json:"p_type,omitempty" csv:"-"`
	DeliverySlots     []SlotCount      `json:"delivery_slots,omitempty" csv:"-"`
	DroppedByCause    map[string]int64 `json:"dropped_by_cause,omitempty" csv:"-"`
	// Deflections is the deflection schemes' count of deflections per
	// packet delivered in the window (each adds two hops).
	Deflections *DeflectionStats `json:"deflections,omitempty" csv:"-"`
	// The deflection schemes' livelock watch, whole run (slotted_livelock.go):
	// the oldest packet's age in slots, the most deflections of one packet,
	// and the longest run of slots a node could not inject.
	OldestAge      *int64 `json:"oldest_age,omitempty"`
	MaxDeflections *int64 `json:"max_deflections,omitempty"`
	LongestLockout *int64 `json:"longest_lockout,omitempty"`
	LockoutNode    *int   `json:"lockout_node,omitempty" csv:"-"`
	// CSR (slotted.scheme: csr): the throughput per node per unit of real
	// time, R/(1 + csr.beta), and the link bookings.
	ThroughputPerTime *float64      `json:"throughput_per_time,omitempty"`
	Reservations      *Reservations `json:"reservations,omitempty" csv:"-"`
	// Pi is the measured π_i of Varvarigos eq. 5.47, distance i = 1..d at
	// index i−1: the share of the forward (cross) link-slots whose packet
	// was i hops from its destination (not the deflection schemes).
	Pi []float64 `json:"pi,omitempty" csv:"-"`
	// Multi is a multi-read or multi-write batch's statistics and delivery
	// check (of the first experiment; network/multi.go).
	Multi *MultiStats `json:"multi,omitempty"`
}

// Stall reports a run stopped because nothing moved: from Since to Cycle no
// flit moved although flits were waiting, and the wait-for graph held no
// deadlock (for example synchronous worms that keep giving back ports).
type Stall struct {
	Cycle int64 `json:"cycle"`
	Since int64 `json:"since"`
}

// ChannelLoad is one channel's traffic over the measurement window.
type ChannelLoad struct {
	// Channel names the channel by its sending end, e.g. "r(3,4).out[x+]"
	// or "terminal 5 injection"; To names its receiving end, e.g.
	// "r(4,4).in[x-]" or "terminal 12".
	Channel string `json:"channel"`
	To      string `json:"to"`
	// Flits is the number of flits the channel carried, Utilisation that
	// number per cycle of the window.
	Flits       uint64  `json:"flits"`
	Utilisation float64 `json:"utilisation"`
}
