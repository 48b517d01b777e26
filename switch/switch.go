package xbar

// Free marks an output port that no worm holds.
const Free int32 = -1

// Switch is the allocation state of one k×k crossbar: which worm holds each
// output port, the arbiter's rotating pointers, and the requests posted in the
// current cycle. The data path (buffers and flit moves) belongs to the
// network kernel, which owns every buffer of the fabric in flat arrays.
//
// An output port is held by a worm from the cycle its head is granted until
// its tail has left the port's output stage (its output buffer, or the
// crossbar when the port has no buffer). A released port can be granted again
// from the next cycle on.
type Switch struct {
	Owner  []int32 // per output port: worm pool index, or Free
	Policy Policy
	rr     []int32   // per output port: the input port with top priority
	reqs   []Request // posted this cycle
	won    []bool
}

// New returns a switch with the given number of ports, all free.
func New(ports int, policy Policy) Switch {
	s := Switch{
		Owner:  make([]int32, ports),
		Policy: policy,
		rr:     make([]int32, ports),
		reqs:   make([]Request, 0, ports),
		won:    make([]bool, 0, ports),
	}
	for i := range s.Owner {
		s.Owner[i] = Free
	}
	return s
}

// Ports is the radix of the switch.
func (s *Switch) Ports() int { return len(s.Owner) }

// Post adds a request for this cycle.
func (s *Switch) Post(r Request) { s.reqs = append(s.reqs, r) }

// Pending reports whether any request was posted this cycle.
func (s *Switch) Pending() bool { return len(s.reqs) > 0 }

// Arbitrate decides this cycle's requests and clears them. A request is
// granted when every port it wants is free and, on each of those ports, it
// beats every other request that could also be granted. Granting is
// all-or-nothing (a multicast head takes all its ports or none), and the
// outcome does not depend on the order requests were posted. For each winner
// Arbitrate sets the owners and calls grant with the request and the ports
// it got (all it wanted, except under Grab).
func (s *Switch) Arbitrate(grant func(r *Request, got PortSet)) {
	if s.Policy == Grab {
		s.grab(grant)
		return
	}
	n := len(s.reqs)
	s.won = s.won[:0]
	for i := 0; i < n; i++ {
		s.won = append(s.won, s.eligible(&s.reqs[i]))
	}
	for i := 0; i < n; i++ {
		if !s.won[i] {
			continue
		}
		r := &s.reqs[i]
		for j := 0; j < n && s.won[i]; j++ {
			if j == i || s.reqs[j].Want&r.Want == 0 || !s.eligible(&s.reqs[j]) {
				continue
			}
			for w := r.Want & s.reqs[j].Want; w != 0; {
				p := w.Next()
				if s.better(&s.reqs[j], r, p) {
					s.won[i] = false
					break
				}
			}
		}
	}
	for i := 0; i < n; i++ {
		if !s.won[i] {
			continue
		}
		r := &s.reqs[i]
		s.take(r, r.Want)
		grant(r, r.Want)
	}
	s.reqs = s.reqs[:0]
}

func (s *Switch) take(r *Request, ports PortSet) {
	for w := ports; w != 0; {
		p := w.Next()
		s.Owner[p] = r.Worm
		s.rr[p] = r.In + 1
		if s.rr[p] == int32(len(s.Owner)) {
			s.rr[p] = 0
		}
	}
}

// grab is the non-atomic policy: every free port is decided by its own
// arbiter, which favours the straight-through input (input p for output p,
// then p+1, … round the switch), whether or not the winner can get its other
// ports. A multicast head may so hold some of its ports while it waits for
// the rest, which is the deadlock and starvation hazard of Chiang's Fig 4.6.
func (s *Switch) grab(grant func(r *Request, got PortSet)) {
	for i := range s.reqs {
		r := &s.reqs[i]
		var got PortSet
		for w := r.Want; w != 0; {
			p := w.Next()
			if s.Owner[p] != Free {
				continue
			}
			best := true
			for j := range s.reqs {
				if j != i && s.reqs[j].Want.Has(p) && s.better(&s.reqs[j], r, p) {
					best = false
					break
				}
			}
			if best {
				got |= Port(p)
			}
		}
		if got != 0 {
			s.take(r, got)
			grant(r, got)
		}
	}
	s.reqs = s.reqs[:0]
}

func (s *Switch) eligible(r *Request) bool { return s.Grantable(r.Want) }

// Grantable reports whether every port in want is free.
func (s *Switch) Grantable(want PortSet) bool {
	for w := want; w != 0; {
		if s.Owner[w.Next()] != Free {
			return false
		}
	}
	return true
}

// better reports whether a beats b for output port p.
func (s *Switch) better(a, b *Request, p int) bool {
	switch s.Policy {
	case RoundRobin:
		// Distance from the pointer, going round: inputs at or after it
		// come first.
		ka, kb := a.In-s.rr[p], b.In-s.rr[p]
		if ka < 0 {
			ka += int32(len(s.Owner))
		}
		if kb < 0 {
			kb += int32(len(s.Owner))
		}
		if ka != kb {
			return ka < kb
		}
	case Oldest:
		if a.Age != b.Age {
			return a.Age < b.Age
		}
	case UpperFirst:
		if a.In != b.In {
			return a.In < b.In
		}
	case SourcePriority:
		if a.Src != b.Src {
			return a.Src < b.Src
		}
	case Grab:
		ka, kb := a.In-int32(p), b.In-int32(p)
		if ka < 0 {
			ka += int32(len(s.Owner))
		}
		if kb < 0 {
			kb += int32(len(s.Owner))
		}
		if ka != kb {
			return ka < kb
		}
	case Clock:
		if a.Age != b.Age {
			return a.Age < b.Age
		}
		if a.Src != b.Src {
			return a.Src < b.Src
		}
	}
	return a.ID < b.ID
}
