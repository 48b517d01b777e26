package trace

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network"
)

// slottedRun is a small slotted-router run on the d-cube, measured over
// slots [20, 120).
func slottedRun(d int, scheme, k string, p0 float64) network.Config {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "hypercube", D: d}
	if s, ok := strings.CutPrefix(scheme, "butterfly-"); ok {
		c.Topology.Kind, scheme = "folded-butterfly", s
	}
	c.Switching = "slotted"
	c.Slotted = network.SlottedConfig{Scheme: scheme, K: k}
	c.Traffic.P0 = p0
	c.Run.Warmup, c.Run.Measure, c.Run.Seed = 20, 100, 7
	return c
}

// slotRow is one row of the slotted event log.
type slotRow struct {
	cycle                   int64
	event, node, link, dest string
	packet                  uint32
	hops, queue, age, defl  int64
	cause                   string
}

func readSlotLog(t *testing.T, data []byte) []slotRow {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != strings.Join(SlottedEventColumns, ",") {
		t.Fatalf("header %v", recs[0])
	}
	num := func(s string) int64 {
		if s == "" {
			return -1
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("bad number %q", s)
		}
		return v
	}
	var rows []slotRow
	for _, r := range recs[1:] {
		rows = append(rows, slotRow{cycle: num(r[0]), event: r[1], packet: uint32(num(r[2])), node: r[3], link: r[4],
			dest: r[5], hops: num(r[6]), queue: num(r[7]), cause: r[8], age: num(r[9]), defl: num(r[10])})
	}
	return rows
}

// runSlotTraced runs c with the writers mk makes (on its kernel) and
// returns the kernel, the result and what each wrote.
func runSlotTraced(t *testing.T, c network.Config, mk ...func(*bytes.Buffer, *kernel.Kernel) (Writer, error)) (*kernel.Kernel, *network.Result, []*bytes.Buffer) {
	t.Helper()
	n, err := network.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	k := kernel.Of(n)
	var ws Multi
	var bufs []*bytes.Buffer
	for _, m := range mk {
		b := &bytes.Buffer{}
		w, err := m(b, k)
		if err != nil {
			t.Fatal(err)
		}
		ws, bufs = append(ws, w), append(bufs, b)
	}
	n.SetTracer(ws)
	res, err := n.RunPlain()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if err := w.(Writer).Close(); err != nil {
			t.Fatal(err)
		}
	}
	return k, res, bufs
}

func slotEvents(o Options) func(*bytes.Buffer, *kernel.Kernel) (Writer, error) {
	return func(b *bytes.Buffer, k *kernel.Kernel) (Writer, error) { return NewSlottedEvents(b, k, CSV, o) }
}

// TestSlottedEventLogMatchesCounters replays the event log of small runs
// of every scheme against the run's own counters: entries, deliveries,
// drops by cause, link-slots and deflections, over the whole run and over
// the measured window; and follows every packet along its path.
func TestSlottedEventLogMatchesCounters(t *testing.T) {
	for _, v := range []struct{ scheme, k string }{
		{"simple", "0"}, {"priority", "1"}, {"simple", "inf"}, {"deflection-priority", "0"}, {"deflection-simple", "0"},
		{"butterfly-simple", "1"},
	} {
		t.Run(v.scheme+"-k"+v.k, func(t *testing.T) {
			d := 3
			k, res, out := runSlotTraced(t, slottedRun(d, v.scheme, v.k, 0.4), slotEvents(Options{}))
			c := k.SlottedCounts()
			rows := readSlotLog(t, out[0].Bytes())
			all, win := map[string]int64{}, map[string]int64{}
			defl := map[int64]int64{} // deflections → packets delivered in the window
			for _, r := range rows {
				key := r.event
				if r.event == "dropped" {
					key += ":" + r.cause
				}
				all[key]++
				if r.cycle >= 20 && r.cycle < 120 {
					win[key]++
					if r.event == "delivered" && strings.HasPrefix(v.scheme, "deflection") {
						defl[r.defl]++
					}
				}
			}
			dropped := all["dropped:conflict"] + all["dropped:buffer_full"]
			if all["entered"] != c.TotalInjected || all["delivered"] != c.TotalDelivered || dropped != c.TotalDropped {
				t.Fatalf("log %v; counters entered %d delivered %d dropped %d", all, c.TotalInjected, c.TotalDelivered, c.TotalDropped)
			}
			if all["entered"]-all["delivered"]-dropped != c.InFlight {
				t.Errorf("in flight %d, log says %d", c.InFlight, all["entered"]-all["delivered"]-dropped)
			}
			if all["crossed"] != k.SlottedHops() || all["crossed"] == 0 {
				t.Errorf("crossed %d, hops %d", all["crossed"], k.SlottedHops())
			}
			if win["entered"] != c.Injected || win["delivered"] != c.Delivered {
				t.Errorf("window: %v; counters entered %d delivered %d", win, c.Injected, c.Delivered)
			}
			for i, name := range kernel.DropCauseNames {
				if win["dropped:"+name] != c.Dropped[i] || all["dropped:"+name] != res.DroppedByCause[name] {
					t.Errorf("dropped %s: window %d vs %d, run %d vs JSON %d", name, win["dropped:"+name], c.Dropped[i],
						all["dropped:"+name], res.DroppedByCause[name])
				}
			}
			if res.Deflections != nil {
				checkDeflections(t, res.Deflections, defl, all["deflected"])
			}
			replayPackets(t, k, rows, d)
		})
	}
}

// checkDeflections compares the JSON's histogram with the log's.
func checkDeflections(t *testing.T, st *network.DeflectionStats, log map[int64]int64, total int64) {
	t.Helper()
	var n int64
	for _, h := range st.Histogram {
		n += h.Packets
		if log[h.Deflections] != h.Packets {
			t.Errorf("%d deflections: JSON %d packets, log %d", h.Deflections, h.Packets, log[h.Deflections])
		}
	}
	if n == 0 || total == 0 {
		t.Errorf("no deflections to compare (%d packets, %d deflected rows)", n, total)
	}
}

// replayPackets follows each packet through the log: it enters once, then
// crosses links one slot at a time (waiting in between only after a
// "waited" row and until its "sent" row), each link leading where the next
// starts, and leaves once, delivered at its destination after its d-th
// link (descending node) with age = slots since entry, or dropped.
func replayPackets(t *testing.T, k *kernel.Kernel, rows []slotRow, d int) {
	t.Helper()
	_, defl, _, _, _ := k.SlottedShape()
	type life struct {
		entered, last int64 // slots: entry, last crossing
		at            string
		hops, defl    int64
		waiting, done bool
	}
	ps := map[uint32]*life{}
	for _, r := range rows {
		p := ps[r.packet]
		if r.event == "entered" {
			if p != nil {
				t.Fatalf("packet %d enters twice", r.packet)
			}
			ps[r.packet] = &life{entered: r.cycle, last: r.cycle, at: r.node}
			continue
		}
		if p == nil || p.done {
			t.Fatalf("%+v: packet not in the network", r)
		}
		switch r.event {
		case "crossed":
			p.hops++
			if p.waiting || r.cycle != p.last+1 || r.node != p.at {
				t.Fatalf("%+v: after %+v", r, *p)
			}
			if !defl && r.hops != p.hops {
				t.Fatalf("%+v: hop %d", r, p.hops)
			}
			p.last, p.at = r.cycle, linkEnd(r.node, r.link)
		case "waited":
			p.waiting = true
		case "sent":
			if !p.waiting {
				t.Fatalf("%+v: sent without waiting", r)
			}
			p.waiting, p.last = false, r.cycle
		case "deflected":
			p.defl++
			if r.defl != p.defl {
				t.Fatalf("%+v: deflection %d", r, p.defl)
			}
		case "delivered":
			p.done = true
			if r.node != r.dest || r.cycle != p.last || r.age != r.cycle-p.entered || !defl && p.hops != int64(d) ||
				defl && r.defl != p.defl {
				t.Fatalf("%+v: after %+v", r, *p)
			}
		case "dropped":
			p.done = true
		default:
			t.Fatalf("unexpected event %q", r.event)
		}
	}
}

// linkEnd is the node a link's packet reaches: on the hypercube (nodes
// n5) the forward link of dimension i (out_dI) leads to node ⊕ 2^i, the
// internal one stays; on the folded butterfly (rows r01) the cross link
// of stage i (sI_….out_cross) leads to row ⊕ 2^i, the straight one stays.
func linkEnd(node, link string) string {
	if r, ok := strings.CutPrefix(node, "r"); ok {
		if !strings.HasSuffix(link, ".out_cross") {
			return node
		}
		row, _ := strconv.ParseInt(r, 2, 64)
		stage, _ := strconv.Atoi(link[1:strings.Index(link, "_")])
		b := strconv.FormatInt(row^1<<stage|1<<len(r), 2)
		return "r" + b[1:]
	}
	i := strings.LastIndex(link, ".out_d")
	if i < 0 {
		return node
	}
	dim, _ := strconv.Atoi(link[i+len(".out_d"):])
	n, _ := strconv.Atoi(strings.TrimPrefix(node, "n"))
	return "n" + strconv.Itoa(n^1<<dim)
}

// TestSlottedWindowAndOnly: a window and a node selection keep exactly the
// rows of the full log in the window at the selected nodes (the switch n1,
// and node 5 by its terminal t5).
func TestSlottedWindowAndOnly(t *testing.T) {
	c := slottedRun(3, "priority", "1", 0.5)
	o := Options{Window: Window{From: 30, To: 60}, Only: "n1,t5"}
	_, _, out := runSlotTraced(t, c, slotEvents(Options{}), slotEvents(o))
	full, part := strings.Split(out[0].String(), "\n"), strings.Split(out[1].String(), "\n")
	var want []string
	for _, line := range full[1:] {
		f := strings.Split(line, ",")
		if len(f) < 4 {
			continue
		}
		cyc, _ := strconv.ParseInt(f[0], 10, 64)
		if cyc >= 30 && cyc < 60 && (f[3] == "n1" || f[3] == "n5") {
			want = append(want, line)
		}
	}
	got := part[1 : len(part)-1]
	if len(want) < 50 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("windowed log has %d rows, the full log's window %d", len(got), len(want))
	}
}

// TestSlottedVCDMatchesLog: every link-slot of the event log is a valid
// slot of its link in the VCD showing the packet and its hops, every other
// link-slot is idle; each buffer's waiting signal is the queue length of
// the log's last waited/sent row; the node counters count the log's rows.
func TestSlottedVCDMatchesLog(t *testing.T) {
	for _, v := range []struct{ scheme, k string }{{"simple", "2"}, {"deflection-simple", "0"}, {"butterfly-simple", "1"}} {
		t.Run(v.scheme, func(t *testing.T) {
			vcd := func(b *bytes.Buffer, k *kernel.Kernel) (Writer, error) { return NewSlottedVCD(b, k, Options{}) }
			k, _, out := runSlotTraced(t, slottedRun(3, v.scheme, v.k, 0.4), slotEvents(Options{}), vcd)
			rows, f := readSlotLog(t, out[0].Bytes()), readVCD(t, out[1].Bytes())
			// A link's scope is below its node's: n5/out_d2, r01/s1_01_out_cross.
			path := func(node, link, sig string) string {
				leaf := strings.ReplaceAll(strings.TrimPrefix(link, node+"."), ".", "_")
				return "network/" + node + "/" + leaf + "/" + sig
			}
			counts := map[string]int64{}
			queue := map[string]int64{}
			var crossed int64
			for _, r := range rows {
				switch r.event {
				case "crossed":
					crossed++
					if f.at(path(r.node, r.link, "valid"), r.cycle) != "1" || f.at(path(r.node, r.link, "packet"), r.cycle) != bin(uint64(r.packet)) {
						t.Fatalf("%+v: VCD shows %s %s", r, f.at(path(r.node, r.link, "valid"), r.cycle), f.at(path(r.node, r.link, "packet"), r.cycle))
					}
				case "waited", "sent":
					queue[r.link] = r.queue
					if got := f.at(path(r.node, r.link, "waiting"), r.cycle); got != bin(uint64(r.queue)) {
						t.Fatalf("%+v: VCD waiting %s", r, got)
					}
				}
				counts["network/"+r.node+"/"+r.event+"@"+strconv.FormatInt(r.cycle, 10)]++
			}
			marker := map[bool]string{false: "dropped", true: "deflected"}[strings.HasPrefix(v.scheme, "deflection")]
			for _, sig := range []string{"entered", "delivered", marker} {
				if _, ok := f.vars["network/"+rows[0].node+"/"+sig]; !ok {
					t.Fatalf("node n0 has no %s counter", sig)
				}
			}
			var valid int64
			for p := range f.vars {
				if strings.HasSuffix(p, "/valid") {
					valid += f.count(p)
				}
			}
			if valid != crossed || crossed == 0 {
				t.Errorf("VCD has %d valid link-slots, the log %d crossings", valid, crossed)
			}
			for key, n := range counts {
				p, at, _ := strings.Cut(key, "@")
				cyc, _ := strconv.ParseInt(at, 10, 64)
				if _, ok := f.vars[p]; ok && f.at(p, cyc) != bin(uint64(n)) {
					t.Fatalf("%s at %d: VCD %s, log %d", p, cyc, f.at(p, cyc), n)
				}
			}
			if f.end != k.Now() {
				t.Errorf("VCD ends at %d, the run at %d", f.end, k.Now())
			}
		})
	}
}

// TestSlottedTimelineMatchesLog: on link tracks a span per link-slot and a
// drop instant per drop; on worm tracks each packet's thread holds its
// link-slots and its waits; on router tracks a span per completed wait.
func TestSlottedTimelineMatchesLog(t *testing.T) {
	c := slottedRun(3, "simple", "1", 0.5)
	tl := func(m TrackMode) func(*bytes.Buffer, *kernel.Kernel) (Writer, error) {
		return func(b *bytes.Buffer, k *kernel.Kernel) (Writer, error) { return NewSlottedTimeline(b, k, m, Options{}) }
	}
	_, _, out := runSlotTraced(t, c, slotEvents(Options{}), tl(TracksWorm), tl(TracksLink), tl(TracksRouter))
	rows := readSlotLog(t, out[0].Bytes())
	var crossed, dropped, sent, waitSlots int64
	perPacket := map[uint32]int64{}
	waitFrom := map[uint32]int64{}
	for _, r := range rows {
		switch r.event {
		case "crossed":
			crossed++
			perPacket[r.packet]++
		case "dropped":
			dropped++
		case "waited":
			waitFrom[r.packet] = r.cycle + 1
		case "sent":
			sent++
			waitSlots += r.cycle + 1 - waitFrom[r.packet]
		}
	}
	if dropped == 0 || sent == 0 {
		t.Fatalf("a run without drops (%d) or waits (%d) checks little", dropped, sent)
	}
	worm, link, router := readTimeline(t, out[1].Bytes()), readTimeline(t, out[2].Bytes()), readTimeline(t, out[3].Bytes())
	var linkSpans, routerSpans, wormWait int64
	for _, evs := range link {
		for _, e := range evs {
			linkSpans += b2i(strings.HasPrefix(e.Name, "packet "))
		}
	}
	for _, evs := range router {
		for _, e := range evs {
			routerSpans += b2i(e.Args["open"] == nil)
		}
	}
	var doc struct{ TraceEvents []traceEvent }
	if err := json.Unmarshal(out[2].Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var drops int64
	for _, e := range doc.TraceEvents {
		drops += b2i(e.Ph == "i" && strings.HasPrefix(e.Name, "dropped: buffer_full (packet "))
	}
	for tr, evs := range worm {
		var hops int64
		for _, e := range evs {
			if strings.HasPrefix(e.Name, "waiting at ") {
				wormWait += *e.Dur * b2i(e.Args["open"] == nil)
			} else {
				hops++
			}
		}
		if hops != perPacket[uint32(tr.tid)] {
			t.Fatalf("packet %d: %d link spans, %d crossings", tr.tid, hops, perPacket[uint32(tr.tid)])
		}
	}
	if linkSpans != crossed || drops != dropped || routerSpans != sent || wormWait != waitSlots {
		t.Errorf("link spans %d (crossed %d), drops %d (%d), router spans %d (sent %d), waits %d slots (%d)",
			linkSpans, crossed, drops, dropped, routerSpans, sent, wormWait, waitSlots)
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// TestSlottedTracingChangesNothing: a traced run measures what an untraced
// one does (the model's events draw nothing from the run's random source).
func TestSlottedTracingChangesNothing(t *testing.T) {
	c := slottedRun(3, "priority", "1", 0.5)
	n, err := network.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.RunPlain(); err != nil {
		t.Fatal(err)
	}
	vcd := func(b *bytes.Buffer, k *kernel.Kernel) (Writer, error) { return NewSlottedVCD(b, k, Options{}) }
	k, _, _ := runSlotTraced(t, c, slotEvents(Options{}), vcd)
	if a, b := kernel.Of(n).SlottedCounts(), k.SlottedCounts(); !reflect.DeepEqual(a, b) {
		t.Fatalf("untraced %+v\ntraced %+v", a, b)
	}
}

// TestSlottedVCDWindowAndOnly: a windowed, selected VCD declares only the
// selected node, starts at the window with every value and ends with it;
// a window after the run's end gives the initial values only.
func TestSlottedVCDWindowAndOnly(t *testing.T) {
	c := slottedRun(3, "simple", "1", 0.5)
	for _, w := range []Window{{From: 30, To: 60}, {From: 1 << 20}} {
		vcd := func(b *bytes.Buffer, k *kernel.Kernel) (Writer, error) {
			return NewSlottedVCD(b, k, Options{Window: w, Only: "n1"})
		}
		k, _, out := runSlotTraced(t, c, vcd)
		f := readVCD(t, out[0].Bytes())
		for p := range f.scopes {
			if p != "network" && !strings.HasPrefix(p, "network/n1") {
				t.Fatalf("scope %s outside --trace-only n1", p)
			}
		}
		end := min(w.end(), k.Now())
		if w.From > k.Now() {
			end = w.From
		}
		cs := f.changes["network/n1/out_d0/valid"]
		if len(cs) == 0 || cs[0].t != w.From || f.end != end {
			t.Errorf("window %v: changes %v, ends %d (want %d)", w, cs, f.end, end)
		}
	}
}

// TestSlottedCSREventLog: under CSR the log's entries, deliveries, drops
// by cause and link-slots reconcile with the run's counters, and its
// reserved, ghost and nacked rows in the window are the JSON's
// reservations; every delivered packet crossed d links, one a slot, from
// the slot it entered, after d reserved rows.
func TestSlottedCSREventLog(t *testing.T) {
	for _, fresh := range []bool{false, true} {
		c := slottedRun(3, "csr", "0", 0.5)
		c.CSR.Fresh = fresh
		k, res, out := runSlotTraced(t, c, slotEvents(Options{}))
		cn := k.SlottedCounts()
		all, win := map[string]int64{}, map[string]int64{}
		per := map[uint32][]slotRow{}
		for _, r := range readSlotLog(t, out[0].Bytes()) {
			all[r.event+":"+r.cause]++
			if r.cycle >= 20 && r.cycle < 120 {
				win[r.event]++
			}
			if r.packet != 0 {
				per[r.packet] = append(per[r.packet], r)
			}
		}
		var dropped int64
		for i, name := range kernel.DropCauseNames {
			dropped += all["dropped:"+name]
			if all["dropped:"+name] != cn.DroppedAll[i] {
				t.Errorf("fresh %v: dropped %s: log %d, run %d", fresh, name, all["dropped:"+name], cn.DroppedAll[i])
			}
		}
		rv := res.Reservations
		if all["entered:"] != cn.TotalInjected || all["delivered:"] != cn.TotalDelivered || all["crossed:"] != k.SlottedHops() ||
			dropped != cn.TotalDropped || rv == nil || win["reserved"] != rv.Confirmed || win["ghost"] != rv.Ghost ||
			win["nacked"] != rv.Nacks || rv.Nacks == 0 || rv.Ghost == 0 {
			t.Fatalf("fresh %v: log %v, window %v; counters %+v, reservations %+v", fresh, all, win, cn, rv)
		}
		followed := 0
		for p, rows := range per {
			if rows[len(rows)-1].event != "delivered" {
				continue
			}
			followed++
			var kinds []string
			for _, r := range rows {
				kinds = append(kinds, r.event)
			}
			want := "entered reserved reserved reserved crossed crossed crossed delivered"
			if strings.Join(kinds, " ") != want || rows[4].cycle != rows[0].cycle || rows[6].cycle != rows[0].cycle+2 {
				t.Fatalf("packet %d: %v", p, rows)
			}
		}
		if followed == 0 {
			t.Fatal("no delivered packet to follow")
		}
	}
}
