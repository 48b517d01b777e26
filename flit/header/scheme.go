package header

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// Scheme is a multi-address encoding, by its canonical short name.
type Scheme string

// The encodings.
const (
	AllDestination       Scheme = "ad"
	PseudoAllDestination Scheme = "pseudo-ad"
	BitStringBuffered    Scheme = "bs-buffered"
	BitStringHier        Scheme = "bs-hierarchical"
	RegionBroadcast      Scheme = "mrb"
	RegionStride         Scheme = "mrs"
	RegionMask           Scheme = "mrm"
	RegionBitString      Scheme = "mrbs"
)

// SchemeInfo describes a scheme for listings and error messages.
type SchemeInfo struct {
	Scheme  Scheme
	Aliases []string
	Desc    string
}

var schemes = []SchemeInfo{
	{AllDestination, []string{"all-destination", "all-dest"},
		"all-destination: every address, one per flit, ascending, then EOH"},
	{PseudoAllDestination, []string{"pseudo-all-destination", "pseudo"},
		"pseudo all-destination: all-destination padded with repeated addresses so every branch's header lag is fixed by its address (Chiang §4.3)"},
	{BitStringBuffered, []string{"bit-string-buffered", "buffered-bit-string", "bit-string", "bs"},
		"buffered bit string: one bit per node; a switch buffers it whole"},
	{BitStringHier, []string{"bit-string-hierarchical", "hierarchical-bit-string", "hbs"},
		"hierarchical bit string: k port-enable bits and k equal sub-fields, recursively (source routing)"},
	{RegionBroadcast, []string{"region-broadcast", "multiple-region-broadcast"},
		"multiple region broadcast: regions (b:e)"},
	{RegionStride, []string{"region-stride", "multiple-region-stride"},
		"multiple region stride: regions (b:e:s)"},
	{RegionMask, []string{"region-mask", "multiple-region-mask"},
		"multiple region mask: regions (b:e:m), the nodes of [b,e] agreeing with b where m is 0"},
	{RegionBitString, []string{"region-bit-string", "multiple-region-bit-string"},
		"multiple region bit string: regions (b:e:T), node b+i a destination iff T_i = 1"},
}

// Schemes lists the schemes in the thesis's order.
func Schemes() []SchemeInfo {
	out := make([]SchemeInfo, len(schemes))
	copy(out, schemes)
	return out
}

// SchemeNames lists the canonical names, for "allowed: ..." messages.
func SchemeNames() string {
	s := make([]string, len(schemes))
	for i, x := range schemes {
		s[i] = string(x.Scheme)
	}
	return strings.Join(s, ", ")
}

// ParseScheme resolves a scheme name or alias (case-insensitive; '_' and ' '
// count as '-').
func ParseScheme(name string) (Scheme, error) {
	n := strings.NewReplacer("_", "-", " ", "-").Replace(strings.ToLower(strings.TrimSpace(name)))
	for _, x := range schemes {
		if n == string(x.Scheme) {
			return x.Scheme, nil
		}
		for _, a := range x.Aliases {
			if n == a {
				return x.Scheme, nil
			}
		}
	}
	return "", inputerr.New("scheme", name, "%s (or a long name such as all-destination, bit-string-buffered, region-broadcast, region-stride, region-mask, region-bit-string)", SchemeNames())
}

func (s Scheme) isRegion() bool {
	return s == RegionBroadcast || s == RegionStride || s == RegionMask || s == RegionBitString
}

func (s Scheme) isAddress() bool { return s == AllDestination || s == PseudoAllDestination }

func (s Scheme) isBits() bool { return s == BitStringBuffered || s == BitStringHier }

// regionFields is the number of address-sized fields of a region (the bit
// string of mrbs comes on top).
func (s Scheme) regionFields() int {
	if s == RegionStride || s == RegionMask {
		return 3
	}
	return 2
}

// Kind labels a flit by the field it carries.
type Kind string

// Flit kinds.
const (
	KindAddress = Kind("address")      // a destination address
	KindPseudo  = Kind("pseudo")       // a pseudo address (pseudo-ad padding: a repeat of the previous address)
	KindEOH     = Kind("EOH")          // end of header (marked out of band, e.g. by code violation)
	KindCounter = Kind("counter")      // number of regions that follow
	KindBegin   = Kind("region-begin") // b
	KindEnd     = Kind("region-end")   // e
	KindStride  = Kind("stride")       // s
	KindMask    = Kind("mask")         // m
	KindBits    = Kind("bits")         // bits of a bit string, first bit in the flit's MSB
)

// Flit is one header flit: a FlitBits-wide value and the field it carries.
// For bit-string flits, Bits is the number of meaningful bits (the last flit
// of a string may be partly padding, with zeros at the low end); other flits
// use the whole width and leave Bits 0.
type Flit struct {
	Kind  Kind   `json:"kind"`
	Value uint64 `json:"value"`
	Bits  int    `json:"bits,omitempty"`
}

// Header is an encoded multicast header. The fields besides Flits are the
// parameters it was encoded with; a decoder's rewritten headers keep them.
type Header struct {
	Scheme   Scheme `json:"scheme"`
	Nodes    int    `json:"nodes"`
	FlitBits int    `json:"flit_bits"`
	K        int    `json:"k"`             // radix: Nodes = K^n
	MIN      string `json:"min"`           // Delta MIN kind fixing the bit order (bit strings, pseudo-ad)
	EOH      bool   `json:"eoh,omitempty"` // region schemes: EOH form instead of a leading counter
	Flits    []Flit `json:"flits"`
}

// Len is the header length in flits.
func (h *Header) Len() int { return len(h.Flits) }

// clone copies h's parameters, with no flits.
func (h *Header) clone() *Header {
	c := *h
	c.Flits = nil
	return &c
}

// addrBits is the width of an address: enough bits for Nodes−1.
func addrBits(nodes int) int {
	b := 1
	for (1 << b) < nodes {
		b++
	}
	return b
}

// String writes the header compactly: "2 3 5 E" (addresses), "4 4' 6" (a
// primed pseudo address), "2; 1:1 3:6" (counter; regions), "2:5 7:8 E" (EOH
// form), masks in binary address width, bit strings as 0/1 digits. A header
// that does not parse is written flit by flit.
func (h *Header) String() string {
	p, err := h.parse()
	if err != nil {
		parts := make([]string, len(h.Flits))
		for i, f := range h.Flits {
			parts[i] = fmt.Sprintf("%s=%d", f.Kind, f.Value)
		}
		return "?" + strings.Join(parts, " ")
	}
	var b strings.Builder
	switch {
	case h.Scheme.isAddress():
		for _, a := range p.addrs {
			b.WriteString(strconv.Itoa(a.v))
			if a.pseudo {
				b.WriteByte('\'')
			}
			b.WriteByte(' ')
		}
		b.WriteString("E")
	case h.Scheme.isBits():
		b.WriteString(bitString(p.bits))
	default:
		if !h.EOH {
			fmt.Fprintf(&b, "%d;", len(p.regions))
		}
		for i, r := range p.regions {
			if i > 0 || !h.EOH {
				b.WriteByte(' ')
			}
			b.WriteString(r.format(h.Scheme, addrBits(h.Nodes)))
		}
		if h.EOH {
			b.WriteString(" E")
		}
	}
	return b.String()
}

func bitString(bits []bool) string {
	s := make([]byte, len(bits))
	for i, x := range bits {
		s[i] = '0'
		if x {
			s[i] = '1'
		}
	}
	return string(s)
}
