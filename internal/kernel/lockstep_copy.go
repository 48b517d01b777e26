package kernel

import "math/bits"

// The lock-step model's register copies. A hypercube dimension's port
// (xorOf ≥ 0) pairs node v with v ⊕ c, so a move's arrivals are the
// sending register's valid words with blocks of c bits swapped and its
// keys with blocks of c swapped (or, for a register with a form, the form
// ⊕ c: lockstep_keys.go): whole-word and block copies instead of a loop
// over nodes (speed notes: speed.md).

// stage computes move i's arrivals: receivers and their keys.
func (l *lockstep) stage(i int, m RegMove) {
	arr, from := l.arr[i], l.row(m.From)
	c, x := l.xorOf[m.Port], l.form[m.From]
	if l.arrForm[i] = -1; c >= 0 && x >= 0 {
		xorBits(arr, from, int(c))
		l.arrForm[i] = x ^ c
		return
	}
	if l.arrKey[i] == nil {
		l.arrKey[i] = make([]uint16, l.n)
	}
	ak := l.arrKey[i]
	if c >= 0 {
		xorBits(arr, from, int(c))
		xorKeys(ak, l.key[m.From], int(c))
		return
	}
	clear(arr)
	nbr := l.nbr[m.Port]
	for w, word := range from {
		for ; word != 0; word &= word - 1 {
			v := w<<6 + bits.TrailingZeros64(word)
			u := nbr[v]
			arr[u>>6] |= 1 << (u & 63)
			ak[u] = l.keyAt(m.From, v)
		}
	}
}

// swapMasks[k] selects, in a word, the bits whose index has bit k clear.
var swapMasks = [6]uint64{0x5555555555555555, 0x3333333333333333, 0x0f0f0f0f0f0f0f0f,
	0x00ff00ff00ff00ff, 0x0000ffff0000ffff, 0x00000000ffffffff}

// xorBits sets dst's bit v ⊕ c to src's bit v (c a power of two).
func xorBits(dst, src []uint64, c int) {
	if c >= 64 {
		cw := c >> 6
		for w := range dst {
			dst[w] = src[w^cw]
		}
		return
	}
	k := bits.TrailingZeros(uint(c))
	mk := swapMasks[k]
	for w, x := range src {
		dst[w] = x>>c&mk | x&mk<<c
	}
}

// xorKeys sets dst[v ⊕ c] = src[v] (c a power of two, len a multiple of
// 2c).
func xorKeys(dst, src []uint16, c int) {
	if c == 1 {
		for v := 0; v+1 < len(src); v += 2 {
			dst[v], dst[v+1] = src[v+1], src[v]
		}
		return
	}
	for b := 0; b+2*c <= len(src); b += 2 * c {
		copy(dst[b:b+c], src[b+c:b+2*c])
		copy(dst[b+c:b+2*c], src[b:b+c])
	}
}

// fill puts the arrivals arr (keys ak) into register reg: their bits, and
// their form where reg is empty or has the same one, else their keys
// (lockstep_keys.go).
func (l *lockstep) fill(reg int32, arr []uint64, ak Keys) {
	row, n := l.row(reg), int64(0)
	for w, word := range arr {
		row[w] |= word
		n += int64(bits.OnesCount64(word))
	}
	keep := ak.Xor >= 0 && (l.cnt[reg] == 0 || l.form[reg] == ak.Xor)
	l.cnt[reg] += n
	l.live += n
	if keep {
		l.form[reg] = ak.Xor
		return
	}
	if l.cnt[reg] == n { // (was empty: nothing to write out)
		l.form[reg] = -1
	}
	l.writeKeys(reg)
	kk := l.key[reg]
	if ak.Xor >= 0 {
		for w, word := range arr {
			for ; word != 0; word &= word - 1 {
				u := w<<6 + bits.TrailingZeros64(word)
				kk[u] = ak.At(u)
			}
		}
		return
	}
	for w, word := range arr {
		if word == 0 {
			continue
		}
		if b := w << 6; word == ^uint64(0) {
			copy(kk[b:b+64], ak.Of[b:b+64])
			continue
		}
		for ; word != 0; word &= word - 1 {
			u := w<<6 + bits.TrailingZeros64(word)
			kk[u] = ak.Of[u]
		}
	}
}
