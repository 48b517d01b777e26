package kernel_test

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// BenchmarkMeshFloor is a calibration, not a model: the least a Go loop can
// do per cycle for BenchmarkMesh8x8's workload (8×8 mesh, 4-flit input
// buffers, XY routing, 4-flit packets, Bernoulli load 0.3, the same
// combinational "a buffer emptied this cycle may be refilled" chains), with
// none of the kernel's generality: no statistics, arbitration policies,
// link accounting, ready times, invariant checks, deadlock detection or
// multicast. It moves about as many flits per cycle as the kernel (see its
// hops/cycle metric), so its cycles/s is a ceiling for what the kernel can
// reach on the machine at hand; docs/performance.md compares the two.
func BenchmarkMeshFloor(b *testing.B) {
	s := newFloorMesh()
	for range 2000 {
		s.cycle()
	}
	h0 := s.hops
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		s.cycle()
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "cycles/s")
	b.ReportMetric(float64(s.hops-h0)/sec, "flit-hops/s")
	b.ReportMetric(float64(s.hops-h0)/float64(b.N), "hops/cycle")
}

const (
	floorK  = 8
	floorN  = floorK * floorK
	floorP  = 5 // ports: east, west, north, south, local
	floorD  = 4 // flits per input buffer
	floorNB = floorN * floorP
	floorL  = 4 // flits per packet
)

type floorMesh struct {
	cnt, head [floorNB]uint8
	slot      [floorNB][floorD]uint32 // flit: worm<<2 | seq
	out       [floorNB]int8           // granted output port, or -1
	to        [floorNB]int32          // buffer behind it, or -1-terminal
	memo      [floorNB]uint32
	act, need [(floorNB + 63) / 64]uint64 // non-empty buffers; heads to route
	epoch     uint32
	owner     [floorNB]int32 // per output port: the input buffer holding it
	dst       []int32        // per worm
	free      []int32
	q         [floorN][]int32 // packets waiting at each source
	qi        [floorN]uint32  // flits of the front packet already injected
	next      [floorN]int64   // next packet's cycle
	rng       *rand.Rand
	lq        float64
	now, hops int64
	moves     []int32
	popped    [floorNB]uint32
}

func newFloorMesh() *floorMesh {
	s := &floorMesh{rng: rand.New(rand.NewPCG(1, 2)), lq: math.Log(1 - 0.3/floorL)}
	for i := range s.out {
		s.out[i], s.owner[i] = -1, -1
	}
	for i := range s.next {
		s.next[i] = s.gap()
	}
	return s
}

func (s *floorMesh) gap() int64 { return int64(math.Floor(math.Log(1-s.rng.Float64()) / s.lq)) }

func floorRoute(sw, dst int32) int8 {
	x, y, dx, dy := sw%floorK, sw/floorK, dst%floorK, dst/floorK
	switch {
	case dx > x:
		return 0
	case dx < x:
		return 1
	case dy > y:
		return 2
	case dy < y:
		return 3
	}
	return 4
}

func floorFar(sw int32, p int8) int32 {
	switch p {
	case 0:
		return (sw+1)*floorP + 1
	case 1:
		return (sw - 1) * floorP
	case 2:
		return (sw+floorK)*floorP + 3
	case 3:
		return (sw-floorK)*floorP + 2
	}
	return -1 - sw
}

func (s *floorMesh) push(d int32, f uint32) {
	s.slot[d][(s.head[d]+s.cnt[d])&(floorD-1)] = f
	if s.cnt[d] == 0 && f&3 == 0 {
		s.need[d>>6] |= 1 << (d & 63)
	}
	s.cnt[d]++
	s.act[d>>6] |= 1 << (d & 63)
}

func (s *floorMesh) canMove(b int32) bool {
	e := s.epoch << 2
	if s.memo[b]>>2 == s.epoch {
		return s.memo[b]&3 == 2
	}
	s.memo[b] = e | 1
	ok := false
	if s.cnt[b] > 0 && s.out[b] >= 0 {
		d := s.to[b]
		ok = d < 0 || s.cnt[d] < floorD || s.canMove(d)
	}
	if ok {
		s.memo[b] = e | 2
	} else {
		s.memo[b] = e | 3
	}
	return ok
}

func (s *floorMesh) cycle() {
	for t := int32(0); t < floorN; t++ {
		for s.next[t] <= s.now {
			d := s.rng.Int32N(floorN - 1)
			if d >= t {
				d++
			}
			var w int32
			if n := len(s.free); n > 0 {
				w, s.free = s.free[n-1], s.free[:n-1]
				s.dst[w] = d
			} else {
				w = int32(len(s.dst))
				s.dst = append(s.dst, d)
			}
			s.q[t] = append(s.q[t], w)
			s.next[t] += 1 + s.gap()
		}
	}
	// Route heads, first come first served.
	for wi, word := range s.need {
		for ; word != 0; word &= word - 1 {
			b := int32(wi<<6 | bits.TrailingZeros64(word))
			sw := b / floorP
			p := floorRoute(sw, s.dst[s.slot[b][s.head[b]]>>2])
			if o := sw*floorP + int32(p); s.owner[o] < 0 {
				s.owner[o], s.out[b], s.to[b] = b, p, floorFar(sw, p)
				s.need[b>>6] &^= 1 << (b & 63)
			}
		}
	}
	s.epoch++
	s.moves = s.moves[:0]
	for wi, word := range s.act {
		for word &^= s.need[wi]; word != 0; word &= word - 1 {
			if b := int32(wi<<6 | bits.TrailingZeros64(word)); s.canMove(b) {
				s.moves = append(s.moves, b)
			}
		}
	}
	for i, b := range s.moves {
		s.popped[i] = s.slot[b][s.head[b]]
		s.head[b] = (s.head[b] + 1) & (floorD - 1)
		if s.cnt[b]--; s.cnt[b] == 0 {
			s.act[b>>6] &^= 1 << (b & 63)
		}
	}
	for i, b := range s.moves {
		f := s.popped[i]
		s.hops++
		if d := s.to[b]; d >= 0 {
			s.push(d, f)
		} else if f&3 == floorL-1 {
			s.free = append(s.free, int32(f>>2))
		}
		if f&3 == floorL-1 {
			s.owner[b/floorP*floorP+int32(s.out[b])] = -1
			s.out[b] = -1
			if s.cnt[b] > 0 {
				s.need[b>>6] |= 1 << (b & 63)
			}
		}
	}
	for t := int32(0); t < floorN; t++ {
		if b := t*floorP + 4; len(s.q[t]) > 0 && s.cnt[b] < floorD {
			s.push(b, uint32(s.q[t][0])<<2|s.qi[t])
			if s.qi[t]++; s.qi[t] == floorL {
				s.qi[t], s.q[t] = 0, s.q[t][1:]
			}
		}
	}
	s.now++
}
