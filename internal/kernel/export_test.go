package kernel

import "time"

// Test access to the kernel's internals, for the tests of package
// kernel_test (which build networks with package network, which imports
// this one).

// ForceGeneral makes every cycle take the general path.
func (k *Kernel) ForceGeneral() { k.fast, k.stepper = false, generalStepper{} }

// FastOK reports whether this cycle may take the fast path.
func (k *Kernel) FastOK() bool { return k.fastOK() }

// SetLargeAt sets the size from which flow decides as in a large network.
func (k *Kernel) SetLargeAt(n int32) { k.largeAt = n }

// UseLanes switches between one lane and the pair.
func (k *Kernel) UseLanes(two bool) { k.useLanes(two) }

// HasPair reports whether the kernel keeps two lanes.
func (k *Kernel) HasPair() bool { return k.pair != nil }

// Moves is the general path's list of the last cycle's moves.
func (k *Kernel) Moves() []int32 { return k.moves }

// LastMoves is the buffers whose front flit moved in the last cycle (a
// two-lane cycle leaves them in the lanes' lists).
func (k *Kernel) LastMoves() []int32 {
	if len(k.moves) == 0 && k.nmoved > 0 {
		return append(append([]int32(nil), k.lanes[0].moves...), k.lanes[1].moves...)
	}
	return k.moves
}

// Unaligned maps buffer ids of a kernel laid out for two lanes to those of
// the same network laid out for one (without alignCut's gap).
func (k *Kernel) Unaligned(ids []int32) []int32 {
	out := make([]int32, len(ids))
	for i, b := range ids {
		out[i] = b
		if b >= k.gapAt+k.gapLen {
			out[i] -= k.gapLen
		}
	}
	return out
}

// Gap is the ids of alignCut's gap and the cut.
func (k *Kernel) Gap() (at, n, cut int32) { return k.gapAt, k.gapLen, k.cutAt }

// IsActive reports whether buffer b is in the active set.
func (k *Kernel) IsActive(b int32) bool { return k.active.has(b) }

// SinkRoom lists, per terminal record past the buffers, its flits and room.
func (k *Kernel) SinkRoom() (held, room []int) {
	for _, x := range k.sinkRecords()[k.nb:] {
		held, room = append(held, x.Len()), append(room, x.Free())
	}
	return held, room
}

// TunerKnobs are the tuner's periods and clock.
type TunerKnobs struct {
	Window, First, Period, MaxPeriod, Watch int64
	Clock                                   func() time.Time
}

// HasTuner reports whether the kernel tunes its workers.
func (k *Kernel) HasTuner() bool { return k.tuner != nil }

// Tune changes the tuner's knobs.
func (k *Kernel) Tune(set func(*TunerKnobs)) {
	t := k.tuner
	kn := TunerKnobs{t.window, t.first, t.period, t.maxPeriod, t.watch, t.clock}
	set(&kn)
	t.window, t.first, t.period, t.maxPeriod, t.watch, t.clock = kn.Window, kn.First, kn.Period, kn.MaxPeriod, kn.Watch, kn.Clock
}

// InTrial reports whether the tuner is timing a trial.
func (k *Kernel) InTrial() bool { return k.tuner.trial }

// SeqMask is the crew's phase number mask.
const SeqMask = seqMask

// CrewSeq is the crew's phase count (the crew must have started).
func (k *Kernel) CrewSeq() uint32 { return k.crew.seq }

// SetCrewSeq sets the crew's phase count.
func (k *Kernel) SetCrewSeq(s uint32) { k.crew.seq = s }

// Presampled reports the cycles whose traffic came from draws made ahead
// and those that dropped them, and whether the kernel presamples.
func (k *Kernel) Presampled() (used, dropped int64, ok bool) {
	if k.pre == nil {
		return 0, 0, false
	}
	return k.pre.used, k.pre.dropped, true
}

// StepperName names the kernel's stepper (for tests of the seam).
func (k *Kernel) StepperName() string {
	switch k.stepper.(type) {
	case fastStepper:
		return "fast"
	case generalStepper:
		return "general"
	}
	return "other"
}

// PacketGeneralOnly makes the packet routers built from now on take the
// general step everywhere (on) or the fast one where it applies; it
// returns the previous setting.
func PacketGeneralOnly(on bool) bool {
	old := packetGeneralOnly
	packetGeneralOnly = on
	return old
}

// PacketFastSteps is the number of cycles the packet router took by its
// fast step (0 for another model).
func (k *Kernel) PacketFastSteps() int64 {
	if p, ok := k.stepper.(*packetRouter); ok {
		return p.fastSteps
	}
	return 0
}

// InjectLanePanic makes the second lane's helper call f before each phase
// it runs (nil: no longer), to inject a panic there.
func InjectLanePanic(f func(phase int32)) { lanePanicHook = f }
