// Package trace writes cycle traces of a running network: the writers here
// implement network.Tracer and are attached with Kernel.SetTracer (Multi
// attaches several at once). Every writer buffers its output (bufio), writes
// it in the order the kernel reports events, so a run gives the same bytes
// every time, and must be closed after the run (Close writes the end of the
// trace and flushes; it does not close the underlying writer).
//
// # VCD (NewVCD)
//
// An IEEE 1364 value change dump, timescale 1 ns, one time unit per cycle:
// at time c the signals show what happened in cycle c. The scopes are
//
//	network
//	  <switch label>              one per switch, sanitised: s2,0 → s2_0, r(3,4) → r_3_4
//	    in_<port>                 an input buffer: occupancy, owner
//	    out_<port>                the port's output link (valid, worm, kind, seq)
//	                              and its output buffer if any (occupancy, owner)
//	  t<N>                        one per terminal (endpoint): state, worm, reason
//	    inj                       its injection link (valid, worm, kind, seq)
//
// Port names are sanitised the same way, with + → p and - → m (x+ → xp).
// Signals:
//
//   - valid (1 bit): the channel carried a flit in this cycle. It drops to 0
//     in the first cycle in which the channel carries nothing.
//   - worm (32 bits): serial number (flit.Worm.ID, modulo 2^32) of the worm
//     whose flit crossed; x when the channel is idle.
//   - kind (2 bits): 0 body, 1 head, 2 tail, 3 head-and-tail; x when idle.
//   - seq (16 bits): the flit's index in its worm (0 = head), modulo 2^16;
//     x when idle.
//   - occupancy (enough bits for the buffer's depth): flits in the buffer at
//     the end of the cycle, slots reserved by flits still on the link
//     included.
//   - owner (32 bits): serial of the worm bound at the buffer at the end of
//     the cycle (the one whose flits it routes); x when none.
//   - state (2 bits), per endpoint, for the worm at its source register (the
//     one currently injecting): 0 idle (no flit waiting to enter the
//     network), 1 advancing (a flit entered the injection link in this
//     cycle), 2 blocked (its front flit could not leave), 3 done (its tail
//     entered the injection link in this cycle: injection complete). Worms
//     are unbounded in number, so their state is shown where they inject,
//     not per worm.
//   - worm (32 bits), per endpoint: serial of that worm; x when idle.
//   - reason (3 bits), per endpoint: why the blocked flit waits (network.Wait:
//     0 link, 1 port, 2 arbitration, 3 space, 4 tail, 5 sync, 6 injection);
//     x unless state is 2.
//
// Channels and endpoint states are values during the cycle; occupancy and
// owner are sampled after the cycle's commit. Cycles the simulator skips
// because the network is empty produce no changes.
//
// VCD.SaveFiles writes a GTKWave save file beside the dump (FILE.gtkw) that
// opens with the busiest switches and terminals shown and names the enum
// values of kind, state and reason through translate filter files
// (FILE.kind.txt, FILE.state.txt, FILE.reason.txt); see gtkw.go for the
// rule. flitsim run --trace-vcd writes them.
//
// # Names
//
// The event log and the timeline name buffers, channels and switches by
// their VCD scope paths below network (see names.go), e.g. r_3_4.in_xm (the
// input buffer of port x- of switch r(3,4)), s2_0.out_1 (output port 1 of
// switch s2,0: its link and its output buffer), t5 (terminal 5), t5.src (its
// source register), t5.inj (its injection link). Such a name is one field
// for cut -d, and awk -F, and leads straight to the signals in GTKWave.
// Deadlock reports and results keep the kernel's names (s2,0.out[1]).
//
// # Event log (NewEvents)
//
// One row per event, CSV (with a header row) or JSON lines, columns
//
//	cycle,event,worm,seq,kind,buffer,to,channel,ready,reason,waiting_for,waiting_at,switch,ports,terminal,complete
//
// filled per event as follows (worms are serial numbers):
//
//   - moved: a flit left buffer for to (a buffer, or tN, terminal N, for an
//     ejection) in cycle, crossing channel (empty: only a crossbar); it can
//     leave to from cycle ready on (at a terminal: it arrives in cycle ready,
//     the end of a packet's latency for its tail). Every copy of a
//     replicated flit is a row; the source register of terminal N is
//     tN.src.
//   - blocked: the front flit of buffer did not move, for reason (link,
//     port, arbitration, space, tail, sync, injection); waiting_for is the
//     worm holding what it waits for and waiting_at the port, buffer or
//     terminal it waits at (empty when none).
//   - granted: worm was granted ports (output port names, space-separated)
//     of switch for the flits in buffer.
//   - delivered: worm's tail reached terminal; complete is true when it was
//     the worm's last destination.
//
// JSON lines carry only the keys an event fills.
//
// # Timeline (NewPerfetto)
//
// The Chrome trace-event JSON format ({"traceEvents":[...]}) that Perfetto UI
// and chrome://tracing open, 1 µs per cycle. Each worm is a thread (tid = its
// serial) of the process of its source terminal (pid = terminal, named
// "terminal N"), named "worm S: src→dst". On it:
//
//   - a span "worm S" from generation to the cycle its tail reached its last
//     destination (open worms end at the end of the trace, args.open true);
//   - a span "source queue" while it waits at its source, from generation
//     to the cycle its head leaves the source register (left out when 0);
//   - a span per hop, named by the buffer, from the cycle the head enters the
//     buffer to the cycle it leaves it (the spans of a unicast tile its
//     journey);
//   - inside those, a span "blocked: REASON" per run of cycles in which the
//     head could not leave (args: waiting_for, waiting_at); waiting for the
//     link or the routing delay is not counted as blocked;
//   - an instant "delivered" at each destination.
//
// A multicast head is copied into several buffers at once, so its hop spans
// overlap: each copy that does not fit on the worm's own thread goes on an
// extra thread of the same worm ("worm S: … (lane L)"), tid = 2^40 +
// serial·2^16 + L.
//
// NewTimeline writes the same format with other tracks (TrackMode):
// TracksRouter makes each router a process and each of its buffers a thread,
// with a span "worm S" per worm at the buffer's front (from the cycle its
// head reached the front to the cycle its tail left) and "blocked: REASON"
// spans inside; TracksLink makes each router a process with a thread per
// output link (a process "injection links" holds the terminals'), with a
// span "worm S" from the head's crossing to the tail's. Spans carry args
// worm, src, dst (or destinations), flits; open ones open true (and, on a
// link, crossed: the flits that crossed). Only buffers and links that saw a
// worm get a thread.
//
// # The slotted router
//
// A kernel running switching: slotted (IsSlotted) reports kernel.SlotEvents
// instead of flit moves; NewSlottedEvents, NewSlottedVCD and
// NewSlottedTimeline write them (slotted.go, slotted_vcd.go,
// slotted_perfetto.go; docs/traces.md shows the formats), with the same
// Options.
//
// # Options
//
// Options.Window limits every writer to cycles [From, To). Options.Only is a
// comma list of label globs (path.Match syntax) selecting switches (by their
// labels, e.g. s1,* or r(0,*)) and terminals (t3, or just 3); a list such as
// s1,*,s0,3 is grouped into the longest globs that name something (s1,* and
// s0,3). The VCD keeps only the selected scopes, the event log only events at
// selected switches or terminals, the timeline only spans there.
package trace
