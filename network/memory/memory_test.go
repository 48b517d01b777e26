package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

func TestMeminfoAndCgroup(t *testing.T) {
	dir := t.TempDir()
	mi := filepath.Join(dir, "meminfo")
	os.WriteFile(mi, []byte("MemFree: 1 kB\nMemTotal:       24684092 kB\nMemAvailable:   5 kB\n"), 0o644)
	if got := meminfo(mi, "MemTotal"); got != 24684092<<10 {
		t.Errorf("meminfo = %d", got)
	}
	if got := meminfo(mi, "MemAvailable"); got != 5<<10 {
		t.Errorf("MemAvailable = %d", got)
	}
	if got := meminfo(filepath.Join(dir, "none"), "MemTotal"); got != 0 {
		t.Errorf("missing meminfo = %d", got)
	}
	cg := filepath.Join(dir, "memory.max")
	os.WriteFile(cg, []byte("max\n"), 0o644)
	if got := cgroupMax(cg); got != 0 {
		t.Errorf("cgroup max = %d", got)
	}
	os.WriteFile(cg, []byte("1073741824\n"), 0o644)
	if got := cgroupMax(cg); got != 1<<30 {
		t.Errorf("cgroup 1GiB = %d", got)
	}
	if DefaultLimit() <= 0 {
		t.Error("DefaultLimit ≤ 0")
	}
}

func TestCheckMessage(t *testing.T) {
	e := &Estimate{Command: "run", Limit: 1e9}
	e.add("the program", "", Base)
	e.add("run.per_pair (x)", "turn off run.per_pair", 3e9)
	err := e.Check()
	if err == nil {
		t.Fatal("no refusal")
	}
	want := "run: estimated peak memory 3.02 GB > run.max_memory 1 GB; largest term: run.per_pair (x); turn off run.per_pair or raise run.max_memory"
	if err.Error() != want {
		t.Errorf("got  %q\nwant %q", err, want)
	}
	e.Limit = network.ByteSize(4e9)
	if err := e.Check(); err != nil {
		t.Errorf("under the limit: %v", err)
	}
	e.Limit = 0
	if err := e.Check(); err != nil && !strings.Contains(err.Error(), "80 %") {
		t.Errorf("default limit: %v", err)
	}
}

// An open-loop run's packets are the fewer of what its sources can
// generate over warm-up, window and drain and run.max_backlog per
// terminal: the 20-cube at load 0.01 for 1 000 cycles is charged for
// 2.6 M packets, not the backlog's 52 M; with the default 100 000-cycle
// drain, or a workload with a generator of its own, the backlog again.
func TestLivePacketsBound(t *testing.T) {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "hypercube", D: 20}
	c.Traffic.Load = 0.01
	c.Run.Warmup, c.Run.Measure, c.Run.Drain = 0, 1000, 0
	n := float64(1 << 20)
	backlog := float64(c.Run.MaxBacklog) * n
	live, what, _ := livePackets(&c, n)
	mean := n * 1001 * 0.01 / 4
	if live < mean || live > mean*1.01 || !strings.Contains(what, "generated") {
		t.Errorf("1 000 cycles: %g packets (%s), want just above the mean %g", live, what, mean)
	}
	c.Traffic.ReplyFlits = 4
	if got, _, _ := livePackets(&c, n); got != 2*live {
		t.Errorf("with replies: %g packets, want %g", got, 2*live)
	}
	c.Traffic.ReplyFlits = 0
	c.Run.Drain = 100000
	if got, what, _ := livePackets(&c, n); got != backlog {
		t.Errorf("default drain: %g packets (%s), want the backlog %g", got, what, backlog)
	}
	c.Run.Drain = 0
	c.Traffic.Pattern = "cluster"
	if got, what, _ := livePackets(&c, n); got != backlog {
		t.Errorf("a workload of its own: %g packets (%s), want the backlog %g", got, what, backlog)
	}
	c.Traffic.Pattern, c.Run.MaxBacklog = "uniform", 0
	if got, _, _ := livePackets(&c, n); got != live {
		t.Errorf("no backlog limit: %g packets, want %g", got, live)
	}
}
