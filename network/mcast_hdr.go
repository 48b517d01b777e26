package network

import (
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/flit/header"
)

// checkDecoded refuses a switch-decoded header (bit strings, region
// schemes) where no Delta MIN switch decodes it: a path-based worm (its
// header is re-addressed at every destination) or a network that is not a
// cube, omega, baseline or butterfly MIN.
func checkDecoded(c *Config, n *Network) error {
	if !n.enc.Decoded() {
		return nil
	}
	if n.cast == flit.Path {
		return inputerr.New("multicast.encoding", c.Multicast.Encoding, "single, ad or pseudo-ad with multicast.worm: path (the others are decoded by the switches of a tree worm: async or sync)")
	}
	if _, err := n.k.HeaderOptions(); err != nil {
		return inputerr.New("multicast.encoding", c.Multicast.Encoding, "single, ad or pseudo-ad on topology.kind %s (the others are decoded by Delta MIN switches: %s)", c.Topology.Kind, strings.Join(header.MINKinds, ", "))
	}
	return nil
}
