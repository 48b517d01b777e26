package memory

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/network"
)

// fallbackPhysical is the physical memory assumed where neither
// /proc/meminfo nor a cgroup limit can be read (not Linux).
const fallbackPhysical = 8 << 30

// DefaultLimit is run.max_memory's default: 80 % of the machine's physical
// memory (MemTotal in /proc/meminfo, or the cgroup's memory.max when
// lower; 8 GiB assumed where neither can be read).
func DefaultLimit() network.ByteSize {
	return network.ByteSize(float64(physical()) * 0.8)
}

func physical() int64 {
	total := meminfo("/proc/meminfo", "MemTotal")
	if c := cgroupMax("/sys/fs/cgroup/memory.max"); c > 0 && (total == 0 || c < total) {
		total = c
	}
	if total <= 0 {
		return fallbackPhysical
	}
	return total
}

// Available is the memory the machine can give now, other programs left
// running (MemAvailable in /proc/meminfo; 0 where it cannot be read).
func Available() int64 { return meminfo("/proc/meminfo", "MemAvailable") }

// meminfo reads a field (bytes) from a /proc/meminfo file, 0 if none.
func meminfo(path, field string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// cgroupMax reads a cgroup v2 memory.max (bytes), 0 for "max" or none.
func cgroupMax(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0
	}
	return v
}
