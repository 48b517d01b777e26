package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

func readCSV(t *testing.T, p string) [][]string {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return rows
}

// TestStatisticsFlags: --per-node, --per-pair, --histogram and --routers
// write CSV files that encoding/csv reads, a row per entry of the result's
// list; the routers' blocked cycles are the cycles the event trace shows a
// switch's flit blocked (not on its link), and the VCD's per-switch
// flits_switched and blocked signals agree with them.
func TestStatisticsFlags(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	code, stdout, stderr := runMain(t, "run", "--set", "topology.kind=mesh", "--set", "topology.k=8", "--set", "topology.n=1",
		"--set", "traffic.load=0.3", "--set", "run.warmup=100", "--set", "run.measure=400", "--format", "json",
		"--per-node", p("n.csv"), "--per-pair", p("p.csv"), "--histogram", p("h.csv"), "--routers", p("r.csv"),
		"--trace-events", p("ev.csv"), "--trace-vcd", p("v.vcd"), "--trace-window", "100:500")
	if code != 0 && code != 4 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r network.Result
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file, header string
		n            int
	}{
		{"n.csv", "node,sent,received,offered,throughput,src_latency_mean,src_latency_p99,dst_latency_mean,dst_latency_p99", len(r.PerNode)},
		{"p.csv", "src,dst,packets,latency_mean", len(r.PerPair)},
		{"h.csv", "latency,count", len(r.LatencyHistogram)},
		{"r.csv", "router,flits_switched,blocked_cycles", len(r.Routers)},
	} {
		rows := readCSV(t, p(c.file))
		if c.n == 0 || len(rows) != c.n+1 || strings.Join(rows[0], ",") != c.header {
			t.Errorf("%s: %d rows, header %q; want %d rows and %q", c.file, len(rows), rows[0], c.n+1, c.header)
		}
	}
	// Blocked cycles per switch from the event trace (its layout names
	// switches r_4 where the result says r(4)).
	events := readCSV(t, p("ev.csv"))
	seen := map[string]bool{}
	fromEvents := map[string]int64{}
	for _, e := range events[1:] {
		if e[1] != "blocked" || e[9] == "link" || strings.HasSuffix(e[5], ".src") {
			continue
		}
		sw := e[5][:strings.LastIndex(e[5], ".")]
		if key := e[0] + " " + sw; !seen[key] {
			seen[key] = true
			fromEvents[sw]++
		}
	}
	flits, blocked := vcdActivity(t, p("v.vcd"), 500)
	var got, want []int64
	var routerFlits uint64
	for _, a := range r.Routers {
		got = append(got, a.BlockedCycles)
		routerFlits += a.FlitsSwitched
	}
	var vcdFlits uint64
	for sw, n := range fromEvents {
		want = append(want, n)
		if blocked[sw] != n {
			t.Errorf("%s: VCD blocked %d cycles, events %d", sw, blocked[sw], n)
		}
	}
	for _, f := range flits {
		vcdFlits += f
	}
	slices.Sort(got)
	got = slices.DeleteFunc(got, func(n int64) bool { return n == 0 })
	slices.Sort(want)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("blocked cycles per router %v, from the event trace %v", got, want)
	}
	if vcdFlits != routerFlits || routerFlits == 0 {
		t.Errorf("VCD flits_switched add up to %d, routers' flits switched to %d", vcdFlits, routerFlits)
	}
	wantFail(t, 2, []string{"run", "--histogram", p("x.csv"), "--per-node", p("x.csv")}, "--per-node", "--histogram")
}

// vcdActivity reads every switch scope's last flits_switched value and the
// cycles its blocked signal was 1, up to cycle end.
func vcdActivity(t *testing.T, path string, end int64) (flits map[string]uint64, blocked map[string]int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	flits, blocked = map[string]uint64{}, map[string]int64{}
	idF, idB := map[string]string{}, map[string]string{}
	since := map[string]int64{} // switch → cycle its blocked signal rose
	var scope []string
	var now int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		switch {
		case len(w) == 0:
		case w[0] == "$scope":
			scope = append(scope, w[2])
		case w[0] == "$upscope":
			scope = scope[:len(scope)-1]
		case w[0] == "$var" && w[4] == "flits_switched":
			idF[w[3]] = scope[len(scope)-1]
		case w[0] == "$var" && w[4] == "blocked":
			idB[w[3]] = scope[len(scope)-1]
		case w[0][0] == '#':
			now, _ = strconv.ParseInt(w[0][1:], 10, 64)
		case w[0][0] == 'b' && len(w) == 2 && idF[w[1]] != "":
			v, _ := strconv.ParseUint(w[0][1:], 2, 64)
			flits[idF[w[1]]] = v
		case len(w) == 1 && (w[0][0] == '0' || w[0][0] == '1') && idB[w[0][1:]] != "":
			sw := idB[w[0][1:]]
			if w[0][0] == '1' {
				since[sw] = now
			} else if s, ok := since[sw]; ok {
				blocked[sw] += now - s
				delete(since, sw)
			}
		}
	}
	for sw, s := range since {
		blocked[sw] += end - s
	}
	if len(idF) == 0 || len(idB) != len(idF) {
		t.Fatalf("VCD: %d flits_switched and %d blocked signals", len(idF), len(idB))
	}
	return flits, blocked
}

// TestBusiestRoutersTable: with run.router_activity the table lists the five
// routers that switched the most flits, most first; the one-row CSV has no
// column for the lists (they have files of their own), and without the key
// the table has no router rows.
func TestBusiestRoutersTable(t *testing.T) {
	args := []string{"run", "--set", "topology.k=4", "--set", "run.measure=500"}
	_, stdout, _ := runMain(t, append(args, "--set", "run.router_activity=true")...)
	var flits []int
	for _, line := range strings.Split(stdout, "\n") {
		if _, rest, ok := strings.Cut(line, "busy router r("); ok {
			_, val, _ := strings.Cut(rest, "│")
			n, err := strconv.Atoi(strings.Fields(val)[0])
			if err != nil {
				t.Fatalf("row %q: %v", line, err)
			}
			flits = append(flits, n)
		}
	}
	if len(flits) != busiestShown || !slices.IsSortedFunc(flits, func(a, b int) int { return b - a }) || flits[0] == 0 {
		t.Errorf("busy router rows: flits %v, want %d, most first\n%s", flits, busiestShown, stdout)
	}
	_, csvOut, _ := runMain(t, append(args, "--set", "run.router_activity=true", "--format", "csv")...)
	if strings.Contains(csvOut, "routers") || !strings.Contains(csvOut, "config.run.router_activity") {
		t.Errorf("--format csv header: %q", strings.SplitN(csvOut, "\n", 2)[0])
	}
	if _, plain, _ := runMain(t, args...); strings.Contains(plain, "busy router") {
		t.Errorf("router rows without run.router_activity")
	}
}
