package kernel

import (
	"iter"
	"math/bits"
)

// bitset is a set of buffer ids kept one 64-bit word per cache line: with
// two lanes, each lane then writes only lines of its own, where packed words
// of a small network would all share one line and bounce between the cores
// on every move. (The cost, 56 idle bytes per 64 buffers, is less than a
// bufState.)
type bitset []uint64

// bitsetStride is the distance, in words, between consecutive words.
const bitsetStride = 8

func newBitset(n int32) bitset { return make(bitset, (n+63)/64*bitsetStride) }

// words is the number of words (64 ids each).
func (s bitset) words() int { return len(s) / bitsetStride }

// word is the word holding ids [64·wi, 64·wi+64).
func (s bitset) word(wi int) uint64 { return *elem(s, int32(wi*bitsetStride)) }

// wordOf is a pointer to the word holding id b.
func (s bitset) wordOf(b int32) *uint64 { return elem(s, (b>>6)*bitsetStride) }

func (s bitset) has(b int32) bool { return *s.wordOf(b)&(1<<uint(b&63)) != 0 }

func (s bitset) set(b int32) { *s.wordOf(b) |= 1 << uint(b&63) }

func (s bitset) clear(b int32) { *s.wordOf(b) &^= 1 << uint(b&63) }

// or sets b when v is 1 and leaves it when v is 0, with no branch on v (for
// conditions the CPU cannot predict).
func (s bitset) or(b int32, v uint64) { *s.wordOf(b) |= v << uint(b&63) }

// clearSetIf clears b, which is set, when v is 1 and leaves it when v is 0,
// with no branch (by an exclusive or: one operation fewer than a masked
// clear).
func (s bitset) clearSetIf(b int32, v uint64) { *s.wordOf(b) ^= v << uint(b&63) }

// b2u is 1 for true and 0 for false (a flag move, no jump).
func b2u(c bool) uint64 {
	var u uint64
	if c {
		u = 1
	}
	return u
}

// count is the number of ids in the set among those of the words holding
// [lo, hi) (a lane's range: whole words, see Kernel.alignCut), an upper
// bound of those in [lo, hi).
func (s bitset) count(lo, hi int32) int32 {
	n := 0
	for wi := int(lo >> 6); wi <= int((hi-1)>>6); wi++ {
		n += bits.OnesCount64(s.word(wi))
	}
	return int32(n)
}

func (s bitset) any() bool {
	for wi := range s.words() {
		if s.word(wi) != 0 {
			return true
		}
	}
	return false
}

// all yields the ids in the set, in increasing order.
func (s bitset) all() iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for wi := range s.words() {
			for word := s.word(wi); word != 0; word &= word - 1 {
				if !yield(int32(wi<<6 | bits.TrailingZeros64(word))) {
					return
				}
			}
		}
	}
}
