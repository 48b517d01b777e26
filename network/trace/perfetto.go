package trace

import (
	"cmp"
	"encoding/json"
	"github.com/flitsim/flitsim/internal/kernel"
	"io"
	"slices"
	"strconv"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
	xbar "github.com/flitsim/flitsim/switch"
)

// laneBase is added to the tid of a worm's extra threads (a multicast head
// in several buffers at once): tid = laneBase + serial·2^16 + lane.
const (
	laneBase = 1 << 40
	maxLanes = 1 << 16
)

// span is one timeline interval of a worm, kept until the worm finishes so
// that its spans can be written nested and in order.
type span struct {
	start, end int64 // [start, end); end < 0 for an instant (a delivery)
	parent     int32 // index of the hop span a blocked span belongs to, or -1
	buf        int32 // buffer (or nb+terminal) it happened at
	who        int64 // blocked: serial of the worm waited for, or -1
	at         int32 // blocked: what it waits at, or -1
	reason     network.Wait
	open       bool // a hop still open at the end of the trace
	blocked    bool
}

// pworm is a worm the timeline follows.
type pworm struct {
	serial uint64
	src    int32
	spans  []span
}

// headAt is a head flit in a buffer: where its hop span starts and its runs
// of blocked cycles.
type headAt struct {
	wi     int32
	serial uint64
	enter  int64
	runs   []run
}

type run struct {
	start, last int64
	reason      network.Wait
	who         int64 // serial, or -1
	at          int32
}

// extendRuns records one blocked cycle: it lengthens the last run when the
// cycle continues it with the same reason, holder and place, else starts one.
func extendRuns(runs []run, cycle int64, reason network.Wait, who int64, at int32) []run {
	if n := len(runs); n > 0 {
		r := &runs[n-1]
		if r.last == cycle-1 && r.reason == reason && r.who == who && r.at == at {
			r.last = cycle
			return runs
		}
	}
	return append(runs, run{start: cycle, last: cycle, reason: reason, who: who, at: at})
}

// Perfetto writes a Chrome trace-event timeline (see the package
// documentation).
type Perfetto struct {
	k *kernel.Kernel
	f *filter
	jsonStream
	names []string // JSON-quoted buffer and terminal names
	chs   []string // JSON-quoted channel names
	nb    int32

	heads    [][]headAt // per buffer, oldest first
	popCycle []int64    // per buffer: cycle of the last head that left (copies of one move)
	popWorm  []uint64
	worms    []*pworm // per worm pool index
	free     []*pworm // finished records, for reuse
	named    []bool   // per terminal: process named
	srcBuf   []bool
	blocked  []string // JSON-quoted span names per wait reason

	// finish's scratch.
	hops  []int32
	lane  []int32
	ends  []int64
	tname []bool
}

// NewPerfetto writes k's timeline to w (buffered; Close writes the open spans
// and flushes).
func NewPerfetto(w io.Writer, k *kernel.Kernel, o Options) (*Perfetto, error) {
	f, err := newFilter(k, o)
	if err != nil {
		return nil, err
	}
	l := newLayout(k)
	p := &Perfetto{k: k, f: f, jsonStream: newJSONStream(w), nb: k.Buffers()}
	for _, n := range l.names() {
		p.names = append(p.names, jsonString(n))
	}
	for _, n := range l.chNames() {
		p.chs = append(p.chs, jsonString(n))
	}
	p.heads = make([][]headAt, p.nb)
	p.popCycle = make([]int64, p.nb)
	p.popWorm = make([]uint64, p.nb)
	p.srcBuf = make([]bool, p.nb)
	for b := int32(0); b < p.nb; b++ {
		p.popCycle[b] = -1
		_, _, _, src, _ := k.BufferInfo(b)
		p.srcBuf[b] = src
	}
	p.named = make([]bool, k.Topo.Terminals())
	for r := network.WaitLink; r <= network.WaitInject; r++ {
		p.blocked = append(p.blocked, jsonString("blocked: "+r.String()))
	}
	p.bw.WriteString(`{"otherData":{"time_unit":"1 us = 1 cycle"},"traceEvents":[`)
	return p, nil
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// worm returns the record of the worm at pool index wi, creating it.
func (p *Perfetto) worm(wi int32) *pworm {
	for int(wi) >= len(p.worms) {
		p.worms = append(p.worms, nil)
	}
	w := &p.k.Pool.Worms[wi]
	pw := p.worms[wi]
	if pw == nil || pw.serial != w.ID {
		if n := len(p.free); n > 0 {
			pw = p.free[n-1]
			p.free = p.free[:n-1]
		} else {
			pw = &pworm{}
		}
		pw.serial, pw.src, pw.spans = w.ID, w.Src, pw.spans[:0]
		p.worms[wi] = pw
	}
	return pw
}

// front is the head entry of b's front flit, worm wi; a source register's
// head is entered when first seen (its span starts at generation).
func (p *Perfetto) front(b, wi int32) *headAt {
	s := p.k.Pool.Worms[wi].ID
	q := p.heads[b]
	if len(q) > 0 && q[0].serial == s {
		return &p.heads[b][0]
	}
	if !p.srcBuf[b] || p.popCycle[b] >= 0 && p.popWorm[b] == s {
		return nil
	}
	return p.push(b, wi, s, p.k.Pool.Worms[wi].GenCycle)
}

// Scoped reports whether the trace leaves anything out (--trace-window,
// --trace-only): only then do packets' records wait for it.
func (p *Perfetto) Scoped() bool { return p.f.some }

// Traces reports whether an event in cycle at buffer (or terminal) b may
// be written (kernel.TraceScope): a hop span or a delivery at a selected
// place, starting before the window ends.
func (p *Perfetto) Traces(cycle int64, b int32) bool {
	return b >= 0 && p.selected(b) && cycle < p.f.win.end()
}

// Follows reports whether the worm slice of a packet created at terminal
// src in cycle gen may be written (kernel.LifeScope): from a selected
// terminal, made before the window ends. (Its record is made at its
// delivery, or at Close.)
func (p *Perfetto) Follows(src int32, gen int64) bool {
	return p.f.term[src] && gen < p.f.win.end()
}

// Granted is not shown on the timeline.
func (p *Perfetto) Granted(int64, int32, int32, int32, xbar.PortSet) {}

// Move closes the hop span of a head leaving from and opens one at to.
func (p *Perfetto) Move(cycle int64, f flit.Flit, from, to, ch int32, ready int64) {
	if f.Seq != 0 {
		return
	}
	s := p.k.Pool.Worms[f.Worm].ID
	if !(p.popCycle[from] == cycle && p.popWorm[from] == s) { // the first copy of this move
		if h := p.front(from, f.Worm); h != nil {
			p.pop(from, 0, cycle)
		} else if i := p.held(from, s); i > 0 {
			p.pop(from, i, cycle)
		}
		p.popCycle[from], p.popWorm[from] = cycle, s
	}
	if to < p.nb {
		p.push(to, f.Worm, s, cycle)
	}
}

// pop ends the hop span of the i-th head in b's queue, leaving at cycle.
func (p *Perfetto) pop(b int32, i int, cycle int64) {
	q := p.heads[b]
	p.leave(b, &q[i], cycle, false)
	runs := q[i].runs[:0]
	copy(q[i:], q[i+1:])
	q[len(q)-1].runs = runs // keep the slice for the next head
	p.heads[b] = q[:len(q)-1]
}

// held is the position of worm serial s in b's queue, or −1. A head leaves
// from the front of a router's queue; a scheduled node (a collective's)
// sends the packets it holds in the order its schedule says.
func (p *Perfetto) held(b int32, s uint64) int {
	for i, h := range p.heads[b] {
		if h.serial == s {
			return i
		}
	}
	return -1
}

// push enters a head at the back of b's queue, reusing a slot's runs.
func (p *Perfetto) push(b, wi int32, s uint64, enter int64) *headAt {
	q := p.heads[b]
	if len(q) < cap(q) {
		q = q[:len(q)+1]
		h := &q[len(q)-1]
		h.wi, h.serial, h.enter, h.runs = wi, s, enter, h.runs[:0]
	} else {
		q = append(q, headAt{wi: wi, serial: s, enter: enter})
	}
	p.heads[b] = q
	return &q[len(q)-1]
}

// leave records the hop span of head h at b, ending at end, and its blocked
// runs.
func (p *Perfetto) leave(b int32, h *headAt, end int64, open bool) {
	pw := p.worm(h.wi)
	if p.srcBuf[b] && end == h.enter && len(h.runs) == 0 {
		return // injected at once: no source queue span
	}
	hop := int32(len(pw.spans))
	pw.spans = append(pw.spans, span{start: h.enter, end: end, parent: -1, buf: b, who: -1, at: -1, open: open})
	for _, r := range h.runs {
		pw.spans = append(pw.spans, span{start: r.start, end: min(r.last+1, end), parent: hop, buf: b,
			who: r.who, at: r.at, reason: r.reason, blocked: true})
	}
}

func (p *Perfetto) waitingAt(reason network.Wait, at int32) string {
	return waitName(reason, at, p.names, p.chs, p.nb)
}

// waitName names what a blocked flit waits at: a channel (port waits), a
// terminal's source queue (injection, after the nb buffers) or a buffer.
func waitName(reason network.Wait, at int32, names, chNames []string, nb int32) string {
	switch reason {
	case network.WaitPort:
		return chNames[at]
	case network.WaitInject:
		return names[nb+at]
	}
	return names[at]
}

// Blocked extends or starts a run of blocked cycles of a head.
func (p *Perfetto) Blocked(cycle int64, f flit.Flit, b int32, reason network.Wait, who, at int32) {
	if f.Seq != 0 || reason == network.WaitLink {
		return
	}
	h := p.front(b, f.Worm)
	if h == nil {
		return
	}
	ws := int64(-1)
	if who >= 0 {
		ws = int64(p.k.Pool.Worms[who].ID)
	}
	h.runs = extendRuns(h.runs, cycle, reason, ws, at)
}

// Delivered marks a destination reached and, at the last one, writes the
// worm.
func (p *Perfetto) Delivered(cycle int64, w *flit.Worm, wi, term int32) {
	pw := p.worm(wi)
	pw.spans = append(pw.spans, span{start: cycle, end: -1, parent: -1, buf: p.nb + term, who: -1, at: -1})
	if w.Done == w.Dests {
		p.finish(pw, w, cycle+1, false)
		p.worms[wi] = nil
		p.free = append(p.free, pw)
	}
}

// EndCycle does nothing: spans are written when their worms finish.
func (p *Perfetto) EndCycle(int64) {}

// finish writes worm w's thread: its own span [generation, end), then its
// hop spans (each with its blocked spans) on as many lanes as needed for
// them not to overlap, within the window and the selection.
func (p *Perfetto) finish(pw *pworm, w *flit.Worm, end int64, open bool) {
	win := p.f.win
	lo, hi := max(w.GenCycle, win.From), min(end, win.end())
	if !p.visible(pw, lo < hi) {
		return
	}
	hops, lane, lanes := p.assignLanes(pw)
	named := p.tname[:0]
	for range max(1, lanes) {
		named = append(named, false)
	}
	p.tname = named
	p.process(pw.src)
	p.thread(pw, w, 0)
	named[0] = true
	if lo < hi {
		p.wormSlice(pw, w, lo, hi, open)
	}
	p.hopSpans(pw, w, hops, lane, named)
	p.deliveries(pw)
}

// visible reports whether anything of the worm is written: its own slice
// (inWindow, from a traced source) or any of its spans.
func (p *Perfetto) visible(pw *pworm, inWindow bool) bool {
	if p.f.term[pw.src] && inWindow {
		return true
	}
	for i := range pw.spans {
		if p.kept(&pw.spans[i]) {
			return true
		}
	}
	return false
}

// assignLanes puts the worm's hop spans on lanes: by start (longest first on
// ties), each on the first lane free by then. It returns the hop spans in
// that order, the lane of each span (indexed like pw.spans) and the number
// of lanes; the slices reuse p's scratch buffers.
func (p *Perfetto) assignLanes(pw *pworm) (hops, lane []int32, lanes int) {
	hops = p.hops[:0]
	for i := range pw.spans {
		if s := &pw.spans[i]; s.parent < 0 && s.end >= 0 {
			hops = append(hops, int32(i))
		}
	}
	slices.SortStableFunc(hops, func(a, b int32) int {
		x, y := &pw.spans[a], &pw.spans[b]
		if x.start != y.start {
			return cmp.Compare(x.start, y.start)
		}
		return cmp.Compare(y.end, x.end)
	})
	lane = slices.Grow(p.lane[:0], len(pw.spans))[:len(pw.spans)]
	ends := p.ends[:0]
	for _, i := range hops {
		s := &pw.spans[i]
		l := 0
		for l < len(ends) && ends[l] > s.start {
			l++
		}
		if l == maxLanes { // never in practice: share the last lane
			l--
		}
		if l == len(ends) {
			ends = append(ends, s.end)
		} else {
			ends[l] = s.end
		}
		lane[i] = int32(l)
	}
	p.hops, p.lane, p.ends = hops, lane, ends
	return hops, lane, len(ends)
}

// wormSlice writes the worm's own slice over [lo, hi) on lane 0.
func (p *Perfetto) wormSlice(pw *pworm, w *flit.Worm, lo, hi int64, open bool) {
	b := p.open()
	b = append(b, `{"name":"worm `...)
	b = strconv.AppendUint(b, pw.serial, 10)
	b = append(b, `","ph":"X"`...)
	b = p.where(b, pw, 0, lo, hi-lo)
	b = appendWormFields(append(b, `,"args":{`...), w)
	b = append(b, `,"hops":`...)
	b = strconv.AppendInt(b, int64(w.Hops), 10)
	if open {
		b = append(b, `,"open":true`...)
	}
	p.close(append(b, "}}"...))
}

// hopSpans writes each kept hop span and its kept children on the hop's
// lane, naming a lane's thread when it is first used.
func (p *Perfetto) hopSpans(pw *pworm, w *flit.Worm, hops, lane []int32, named []bool) {
	for _, i := range hops {
		s := &pw.spans[i]
		if !p.kept(s) {
			continue
		}
		if l := lane[i]; !named[l] {
			named[l] = true
			p.thread(pw, w, int(l))
		}
		p.span(pw, int(lane[i]), s)
		for j := int(i) + 1; j < len(pw.spans) && pw.spans[j].parent == i; j++ {
			if c := &pw.spans[j]; p.kept(c) {
				p.span(pw, int(lane[i]), c)
			}
		}
	}
}

// deliveries writes an instant event for each kept delivery span (end < 0).
func (p *Perfetto) deliveries(pw *pworm) {
	for i := range pw.spans {
		if s := &pw.spans[i]; s.end < 0 && p.kept(s) {
			b := p.open()
			b = append(b, `{"name":"delivered","ph":"i","s":"t"`...)
			b = p.where(b, pw, 0, s.start, -1)
			b = append(b, `,"args":{"terminal":`...)
			b = strconv.AppendInt(b, int64(s.buf-p.nb), 10)
			p.close(append(b, "}}"...))
		}
	}
}

// kept reports whether span s is at a selected place and in the window.
func (p *Perfetto) kept(s *span) bool {
	if !p.selected(s.buf) {
		return false
	}
	win := p.f.win
	if s.end < 0 {
		return win.In(s.start)
	}
	return max(s.start, win.From) < min(s.end, win.end())
}

// span writes a hop or blocked span, clipped to the window.
func (p *Perfetto) span(pw *pworm, lane int, s *span) {
	win := p.f.win
	start, end := max(s.start, win.From), min(s.end, win.end())
	b := p.open()
	b = append(b, `{"name":`...)
	switch {
	case s.blocked:
		b = append(b, p.blocked[s.reason]...)
	case p.srcBuf[s.buf]:
		b = append(b, `"source queue"`...)
	default:
		b = append(b, p.names[s.buf]...)
	}
	b = append(b, `,"ph":"X"`...)
	b = p.where(b, pw, lane, start, end-start)
	switch {
	case s.blocked:
		b = append(b, `,"args":{"waiting_for":`...)
		b = strconv.AppendInt(b, s.who, 10)
		if s.at >= 0 {
			b = append(b, `,"waiting_at":`...)
			b = append(b, p.waitingAt(s.reason, s.at)...)
		}
		b = append(b, '}')
	case s.open:
		b = append(b, `,"args":{"open":true}`...)
	}
	p.close(append(b, '}'))
}

func (p *Perfetto) selected(b int32) bool {
	if b >= p.nb {
		return p.f.term[b-p.nb]
	}
	return p.f.buf[b]
}

func tid(pw *pworm, lane int) uint64 {
	if lane == 0 {
		return pw.serial
	}
	return laneBase + pw.serial<<16 + uint64(lane)
}

// process names terminal t's process once.
func (p *Perfetto) process(t int32) {
	if p.named[t] {
		return
	}
	p.named[t] = true
	b := p.open()
	b = append(b, `{"name":"process_name","ph":"M","pid":`...)
	b = strconv.AppendInt(b, int64(t), 10)
	b = append(b, `,"args":{"name":"terminal `...)
	b = strconv.AppendInt(b, int64(t), 10)
	b = append(b, `"}},`+"\n"+`{"name":"process_sort_index","ph":"M","pid":`...)
	b = strconv.AppendInt(b, int64(t), 10)
	b = append(b, `,"args":{"sort_index":`...)
	b = strconv.AppendInt(b, int64(t), 10)
	b = append(b, "}}"...)
	p.close(b)
}

// thread names lane l of worm pw.
func (p *Perfetto) thread(pw *pworm, w *flit.Worm, l int) {
	b := p.open()
	b = append(b, `{"name":"thread_name","ph":"M","pid":`...)
	b = strconv.AppendInt(b, int64(pw.src), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendUint(b, tid(pw, l), 10)
	b = append(b, `,"args":{"name":"worm `...)
	b = strconv.AppendUint(b, pw.serial, 10)
	b = append(b, ": "...)
	b = strconv.AppendInt(b, int64(w.Src), 10)
	b = append(b, "→"...)
	if w.Dests > 1 {
		b = strconv.AppendInt(b, int64(w.Dests), 10)
		b = append(b, " destinations"...)
	} else {
		b = strconv.AppendInt(b, int64(w.Dst), 10)
	}
	if l > 0 {
		b = append(b, " (lane "...)
		b = strconv.AppendInt(b, int64(l), 10)
		b = append(b, ')')
	}
	b = append(b, `"}}`...)
	p.close(b)
}

// where appends an event's pid, tid, ts and (if ≥ 0) dur.
func (p *Perfetto) where(b []byte, pw *pworm, lane int, ts, dur int64) []byte {
	b = append(b, `,"pid":`...)
	b = strconv.AppendInt(b, int64(pw.src), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendUint(b, tid(pw, lane), 10)
	b = append(b, `,"ts":`...)
	b = strconv.AppendInt(b, ts, 10)
	if dur >= 0 {
		b = append(b, `,"dur":`...)
		b = strconv.AppendInt(b, dur, 10)
	}
	return b
}

// Close ends the spans still open at the end of the run (args.open true),
// writes the worms still in flight and ends the JSON document.
func (p *Perfetto) Close() error {
	end := p.k.Now()
	p.k.FollowDeferred(p.Follows, func(wi int32) { p.worm(wi) })
	for b := int32(0); b < p.nb; b++ {
		for i := range p.heads[b] {
			p.leave(b, &p.heads[b][i], end, true)
		}
		p.heads[b] = nil
	}
	for wi, pw := range p.worms {
		if pw != nil && p.k.Pool.Worms[wi].ID == pw.serial {
			p.finish(pw, &p.k.Pool.Worms[wi], end, true)
		}
	}
	p.worms = nil
	p.bw.WriteString("\n]}\n")
	return p.bw.Flush()
}
