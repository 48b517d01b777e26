package kernel

import "math/bits"

// The lock-step model's packet keys. A symmetric schedule fills a
// register at every node with the packet of one offset x — node u holds
// the packet of origin u ⊕ x — and a hypercube move keeps that form (the
// arrivals over dimension c hold u ⊕ (x ⊕ c)). Such a register's keys are
// kept as the one number x (its form) and written out per node only when
// a move or a load breaks the form: MNB on the 16-cube held 18 425
// registers × 65 536 nodes of 2-byte keys (2.4 GB, copied on every move:
// speed.md) where the forms take 74 KB.

// Keys are the packet keys of a move's receivers: node u received the
// packet Xor ⊕ u when Xor ≥ 0, else Of[u].
type Keys struct {
	Xor int32
	Of  []uint16
}

// At is node u's key.
func (k Keys) At(u int) uint16 {
	if k.Xor >= 0 {
		return uint16(int32(u) ^ k.Xor)
	}
	return k.Of[u]
}

// keyAt is the key register reg holds at node v (valid or not).
func (l *lockstep) keyAt(reg int32, v int) uint16 {
	return Keys{l.form[reg], l.key[reg]}.At(v)
}

// setKey puts key in register reg at node v, which is empty (the caller
// sets the valid bit and counts it).
func (l *lockstep) setKey(reg int32, v int, key uint16) {
	x := int32(v) ^ int32(key)
	switch {
	case l.cnt[reg] == 0 && l.symbolic:
		l.form[reg] = x
	case l.form[reg] == x:
	default:
		l.writeKeys(reg)
		l.key[reg][v] = key
	}
}

// writeKeys writes register reg's keys out per node (its form, if any, is
// dropped).
func (l *lockstep) writeKeys(reg int32) {
	if l.key[reg] == nil {
		l.key[reg] = make([]uint16, l.n)
	}
	x := l.form[reg]
	if x < 0 {
		return
	}
	l.form[reg] = -1
	if l.cnt[reg] == 0 {
		return
	}
	kk := l.key[reg]
	for w, word := range l.row(reg) {
		for ; word != 0; word &= word - 1 {
			u := w<<6 + bits.TrailingZeros64(word)
			kk[u] = uint16(int32(u) ^ x)
		}
	}
}
