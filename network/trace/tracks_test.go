package trace

import (
	"bytes"
	"encoding/json"
	"github.com/flitsim/flitsim/internal/kernel"
	"sort"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

// readTracks parses a router or link timeline: every span is a worm's
// ("worm S") or a blocked run inside one; a thread's worm spans do not
// overlap; every thread and process is named. It returns the spans by
// track and the process names.
func readTracks(t *testing.T, data []byte) (map[track][]traceEvent, map[int64]string) {
	t.Helper()
	var doc struct {
		OtherData   map[string]string `json:"otherData"`
		TraceEvents []traceEvent      `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("timeline does not parse: %v", err)
	}
	tracks := map[track][]traceEvent{}
	named := map[track]bool{}
	procs := map[int64]string{}
	for _, e := range doc.TraceEvents {
		tr := track{e.Pid, int64(e.Tid)}
		switch {
		case e.Ph == "M" && e.Name == "thread_name":
			named[tr] = true
		case e.Ph == "M" && e.Name == "process_name":
			procs[e.Pid] = e.Args["name"].(string)
		case e.Ph == "X":
			if e.Dur == nil || *e.Dur <= 0 {
				t.Fatalf("span %+v has no positive duration", e)
			}
			tracks[tr] = append(tracks[tr], e)
		case e.Ph != "M":
			t.Fatalf("unexpected event %+v", e)
		}
	}
	for tr, es := range tracks {
		if !named[tr] || procs[tr.pid] == "" {
			t.Fatalf("track %v not named", tr)
		}
		sort.SliceStable(es, func(a, b int) bool {
			if es[a].Ts != es[b].Ts {
				return es[a].Ts < es[b].Ts
			}
			return *es[a].Dur > *es[b].Dur
		})
		var cur *traceEvent
		for i := range es {
			e := &es[i]
			switch {
			case strings.HasPrefix(e.Name, "worm "):
				if cur != nil && e.Ts < cur.Ts+*cur.Dur {
					t.Fatalf("track %v: %q at %d overlaps %q [%d,+%d)", tr, e.Name, e.Ts, cur.Name, cur.Ts, *cur.Dur)
				}
				cur = e
			case strings.HasPrefix(e.Name, "blocked: "):
				if cur == nil || e.Ts < cur.Ts || e.Ts+*e.Dur > cur.Ts+*cur.Dur {
					t.Fatalf("track %v: %q [%d,+%d) outside its worm", tr, e.Name, e.Ts, *e.Dur)
				}
			default:
				t.Fatalf("track %v: unexpected span %q", tr, e.Name)
			}
		}
	}
	return tracks, procs
}

func runTracks(t *testing.T, mode TrackMode, o Options) (*recorder, *network.Network, []byte) {
	t.Helper()
	var out bytes.Buffer
	var w Writer
	var r *recorder
	n, _ := runNet(t, smallMesh(), func(n *network.Network) []network.Tracer {
		var err error
		if w, err = NewTimeline(&out, kernel.Of(n), mode, o); err != nil {
			t.Fatal(err)
		}
		r = newRecorder(kernel.Of(n))
		return []network.Tracer{w, r}
	})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return r, n, out.Bytes()
}

// One thread per link that carried flits; its spans carry exactly the flits
// that crossed it.
func TestTracksLink(t *testing.T) {
	r, n, data := runTracks(t, TracksLink, Options{})
	tracks, procs := readTracks(t, data)
	if len(tracks) != len(r.moves) {
		t.Fatalf("%d link tracks, %d links carried flits", len(tracks), len(r.moves))
	}
	for tr, es := range tracks {
		flits := 0.0
		for _, e := range es {
			if e.Args["open"] == true { // the run ended while it crossed
				flits += e.Args["crossed"].(float64)
			} else {
				flits += e.Args["flits"].(float64)
			}
		}
		if int(flits) != len(r.moves[int32(tr.tid)]) {
			t.Errorf("link %d: spans carry %v flits, %d crossed it", tr.tid, flits, len(r.moves[int32(tr.tid)]))
		}
	}
	if len(procs) != len(kernel.Of(n).Topo.Switches)+1 {
		t.Errorf("%d processes, want one per router and one for injection links", len(procs))
	}
}

// One thread per buffer a worm entered; blocked runs inside the worms.
func TestTracksRouter(t *testing.T) {
	r, n, data := runTracks(t, TracksRouter, Options{})
	tracks, procs := readTracks(t, data)
	entered := map[int32]bool{}
	for _, m := range r.all {
		if m.to < kernel.Of(n).Buffers() && m.seq == 0 {
			if _, _, _, src, _ := kernel.Of(n).BufferInfo(m.to); !src {
				entered[m.to] = true
			}
		}
	}
	if len(tracks) != len(entered) {
		t.Fatalf("%d buffer tracks, worms entered %d buffers", len(tracks), len(entered))
	}
	blocked := 0
	for tr, es := range tracks {
		for _, e := range es {
			if strings.HasPrefix(e.Name, "blocked: ") {
				blocked++
			} else if e.Args["open"] != true && float64(*e.Dur) < e.Args["flits"].(float64) {
				t.Errorf("track %v: %q lasts %d cycles, shorter than its %v flits", tr, e.Name, *e.Dur, e.Args["flits"])
			}
		}
	}
	if blocked == 0 {
		t.Error("no blocked span at load 0.25")
	}
	if len(procs) != len(kernel.Of(n).Topo.Switches) {
		t.Errorf("%d processes, want one per router", len(procs))
	}
	// Far fewer tracks than worms.
	_, _, wdata := runTracks(t, TracksWorm, Options{})
	if worms := len(readTimeline(t, wdata)); worms < 3*len(tracks) {
		t.Errorf("%d worm tracks, %d router tracks", worms, len(tracks))
	}
}

func TestTracksWindowOnly(t *testing.T) {
	for _, mode := range []TrackMode{TracksRouter, TracksLink} {
		_, _, data := runTracks(t, mode, Options{Window: Window{From: 30, To: 90}, Only: "r(2,*)"})
		tracks, procs := readTracks(t, data)
		if len(tracks) == 0 {
			t.Fatalf("%s: nothing traced", TrackModes[mode])
		}
		for tr, es := range tracks {
			if !strings.Contains(procs[tr.pid], "(r(2,") {
				t.Fatalf("%s: track in %q", TrackModes[mode], procs[tr.pid])
			}
			for _, e := range es {
				if e.Ts < 30 || e.Ts+*e.Dur > 90 {
					t.Fatalf("%s: %q [%d,+%d) outside the window", TrackModes[mode], e.Name, e.Ts, *e.Dur)
				}
			}
		}
	}
	if _, err := ParseTracks("port"); err == nil || !strings.Contains(err.Error(), "allowed: worm, router, link") {
		t.Errorf("ParseTracks(port): %v", err)
	}
}
