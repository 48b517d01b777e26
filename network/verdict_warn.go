package network

import (
	"fmt"
	"math"

	"github.com/flitsim/flitsim/traffic"
)

// A run is near saturation, though its status is ok, when either holds:
//   - its latency p99 passes nearLatencyFactor × its zero-load latency
//     (MeanZeroLoadLatency): packets queue far longer than the network
//     needs to carry them;
//   - its accepted throughput falls below the shortfall limit
//     (1 − nearShortfall) × the offered load while its 95 % confidence
//     interval still reaches the offered load: the interval overlaps the
//     limit, so Judge cannot call the run saturated, but the network
//     carried noticeably less than it was offered. (The point estimate,
//     not the interval's lower end, must pass the limit: a short run's
//     wide interval alone says nothing about saturation.)
//
// Both are judged only for open-loop pattern runs (not traces, listed
// packets or batches, whose load is not a rate).
const (
	nearLatencyFactor = 10
	nearShortfall     = 0.05
)

// warnings lists what a run's status does not say: packets dropped, and a
// run near saturation (one line each, for r.Warnings), each line starting
// with what it is about ("packets dropped: ", "near saturation: ") and
// none holding ";" (the CSV's list separator).
func warnings(r *Result) []string {
	var ws []string
	if note := r.DropNote(); note != "" && !isSlotted(&r.Config) { // (the slotted router drops by design)
		ws = append(ws, note+": the latencies and the throughput count only the packets delivered")
	}
	ws = append(ws, livelockWarnings(r)...)
	if r.Status == StatusOK || r.Status == StatusIncomplete {
		ws = append(ws, nearSaturation(r)...)
	}
	return ws
}

// DropNote is "" or how many packets full queues dropped (queue.full:
// drop), e.g. "packets dropped: 12 by full queues (queue.full: drop), 3
// of them measured"; the status line and the warnings both say it. (No
// ";": the CSV joins the warnings with it.)
func (r *Result) DropNote() string {
	if r.Dropped == nil || *r.Dropped == 0 {
		return ""
	}
	if isCSR(&r.Config) {
		return fmt.Sprintf("packets dropped: %d at CSR entry buffers before entering, none in the network (dropped_by_cause)", *r.Dropped)
	}
	if isSlotted(&r.Config) {
		return fmt.Sprintf("packets dropped: %d by the slotted router's conflicts (switching: slotted, dropped_by_cause)", *r.Dropped)
	}
	return fmt.Sprintf("packets dropped: %d by full queues (queue.full: drop), %d of them measured", *r.Dropped, r.MeasuredDropped)
}

// nearSaturation is the "near saturation" warnings of an open-loop run.
func nearSaturation(r *Result) []string {
	c := &r.Config
	if c.Traffic.Trace != "" || len(c.Traffic.Packets) > 0 || IsBatch(c) || isSlotted(c) || r.Offered <= 0 {
		return nil
	}
	var ws []string
	if z, why := MeanZeroLoadLatency(c, r.Hops); why == "" && r.Latency.Count > 0 && r.Latency.P99 > nearLatencyFactor*z {
		ws = append(ws, fmt.Sprintf("near saturation: latency p99 %.4g cycles is %.0f× the zero-load latency %.4g cycles (more than %d×)",
			r.Latency.P99, r.Latency.P99/z, z, nearLatencyFactor))
	}
	why := fmt.Sprintf("within its 95 %% CI ± %.2g", r.ShortfallCI95)
	if r.ShortfallCI95 < 0 {
		why = "no confidence interval: too few batches"
	}
	if limit := (1 - nearShortfall) * r.Offered; !r.Saturated && r.Throughput < limit {
		ws = append(ws, fmt.Sprintf("near saturation: accepted %.4g flits/node/cycle, more than %.0f %% short of the %.4g offered (%s, so not called saturated)",
			r.Throughput, 100*nearShortfall, r.Offered, why))
	}
	return ws
}

// ZeroLoadWhyNot says why the closed form ZeroLoadLatency is not c's
// zero-load latency ("" if it is): it covers unicast patterns under
// wormhole, virtual cut-through and store-and-forward switching with full
// pipelining (L slots per buffer with switch.reuse, L+1 without).
func ZeroLoadWhyNot(c *Config) string {
	switch {
	case c.Traffic.Trace != "" || len(c.Traffic.Packets) > 0:
		return "a trace sets the packets"
	case traffic.IsMulticastPattern(c.Traffic.Pattern):
		return "multicast traffic"
	case isPacket(c):
		return "the packet router (switching: packet) is not wormhole, vct or saf"
	case isSlotted(c):
		return "the slotted router (switching: slotted) is not wormhole, vct or saf"
	case c.Router.Model != "":
		if _, ok := iqParams(c); !ok {
			return "router.model " + c.Router.Model + " has no closed form here"
		}
	}
	need := c.Link.Latency
	if !c.ReuseOn() {
		need++
	}
	for _, b := range []int{c.Buffers.Input, c.Buffers.Output} {
		if b > 0 && b < need {
			return fmt.Sprintf("buffers shallower than %d flits do not pipeline", need)
		}
	}
	return ""
}

// MeanZeroLoadLatency is c's zero-load latency for packets that pass hops
// routers on average, or NaN and why not (ZeroLoadWhyNot, or no hops).
// The formula is linear in the routers passed, so it is interpolated
// between the whole counts around hops, and averaged over the packet
// lengths (traffic.flits, uniform over its range).
func MeanZeroLoadLatency(c *Config, hops float64) (float64, string) {
	if why := ZeroLoadWhyNot(c); why != "" {
		return math.NaN(), why
	}
	if !(hops >= 1) {
		return math.NaN(), "no packet measured"
	}
	r0 := int(math.Floor(hops))
	w := hops - float64(r0)
	fl := c.Traffic.Flits
	var t float64
	for n := fl.Min; n <= fl.Max; n++ {
		t += (1-w)*float64(ZeroLoadLatency(*c, r0, n)) + w*float64(ZeroLoadLatency(*c, r0+1, n))
	}
	return t / float64(fl.Max-fl.Min+1), ""
}
