package kernel

// The fast path is Step specialised to the common case: wormhole switching,
// no tracer, and no multicast worm alive, so every bound worm holds exactly
// one port and every move has one destination (bufState.to). It keeps the
// general path's state and the order of the side effects that depend on
// order (ejections: statistics and hooks), so a run gives the same result
// whichever path each cycle takes (TestFastPathMatchesGeneral);
// the general path takes over for any cycle in which a multicast worm lives.
// Its phases run on each lane (lanes.go), so the fast path is also the one
// that uses a second core.

// fastStepper is the flit crossbar's stepper for wormhole switching: the
// fast path for the cycles it covers (fastOK), on one lane or two (lanes.go,
// tuned by tune.go), and the general stepper for the others. Its flow
// decides moves by its own means (flow_fast.go), held to the movement rule
// by TestFastPathMatchesGeneral; the deadlock detector and the tracer use
// the rule itself.
type fastStepper struct{}

func (fastStepper) step(k *Kernel) {
	if k.tuner != nil {
		k.tune()
	}
	if k.fastOK() {
		k.stepFast()
		return
	}
	generalStepper{}.step(k)
}

func (fastStepper) moves(k *Kernel, b int32) bool { return k.moving(b) }

func (fastStepper) rule(k *Kernel, b int32, h *holds) bool { return k.moveRule(b, &k.bs[b], h) }

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
