package trace

import (
	"fmt"
	"github.com/flitsim/flitsim/internal/kernel"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/topology"
)

// Writer is a tracer that writes a file: Close ends the trace and flushes it.
type Writer interface {
	network.Tracer
	Close() error
}

// Window is a range of cycles [From, To); To ≤ 0 means no end.
type Window struct {
	From, To int64
}

// end is the first cycle after the window.
func (w Window) end() int64 {
	if w.To <= 0 {
		return math.MaxInt64
	}
	return w.To
}

// In reports whether cycle c is in the window.
func (w Window) In(c int64) bool { return c >= w.From && c < w.end() }

// ParseWindow reads "A:B" (cycles A to B−1), "A:" (from A on) or ":B".
func ParseWindow(s string) (Window, error) {
	bad := inputerr.New("--trace-window", strconv.Quote(s), "A:B, cycles A ≤ c < B, with A or B optional, 0 ≤ A < B")
	a, b, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return Window{}, bad
	}
	var w Window
	var err error
	if a = strings.TrimSpace(a); a != "" {
		if w.From, err = strconv.ParseInt(a, 10, 64); err != nil || w.From < 0 {
			return Window{}, bad
		}
	}
	if b = strings.TrimSpace(b); b != "" {
		if w.To, err = strconv.ParseInt(b, 10, 64); err != nil || w.To <= w.From {
			return Window{}, bad
		}
	}
	return w, nil
}

// Options limit what a writer records.
type Options struct {
	// Window limits the trace to these cycles (zero value: all).
	Window Window
	// Only is a comma list of switch and terminal label globs (see the
	// package documentation); empty selects everything.
	Only string
	// Activity adds, in the VCD, every traced switch's flits_switched and
	// blocked signals (run.router_activity).
	Activity bool
}

// filter is Options resolved against one kernel.
type filter struct {
	win  Window
	sw   []bool // selected switches
	term []bool // selected terminals
	buf  []bool // buffers of selected switches or terminals
	nb   int32
	// some: a window or a selection leaves events out, so records may
	// wait for the trace (kernel.TraceScope); a trace of everything
	// needs them all at once and gains nothing by waiting.
	some bool
}

func newFilter(k *kernel.Kernel, o Options) (*filter, error) {
	t := k.Topo
	f := &filter{
		win:  o.Window,
		sw:   make([]bool, len(t.Switches)),
		term: make([]bool, t.Terminals()),
		nb:   k.Buffers(),
		some: o.Window != (Window{}) || strings.TrimSpace(o.Only) != "",
	}
	if strings.TrimSpace(o.Only) == "" {
		for i := range f.sw {
			f.sw[i] = true
		}
		for i := range f.term {
			f.term[i] = true
		}
	} else if err := f.selectOnly(t.Switches, o.Only); err != nil {
		return nil, err
	}
	f.buf = make([]bool, f.nb)
	for b := int32(0); b < f.nb; b++ {
		sw, _, _, src, _ := k.BufferInfo(b)
		if src {
			f.buf[b] = f.term[sw]
		} else {
			f.buf[b] = f.sw[sw]
		}
	}
	return f, nil
}

// selectOnly marks the switches and terminals the pattern names.
func (f *filter) selectOnly(sws []topology.Switch, pattern string) error {
	toks := splitTop(pattern)
	maxC := 0
	for i := range sws {
		maxC = max(maxC, len(splitTop(sws[i].Label))-1)
	}
	for i := 0; i < len(toks); {
		matched := false
		for j := min(i+maxC, len(toks)-1); j >= i && !matched; j-- {
			glob := strings.TrimSpace(strings.Join(toks[i:j+1], ","))
			if glob == "" {
				return fmt.Errorf("--trace-only: %q has an empty item (allowed: a comma list of switch or terminal label globs, e.g. s1,* or r(0,*) or t3)", pattern)
			}
			if _, err := path.Match(glob, ""); err != nil {
				return fmt.Errorf("--trace-only: %q is not a valid glob (%v)", glob, err)
			}
			for s := range sws {
				if ok, _ := path.Match(glob, sws[s].Label); ok {
					f.sw[s], matched = true, true
				}
			}
			for term := range f.term {
				n := strconv.Itoa(term)
				a, _ := path.Match(glob, "t"+n)
				b, _ := path.Match(glob, n)
				if a || b {
					f.term[term], matched = true, true
				}
			}
			if matched {
				i = j + 1
			}
		}
		if !matched {
			return fmt.Errorf("--trace-only: %q matches no switch or terminal (switches are named like %s, terminals t0…t%d)",
				strings.TrimSpace(toks[i]), sws[0].Label, len(f.term)-1)
		}
	}
	return nil
}

// splitTop splits s at the commas outside parentheses and brackets.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth <= 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// Sanitize makes a label a VCD (Verilog) identifier: letters, digits and _
// kept, + → p, - → m, any other run of characters → one _, no trailing _,
// and a leading _ if it would start with a digit.
func Sanitize(s string) string {
	b := make([]byte, 0, len(s)+1)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
			b = append(b, c)
		case c == '+':
			b = append(b, 'p')
		case c == '-':
			b = append(b, 'm')
		default:
			if len(b) > 0 && b[len(b)-1] != '_' {
				b = append(b, '_')
			}
		}
	}
	for len(b) > 0 && b[len(b)-1] == '_' {
		b = b[:len(b)-1]
	}
	if len(b) == 0 || b[0] >= '0' && b[0] <= '9' {
		b = append([]byte{'_'}, b...)
	}
	return string(b)
}

// layout is the kernel's static naming: global port ids, port and buffer
// names.
type layout struct {
	k        *kernel.Kernel
	nb       int32
	nlinks   int32   // switch output channels; then one injection channel per terminal
	portBase []int32 // global port id of each switch's port 0
	portSw   []int32
	bufName  []string // per buffer; then "tN" per terminal (see names.go)
	chName   []string // per channel
	swScope  []string // per switch: its VCD scope
	inScope  []string // per global port: the input buffer's scope below the switch's
	outScope []string // per global port: the output port's scope
}

func newLayout(k *kernel.Kernel) *layout {
	t := k.Topo
	l := &layout{k: k, nb: k.Buffers()}
	l.portBase = make([]int32, len(t.Switches)+1)
	for i := range t.Switches {
		l.portBase[i+1] = l.portBase[i] + int32(len(t.Switches[i].Out))
	}
	l.nlinks = l.portBase[len(t.Switches)]
	l.portSw = make([]int32, l.nlinks)
	for s := range t.Switches {
		for p := l.portBase[s]; p < l.portBase[s+1]; p++ {
			l.portSw[p] = int32(s)
		}
	}
	return l
}

// portName names port p of a switch ("x+", or its number).
func (l *layout) portName(p int) string {
	if names := l.k.Topo.PortNames; p < len(names) {
		return names[p]
	}
	return strconv.Itoa(p)
}

// serial is the serial number of the worm at pool index wi.
func serial(k *kernel.Kernel, wi int32) uint64 { return k.Pool.Worms[wi].ID }

// Multi fans every call out to several tracers, in order.
type Multi = network.Tracers
