package kernel

import (
	"encoding/binary"
	"math/bits"
)

// shuffle is the packet router's shuffle of the packets parked at a
// barrier (they start their next leg in random order): Fisher–Yates from
// the end, j = intN(i+1) (the same draws in the same order as k.intN
// would make), with the PCG's state in registers for the whole loop
// rather than loaded and stored by every draw. (It shuffled every cycle's
// joins too, a draw per packet-hop, before packet_arrive.go's order.)
func shuffle[T any](k *Kernel, js []T) {
	if len(js) < 2 {
		return
	}
	var buf [20]byte
	b, _ := k.src.AppendBinary(buf[:0]) // "pcg:", then hi and lo, big-endian
	shi, slo := binary.BigEndian.Uint64(b[4:]), binary.BigEndian.Uint64(b[12:])
	for i := len(js) - 1; i > 0; i-- {
		// j = IntN(i+1): rand.Rand's uint64n, written out (as a function
		// it would not inline; the test's drawLikeShuffle is this body)
		n := uint64(i + 1)
		var x uint64
		x, shi, slo = pcgNext(shi, slo)
		j, lo := bits.Mul64(x, n)
		if n&(n-1) == 0 {
			j = x & (n - 1)
		} else if lo < n { // (rand's rejection test, inline: a call here would spill the loop's values)
			for thresh := -n % n; lo < thresh; {
				x, shi, slo = pcgNext(shi, slo)
				j, lo = bits.Mul64(x, n)
			}
		}
		js[i], js[j] = js[j], js[i]
	}
	binary.BigEndian.PutUint64(b[4:], shi)
	binary.BigEndian.PutUint64(b[12:], slo)
	if err := k.src.UnmarshalBinary(b); err != nil {
		panic(err) // (it reads back what AppendBinary wrote)
	}
}

// pcgNext is math/rand/v2's PCG.Uint64 on the state (hi, lo): the value
// and the next state.
func pcgNext(hi, lo uint64) (x, nhi, nlo uint64) {
	const (
		mulHi = 2549297995355413924
		mulLo = 4865540595714422341
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	h, l := bits.Mul64(lo, mulLo)
	h += hi*mulLo + lo*mulHi
	l, c := bits.Add64(l, incLo, 0)
	h, _ = bits.Add64(h, incHi, c)
	const cheapMul = 0xda942042e4dd58b5
	x = h ^ h>>32
	x *= cheapMul
	x ^= x >> 48
	x *= l | 1
	return x, h, l
}
