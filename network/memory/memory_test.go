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
