package network

// Now is the current cycle: the number of cycles simulated so far.
func (n *Network) Now() int64 { return n.k.Now() }

// Terminals is the number of terminals (processors), numbered 0 to
// Terminals()−1: the sources and destinations of packets, and the
// endpoints AttachEndpoints creates.
func (n *Network) Terminals() int { return n.k.Topo.Terminals() }
