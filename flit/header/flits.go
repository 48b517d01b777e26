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
	switch {
	case h.Scheme.isAddress():
		return h.parseAddrs()
	case h.Scheme.isBits():
		bits, err := h.unpack(h.Flits, 0, len(h.Flits))
		if err != nil {
			return parsed{}, err
		}
		return parsed{bits: bits}, nil
	}
	return h.parseRegions()
}

// errAt is a malformed header's error at flit i.
func (h *Header) errAt(i int, format string, args ...any) error {
	return fmt.Errorf("%s header, flit %d: %s", h.Scheme, i, fmt.Sprintf(format, args...))
}

// parseAddrs reads an address header: addresses, then one EOH flit.
func (h *Header) parseAddrs() (parsed, error) {
	var p parsed
	fl := h.Flits
	for i, f := range fl {
		switch f.Kind {
		case KindAddress, KindPseudo:
			if f.Value >= uint64(h.Nodes) {
				return parsed{}, h.errAt(i, "address %d ≥ %d nodes", f.Value, h.Nodes)
			}
			p.addrs = append(p.addrs, addr{int(f.Value), f.Kind == KindPseudo})
		case KindEOH:
			if i != len(fl)-1 {
				return parsed{}, h.errAt(i, "EOH before the end")
			}
			return p, nil
		default:
			return parsed{}, h.errAt(i, "unexpected %s flit", f.Kind)
		}
	}
	return parsed{}, h.errAt(len(fl), "no EOH")
}

// flitReader walks a header's flits.
type flitReader struct {
	fl []Flit
	i  int
}

// next reads the value of the next flit if it has kind k.
func (r *flitReader) next(k Kind) (int, bool) {
	if r.i >= len(r.fl) || r.fl[r.i].Kind != k {
		return 0, false
	}
	r.i++
	return int(r.fl[r.i-1].Value), true
}

// parseRegions reads a region header: a counter and that many regions, or
// regions ended by an EOH region.
func (h *Header) parseRegions() (parsed, error) {
	var p parsed
	fl := h.Flits
	rd := &flitReader{fl: fl}
	count := -1
	if !h.EOH {
		if len(fl) == 0 || fl[0].Kind != KindCounter {
			return parsed{}, h.errAt(0, "no region counter")
		}
		count, rd.i = int(fl[0].Value), 1
	}
	for count < 0 || len(p.regions) < count {
		if i := rd.i; h.EOH && i < len(fl) && fl[i].Kind == KindEOH {
			n := h.Scheme.regionFields()
			if i+n != len(fl) {
				return parsed{}, h.errAt(i, "EOH region of %d flits must end the header", n)
			}
			for _, f := range fl[i : i+n] {
				if f.Kind != KindEOH {
					return parsed{}, h.errAt(i, "incomplete EOH region")
				}
			}
			return p, nil
		}
		r, err := h.parseRegion(rd)
		if err != nil {
			return parsed{}, err
		}
		p.regions = append(p.regions, r)
	}
	if rd.i != len(fl) {
		return parsed{}, h.errAt(rd.i, "%d flits after the %d counted regions", len(fl)-rd.i, count)
	}
	return p, nil
}

// parseRegion reads one region: begin, end and the scheme's own field.
func (h *Header) parseRegion(rd *flitReader) (region, error) {
	start := rd.i
	var r region
	var ok bool
	if r.b, ok = rd.next(KindBegin); !ok {
		return r, h.errAt(rd.i, "want region-begin")
	}
	if r.e, ok = rd.next(KindEnd); !ok {
		return r, h.errAt(rd.i, "want region-end")
	}
	if r.b > r.e || r.e >= h.Nodes {
		return r, h.errAt(start, "region %d:%d outside 0 ≤ b ≤ e < %d", r.b, r.e, h.Nodes)
	}
	switch h.Scheme {
	case RegionStride:
		if r.s, ok = rd.next(KindStride); !ok || r.s < 1 {
			return r, h.errAt(rd.i, "want a stride ≥ 1")
		}
	case RegionMask:
		if r.m, ok = rd.next(KindMask); !ok || r.m >= 1<<addrBits(h.Nodes) || r.b&^r.m != r.e&^r.m {
			return r, h.errAt(rd.i, "want a mask with b and e equal where it is 0")
		}
	case RegionBitString:
		n := (r.e - r.b + h.FlitBits) / h.FlitBits
		if rd.i+n > len(rd.fl) {
			return r, h.errAt(rd.i, "region %d:%d needs %d bit flits", r.b, r.e, n)
		}
		t, err := h.unpack(rd.fl, rd.i, rd.i+n)
		if err != nil {
			return r, err
		}
		if len(t) != r.e-r.b+1 || !t[0] || !t[len(t)-1] {
			return r, h.errAt(rd.i, "region %d:%d needs %d bits, first and last 1", r.b, r.e, r.e-r.b+1)
		}
		r.t = t
		rd.i += n
	}
	return r, nil
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
