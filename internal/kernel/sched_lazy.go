package kernel

// A traced scheduled run whose tracer writes only some events (a trace
// window, --trace-only) keeps a packet's worm record only from its first
// traced event on: until then the packet holds the serial ID, creation
// cycle and hop count its record would have (lazyPkt, 24 bytes instead of
// a record of several hundred), so a windowed trace of a total exchange
// takes the memory of the packets it shows. The trace is the same, event
// for event, as with every record made at creation.

// TraceScope is implemented by a tracer that writes only some events:
// Traces reports whether an event in cycle touching buffer b (b ≥
// Kernel.Buffers(): terminal b − Buffers()) would be written. A tracer
// may also say, by Scoped, whether records may wait for it at all (a trace
// that leaves nothing out needs every record; a tracer made of others,
// network.Tracers: whether all of them are TraceScopes that may); if not,
// every record is made at creation.
type TraceScope interface {
	Traces(cycle int64, b int32) bool
}

// LifeScope is implemented by a TraceScope that also writes a packet's
// life, not only its events (the Perfetto timeline's worm slice, from
// generation to delivery, with its hop count): Follows reports whether a
// packet created at terminal src in cycle gen may be written so. Such a
// packet gets its record at its delivery (its lazyPkt holds all the slice
// shows), or, still in flight, when the tracer asks (FollowDeferred).
type LifeScope interface {
	Follows(src int32, gen int64) bool
}

// lazyPkt is what a packet without its record yet keeps for it.
type lazyPkt struct {
	id   uint64 // serial ID reserved at creation (0: the packet is not deferred)
	gen  int64  // creation cycle
	hops int32
}

// scope is the tracer's TraceScope when packets may wait for their record:
// a tracer that says what it writes and no other observer.
func (k *Kernel) scope() TraceScope {
	if k.Hooks.Delivered != nil || k.Hooks.Ejected != nil || k.stats != nil {
		return nil
	}
	if m, ok := k.tr.(interface{ Scoped() bool }); ok && !m.Scoped() {
		return nil
	}
	sc, _ := k.tr.(TraceScope)
	return sc
}

// wanted reports whether deferred packet i needs its record for its event
// in the current cycle at buffers a and b (−1: none; b ≥ Kernel.Buffers():
// a terminal).
func (s *ScheduledPackets) wanted(i, a, b int32) bool {
	sc := s.k.scope()
	return a >= 0 && sc.Traces(s.k.now, a) || b >= 0 && sc.Traces(s.k.now, b)
}

// followed reports whether the tracer writes deferred packet i's life.
func (s *ScheduledPackets) followed(i int32) bool {
	f, ok := s.k.scope().(LifeScope)
	return ok && f.Follows(s.r(i).src, s.lazy[i].gen)
}

// FollowDeferred gives its record to every packet still in the network
// that waits for one, has made a hop, and whose life keep accepts, and
// calls fn with each record's pool index: a timeline ending with packets in
// flight writes those it follows, as it would had they had records all
// along.
func (k *Kernel) FollowDeferred(keep func(src int32, gen int64) bool, fn func(wi int32)) {
	sc := k.sched()
	if sc == nil || sc.pk.lazy == nil {
		return
	}
	s := &sc.pk
	for i := int32(0); i < s.n; i++ {
		if s.valid(i) && s.deferred(i) && s.lazy[i].hops > 0 && keep(s.r(i).src, s.lazy[i].gen) {
			fn(s.materialiseLazy(i))
		}
	}
}

// deferRecord keeps packet i's identity without a record (materialised
// later, by materialiseLazy, if it is ever traced).
func (s *ScheduledPackets) deferRecord(i int32) {
	if s.mirror == nil {
		s.mirror = fill(int(s.n), -1)
	}
	if s.lazy == nil {
		s.lazy = make([]lazyPkt, s.n)
	}
	s.lazy[i] = lazyPkt{id: s.k.Pool.Reserve(), gen: s.k.now}
}

// deferred reports whether packet i waits for its record.
func (s *ScheduledPackets) deferred(i int32) bool {
	return s.lazy != nil && s.mirror[i] < 0 && s.lazy[i].id != 0
}

// materialiseLazy gives deferred packet i the record it would have had.
func (s *ScheduledPackets) materialiseLazy(i int32) int32 {
	k, l, r := s.k, &s.lazy[i], s.r(i)
	wi := k.Pool.GetReserved(l.id)
	k.growWorms(wi)
	w := &k.Pool.Worms[wi]
	w.Src, w.Len, w.Dst, w.Dests, w.Aux = r.src, 1, r.dst, 1, r.Aux()
	w.GenCycle, w.InjCycle, w.Hops = l.gen, l.gen, l.hops
	s.mirror[i] = wi
	*l = lazyPkt{}
	return wi
}

// cloneLazy makes copy j of deferred packet i deferred too, with a fresh
// ID (as a record's copy gets).
func (s *ScheduledPackets) cloneLazy(i, j int32) {
	l := s.lazy[i]
	l.id = s.k.Pool.Reserve()
	s.lazy[j] = l
}
