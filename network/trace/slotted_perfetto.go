package trace

import (
	"io"
	"slices"
	"strconv"

	"github.com/flitsim/flitsim/internal/kernel"
)

// SlottedTimeline writes the slotted router's timeline (Chrome trace-event
// JSON, 1 µs per slot), its threads by TrackMode:
//
//   - TracksWorm: a thread per packet (tid = its serial) in the process of
//     the node where it was first traced (pid = node), named
//     "packet N → nD"; a span per link-slot named by the link, a span
//     "waiting at LINK" per FIFO wait, instants at its entry, deflections,
//     drop and delivery;
//   - TracksLink: a process per node, a thread per link (tid = link + 1); a
//     span "packet N" per slot the link carries it, instants of the
//     packets entering, waiting at, leaving and dropped at its buffer, and
//     deflected onto it; deliveries (and the deflection node's entries)
//     on the node's thread "node" (tid 0);
//   - TracksRouter: a process per node, a thread per buffer; a span
//     "packet N" per FIFO wait (from the slot after it lost to the slot it
//     is on the link), instants of the packets entering and dropped there;
//     deliveries as above.
//
// Instants are named by the event (entered, dropped: CAUSE, deflected,
// delivered, and any other kernel.SlotKind by its name) with args packet,
// dest and what the event fills. A wait still open at the end is a span to
// the trace's end with args.open true.
type SlottedTimeline struct {
	slotQuiet
	s *slotNames
	jsonStream
	k     *kernel.Kernel
	mode  TrackMode
	named map[int64]bool      // threads named: pid<<32 | tid (tid −1: the process)
	first map[uint32]int32    // TracksWorm: a packet's process
	waits map[uint32]slotWait // packets waiting in a FIFO
}

// slotWait is a packet waiting in a FIFO since from (a slot).
type slotWait struct {
	from       int64
	node, link int32
}

// NewSlottedTimeline writes k's slotted-router timeline to w.
func NewSlottedTimeline(w io.Writer, k *kernel.Kernel, mode TrackMode, o Options) (*SlottedTimeline, error) {
	s, err := newSlotNames(k, o)
	if err != nil {
		return nil, err
	}
	t := &SlottedTimeline{s: s, jsonStream: newJSONStream(w), mode: mode, named: map[int64]bool{},
		first: map[uint32]int32{}, waits: map[uint32]slotWait{}, k: k}
	t.bw.WriteString(`{"otherData":{"time_unit":"1 us = 1 slot"},"traceEvents":[`)
	return t, nil
}

// Slot writes one event.
func (t *SlottedTimeline) Slot(cycle int64, e kernel.SlotEvent) {
	if !t.s.traced(cycle, e.Node) {
		return
	}
	pid, tid := t.track(e)
	switch {
	case e.Kind == kernel.SlotCrossed && t.mode != TracksRouter:
		name := "packet " + strconv.FormatUint(uint64(e.Packet), 10)
		if t.mode == TracksWorm {
			name = t.s.linkName(e.Node, e.Link)
		}
		b := t.span(name, pid, tid, cycle, cycle+1)
		t.close(t.args(b, e, false))
	case e.Kind == kernel.SlotCrossed:
	case e.Kind == kernel.SlotWaited:
		t.waits[e.Packet] = slotWait{from: cycle + 1, node: e.Node, link: e.Link}
		if t.mode == TracksLink {
			t.instant(cycle, e, pid, tid)
		}
	case e.Kind == kernel.SlotSent:
		t.endWait(e.Packet, cycle+1, false)
		if t.mode == TracksLink {
			t.instant(cycle, e, pid, tid)
		}
	default:
		t.instant(cycle, e, pid, tid)
	}
	if e.Kind == kernel.SlotDelivered || e.Kind == kernel.SlotDropped {
		delete(t.first, e.Packet)
	}
}

// track is the process and thread of event e, named at their first use.
func (t *SlottedTimeline) track(e kernel.SlotEvent) (pid int32, tid int64) {
	if t.mode == TracksWorm {
		pid, ok := t.first[e.Packet]
		if !ok {
			pid = e.Node
			t.first[e.Packet] = pid
		}
		tid = int64(e.Packet)
		t.name(pid, tid, "packet "+strconv.FormatUint(uint64(e.Packet), 10)+" → "+t.s.nodeName(e.Dest), tid)
		return pid, tid
	}
	if e.Link < 0 || e.Kind == kernel.SlotDelivered {
		t.name(e.Node, 0, "node", 0)
		return e.Node, 0
	}
	tid = int64(e.Link) + 1
	t.name(e.Node, tid, t.s.linkName(e.Node, e.Link), tid)
	return e.Node, tid
}

// name names process pid (once) and thread tid in it (once).
func (t *SlottedTimeline) name(pid int32, tid int64, thread string, sort int64) {
	if !t.named[int64(pid)<<32|0xffffffff] {
		t.named[int64(pid)<<32|0xffffffff] = true
		t.meta("process_name", pid, -1, `"name":`+jsonString("node "+t.s.node[pid]))
		t.meta("process_sort_index", pid, -1, `"sort_index":`+strconv.Itoa(int(pid)))
	}
	key := int64(pid)<<32 | tid&0xffffffff
	if t.mode == TracksWorm {
		key = -tid - 1 // (a packet's thread, whatever its process)
	}
	if t.named[key] {
		return
	}
	t.named[key] = true
	t.meta("thread_name", pid, tid, `"name":`+jsonString(thread))
	t.meta("thread_sort_index", pid, tid, `"sort_index":`+strconv.FormatInt(sort, 10))
}

func (t *SlottedTimeline) meta(what string, pid int32, tid int64, args string) {
	t.close(appendMeta(t.open(), what, int64(pid), tid, args))
}

// span starts a complete event on (pid, tid) over slots [from, to).
func (t *SlottedTimeline) span(name string, pid int32, tid, from, to int64) []byte {
	b := t.open()
	b = append(b, `{"name":"`...)
	b = append(b, name...)
	b = append(b, `","ph":"X","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, tid, 10)
	b = append(b, `,"ts":`...)
	b = strconv.AppendInt(b, from, 10)
	b = append(b, `,"dur":`...)
	return strconv.AppendInt(b, to-from, 10)
}

// instant writes event e as an instant on (pid, tid).
func (t *SlottedTimeline) instant(cycle int64, e kernel.SlotEvent, pid int32, tid int64) {
	name := e.Kind.String()
	if e.Kind == kernel.SlotDropped {
		name += ": " + kernel.DropCauseNames[e.Cause]
	}
	if t.mode != TracksWorm && e.Link >= 0 && e.Kind != kernel.SlotDelivered {
		name += " (packet " + strconv.FormatUint(uint64(e.Packet), 10) + ")"
	} else if t.mode == TracksWorm && e.Link >= 0 {
		name += " at " + t.s.linkName(e.Node, e.Link)
	}
	b := t.open()
	b = append(b, `{"name":"`...)
	b = append(b, name...)
	b = append(b, `","ph":"i","s":"t","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, tid, 10)
	b = append(b, `,"ts":`...)
	b = strconv.AppendInt(b, cycle, 10)
	t.close(t.args(b, e, false))
}

// args appends e's args and closes the event object.
func (t *SlottedTimeline) args(b []byte, e kernel.SlotEvent, open bool) []byte {
	b = append(b, `,"args":{"packet":`...)
	b = strconv.AppendUint(b, uint64(e.Packet), 10)
	b = append(b, `,"node":"`...)
	b = append(b, t.s.node[e.Node]...)
	b = append(b, `","dest":"`...)
	b = append(b, t.s.nodeName(e.Dest)...)
	b = append(b, '"')
	switch e.Kind {
	case kernel.SlotWaited, kernel.SlotSent, kernel.SlotDropped:
		b = append(b, `,"queue":`...)
		b = strconv.AppendInt(b, int64(e.Queue), 10)
	case kernel.SlotDelivered:
		b = append(b, `,"age":`...)
		b = strconv.AppendInt(b, int64(e.Age), 10)
	}
	if t.s.defl {
		b = append(b, `,"deflections":`...)
		b = strconv.AppendInt(b, int64(e.Defl), 10)
	} else if e.Kind != kernel.SlotEntered {
		b = append(b, `,"hops":`...)
		b = strconv.AppendInt(b, int64(e.Hops), 10)
	}
	if open {
		b = append(b, `,"open":true`...)
	}
	return append(b, "}}"...)
}

// endWait writes packet p's wait in a FIFO, which ends before slot end.
func (t *SlottedTimeline) endWait(p uint32, end int64, open bool) {
	w, ok := t.waits[p]
	if !ok {
		return // (it began before the window)
	}
	delete(t.waits, p)
	if t.mode == TracksLink {
		return
	}
	e := kernel.SlotEvent{Kind: kernel.SlotWaited, Packet: p, Node: w.node, Link: w.link}
	pid, tid := t.track(e)
	name := "packet " + strconv.FormatUint(uint64(p), 10)
	if t.mode == TracksWorm {
		name = "waiting at " + t.s.linkName(w.node, w.link)
	}
	b := t.span(name, pid, tid, w.from, end)
	b = append(b, `,"args":{"packet":`...)
	b = strconv.AppendUint(b, uint64(p), 10)
	if open {
		b = append(b, `,"open":true`...)
	}
	t.close(append(b, "}}"...))
}

// EndCycle does nothing: events are written as they come.
func (t *SlottedTimeline) EndCycle(int64) {}

// Close writes the waits still open (to the end of the trace) and ends
// the JSON document.
func (t *SlottedTimeline) Close() error {
	end := min(t.k.Now(), t.s.win.end())
	ps := make([]uint32, 0, len(t.waits))
	for p := range t.waits {
		ps = append(ps, p)
	}
	slices.Sort(ps)
	for _, p := range ps {
		if t.waits[p].from < end {
			t.endWait(p, end, true)
		}
	}
	t.bw.WriteString("\n]}\n")
	return t.bw.Flush()
}
