package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A batch on the packet-switched router: the 3-cube, two packets per node
// to the complement, five experiments.
var packetRun = []string{"run", "--format", "json", "--set", "switching=packet", "--set", "traffic.flits=1",
	"--set", "topology.kind=hypercube", "--set", "topology.d=3", "--set", "traffic.mode=batch", "--set", "traffic.h=2",
	"--set", "traffic.pattern=bit-complement", "--set", "run.experiments=5"}

// TestPacketRunTraced: the packet router's moves show up in every trace
// (an events row per injection and per hop, a delivery per packet, queue
// occupancy in the VCD) and tracing leaves the result unchanged.
func TestPacketRunTraced(t *testing.T) {
	code, plain, errOut := runMain(t, packetRun...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	dir := t.TempDir()
	vcd, ev, pf := filepath.Join(dir, "x.vcd"), filepath.Join(dir, "x.csv"), filepath.Join(dir, "x.json")
	code, traced, errOut := runMain(t, append(append([]string(nil), packetRun...), "--trace-vcd", vcd, "--trace-events", ev, "--trace-perfetto", pf)...)
	if code != 0 || traced != plain {
		t.Fatalf("exit %d (%s); traced result equal: %v", code, errOut, traced == plain)
	}
	var r struct {
		Delivered   int64   `json:"delivered_packets"`
		Hops        float64 `json:"hops"`
		Experiments struct {
			Count int `json:"count"`
			Total struct {
				CompletionTime struct {
					Mean float64 `json:"mean"`
				} `json:"completion_time"`
			} `json:"total"`
		} `json:"experiments"`
	}
	if err := json.Unmarshal([]byte(plain), &r); err != nil {
		t.Fatal(err)
	}
	if r.Delivered != 16 || r.Hops != 3 || r.Experiments.Count != 5 || r.Experiments.Total.CompletionTime.Mean < 4 {
		t.Fatalf("result %+v", r)
	}
	data, err := os.ReadFile(ev)
	if err != nil {
		t.Fatal(err)
	}
	moved, delivered := 0, 0
	for _, line := range strings.Split(string(data), "\n") {
		switch f := strings.Split(line, ","); {
		case len(f) > 2 && f[1] == "moved":
			moved++
		case len(f) > 2 && f[1] == "delivered":
			delivered++
		}
	}
	if moved != 16+16*3 || delivered != 16 {
		t.Fatalf("events: %d moves (want 16 injections + 48 hops), %d deliveries", moved, delivered)
	}
	for _, f := range []string{vcd, pf} {
		if b, err := os.ReadFile(f); err != nil || !strings.Contains(string(b), "n7") {
			t.Fatalf("%s: %v, %d bytes", f, err, len(b))
		}
	}
}

// TestPacketKeysListed: flitsim list shows the packet router and its keys.
func TestPacketKeysListed(t *testing.T) {
	code, out, _ := runMain(t, "list")
	for _, want := range []string{"packet", "queue.discipline", "queue.shared", "queue.arrival_order", "queue.routes", "queue.full", "traffic.mode", "traffic.h", "run.experiments"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("list lacks %q", want)
		}
	}
}

// TestPacketBadInput: one line naming the key, the value and what is
// allowed.
func TestPacketBadInput(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{"queue.discipline=lifo", "queue.discipline: lifo is not allowed (allowed: fifo, furthest-first, random"},
		{"traffic.mode=burst", "traffic.mode: burst is not allowed"},
		{"traffic.flits=4", "traffic.flits: 4 is not allowed (allowed: 1 with switching: packet"},
		{"queue.full=backpressure", "buffers.output: 0 is not allowed"},
	} {
		args := []string{"run", "--set", "switching=packet", "--set", "traffic.flits=1", "--set", c.set}
		code, _, errOut := runMain(t, args...)
		if code == 0 || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("--set %s: exit %d, %q", c.set, code, errOut)
		}
	}
}

// TestPacketKeysWarnElsewhere: the packet router's keys with another
// switching, and a batch's with open traffic, are warned about as doing
// nothing; with them in use, no warning.
func TestPacketKeysWarnElsewhere(t *testing.T) {
	_, _, errOut := runMain(t, "run", "--set", "run.measure=100", "--set", "queue.discipline=ftgfo", "--set", "run.experiments=3")
	for _, want := range []string{"queue.discipline: ignored (only switching: packet reads it)", "run.experiments: ignored (only traffic.mode: batch reads it)"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q: %s", want, errOut)
		}
	}
	if code, _, errOut := runMain(t, append(packetRun, "--set", "queue.discipline=ftgfo")...); code != 0 || strings.Contains(errOut, "warning") {
		t.Errorf("exit %d, %s", code, errOut)
	}
}
