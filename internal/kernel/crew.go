package kernel

import (
	"runtime"
	"sync/atomic"
	"time"
)

// crew is the second worker: a goroutine that runs lane 1 of each phase the
// kernel posts. Phases are short (a few microseconds), so both sides spin
// while they wait for each other, and sleep (the helper on wake, the kernel
// on finished) when the wait grows long, as it does when other programs
// share the cores.
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

	sleeping atomic.Bool // the helper sleeps on wake
	waiting  atomic.Bool // the kernel sleeps on finished
	quit     atomic.Bool
	wake     chan struct{}
	finished chan struct{}
}

func newCrew() *crew {
	c := &crew{wake: make(chan struct{}, 1), finished: make(chan struct{}, 1)}
	go c.run()
	return c
}

// seqMask keeps phase numbers to 30 bits, so that post holds one with its
// phase and the helper's done, taken from post, matches the kernel's seq
// after they wrap (every 2^30 phases, a few hours of simulation).
const seqMask = 1<<30 - 1

// How long a side spins for the other before it sleeps: the kernel minSpin;
// the helper, which also waits through the kernel's serial work between
// phases, idleSpin.
const (
	minSpin  = 20 * time.Microsecond
	idleSpin = 200 * time.Microsecond
)

// wait spins until ready, reading the clock only every few thousand spins
// (it costs about as much as a hand-over), and calls sleep once it has spun
// for spin (sleep returns when ready may have become true). At each reading
// it also yields, in case the other side waits for this thread's processor
// (GOMAXPROCS 1).
func (c *crew) wait(ready func() bool, spin time.Duration, sleep func()) {
	var since time.Time
	for i := 1; !ready(); i++ {
		if i&4095 != 0 {
			continue
		}
		runtime.Gosched()
		if since.IsZero() {
			since = time.Now()
			continue
		}
		if time.Since(since) >= spin {
			sleep()
			since = time.Time{}
		}
	}
}

func (c *crew) run() {
	var last uint32
	for {
		var post uint32
		c.wait(func() bool { post = c.post.Load(); return post>>2 != last }, idleSpin, func() {
			c.sleeping.Store(true)
			if c.post.Load()>>2 == last {
				if c.quit.Load() {
					runtime.Goexit() // the kernel was collected: end the helper
				}
				<-c.wake
			}
			c.sleeping.Store(false)
		})
		last = post >> 2
		k := c.k
		k.lanes[1].seq = last
		k.runPhase(int32(post&3), &k.lanes[1])
		c.done.Store(last)
		if c.waiting.Load() {
			select {
			case c.finished <- struct{}{}:
			default:
			}
		}
	}
}

// stop ends the helper (the kernel was collected).
func (c *crew) stop() {
	c.quit.Store(true)
	select {
	case c.wake <- struct{}{}:
	default:
	}
}
