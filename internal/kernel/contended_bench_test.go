package kernel_test

import (
	"fmt"
	"os/exec"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/flitsim/flitsim/network"
)

// BenchmarkMesh8x8Contended runs the reference 8×8 mesh (load 0.3) on one
// thread, in the automatic mode (run.workers 0) and on two forced lanes
// (run.workers 2) while another process spins on the last processor, pinned
// there: the case of issue 14 item 3, where the automatic mode must stay
// within 1.25× of one thread, and of issue 24 item 6, where two forced lanes
// must stay within 1.5× (their waits block rather than spin, so a lane
// descheduled by the busy loop does not also cost the other lane its core).
// Compare the sub-benchmarks' cycles/s (medians of interleaved runs, e.g.
// -count 8); on a machine with one processor there is nothing to contend
// for, and the benchmark says so.
func BenchmarkMesh8x8Contended(b *testing.B) {
	if runtime.NumCPU() < 2 {
		b.Skip("needs two processors: one for the run, one for the busy loop")
	}
	c := benchConfig(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, 0.3)
	for _, w := range []int{1, 0, 2} {
		c.Run.Workers = w
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			stop := busyProcessor(b, runtime.NumCPU()-1)
			defer stop()
			benchCycles(b, c)
		})
	}
}

// busyProcessor starts a shell busy loop pinned to processor cpu and
// returns the function that ends it.
func busyProcessor(b *testing.B, cpu int) func() {
	cmd := exec.Command("sh", "-c", "while :; do :; done")
	if err := cmd.Start(); err != nil {
		b.Fatalf("busy loop: %v", err)
	}
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(cmd.Process.Pid, &set); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		b.Fatalf("pinning the busy loop to processor %d: %v", cpu, err)
	}
	return func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
}
