package traffic

import (
	"math"
	"slices"
	"strings"
	"testing"
)

type mcRecorder struct {
	n, flits int
	bad      string
	cluster  int
}

func (r *mcRecorder) Emit(src, dst, flits int) { r.bad = "unicast" }
func (r *mcRecorder) EmitMulticast(src int, dsts []int, flits int) {
	r.n++
	r.flits += flits * len(dsts)
	base := src - src%r.cluster
	var want []int
	for d := base; d < base+r.cluster; d++ {
		if d != src {
			want = append(want, d)
		}
	}
	if !slices.Equal(dsts, want) {
		r.bad = "wrong destinations"
	}
}

// Each node multicasts to the rest of its aligned cluster, at a rate that
// makes traffic.load the system load (flits per node per cycle × the
// destinations).
func TestClusterMulticast(t *testing.T) {
	for _, c := range []struct {
		cluster, size int
		load          float64
	}{{16, 16, 0.9}, {4, 4, 0.3}, {0, 64, 0.5}, {2, 2, 0.1}} {
		g, err := NewClusterMulticast(64, c.cluster, c.load, Length{32, 96}, newRng(3))
		if err != nil {
			t.Fatal(err)
		}
		r := &mcRecorder{cluster: c.size}
		const cycles = 400000
		for now := int64(0); now < cycles; {
			g.Generate(now, r)
			now = max(now+1, g.NextAt(now+1))
		}
		if r.bad != "" {
			t.Fatalf("cluster %d: %s", c.cluster, r.bad)
		}
		load := float64(r.flits) / 64 / cycles
		if math.Abs(load-c.load) > 0.05*c.load {
			t.Errorf("cluster %d: system load %.4f, want %.2f", c.cluster, load, c.load)
		}
	}
}

func TestClusterMulticastErrors(t *testing.T) {
	for _, cl := range []int{1, 3, 128, -4} {
		_, err := NewClusterMulticast(64, cl, 0.5, Length{4, 4}, newRng(1))
		if err == nil || !strings.HasPrefix(err.Error(), "traffic.cluster: ") {
			t.Errorf("cluster %d: %v", cl, err)
		}
	}
	if !IsMulticastPattern("Cluster-Multicast") || IsMulticastPattern("uniform") {
		t.Error("IsMulticastPattern")
	}
}
