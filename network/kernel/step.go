package kernel

// Step simulates one cycle.
func (k *Kernel) Step() {
	if k.tuner != nil {
		k.tune()
	}
	if k.fastOK() {
		k.stepFast()
		return
	}
	k.placeLater()
	k.route(&k.whole)
	k.allocate(&k.whole)
	k.flow()
	if k.syncLive > 0 {
		k.syncVeto()
	}
	if k.Deadlock == nil && (k.CheckDeadlock || len(k.moves) == 0 && k.AnyActive()) {
		k.Deadlock = k.detect()
	}
	if k.tr != nil {
		k.traceBlocked()
	}
	k.commit()
	k.settle(&k.whole)
	if k.tr != nil {
		k.tr.EndCycle(k.now)
	}
	k.now++
}

// The fast path is Step specialised to the common case: wormhole switching,
// no tracer, and no multicast worm alive, so every bound worm holds exactly
// one port and every move has one destination (bufState.to). It keeps the
// general path's state and the order of the side effects that depend on
// order (ejections: statistics and hooks), so a run gives the same result
// whichever path each cycle takes (TestFastPathMatchesGeneral);
// the general path takes over for any cycle in which a multicast worm lives.
// Its phases run on each lane (lanes.go), so the fast path is also the one
// that uses a second core.

// fastOK reports whether this cycle may take the fast path.
func (k *Kernel) fastOK() bool { return k.fast && k.castLive == 0 && k.tr == nil }

// stepFast is Step for a fastOK cycle.
func (k *Kernel) stepFast() {
	k.fastNow = true
	k.denseNow = k.nb < k.largeAt
	k.nextEpoch()
	if k.lanes == nil {
		k.placeLater()
	}
	if k.CheckDeadlock {
		// The wait-for graph is read between flow and leave.
		k.phase(phaseRoute)
		k.phase(phaseFlow)
		k.countMoves()
		if k.Deadlock == nil {
			k.Deadlock = k.detect()
		}
		k.phase(phaseLeave)
	} else {
		k.phase(phaseCycle)
		k.countMoves()
		// With no move, leave changed nothing: the graph is as flow saw it.
		if k.Deadlock == nil && k.nmoved == 0 && k.AnyActive() {
			k.Deadlock = k.detect()
		}
	}
	k.later[0], k.later[1] = k.later[0][:0], k.later[1][:0] // (placed by the lanes)
	if k.lanes == nil {
		k.settle(&k.whole) // (phase settles the two lanes)
	}
	k.fastNow, k.denseNow = false, false
	k.now++
}

// countMoves sets nmoved. With two lanes the moves stay in the lanes'
// lists (k.moves is left empty): this thread need not read the other
// lane's.
func (k *Kernel) countMoves() {
	if k.lanes == nil {
		k.moves = k.whole.moves
		k.nmoved = len(k.moves)
	} else {
		k.moves = k.moves[:0]
		k.nmoved = len(k.lanes[0].moves) + len(k.lanes[1].moves)
	}
}
