package network

import (
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
	"github.com/flitsim/flitsim/traffic"
)

// The packet-switched router's settings (switching: packet) and batch
// experiments (traffic.mode: batch).

// isPacket reports whether c selects the packet-switched router.
func isPacket(c *Config) bool { return strings.EqualFold(strings.TrimSpace(c.Switching), "packet") }

// IsBatch reports whether c runs batch experiments (traffic.mode batch).
func IsBatch(c *Config) bool { return strings.EqualFold(strings.TrimSpace(c.Traffic.Mode), "batch") }

// queueAliases map the queue keys' values (and Brebner's names) to the
// kernel's.
var (
	disciplines   = map[string]string{"": "fifo", "fifo": "fifo", "fcfs": "fifo", "furthest-first": "furthest-first", "ftgfo": "furthest-first", "random": "random", "riro": "random"}
	arrivalOrders = map[string]string{"": "random", "random": "random", "scan": "scan"}
	routeModes    = map[string]string{"": "source", "source": "source", "hop": "hop"}
	fullModes     = map[string]string{"": "unbounded", "unbounded": "unbounded", "backpressure": "backpressure", "drop": "drop"}
	trafficModes  = map[string]string{"": "open", "open": "open", "batch": "batch"}
)

func lookup(m map[string]string, key, v, allowed string) (string, error) {
	if s, ok := m[strings.ToLower(strings.TrimSpace(v))]; ok {
		return s, nil
	}
	return "", inputerr.New(key, v, "%s", allowed)
}

// packetSpec checks the queue and batch keys and returns the kernel's
// settings for the packet-switched router (only used with switching:
// packet; the values are checked whatever the switching).
func packetSpec(c *Config) (kernel.PacketSpec, error) {
	var s kernel.PacketSpec
	q := &c.Queue
	var err error
	if s.Discipline, err = lookup(disciplines, "queue.discipline", q.Discipline, "fifo, furthest-first, random (aliases fcfs, ftgfo, riro)"); err != nil {
		return s, err
	}
	if s.ArrivalOrder, err = lookup(arrivalOrders, "queue.arrival_order", q.ArrivalOrder, "random, scan"); err != nil {
		return s, err
	}
	routes, err := lookup(routeModes, "queue.routes", q.Routes, "source, hop")
	if err != nil {
		return s, err
	}
	full, err := lookup(fullModes, "queue.full", q.Full, "unbounded, backpressure, drop")
	if err != nil {
		return s, err
	}
	mode, err := lookup(trafficModes, "traffic.mode", c.Traffic.Mode, "open, batch")
	if err != nil {
		return s, err
	}
	s.Shared, s.HopRoutes = q.Shared, routes == "hop"
	packet := isPacket(c)
	if _, err := valiantMode(c, packet, s.Discipline); err != nil {
		return s, err
	}
	if err := checkMulti(c, packet, mode == "batch", full, s.Discipline); err != nil {
		return s, err // (multi-read, multi-write: multi.go)
	}
	switch {
	case c.Traffic.H < 0 || c.Traffic.H > 1<<16:
		return s, inputerr.New("traffic.h", c.Traffic.H, "an integer from 1 to 65536 (packets per node in a batch; 0: 1)")
	case c.Run.Experiments < 0 || c.Run.Experiments > 1<<24:
		return s, inputerr.New("run.experiments", c.Run.Experiments, "an integer from 1 to 16777216 (0: 1)")
	case mode == "batch" && !packet:
		return s, inputerr.New("traffic.mode", c.Traffic.Mode, "open (batch only with switching: packet)")
	case mode == "batch" && (c.Traffic.Trace != "" || len(c.Traffic.Packets) > 0):
		return s, inputerr.New("traffic.mode", c.Traffic.Mode, "open when traffic.trace or traffic.packets is set")
	case mode == "batch" && traffic.IsMulticastPattern(c.Traffic.Pattern):
		return s, inputerr.New("traffic.mode", c.Traffic.Mode, "open with a multicast pattern")
	case !packet:
		return s, nil
	case c.Traffic.Flits.Min != 1 || c.Traffic.Flits.Max != 1:
		return s, inputerr.New("traffic.flits", c.Traffic.Flits, "1 with switching: packet (a packet is one unit crossing a link in a cycle)")
	case traffic.IsMulticastPattern(c.Traffic.Pattern):
		return s, inputerr.New("traffic.pattern", c.Traffic.Pattern, "a unicast pattern with switching: packet")
	case full != "unbounded" && c.Buffers.Output < 1:
		return s, inputerr.New("buffers.output", c.Buffers.Output, "≥ 1 with queue.full: "+full+" (the queues' capacity in packets)")
	case c.Link.Latency != 1 || c.Switch.Delay != 0:
		return s, inputerr.New("link.latency", c.Link.Latency, "1 (and switch.delay 0) with switching: packet: a hop takes one cycle")
	}
	if full != "unbounded" {
		s.Capacity, s.Drop = c.Buffers.Output, full == "drop"
	}
	return s, nil
}

// batchTraffic is the batch workload: traffic.h packets per node at cycle
// 0, all measured.
func (n *Network) batchTraffic() error {
	c, t := &n.Cfg, n.k.Topo
	if multi, _ := traffic.IsMultiPattern(c.Traffic.Pattern); multi {
		return n.multiTraffic()
	}
	pat, err := traffic.NewPattern(c.Traffic.Pattern, traffic.Shape{N: t.Terminals(), Radix: t.Radix, Digits: t.Digits},
		c.Traffic.Hotspots, c.Traffic.HotspotFraction, n.k.Rand())
	if err != nil {
		return err
	}
	n.gen = traffic.NewBatch(t.Terminals(), max(1, c.Traffic.H), pat, n.k.Rand())
	n.start, n.end = 0, 1
	return nil
}

// packetTies makes the packet router's torus packets at exactly half a ring
// go either way by default (a draw per packet: the digest's reading for
// the torus, §3.3 item 5; the CCC keeps its forward default, which fits
// Brebner's tables better, §4.5); topology.tie given by the user wins.
func packetTies(s *topology.Spec) {
	if s.Kind == "torus" && s.Tie == "" {
		s.Tie = "random"
	}
}
