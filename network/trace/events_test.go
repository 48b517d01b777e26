package trace

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"github.com/flitsim/flitsim/internal/kernel"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/topology"
)

// delivered is what the kernel's delivery hook says about a packet.
type delivered struct {
	src, dst    int32
	inj, arrive int64
	hops        int32
	measured    bool
	flits       int32
}

// switchOf is the switch part of a trace buffer name ("r_1_2.in_xp" →
// "r_1_2"), or "" for a source register or a terminal.
func switchOf(name string) string {
	for _, s := range []string{".in_", ".out_"} {
		if i := strings.LastIndex(name, s); i > 0 {
			return name[:i]
		}
	}
	return ""
}

// Every packet's path and timing rebuilt from the event log agree with the
// routes and with what the simulation measured; CSV and JSON lines carry the
// same events.
func TestEventLogRebuildsPaths(t *testing.T) {
	var csvOut, jsonOut bytes.Buffer
	var ec, ej *Events
	got := map[uint64]delivered{}
	n, res := runNet(t, smallMesh(), func(n *network.Network) []network.Tracer {
		var err error
		if ec, err = NewEvents(&csvOut, kernel.Of(n), CSV, Options{}); err != nil {
			t.Fatal(err)
		}
		if ej, err = NewEvents(&jsonOut, kernel.Of(n), JSONL, Options{}); err != nil {
			t.Fatal(err)
		}
		kernel.Of(n).Hooks.Delivered = func(w *flit.Worm, cycle int64) {
			got[w.ID] = delivered{src: w.Src, dst: w.Dst, inj: w.InjCycle, arrive: cycle, hops: w.Hops, measured: w.Measured, flits: w.Len}
		}
		return []network.Tracer{ec, ej}
	})
	if err := ec.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ej.Close(); err != nil {
		t.Fatal(err)
	}
	k := kernel.Of(n)
	rows, err := csv.NewReader(&csvOut).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != strings.Join(EventColumns, ",") {
		t.Fatalf("header %v", rows[0])
	}
	rows = rows[1:]
	col := map[string]int{}
	for i, c := range EventColumns {
		col[c] = i
	}

	// JSON lines: the same events, with only the filled keys.
	sc := bufio.NewScanner(&jsonOut)
	i := 0
	for ; sc.Scan(); i++ {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("json line %d: %v: %s", i+1, err, sc.Text())
		}
		if i >= len(rows) {
			t.Fatal("more JSON lines than CSV rows")
		}
		for c, v := range rows[i] {
			jv, ok := m[EventColumns[c]]
			if v == "" {
				if ok {
					t.Fatalf("line %d: empty %s present in JSON", i+1, EventColumns[c])
				}
				continue
			}
			var js string
			switch x := jv.(type) {
			case float64:
				js = strconv.FormatFloat(x, 'f', -1, 64)
			case string:
				js = x
			case bool:
				js = strconv.FormatBool(x)
			default:
				t.Fatalf("line %d: %s is %T", i+1, EventColumns[c], jv)
			}
			if js != v {
				t.Fatalf("line %d: %s CSV %q JSON %q", i+1, EventColumns[c], v, js)
			}
		}
	}
	if i != len(rows) {
		t.Fatalf("%d JSON lines, %d CSV rows", i, len(rows))
	}

	// Rebuild each worm's head path and every flit's.
	type path struct {
		buffers []string // buffers the head left, in order
		to      []string
		first   int64
		flits   map[string][]string // per seq: buffers left
		arrive  int64               // the tail's arrival at its terminal
	}
	paths := map[uint64]*path{}
	deliv := map[uint64]int64{}
	kinds := map[string]bool{"moved": true, "blocked": true, "granted": true, "delivered": true}
	last := int64(-1)
	for _, r := range rows {
		cyc, _ := strconv.ParseInt(r[col["cycle"]], 10, 64)
		if cyc < last {
			t.Fatalf("cycle %d after %d", cyc, last)
		}
		last = cyc
		if !kinds[r[col["event"]]] {
			t.Fatalf("event %q", r[col["event"]])
		}
		w, err := strconv.ParseUint(r[col["worm"]], 10, 64)
		if err != nil {
			t.Fatalf("worm %q", r[col["worm"]])
		}
		switch r[col["event"]] {
		case "moved":
			p := paths[w]
			if p == nil {
				p = &path{first: -1, flits: map[string][]string{}}
				paths[w] = p
			}
			seq := r[col["seq"]]
			p.flits[seq] = append(p.flits[seq], r[col["buffer"]])
			if k := r[col["kind"]]; (k == "tail" || k == "headtail") && !strings.Contains(r[col["to"]], ".") {
				p.arrive, _ = strconv.ParseInt(r[col["ready"]], 10, 64)
			}
			if seq == "0" {
				if p.first < 0 {
					p.first = cyc
				}
				p.buffers = append(p.buffers, r[col["buffer"]])
				p.to = append(p.to, r[col["to"]])
			}
		case "delivered":
			if r[col["complete"]] != "true" {
				t.Fatalf("unicast delivered incomplete: %v", r)
			}
			deliv[w] = cyc
		case "blocked":
			if r[col["reason"]] == "" || r[col["buffer"]] == "" {
				t.Fatalf("blocked row %v", r)
			}
		case "granted":
			if r[col["switch"]] == "" || r[col["ports"]] == "" {
				t.Fatalf("granted row %v", r)
			}
		}
	}
	if len(got) == 0 || len(got) != len(deliv) {
		t.Fatalf("%d packets delivered, %d in the log", len(got), len(deliv))
	}
	var hopSum, hopN int64
	for id, d := range got {
		p := paths[id]
		if p == nil {
			t.Fatalf("worm %d: no moves", id)
		}
		if want := "t" + strconv.Itoa(int(d.src)) + ".src"; p.buffers[0] != want {
			t.Fatalf("worm %d starts at %q, want %q", id, p.buffers[0], want)
		}
		if p.first != d.inj {
			t.Fatalf("worm %d: first move in cycle %d, injected in %d", id, p.first, d.inj)
		}
		if want := "t" + strconv.Itoa(int(d.dst)); p.to[len(p.to)-1] != want {
			t.Fatalf("worm %d ends at %q, want %q", id, p.to[len(p.to)-1], want)
		}
		if deliv[id]+int64(n.Cfg.Link.Latency) != d.arrive || p.arrive != d.arrive {
			t.Fatalf("worm %d delivered in cycle %d, tail ready %d, arrived %d", id, deliv[id], p.arrive, d.arrive)
		}
		var sws []string
		for _, b := range p.buffers[1:] {
			if s := switchOf(b); len(sws) == 0 || sws[len(sws)-1] != s {
				sws = append(sws, s)
			}
		}
		route, err := topology.Trace(k.Topo, &flit.Worm{Src: d.src, Dst: d.dst})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, h := range route {
			want = append(want, Sanitize(h.Label))
		}
		if strings.Join(sws, " ") != strings.Join(want, " ") {
			t.Fatalf("worm %d: path %v, route %v", id, sws, want)
		}
		if len(sws) != int(d.hops) {
			t.Fatalf("worm %d: %d switches, %d hops", id, len(sws), d.hops)
		}
		if len(p.flits) != int(d.flits) {
			t.Fatalf("worm %d: %d flits moved, %d in the packet", id, len(p.flits), d.flits)
		}
		for seq, bs := range p.flits {
			if strings.Join(bs, " ") != strings.Join(p.buffers, " ") {
				t.Fatalf("worm %d flit %s took %v, head %v", id, seq, bs, p.buffers)
			}
		}
		if d.measured {
			hopSum += int64(len(sws))
			hopN++
		}
	}
	if mean := float64(hopSum) / float64(hopN); math.Abs(mean-res.Hops) > 1e-9 {
		t.Errorf("mean hops from the log %v, result %v", mean, res.Hops)
	}
}

// --trace-only keeps the events at the selected switches and terminals.
func TestEventLogOnly(t *testing.T) {
	var out bytes.Buffer
	var e *Events
	runNet(t, smallMesh(), func(n *network.Network) []network.Tracer {
		var err error
		e, err = NewEvents(&out, kernel.Of(n), JSONL, Options{Only: "r(1,1)", Window: Window{From: 20, To: 60}})
		if err != nil {
			t.Fatal(err)
		}
		return []network.Tracer{e}
	})
	e.Close()
	sc := bufio.NewScanner(&out)
	rows := 0
	for sc.Scan() {
		var m struct {
			Cycle  int64
			Event  string
			Buffer string
			To     string
			Switch string
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		rows++
		if m.Cycle < 20 || m.Cycle >= 60 {
			t.Fatalf("cycle %d outside the window", m.Cycle)
		}
		if switchOf(m.Buffer) != "r_1_1" && switchOf(m.To) != "r_1_1" && m.Switch != "r_1_1" {
			t.Fatalf("event away from r(1,1): %s", sc.Text())
		}
	}
	if rows == 0 {
		t.Fatal("no events")
	}
}
