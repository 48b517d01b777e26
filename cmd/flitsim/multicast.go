package main

import (
	"fmt"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/traffic"
)

// describeMulticast is the "multicast" row of a run's table: how messages
// with several destinations travel, or "" when the traffic has none that
// the config says of (unicast patterns).
func describeMulticast(c *network.Config) string {
	sc, err := traffic.ParseScheme(c.Multicast.Scheme)
	if err != nil {
		return ""
	}
	multi := traffic.IsMulticastPattern(c.Traffic.Pattern) || c.Traffic.Trace != "" || len(c.Traffic.Packets) > 0
	if !multi && !sc.Software() {
		return ""
	}
	if sc.Software() {
		return fmt.Sprintf("software, %s (a node forwards once it has the whole message; send %d / receive %d cycles per node)",
			sc, c.Multicast.SendLatency, c.Multicast.ReceiveLatency)
	}
	return fmt.Sprintf("hardware, %s worm, %s header", c.Multicast.Worm, c.Multicast.Encoding)
}
