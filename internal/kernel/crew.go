package kernel

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
)

// crew is the second worker: a goroutine that runs lane 1 of each phase the
// kernel posts. Phases are short (a few microseconds), so every wait (the
// helper for a phase, the kernel for the helper, a lane for a step of the
// other, await) spins first, and then sleeps on a gate: when other programs
// share the cores, the side waited for may be off its core for a whole
// scheduler slice, and a side that went on spinning would hold the core
// that the other needs (two forced lanes beside a busy loop ran 17 times
// slower than one lane, issue 24).
//
// What each side writes is on a cache line of its own (the padding), so a
// side's spinning does not steal the line the other is writing: the kernel
// writes k and then post, the helper done.
type crew struct {
	// k shares post's line: the helper, woken by post, finds k without
	// fetching another line from the kernel's core.
	post atomic.Uint32 // seq<<2 | phase of the last phase posted
	seq  uint32        // the kernel's count of phases posted, modulo 2^30 (seqMask)
	k    *Kernel       // set while a cycle's phases are posted
	_    [48]byte
	done atomic.Uint32 // seq of the last phase the helper finished
	_    [60]byte

	idle     *gate // the helper sleeps here for a phase
	finished *gate // the kernel sleeps here for the helper
	quit     atomic.Bool
	// failed is the helper's panic, raised again by the kernel (phase,
	// await) on its own goroutine; the helper has ended.
	failed atomic.Pointer[lanePanic]
}

// lanePanic is a panic (a bug) of the helper's lane. On the helper's
// goroutine it would end the program with Go's status 2, out of reach of
// every recovery (the command's, a batch's), so the helper catches it and
// the kernel raises it again on the goroutine that runs it: an internal
// error (flitsim exits 70).
type lanePanic struct{ value any }

func (p *lanePanic) Error() string { return fmt.Sprintf("kernel lane 1: %v", p.value) }

// lanePanicHook, when set (by tests only), is called by the helper before
// each phase it runs, to inject a panic.
var lanePanicHook func(phase int32)

func newCrew() *crew {
	c := &crew{idle: newGate(), finished: newGate()}
	go c.run()
	return c
}

// seqMask keeps phase numbers to 30 bits, so that post holds one with its
// phase and the helper's done, taken from post, matches the kernel's seq
// after they wrap (every 2^30 phases, a few hours of simulation).
const seqMask = 1<<30 - 1

// How long a side spins before it sleeps: a lane waiting within a cycle
// (for the other lane's step or, the kernel, for the helper to finish),
// stepSpin; the helper waiting for the next phase, which also waits through
// the kernel's serial work between cycles, idleSpin. Both are a few
// hand-overs long: an idle machine's waits end well within them, and a
// wait that outlasts them is most likely one for a side that is off its
// core, which the sleep gives the core to.
var (
	stepSpin = 5 * time.Microsecond
	idleSpin = 20 * time.Microsecond
)

// A gate is where a side sleeps once it has spun long enough: it sets
// asleep and checks its condition again before it sleeps, and the other
// side opens the gate after making the condition true, so one of the two
// sees the other's write (the atomics are sequentially consistent) and no
// wake is lost. A wake left over from an earlier sleep only makes the next
// sleep return early, to check the condition and spin again.
type gate struct {
	asleep atomic.Bool
	wake   chan struct{}
}

func newGate() *gate { return &gate{wake: make(chan struct{}, 1)} }

// open wakes the side sleeping at g, if any.
func (g *gate) open() {
	if g.asleep.Load() {
		select {
		case g.wake <- struct{}{}:
		default:
		}
	}
}

// sleep returns when ready may have become true.
func (g *gate) sleep(ready func() bool) {
	g.asleep.Store(true)
	if !ready() {
		<-g.wake
	}
	g.asleep.Store(false)
}

// wait spins until ready, reading the clock only every few hundred spins
// (it costs a few hundred nanoseconds), and sleeps at g once it has spun
// for spin. At each reading it also yields, in case the other side waits
// for this thread's processor (GOMAXPROCS 1).
func wait(ready func() bool, spin time.Duration, g *gate) {
	var since time.Time
	for i := 1; !ready(); i++ {
		if i&255 != 0 {
			continue
		}
		runtime.Gosched()
		if since.IsZero() {
			since = time.Now()
			continue
		}
		if time.Since(since) >= spin {
			g.sleep(ready)
			since = time.Time{}
		}
	}
}

func (c *crew) run() {
	var last uint32
	for {
		var post uint32
		ready := func() bool { post = c.post.Load(); return post>>2 != last }
		wait(func() bool {
			if ready() {
				return true
			}
			if c.quit.Load() {
				runtime.Goexit() // the kernel was collected: end the helper
			}
			return false
		}, idleSpin, c.idle)
		last = post >> 2
		k := c.k
		k.lanes[1].seq = last
		ok := c.runLane(k, int32(post&3))
		c.done.Store(last)
		c.finished.open()
		if !ok {
			return
		}
	}
}

// runLane runs phase p on lane 1 and reports whether it ended without a
// panic. A panic is kept for the kernel (failed), and lane 1 then shows
// every step of the phase done, so that lane 0 stops waiting for it.
func (c *crew) runLane(k *Kernel, p int32) (ok bool) {
	defer func() {
		if v := recover(); v != nil {
			c.failed.Store(&lanePanic{value: v})
			l := &k.lanes[1]
			atomic.StoreUint32(&l.mark, l.seq<<2|stepHanded)
			k.lanes[0].gate.open()
		}
	}()
	if lanePanicHook != nil {
		lanePanicHook(p)
	}
	k.runPhase(p, &k.lanes[1])
	return true
}

// raise panics, on the kernel's goroutine, with the helper's panic if it
// had one.
func (c *crew) raise() {
	if f := c.failed.Load(); f != nil {
		panic(f)
	}
}

// stop ends the helper (the kernel was collected).
func (c *crew) stop() {
	c.quit.Store(true)
	c.idle.open()
}
