package network

import "time"

// Automatic workers (run.workers 0). Whether a second thread pays depends
// on how much work a cycle holds (network size, load, buffer arrangement)
// and on whether the second core is free, none of which the configuration
// tells, so the kernel measures it: it times a window of cycles on one
// lane, then one on two lanes, and runs on the faster until the next trial.
// Trials come after 4 k cycles, then at doubling intervals up to 64 k
// cycles, so a run follows its network as it fills and the machine as its
// load changes, for at most 1/32 of the cycles on the slower arrangement.
// Results do not depend on the choice: one lane and two compute the same
// cycle (TestFastPathMatchesGeneral), so only the speed does.

// Networks with fewer buffers are not timed: their cycles are too short for
// a second thread to pay (measured on 2 cores: a 6×6 mesh loses 10 % on
// two lanes, an 8×8 mesh at load 0.3 gains 15–20 %).
const autoMinBuffers = 256

const (
	tuneWindow    = 1024     // cycles timed on each arrangement
	tuneFirst     = 4 << 10  // cycles before the second trial
	tuneMaxPeriod = 64 << 10 // most cycles between trials
)

type tuner struct {
	window, maxPeriod int64 // tuneWindow and tuneMaxPeriod (tests shorten them)

	steps  int64 // Step calls so far
	at     int64 // step at which the next state begins
	state  int8  // tuneRun, tuneOne or tuneTwo
	period int64 // steps from the end of a trial to the next
	t0     time.Time
	one    time.Duration // the last window's time on one lane
}

const (
	tuneRun = iota // running on the arrangement the last trial chose
	tuneOne        // timing one lane
	tuneTwo        // timing two lanes
)

func newTuner() *tuner {
	return &tuner{window: tuneWindow, maxPeriod: tuneMaxPeriod, period: tuneFirst}
}

// tune advances the tuner by one cycle, switching lanes at window ends.
func (k *Kernel) tune() {
	t := k.tuner
	t.steps++
	if t.steps < t.at {
		return
	}
	t.at = t.steps + t.window
	switch t.state {
	case tuneRun:
		k.useLanes(false)
		t.state, t.t0 = tuneOne, time.Now()
	case tuneOne:
		t.one = time.Since(t.t0)
		k.useLanes(true)
		t.state, t.t0 = tuneTwo, time.Now()
	case tuneTwo:
		k.useLanes(time.Since(t.t0) < t.one)
		t.state, t.at = tuneRun, t.steps+t.period
		t.period = min(2*t.period, t.maxPeriod)
	}
}

// Workers is the number of threads the kernel runs its fast cycles on now.
func (k *Kernel) Workers() int {
	if k.lanes != nil {
		return 2
	}
	return 1
}
