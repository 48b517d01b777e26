package kernel

// Livelock watch of the deflection schemes (deflect.go). A deflected
// packet is never dropped and never waits, so nothing bounds its path: in
// principle it can wander for ever (livelock), and a node whose d links
// all carry passing packets cannot inject however long it waits (Fig.
// 6.7's lockout: starvation). The network never stops for either, so the
// run reports both, over the whole run: the oldest packet's age, the
// most deflections of one packet, and the longest run of slots in which a
// node's every link was taken by packets passing through.

// DeflLivelock is SlottedCounts.Livelock.
type DeflLivelock struct {
	// OldestAge is the most slots any packet spent in the network: a
	// delivered one's slots from entry to delivery, or one still in
	// flight at the end its slots so far (counting the link it is on).
	OldestAge int64
	// MaxDeflections is the most deflections of one packet, delivered or
	// in flight (a packet's count saturates at 254).
	MaxDeflections int64
	// LongestLockout is the longest run of consecutive slots in which a
	// node held d passing packets, so had no free link to inject on, and
	// LockoutNode the node (the first to reach it); the run still going
	// at the end counts.
	LongestLockout int64
	LockoutNode    int
}

// deflLive is the watch's state: the figures so far and, per node, the
// slots its current lockout has lasted.
type deflLive struct {
	DeflLivelock
	lockRun []int32
}

// aged takes packet p, delivered at the end of slot now.
func (w *deflLive) aged(p slotPkt, now int64) {
	w.take(int64(uint32(now+1)-p.birth), int64(p.dt&0xff)-1)
}

// take counts a packet age slots old after defl deflections.
func (l *DeflLivelock) take(age, defl int64) {
	l.OldestAge = max(l.OldestAge, age)
	l.MaxDeflections = max(l.MaxDeflections, defl)
}

// locked records whether node s had all its links taken by passing
// packets in slot now.
func (w *deflLive) locked(s int, full bool, now int64) {
	if !full {
		w.lockRun[s] = 0
		return
	}
	w.lockRun[s]++
	if r := int64(w.lockRun[s]); r > w.LongestLockout {
		w.LongestLockout, w.LockoutNode = r, s
	}
}

// livelock is the watch's figures before slot now, the packets in flight
// on the links counted.
func (m *slotted) livelock(now int64) *DeflLivelock {
	out := m.live.DeflLivelock
	for _, p := range m.cur {
		if p.dt != 0 {
			out.take(int64(uint32(now+1)-p.birth), int64(p.dt&0xff)-1)
		}
	}
	return &out
}
