package network

import (
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/esmintree"
	"github.com/flitsim/flitsim/network/topology"
)

// EmitMulticast queues a packet with several destinations (a trace line).
func (n *Network) EmitMulticast(src int, dsts []int, flits int) {
	wi, err := n.k.EnqueueMulticast(src, dsts, flits, n.cast, n.enc)
	if err == nil && n.cast != flit.Path {
		err = n.rbBlocked(wi, src, dsts)
	}
	if err != nil && n.emitErr == nil {
		n.emitErr = err
		n.stopped = true
	}
}

// rbBlocked refuses a Random Branch tree whose branches meet again: a
// switch cannot merge two copies (Chiang §6.4.3), so the multicast blocks,
// which the kernel's union of routes would not show.
func (n *Network) rbBlocked(wi int32, src int, dsts []int) error {
	net, alg, ok := topology.ESMINTree(n.k.Topo.Router)
	if !ok || alg != esmintree.RB || !net.Build(alg, n.k.Pool.Worms[wi].Aux, src, dsts).Blocked {
		return nil
	}
	return inputerr.New("multicast.tree", "rb", "a tree algorithm that cannot block (lb, fb, rm): the multicast from %d to %v drew "+
		"a Random Branch tree whose branches need one switch output twice, and a switch cannot merge two copies "+
		"(flitsim multicast-tree --algorithm rb counts how often)", src, dsts)
}

func parseWorm(s string) (flit.Cast, error) {
	switch strings.ToLower(s) {
	case "", "async", "asynchronous", "tree":
		return flit.Tree, nil
	case "sync", "synchronous":
		return flit.SyncTree, nil
	case "path", "path-based":
		return flit.Path, nil
	}
	return 0, inputerr.New("multicast.worm", s, "async, sync, path")
}
