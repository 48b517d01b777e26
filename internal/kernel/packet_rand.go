package kernel

import "math/bits"

// intN is k.rng.IntN(n) (the same draws, the same value: math/rand/v2's
// uint64n on 64-bit words), drawn straight from the kernel's PCG: the
// packet router shuffles every cycle's joins, one draw per packet-hop, and
// the call through rand.Rand's Source interface cost a third of a join.
func (k *Kernel) intN(n int) int {
	un := uint64(n)
	if un&(un-1) == 0 {
		return int(k.src.Uint64() & (un - 1))
	}
	hi, lo := bits.Mul64(k.src.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(k.src.Uint64(), un)
		}
	}
	return int(hi)
}
