package kernel_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network"
)

// TestLanePanicRaisedOnKernelGoroutine: a panic in the second lane's
// helper goroutine is raised again on the goroutine that runs the kernel,
// where the command's recovery (exit 70) or a batch's (network.InternalError)
// catches it, instead of ending the program with Go's status 2. It is
// injected at the first phase of each kind the helper runs (in a phase
// where lane 0 waits for a step of lane 1, too), and the kernel neither
// hangs nor goes on: the next cycle raises it again.
func TestLanePanicRaisedOnKernelGoroutine(t *testing.T) {
	defer kernel.InjectLanePanic(nil)
	c := benchConfig(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, 0.3)
	c.Run.Workers = 2
	seen := map[int32]bool{}
	kernel.InjectLanePanic(func(p int32) { seen[p] = true })
	n := mustBuild(t, c)
	for range 50 {
		n.Cycle()
	}
	kernel.InjectLanePanic(nil)
	if len(seen) == 0 {
		t.Fatal("the helper ran no phase: the network did not use two lanes")
	}
	t.Logf("phases run by the helper: %v", seen)
	for p := range seen {
		msg := fmt.Sprintf("injected in phase %d", p)
		kernel.InjectLanePanic(func(q int32) {
			if q == p {
				panic(msg)
			}
		})
		n := mustBuild(t, c)
		for i := range 2 {
			got := make(chan any, 1)
			go func() {
				defer func() { got <- recover() }()
				for range 50 {
					n.Cycle()
				}
			}()
			select {
			case v := <-got:
				err, ok := v.(error)
				if !ok || !strings.Contains(err.Error(), "kernel lane 1: "+msg) {
					t.Fatalf("phase %d, cycle call %d: recovered %v, want the helper's panic", p, i, v)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("phase %d: the kernel waits forever for a helper that panicked", p)
			}
		}
	}
}
