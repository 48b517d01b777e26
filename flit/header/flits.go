package header

import (
	"fmt"
	"strconv"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// A header's content in structured form. Encoders build one and emit it as
// flits; decoders parse flits into one, split it and emit the pieces.
type parsed struct {
	addrs   []addr   // ad, pseudo-ad: in header order (EOH not included)
	regions []region // region schemes, in header order
	bits    []bool   // bit-string schemes
}

type addr struct {
	v      int
	pseudo bool
}

// region is one region of any region scheme; fields a scheme does not use
// stay zero.
type region struct {
	b, e int
	s    int    // stride (mrs), ≥ 1
	m    int    // mask (mrm): free bit positions
	t    []bool // mrbs: t[i] tells whether node b+i is a destination
}

// has reports whether node d is in the region.
func (r region) has(s Scheme, d int) bool {
	if d < r.b || d > r.e {
		return false
	}
	switch s {
	case RegionStride:
		return (d-r.b)%r.s == 0
	case RegionMask:
		return d&^r.m == r.b&^r.m
	case RegionBitString:
		return r.t[d-r.b]
	}
	return true
}

// members lists the region's nodes, ascending.
func (r region) members(s Scheme) []int {
	var out []int
	step := 1
	if s == RegionStride {
		step = r.s
	}
	for d := r.b; d <= r.e; d += step {
		if r.has(s, d) {
			out = append(out, d)
		}
	}
	return out
}

// format writes the region as the thesis does: b:e, b:e:s, b:e:m (binary,
// w bits each) or b:e:T.
func (r region) format(s Scheme, w int) string {
	switch s {
	case RegionStride:
		return fmt.Sprintf("%d:%d:%d", r.b, r.e, r.s)
	case RegionMask:
		bin := func(x int) string {
			t := strconv.FormatInt(int64(x), 2)
			for len(t) < w {
				t = "0" + t
			}
			return t
		}
		return bin(r.b) + ":" + bin(r.e) + ":" + bin(r.m)
	case RegionBitString:
		return fmt.Sprintf("%d:%d:%s", r.b, r.e, bitString(r.t))
	}
	return fmt.Sprintf("%d:%d", r.b, r.e)
}

// maxValue is the largest value a w-bit flit holds.
func maxValue(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

// packBits puts a bit string into w-bit flits, first bit in the MSB; the
// last flit may be partial (Bits < w, zero padding at the low end).
func packBits(bits []bool, w int) []Flit {
	var out []Flit
	for i := 0; i < len(bits); i += w {
		n := min(w, len(bits)-i)
		var v uint64
		for j := 0; j < n; j++ {
			if bits[i+j] {
				v |= 1 << uint(w-1-j)
			}
		}
		out = append(out, Flit{Kind: KindBits, Value: v, Bits: n})
	}
	return out
}

// emit sets h.Flits from p.
func (h *Header) emit(p parsed) error {
	w := h.FlitBits
	var fl []Flit
	put := func(k Kind, v int) { fl = append(fl, Flit{Kind: k, Value: uint64(v)}) }
	switch {
	case h.Scheme.isAddress():
		for _, a := range p.addrs {
			k := KindAddress
			if a.pseudo {
				k = KindPseudo
			}
			put(k, a.v)
		}
		// All 0s: addresses ascend, so a 0 after the first address cannot be
		// one (Chiang §2.2.1); decoders go by the flit's kind anyway.
		put(KindEOH, 0)
	case h.Scheme.isBits():
		fl = packBits(p.bits, w)
	default:
		if !h.EOH {
			if uint64(len(p.regions)) > maxValue(w) {
				return inputerr.New("flit-bits", strconv.Itoa(w), "enough bits for the region counter (%d regions need %d bits)", len(p.regions), addrBits(len(p.regions)+1))
			}
			put(KindCounter, len(p.regions))
		}
		for _, r := range p.regions {
			put(KindBegin, r.b)
			put(KindEnd, r.e)
			switch h.Scheme {
			case RegionStride:
				put(KindStride, r.s)
			case RegionMask:
				put(KindMask, r.m)
			case RegionBitString:
				fl = append(fl, packBits(r.t, w)...)
			}
		}
		if h.EOH {
			// An EOH region: all 1s then all 0s (a "region" whose end is below
			// its begin), with the third field of stride/mask ignored.
			fl = append(fl, Flit{Kind: KindEOH, Value: maxValue(w)}, Flit{Kind: KindEOH})
			if h.Scheme.regionFields() == 3 {
				fl = append(fl, Flit{Kind: KindEOH})
			}
		}
	}
	h.Flits = fl
	return nil
}

// parse reads h.Flits back into structured form, checking that the header is
// well formed for its scheme and parameters.
func (h *Header) parse() (parsed, error) {
	var p parsed
	fl := h.Flits
	fail := func(i int, format string, args ...any) (parsed, error) {
		return parsed{}, fmt.Errorf("%s header, flit %d: %s", h.Scheme, i, fmt.Sprintf(format, args...))
	}
	switch {
	case h.Scheme.isAddress():
		for i, f := range fl {
			switch f.Kind {
			case KindAddress, KindPseudo:
				if f.Value >= uint64(h.Nodes) {
					return fail(i, "address %d ≥ %d nodes", f.Value, h.Nodes)
				}
				p.addrs = append(p.addrs, addr{int(f.Value), f.Kind == KindPseudo})
			case KindEOH:
				if i != len(fl)-1 {
					return fail(i, "EOH before the end")
				}
				return p, nil
			default:
				return fail(i, "unexpected %s flit", f.Kind)
			}
		}
		return fail(len(fl), "no EOH")
	case h.Scheme.isBits():
		bits, err := h.unpack(fl, 0, len(fl))
		if err != nil {
			return parsed{}, err
		}
		p.bits = bits
		return p, nil
	}

	i := 0
	count := -1
	if !h.EOH {
		if len(fl) == 0 || fl[0].Kind != KindCounter {
			return fail(0, "no region counter")
		}
		count = int(fl[0].Value)
		i = 1
	}
	next := func(k Kind) (int, bool) {
		if i >= len(fl) || fl[i].Kind != k {
			return 0, false
		}
		i++
		return int(fl[i-1].Value), true
	}
	for count < 0 || len(p.regions) < count {
		if h.EOH && i < len(fl) && fl[i].Kind == KindEOH {
			n := h.Scheme.regionFields()
			if i+n != len(fl) {
				return fail(i, "EOH region of %d flits must end the header", n)
			}
			for _, f := range fl[i : i+n] {
				if f.Kind != KindEOH {
					return fail(i, "incomplete EOH region")
				}
			}
			return p, nil
		}
		start := i
		var r region
		var ok bool
		if r.b, ok = next(KindBegin); !ok {
			return fail(i, "want region-begin")
		}
		if r.e, ok = next(KindEnd); !ok {
			return fail(i, "want region-end")
		}
		if r.b > r.e || r.e >= h.Nodes {
			return fail(start, "region %d:%d outside 0 ≤ b ≤ e < %d", r.b, r.e, h.Nodes)
		}
		switch h.Scheme {
		case RegionStride:
			if r.s, ok = next(KindStride); !ok || r.s < 1 {
				return fail(i, "want a stride ≥ 1")
			}
		case RegionMask:
			if r.m, ok = next(KindMask); !ok || r.m >= 1<<addrBits(h.Nodes) || r.b&^r.m != r.e&^r.m {
				return fail(i, "want a mask with b and e equal where it is 0")
			}
		case RegionBitString:
			n := (r.e - r.b + h.FlitBits) / h.FlitBits
			if i+n > len(fl) {
				return fail(i, "region %d:%d needs %d bit flits", r.b, r.e, n)
			}
			t, err := h.unpack(fl, i, i+n)
			if err != nil {
				return parsed{}, err
			}
			if len(t) != r.e-r.b+1 || !t[0] || !t[len(t)-1] {
				return fail(i, "region %d:%d needs %d bits, first and last 1", r.b, r.e, r.e-r.b+1)
			}
			r.t = t
			i += n
		}
		p.regions = append(p.regions, r)
	}
	if i != len(fl) {
		return fail(i, "%d flits after the %d counted regions", len(fl)-i, count)
	}
	return p, nil
}

// unpack concatenates the meaningful bits of bit flits fl[from:to].
func (h *Header) unpack(fl []Flit, from, to int) ([]bool, error) {
	var bits []bool
	w := h.FlitBits
	for i := from; i < to; i++ {
		f := fl[i]
		if f.Kind != KindBits || f.Bits < 1 || f.Bits > w || (i < to-1 && f.Bits != w) {
			return nil, fmt.Errorf("%s header, flit %d: want a bits flit (full unless last)", h.Scheme, i)
		}
		for j := 0; j < f.Bits; j++ {
			bits = append(bits, f.Value>>uint(w-1-j)&1 == 1)
		}
	}
	return bits, nil
}
