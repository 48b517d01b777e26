package main

import (
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

// TestNoIntervalShown: ring_deadlock.yaml deadlocks in the first of its 20
// batches, so its latencies have no confidence interval: the table says
// "± n/a" and why (never "± 0"), the JSON has ci95 null and ci95_note, the
// CSV an empty ci95 cell and the note.
func TestNoIntervalShown(t *testing.T) {
	const f = "../../configs/ring_deadlock.yaml"
	code, out, _ := runMain(t, "run", "-c", f)
	if got := tableValue(out, "latency mean ± 95 % CI"); code != exitDeadlock || strings.Contains(out, "± 0 ") ||
		got != "24.7273 ± n/a cycles (1 of 20 batches measured, at least 10 needed)" {
		t.Errorf("table: exit %d\n%s", code, out)
	}
	_, out, _ = runMain(t, "run", "-c", f, "--format", "json")
	var r struct {
		Latency map[string]any `json:"latency"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if ci, ok := r.Latency["ci95"]; !ok || ci != nil || r.Latency["ci95_note"] != "1 of 20 batches measured, at least 10 needed" {
		t.Errorf("JSON latency %v", r.Latency)
	}
	_, out, _ = runMain(t, "run", "-c", f, "--format", "csv")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("CSV: %v\n%s", err, out)
	}
	i, j := slices.Index(rows[0], "latency.ci95"), slices.Index(rows[0], "latency.ci95_note")
	if i < 0 || j < 0 || rows[1][i] != "" || rows[1][j] != "1 of 20 batches measured, at least 10 needed" {
		t.Errorf("CSV columns %d, %d of %q / %q", i, j, rows[0], rows[1])
	}
}

// TestDropsInStatus: a batch whose full queues drop packets (queue.full:
// drop) is ok (exit 0), and its status line, its warnings and the JSON say
// how many were dropped.
func TestDropsInStatus(t *testing.T) {
	args := []string{"run", "--set", "topology.kind=hypercube", "--set", "topology.d=4", "--set", "switching=packet",
		"--set", "routing=random-order", "--set", "valiant=separate", "--set", "traffic.flits=1", "--set", "traffic.mode=batch",
		"--set", "traffic.pattern=random-permutation", "--set", "traffic.h=4", "--set", "queue.full=drop", "--set", "buffers.output=1"}
	code, out, errOut := runMain(t, slices.Concat(args, []string{"--format", "json"})...)
	var r struct {
		Status   string   `json:"status"`
		Dropped  *int64   `json:"dropped"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if code != exitOK || r.Status != "ok" || r.Dropped == nil || *r.Dropped == 0 || len(r.Warnings) != 1 ||
		!strings.HasPrefix(r.Warnings[0], "packets dropped: ") || errOut != "flitsim: warning: "+r.Warnings[0]+"\n" {
		t.Fatalf("exit %d, status %s, dropped %v, warnings %q, stderr %q", code, r.Status, r.Dropped, r.Warnings, errOut)
	}
	code, out, _ = runMain(t, args...)
	note := strings.TrimSuffix(r.Warnings[0], ": the latencies and the throughput count only the packets delivered")
	if got := tableValue(out, "status"); code != exitOK || got != "ok; "+note {
		t.Errorf("table: exit %d, status %q, want %q", code, got, "ok; "+note)
	}
	if got := tableValue(out, "warning"); got != r.Warnings[0] {
		t.Errorf("table: warning %q, want %q", got, r.Warnings[0])
	}
}

// tableValue is the value of the table row labelled label, its wrapped
// lines joined by spaces ("" if there is no such row).
func tableValue(table, label string) string {
	var parts []string
	in := false
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "│")
		if len(cells) != 4 {
			in = false
			continue
		}
		name, value := strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2])
		switch {
		case name == label:
			in, parts = true, []string{value}
		case in && name == "":
			parts = append(parts, value)
		default:
			in = false
		}
	}
	return strings.Join(parts, " ")
}

// TestSaturatedWithoutInterval: a run called saturated (by run.max_backlog)
// before enough batches ran for the shortfall's interval gives the
// shortfall and says there is no interval, rather than leaving it out.
func TestSaturatedWithoutInterval(t *testing.T) {
	r := fakeResult(network.Default())
	r.Deadlock = nil
	r.Offered, r.Throughput, r.ShortfallCI95 = 0.4, 0.31, -1
	r.BacklogStop = &network.BacklogStop{Cycle: 900, Packets: 3300, Limit: 3200}
	network.Judge(r)
	want := "saturated: accepted 0.31 of 0.4 flits/node/cycle offered (short by 0.09; no confidence interval: fewer than 10 batches ran)"
	if s := statusText(r); r.Status != network.StatusSaturated || !strings.HasPrefix(s, want) {
		t.Errorf("status %s, text %q, want it to begin %q", r.Status, s, want)
	}
}
