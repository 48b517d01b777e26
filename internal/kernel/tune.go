package kernel

import (
	"time"
)

// Automatic workers (run.workers 0). Whether a second thread pays depends
// on how much work a cycle holds (network size, load, buffer arrangement)
// and on whether the second core is free, none of which the configuration
// tells, so the kernel measures it: a trial alternates short stretches of
// cycles on one lane and on two, and the run goes on with the arrangement
// whose best stretch was faster, until the next trial. (Alternating and
// taking the best stretch of each keeps a pause of the process, or a
// change in the machine's speed during the trial, from deciding it.)
// Trials come after 4 k cycles, then at doubling intervals up to 64 k
// cycles, so a run follows its network as it fills and the machine as its
// load changes, for at most 1/128 of the cycles on the slower arrangement.
// A trial whose first stretch on two lanes ran more than 1.5 times as long
// as its first on one ends there, for one lane.
// A stretch on two lanes that has run 1.5 times as long as one lane's best
// stretch ends at once, mid-stretch, so a trial costs little when the
// other core is busy.
// Between trials on two lanes the tuner also times every 4 k cycles and
// starts a trial at once if they ran half as slow again as the best
// stretch: passing data between two cores can turn several times slower
// in an instant (a virtual machine's processors moved apart: measured on
// this project's machine, two threads then run the 8×8 mesh at 85 k
// cycles/s against 165 k on one), and a run should not wait up to 64 k
// cycles for the next trial. One lane is not watched: it slows down when
// the machine is busy, when a second thread would only be slower still
// (a busy loop on the other core made it start a trial every 4 k cycles,
// each on two lanes for 0.1–0.35 s). A trial whose choice differs from the last one's starts
// the intervals again from 4 k cycles: the machine has changed, and may
// change back (which the timing of one lane does not see). Results do not
// depend on the choice: one lane and two compute the same cycle
// (TestFastPathMatchesGeneral), so only the speed does.

// Networks with fewer buffers are not timed: their cycles are too short for
// a second thread to pay (measured on 2 cores: a 6×6 mesh loses 10 % on
// two lanes, an 8×8 mesh at load 0.3 gains 15–20 %; 35–40 % since, with
// presampling, in the machine's usual state).
const autoMinBuffers = 256

const (
	tuneWindow    = 1024     // cycles a trial times, half on each arrangement
	tuneStretches = 8        // stretches of a trial, alternating
	tuneFirst     = 4 << 10  // cycles before the second trial
	tuneMaxPeriod = 64 << 10 // most cycles between trials
	tuneWatch     = 4 << 10  // cycles between two timings of the running arrangement
)

type tuner struct {
	// tuneWindow, tuneFirst, tuneMaxPeriod and tuneWatch (tests shorten
	// them), and the clock (tests count time themselves).
	window, first, maxPeriod, watch int64
	clock                           func() time.Time

	steps   int64 // Step calls so far
	at      int64 // step at which the next stretch, its timing or a state begins
	trial   bool  // timing stretches (else running on the last choice)
	warming bool  // in a stretch's first cycle, which is not timed
	stretch int   // stretches of this trial done
	period  int64 // steps from the end of a trial to the next
	t0      time.Time
	best    [2]time.Duration // best stretch of the last trial on one lane, on two
	two     bool             // the last trial chose two lanes
	// The running arrangement's timing between trials: from step watchAt
	// (0: not timing) since watch0.
	watchAt int64
	watch0  time.Time
}

func newTuner() *tuner {
	return &tuner{window: tuneWindow, first: tuneFirst, maxPeriod: tuneMaxPeriod, watch: tuneWatch, clock: time.Now, period: tuneFirst}
}

// tune advances the tuner by one cycle, switching lanes at stretch ends.
func (k *Kernel) tune() {
	t := k.tuner
	t.steps++
	if t.watchAt > 0 && t.steps >= t.watchAt+t.watch {
		// Between trials: has the running arrangement slowed down?
		now := t.clock()
		per := float64(now.Sub(t.watch0)) / float64(t.steps-t.watchAt)
		best := float64(t.best[k.Workers()-1]) / float64(t.timed())
		t.watchAt, t.watch0 = t.steps, now
		if per > 1.5*best {
			t.watchAt, t.at = 0, t.steps // a trial now
		}
	}
	if t.trial && !t.warming && t.stretch&1 == 1 && t.steps < t.at && 2*t.clock().Sub(t.t0) > 3*t.best[0] {
		// This stretch on two lanes has already run 1.5 times as long as
		// one lane's best whole stretch: end it now. (With the other
		// core busy, two lanes can take milliseconds a cycle, handing
		// over at each scheduler slice: 128 cycles cost 0.1–0.35 s
		// against 0.7 ms on one lane.)
		t.at = t.steps
	}
	if t.steps < t.at {
		return
	}
	if t.warming {
		// The stretch's first cycle is not timed: the helper thread,
		// asleep through a stretch on one lane, wakes in it.
		t.warming, t.t0 = false, t.clock()
		t.at = t.steps + t.timed()
		return
	}
	if t.trial {
		two := t.stretch & 1 // (even stretches run on one lane)
		if d := t.clock().Sub(t.t0); t.stretch < 2 || d < t.best[two] {
			t.best[two] = d
		}
		t.stretch++
		// Two lanes clearly slower after a stretch on each (the cores
		// passing data several times as slowly: the machine's slow
		// state) end the trial at once for one lane, rather than spend
		// three more stretches on the slow arrangement. (One lane is the
		// choice that depends on nothing else; a wrong one is undone
		// by the next trial, 4 k cycles on.)
		early := t.stretch == 2 && 2*t.best[1] > 3*t.best[0]
		if t.stretch == tuneStretches || early {
			choice := t.best[1] < t.best[0]
			if choice != t.two {
				t.period = t.first // changed: look again soon
			}
			t.two = choice
			k.useLanes(choice)
			t.trial, t.at = false, t.steps+t.period
			t.period = min(2*t.period, t.maxPeriod)
			if choice {
				t.watchAt, t.watch0 = t.steps, t.clock()
			}
			return
		}
	} else {
		t.trial, t.stretch, t.watchAt = true, 0, 0
	}
	k.useLanes(t.stretch&1 == 1)
	t.at, t.warming = t.steps+1, true
}

// timed is the number of cycles a stretch times (all but its first).
func (t *tuner) timed() int64 { return max(t.window/tuneStretches, 2) - 1 }

// Workers is the number of threads the kernel runs its fast cycles on now.
func (k *Kernel) Workers() int {
	if k.lanes != nil {
		return 2
	}
	return 1
}
