package network

import (
	"errors"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/esmintree"
)

// EmitMulticast queues a packet with several destinations (a trace line).
// A Random Branch multicast whose tree blocks is dropped at the source and
// counted (blocked_multicasts); the run goes on.
func (n *Network) EmitMulticast(src int, dsts []int, flits int) {
	_, err := n.k.EnqueueMulticast(src, dsts, flits, n.cast, n.enc)
	if errors.Is(err, kernel.ErrTreeBlocked) {
		n.blocked++
		return
	}
	if err != nil && n.emitErr == nil {
		n.emitErr = err
		n.stopped = true
	}
}

// blockedResult reports the blocked multicasts of a run routed by Random
// Branch trees (the only trees that block), zero included, so that
// B = blocked / (blocked + injected) can be read off any such run.
func (n *Network) blockedResult(r *Result) {
	if alg, ok := esmintree.ParseAlg(n.Cfg.Multicast.Tree); ok && alg == esmintree.RB {
		b := n.blocked
		r.BlockedMulticasts = &b
	}
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
