package trace

import (
	"bytes"
	"encoding/json"
	"github.com/flitsim/flitsim/internal/kernel"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
)

type traceEvent struct {
	Name string         `json:"name"`
	Ph   string         `json:"ph"`
	Pid  int64          `json:"pid"`
	Tid  uint64         `json:"tid"`
	Ts   int64          `json:"ts"`
	Dur  *int64         `json:"dur"`
	S    string         `json:"s"`
	Args map[string]any `json:"args"`
}

type track struct{ pid, tid int64 }

func isHop(name string) bool {
	return !strings.HasPrefix(name, "worm ") && !strings.HasPrefix(name, "blocked: ")
}

// readTimeline parses a timeline and checks it: complete events have
// non-negative durations and nest properly on each thread, hop spans on a
// thread do not overlap, blocked spans lie inside a hop span, and every
// thread and process is named.
func readTimeline(t *testing.T, data []byte) map[track][]traceEvent {
	t.Helper()
	var doc struct {
		TraceEvents []traceEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("timeline does not parse: %v", err)
	}
	if len(doc.TraceEvents) == 0 {
		t.Fatal("no trace events")
	}
	tracks := map[track][]traceEvent{}
	threadNamed := map[track]bool{}
	procNamed := map[int64]bool{}
	for _, e := range doc.TraceEvents {
		tr := track{e.Pid, int64(e.Tid)}
		switch e.Ph {
		case "M":
			switch e.Name {
			case "thread_name":
				threadNamed[tr] = true
			case "process_name":
				procNamed[e.Pid] = true
			}
		case "X":
			if e.Dur == nil || *e.Dur < 0 {
				t.Fatalf("span %+v has no or a negative duration", e)
			}
			tracks[tr] = append(tracks[tr], e)
		case "i":
			if e.S != "t" {
				t.Fatalf("instant %+v not thread-scoped", e)
			}
		default:
			t.Fatalf("unexpected phase %q", e.Ph)
		}
	}
	for tr, es := range tracks {
		if !threadNamed[tr] || !procNamed[tr.pid] {
			t.Fatalf("track %v not named", tr)
		}
		sort.SliceStable(es, func(a, b int) bool {
			if es[a].Ts != es[b].Ts {
				return es[a].Ts < es[b].Ts
			}
			return *es[a].Dur > *es[b].Dur
		})
		var stack []traceEvent
		var lastHopEnd int64 = -1 << 62
		for _, e := range es {
			end := e.Ts + *e.Dur
			for len(stack) > 0 && stack[len(stack)-1].Ts+*stack[len(stack)-1].Dur <= e.Ts {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 && end > stack[len(stack)-1].Ts+*stack[len(stack)-1].Dur {
				t.Fatalf("track %v: %q [%d,%d) overlaps %q without nesting", tr, e.Name, e.Ts, end, stack[len(stack)-1].Name)
			}
			switch {
			case strings.HasPrefix(e.Name, "blocked: "):
				if len(stack) == 0 || !isHop(stack[len(stack)-1].Name) {
					t.Fatalf("track %v: %q at %d not inside a hop", tr, e.Name, e.Ts)
				}
			case isHop(e.Name):
				if e.Ts < lastHopEnd {
					t.Fatalf("track %v: hop %q at %d overlaps the previous hop (ends %d)", tr, e.Name, e.Ts, lastHopEnd)
				}
				lastHopEnd = end
			}
			stack = append(stack, e)
		}
	}
	return tracks
}

// A unicast's spans tile its journey: the source queue and one hop per
// switch, from generation to delivery, inside the worm's own span.
func TestPerfettoUnicast(t *testing.T) {
	var out bytes.Buffer
	var p *Perfetto
	type info struct {
		gen, arrive int64
		hops        int32
		src         int32
	}
	got := map[uint64]info{}
	runNet(t, smallMesh(), func(n *network.Network) []network.Tracer {
		var err error
		if p, err = NewPerfetto(&out, kernel.Of(n), Options{}); err != nil {
			t.Fatal(err)
		}
		kernel.Of(n).Hooks.Delivered = func(w *flit.Worm, cycle int64) {
			got[w.ID] = info{w.GenCycle, cycle, w.Hops, w.Src}
		}
		return []network.Tracer{p}
	})
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	tracks := readTimeline(t, out.Bytes())
	inFlight := 0 // generated after the window, still in flight at the end
	for _, es := range tracks {
		if es[0].Args["open"] == true {
			inFlight++
		}
	}
	if len(tracks) != len(got)+inFlight {
		t.Fatalf("%d tracks, %d worms delivered, %d in flight", len(tracks), len(got), inFlight)
	}
	blocked := 0
	for id, w := range got {
		es := tracks[track{int64(w.src), int64(id)}]
		if len(es) == 0 {
			t.Fatalf("worm %d has no track", id)
		}
		outer := es[0]
		if outer.Name != "worm "+strconv.FormatUint(id, 10) || outer.Ts != w.gen || outer.Ts+*outer.Dur != w.arrive {
			t.Fatalf("worm %d: span %q [%d,+%d), generated %d delivered %d", id, outer.Name, outer.Ts, *outer.Dur, w.gen, w.arrive)
		}
		at := w.gen
		hops := 0
		for _, e := range es[1:] {
			if strings.HasPrefix(e.Name, "blocked: ") {
				blocked++
				continue
			}
			if e.Ts != at {
				t.Fatalf("worm %d: %q starts at %d, previous hop ended at %d", id, e.Name, e.Ts, at)
			}
			at = e.Ts + *e.Dur
			if e.Name != "source queue" {
				hops++
			}
		}
		if hops != int(w.hops) {
			t.Fatalf("worm %d: %d hop spans, %d hops", id, hops, w.hops)
		}
	}
	if blocked == 0 {
		t.Error("no blocked span at load 0.25")
	}
}

// Multicast heads in several buffers at once go on extra threads of their
// worm; a deadlock leaves open spans.
func TestPerfettoMulticastAndDeadlock(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    network.Config
	}{{"min", chiangMIN()}, {"deadlock", fig44()}} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			var p *Perfetto
			_, res := runNet(t, tc.c, func(n *network.Network) []network.Tracer {
				p, _ = NewPerfetto(&out, kernel.Of(n), Options{})
				return []network.Tracer{p}
			})
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			tracks := readTimeline(t, out.Bytes())
			lanes, open := 0, 0
			for tr, es := range tracks {
				if tr.tid >= laneBase {
					lanes++
				}
				for _, e := range es {
					if e.Args["open"] == true {
						open++
					}
				}
			}
			if lanes == 0 {
				t.Error("no multicast branch thread")
			}
			if (res.Deadlock != nil) != (open > 0) {
				t.Errorf("deadlock %v, %d open spans", res.Deadlock != nil, open)
			}
		})
	}
}

// fig44 is Chiang's Fig 4.4: two asynchronous multicast worms deadlock.
func fig44() network.Config {
	c := chiangMIN()
	c.Traffic.Packets = []string{"0,4,1,12", "2,0,2 4 6 8 10 12 14,40", "6,6,5 7 13 15,40"}
	c.Run.DeadlockCheck = 16
	return c
}

// The window clips spans; --trace-only keeps the hops at the selection.
func TestPerfettoWindowOnly(t *testing.T) {
	var out bytes.Buffer
	var p *Perfetto
	runNet(t, smallMesh(), func(n *network.Network) []network.Tracer {
		var err error
		if p, err = NewPerfetto(&out, kernel.Of(n), Options{Window: Window{From: 30, To: 90}, Only: "r(2,*)"}); err != nil {
			t.Fatal(err)
		}
		return []network.Tracer{p}
	})
	p.Close()
	tracks := readTimeline(t, out.Bytes())
	if len(tracks) == 0 {
		t.Fatal("nothing traced")
	}
	for _, es := range tracks {
		for _, e := range es {
			if e.Ts < 30 || e.Ts+*e.Dur > 90 {
				t.Fatalf("%q [%d,+%d) outside the window", e.Name, e.Ts, *e.Dur)
			}
			if isHop(e.Name) && !strings.HasPrefix(e.Name, "r_2_") {
				t.Fatalf("hop %q outside r(2,*)", e.Name)
			}
		}
	}
}
