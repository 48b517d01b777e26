package network

import (
	"fmt"
	"math"

	"github.com/flitsim/flitsim/configs/inputerr"
	xbar "github.com/flitsim/flitsim/switch"
	"github.com/flitsim/flitsim/traffic"
)

// checkScalars validates the settings that need no topology.
func checkScalars(c *Config) error {
	switch {
	case c.Buffers.Input < 0 || c.Buffers.Input > 1<<16:
		return inputerr.New("buffers.input", c.Buffers.Input, "an integer from 0 to 65536")
	case c.Buffers.Output < 0 || c.Buffers.Output > 1<<16:
		return inputerr.New("buffers.output", c.Buffers.Output, "an integer from 0 to 65536")
	case c.Buffers.Input == 0 && c.Buffers.Output == 0:
		return inputerr.New("buffers", "input 0 and output 0", "at least one of buffers.input and buffers.output ≥ 1")
	case c.Link.Latency < 1 || c.Link.Latency > 1<<16:
		return inputerr.New("link.latency", c.Link.Latency, "an integer from 1 to 65536")
	case c.Switch.Delay < 0 || c.Switch.Delay > 1<<16:
		return inputerr.New("switch.delay", c.Switch.Delay, "an integer from 0 to 65536")
	case c.Traffic.Trace == "" && len(c.Traffic.Packets) == 0 && (c.Traffic.Load < 0 || c.Traffic.Load > 1 || math.IsNaN(c.Traffic.Load)):
		return inputerr.New("traffic.load", c.Traffic.Load, "a number from 0 to 1 (flits per node per cycle)")
	case c.Traffic.Flits.Min < 1 || c.Traffic.Flits.Max < c.Traffic.Flits.Min || c.Traffic.Flits.Max > 1<<20:
		return inputerr.New("traffic.flits", c.Traffic.Flits, "a length ≥ 1 like 4, or a range a-b with 1 ≤ a ≤ b")
	case c.Run.Warmup < 0 || c.Run.Warmup > traffic.MaxCycle:
		return inputerr.New("run.warmup", c.Run.Warmup, "an integer from 0 to %d", traffic.MaxCycle)
	case c.Run.Measure < 1 || c.Run.Measure > traffic.MaxCycle-c.Run.Warmup:
		return inputerr.New("run.measure", c.Run.Measure, "an integer from 1 to %d (run.warmup + run.measure ≤ %d, the last cycle the engine times exactly)",
			traffic.MaxCycle-c.Run.Warmup, traffic.MaxCycle)
	case c.Run.Drain < 0 || c.Run.Drain > traffic.MaxCycle:
		// (Unbounded in effect; also keeps end + drain from overflowing.)
		return inputerr.New("run.drain", c.Run.Drain, "an integer from 0 to %d", traffic.MaxCycle)
	case c.Run.DeadlockCheck < 1:
		return inputerr.New("run.deadlock_check", c.Run.DeadlockCheck, "an integer ≥ 1")
	case c.Run.StallLimit < 0:
		return inputerr.New("run.stall_limit", c.Run.StallLimit, "an integer ≥ 0 (0: never stop)")
	case c.Run.MaxBacklog < 0:
		return inputerr.New("run.max_backlog", c.Run.MaxBacklog, "an integer ≥ 0 (packets per terminal; 0: no limit)")
	case c.Run.MaxMemory < 0:
		return inputerr.New("run.max_memory", c.Run.MaxMemory, ByteSizeAllowed)
	case c.Run.Workers < 0 || c.Run.Workers > 2:
		return inputerr.New("run.workers", c.Run.Workers, "0 (automatic), 1 or 2")
	case c.Multicast.SendLatency < 0 || c.Multicast.SendLatency > 1<<20:
		return inputerr.New("multicast.send_latency", c.Multicast.SendLatency, "an integer from 0 to 1048576 (cycles)")
	case c.Multicast.ReceiveLatency < 0 || c.Multicast.ReceiveLatency > 1<<20:
		return inputerr.New("multicast.receive_latency", c.Multicast.ReceiveLatency, "an integer from 0 to 1048576 (cycles)")
	}
	return checkLockstep(c)
}

// checkWholePacket makes sure virtual cut-through and store-and-forward
// buffers can hold a whole packet of need flits: the longest of
// traffic.flits, or of the packets listed by src (traffic.trace or
// traffic.packets, whose value is srcValue). The error blames the buffer,
// and states the same fault for the packets and switching (Alt), so the
// loader can name the key the user wrote.
func checkWholePacket(c *Config, mode xbar.Mode, need int, src string, srcValue any) *inputerr.Error {
	what := "traffic.flits max"
	if src != "traffic.flits" {
		what = fmt.Sprintf("the longest packet in %s has %d flits", src, need)
	}
	for _, b := range []struct {
		key   string
		depth int
	}{{"buffers.input", c.Buffers.Input}, {"buffers.output", c.Buffers.Output}} {
		if b.depth > 0 && b.depth < need {
			e := inputerr.New(b.key, b.depth, "≥ %d: %s buffers must hold a whole packet (%s)", need, mode, what)
			e.Alt = []*inputerr.Error{
				inputerr.New(src, srcValue, "at most %d flits: %s buffers (%s %d) must hold a whole packet", b.depth, mode, b.key, b.depth),
				inputerr.New("switching", c.Switching, "wormhole: %s buffers (%s %d) must hold a whole packet, and %s is %v", mode, b.key, b.depth, src, srcValue),
			}
			return e
		}
	}
	return nil
}

// CheckScalars checks the settings that need no topology (buffers, link,
// traffic, run keys): what a memory estimate may rely on before Build.
func CheckScalars(c *Config) error { return checkScalars(c) }
