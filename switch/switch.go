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
	rrIn   int32     // round-robin: the input port with top priority
	reqs   []Request // posted this cycle (allocated at the first Post)
}

// New returns a switch with the given number of ports, all free.
func New(ports int, policy Policy) Switch {
	s := Switch{
		Owner:  make([]int32, ports),
		Policy: policy,
	}
	for i := range s.Owner {
		s.Owner[i] = Free
	}
	return s
}

// Ports is the radix of the switch.
func (s *Switch) Ports() int { return len(s.Owner) }

// Post adds a request for this cycle. The room for a request per port is
// made at the first Post: a switch whose requests are decided without
// Post (the kernel's Award) costs no more than its owners, 56 bytes a port
// fewer in a large network.
func (s *Switch) Post(r Request) {
	if s.reqs == nil {
		s.reqs = make([]Request, 0, len(s.Owner))
	}
	s.reqs = append(s.reqs, r)
}

// Pending reports whether any request was posted this cycle.
func (s *Switch) Pending() bool { return len(s.reqs) > 0 }

// Arbitrate decides this cycle's requests and clears them. Requests are
// ranked by the policy (ties broken by worm serial, so the outcome does not
// depend on the order they were posted), then granted greedily in rank
// order: a request gets every port it wants if all are still free, or none
// (a multicast head takes all its ports or none). A single total order per
// switch matters: ranking port by port could let two multi-port requests
// each beat the other on one port, and neither would ever win. For each
// winner Arbitrate sets the owners and calls grant with the request and the
// ports it got (all it wanted, except under Grab).
func (s *Switch) Arbitrate(grant func(r *Request, got PortSet)) {
	if s.Policy == Grab {
		s.grab(grant)
		return
	}
	// Insertion sort: a switch has at most one request per input port.
	for i := 1; i < len(s.reqs); i++ {
		for j := i; j > 0 && s.before(&s.reqs[j], &s.reqs[j-1]); j-- {
			s.reqs[j], s.reqs[j-1] = s.reqs[j-1], s.reqs[j]
		}
	}
	for i := range s.reqs {
		r := &s.reqs[i]
		if s.Grantable(r.Want) {
			s.take(r, r.Want)
			s.rrIn = r.In + 1
			if s.rrIn == int32(len(s.Owner)) {
				s.rrIn = 0
			}
			grant(r, r.Want)
		}
	}
	s.reqs = s.reqs[:0]
}

// Single decides a cycle in which exactly one request was posted, the common
// case, without Arbitrate's ranking and callback: outside Grab a lone
// request was grantable when posted, so it wins. It returns the request
// (valid until the next Post) and the ports granted, as Arbitrate would pass
// them to grant, or nil when the cycle needs Arbitrate.
func (s *Switch) Single() (*Request, PortSet) {
	if len(s.reqs) != 1 || s.Policy == Grab || !s.Grantable(s.reqs[0].Want) {
		return nil, 0
	}
	r := &s.reqs[0]
	s.take(r, r.Want)
	s.rrIn = r.In + 1
	if s.rrIn == int32(len(s.Owner)) {
		s.rrIn = 0
	}
	s.reqs = s.reqs[:0]
	return r, r.Want
}

// ByInput reports whether policy p ranks requests by their input port alone
// (RoundRobin, UpperFirst). A switch has at most one request per input, so
// under these policies every request has a rank of its own (Rank), and a
// caller whose requests each want one port can decide a cycle without
// Post and Arbitrate: each port goes to its first-ranked requester (Award),
// and the switch is told the last-ranked winner (Awarded). The outcome is
// Arbitrate's.
func (p Policy) ByInput() bool { return p == RoundRobin || p == UpperFirst }

// Rank is the place, lowest first, of this cycle's request from input in,
// under a ByInput policy.
func (s *Switch) Rank(in int32) int32 {
	if s.Policy == RoundRobin {
		return s.round(in, s.rrIn)
	}
	return in
}

// Award gives output port p to worm (a request's whole want, granted).
func (s *Switch) Award(p int, worm int32) { s.Owner[p] = worm }

// Awarded ends a cycle decided by Award: in is the input of the winner with
// the last rank, after whom the round-robin pointer moves, as Arbitrate
// moves it after each winner in rank order.
func (s *Switch) Awarded(in int32) {
	s.rrIn = in + 1
	if s.rrIn == int32(len(s.Owner)) {
		s.rrIn = 0
	}
}

// before reports whether request a ranks before request b.
func (s *Switch) before(a, b *Request) bool {
	switch s.Policy {
	case RoundRobin:
		// Distance from the switch's pointer, going round: the input after
		// the last winner comes first.
		if ka, kb := s.round(a.In, s.rrIn), s.round(b.In, s.rrIn); ka != kb {
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
	case Clock:
		if a.Age != b.Age {
			return a.Age < b.Age
		}
		if a.Src != b.Src {
			return a.Src < b.Src
		}
	case Grab: // (ranked port by port, in grab)
	default: // a registered arbiter (RegisterArbiter)
		if c := arbiters[s.Policy].Compare(a, b, s.rrIn, int32(len(s.Owner))); c != 0 {
			return c < 0
		}
	}
	return a.ID < b.ID
}

func (s *Switch) take(r *Request, ports PortSet) {
	for w := ports; w != 0; {
		s.Owner[w.Next()] = r.Worm
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
				if j != i && s.reqs[j].Want.Has(p) && s.grabs(&s.reqs[j], r, p) {
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

// Grantable reports whether every port in want is free.
func (s *Switch) Grantable(want PortSet) bool {
	for w := want; w != 0; {
		if s.Owner[w.Next()] != Free {
			return false
		}
	}
	return true
}

// grabs reports whether a takes output port p before b under Grab: each
// port's arbiter favours its straight-through input.
func (s *Switch) grabs(a, b *Request, p int) bool {
	if ka, kb := s.round(a.In, int32(p)), s.round(b.In, int32(p)); ka != kb {
		return ka < kb
	}
	return a.ID < b.ID
}

// round is how far input in comes after input from, going round the switch.
func (s *Switch) round(in, from int32) int32 {
	d := in - from
	return d + int32(len(s.Owner))&(d>>31) // (+ the radix when d < 0)
}
