package traffic

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// Packet is one trace record: at cycle Cycle terminal Src sends a packet of
// Flits flits to terminal Dst. A multicast record lists several
// destinations in Dsts (Dst is then the first).
type Packet struct {
	Cycle           int64
	Src, Dst, Flits int
	Dsts            []int
}

const traceFormat = "a readable CSV file of cycle,src,dst,flits"

// MaxCycle is the last cycle a run can reach: Akita's engine keeps time as
// float64 seconds, and past about 2^48 cycles at 1 GHz its tick arithmetic
// loses whole cycles (a packet due there was silently never delivered).
// 2^47 keeps a factor of two in hand; it is 39 simulated hours at 1 GHz.
const MaxCycle = 1 << 47

// noPackets is what a trace without a packet line is told.
const noPackets = "at least one line cycle,src,dst,flits"

// ReadTrace reads and parses the trace file at path (see ParseTrace). A file
// that cannot be opened is an *inputerr.Error with Key "traffic.trace" and the path as
// Value.
func ReadTrace(path string, terminals int) ([]Packet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &inputerr.Error{Key: "traffic.trace", Value: path, Allowed: traceFormat}
	}
	defer f.Close()
	return ParseTrace(f, path, terminals)
}

// ParseTrace parses a CSV trace: one packet per line as cycle,src,dst,flits
// (integers; spaces around fields are allowed). The dst field of a
// multicast lists its destinations separated by spaces, ';' or '|' (in the
// order a path-based worm visits them). A first record line
// "cycle,src,dst,flits" is taken as a header; blank lines and lines starting
// with # are ignored. Cycles must be from 0 to MaxCycle, src and dst in
// 0..terminals−1 and flits ≥ 1; a trace without packets is an error.
//
// Lines may come in any cycle order: the packets are sorted stably by cycle,
// so packets of the same cycle keep their file order.
//
// The first bad line is reported as an *inputerr.Error with Key "traffic.trace" and
// Value "NAME line L: what", one line of text.
func ParseTrace(r io.Reader, name string, terminals int) ([]Packet, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	p := traceParser{terminals: terminals, first: true, sorted: true}
	line := 0
	bad := func(allowed, what string) error {
		return &inputerr.Error{Key: "traffic.trace", Value: fmt.Sprintf("%s line %d: %s", name, line, what), Allowed: allowed}
	}
	for sc.Scan() {
		line++
		if allowed, what := p.line(sc.Text()); what != "" {
			return nil, bad(allowed, what)
		}
	}
	if err := sc.Err(); err != nil {
		line++
		return nil, bad(traceFormat, fmt.Sprintf("unreadable (%s)", quote(err.Error())))
	}
	if len(p.pkts) == 0 {
		return nil, &inputerr.Error{Key: "traffic.trace", Value: name + ": no packets", Allowed: noPackets}
	}
	return p.packets(), nil
}

// ParsePackets parses inline packets (traffic.packets), one trace line per
// entry, as ParseTrace would parse them as a file. The first bad entry is
// reported as an *inputerr.Error with Key "traffic.packets", Value
// "entry E: what" and Item E, so the error can name the entry's own line.
func ParsePackets(entries []string, terminals int) ([]Packet, error) {
	p := traceParser{terminals: terminals, first: true, sorted: true}
	for i, e := range entries {
		lines := strings.Split(e, "\n")
		for j, l := range lines {
			if allowed, what := p.line(l); what != "" {
				where := fmt.Sprintf("entry %d", i+1)
				if len(lines) > 1 {
					where += fmt.Sprintf(" line %d", j+1)
				}
				return nil, &inputerr.Error{Key: "traffic.packets", Value: where + ": " + what, Allowed: allowed, Item: i + 1}
			}
		}
	}
	if len(p.pkts) == 0 {
		return nil, &inputerr.Error{Key: "traffic.packets", Value: "no packets", Allowed: noPackets}
	}
	return p.packets(), nil
}

// traceParser parses trace lines one at a time.
type traceParser struct {
	terminals int
	first     bool // no record line yet (it may be a header)
	sorted    bool
	pkts      []Packet
}

// line parses one line; a bad line returns what is wrong and what is
// allowed, one line of text.
func (p *traceParser) line(text string) (allowed, what string) {
	s := strings.TrimSpace(text)
	if s == "" || s[0] == '#' {
		return "", ""
	}
	fields := strings.Split(s, ",")
	for i := range fields {
		fields[i] = strings.TrimSpace(fields[i])
	}
	if p.first {
		p.first = false
		if len(fields) == 4 && strings.EqualFold(fields[0], "cycle") && strings.EqualFold(fields[1], "src") &&
			strings.EqualFold(fields[2], "dst") && strings.EqualFold(fields[3], "flits") {
			return "", ""
		}
	}
	if len(fields) != 4 {
		return "4 comma-separated fields cycle,src,dst,flits", fmt.Sprintf("%s with %d fields", quote(s), len(fields))
	}
	cycle, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil || cycle < 0 || cycle > MaxCycle {
		return fmt.Sprintf("an integer from 0 to %d (the last cycle the engine times exactly)", int64(MaxCycle)), fmt.Sprintf("cycle %s", quote(fields[0]))
	}
	terminals := p.terminals
	var v [3]int
	var dsts []int
	for i, key := range [3]string{"src", "dst", "flits"} {
		allowed := "an integer ≥ 1"
		if i < 2 {
			allowed = fmt.Sprintf("a terminal from 0 to %d", terminals-1)
			if terminals < 1 {
				allowed = "none: the network has no terminals"
			}
		}
		parts := []string{fields[i+1]}
		if i == 1 {
			parts = strings.FieldsFunc(fields[i+1], func(r rune) bool { return r == ' ' || r == ';' || r == '|' || r == '\t' })
			if len(parts) == 0 {
				parts = []string{""}
			}
			allowed += " (a multicast lists several, separated by spaces or ;)"
		}
		for _, part := range parts {
			x, err := strconv.Atoi(part)
			ok := err == nil
			if i < 2 {
				ok = ok && x >= 0 && x < terminals
			} else {
				ok = ok && x >= 1
			}
			if !ok {
				return allowed, fmt.Sprintf("%s %s", key, quote(fields[i+1]))
			}
			v[i] = x
			if i == 1 {
				dsts = append(dsts, x)
			}
		}
		if i == 1 {
			v[1] = dsts[0]
			if len(dsts) == 1 {
				dsts = nil
			}
		}
	}
	if n := len(p.pkts); n > 0 && cycle < p.pkts[n-1].Cycle {
		p.sorted = false
	}
	p.pkts = append(p.pkts, Packet{Cycle: cycle, Src: v[0], Dst: v[1], Flits: v[2], Dsts: dsts})
	return "", ""
}

// packets are the packets parsed, sorted stably by cycle.
func (p *traceParser) packets() []Packet {
	if !p.sorted {
		slices.SortStableFunc(p.pkts, func(a, b Packet) int { return cmp.Compare(a.Cycle, b.Cycle) })
	}
	return p.pkts
}

// quote shows a piece of input on one line, shortened if long.
func quote(s string) string {
	const max = 40
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	q := strconv.Quote(s)
	if q == `"`+s+`"` && s != "" && !strings.ContainsAny(s, " ,") {
		return s // plain tokens read better unquoted: src 70
	}
	return q
}

// NewTrace replays pkts, which must be sorted by cycle (as ParseTrace
// returns them): each packet is emitted in its cycle, packets of one cycle
// in slice order.
func NewTrace(pkts []Packet) Generator { return &trace{pkts: pkts} }

type trace struct {
	pkts []Packet
	i    int
}

func (g *trace) NextAt(now int64) int64 {
	if g.i >= len(g.pkts) {
		return math.MaxInt64
	}
	return max(g.pkts[g.i].Cycle, now)
}

func (g *trace) Generate(now int64, e Emitter) {
	for g.i < len(g.pkts) && g.pkts[g.i].Cycle <= now {
		p := &g.pkts[g.i]
		if me, ok := e.(MulticastEmitter); ok && len(p.Dsts) > 1 {
			me.EmitMulticast(p.Src, p.Dsts, p.Flits)
		} else {
			e.Emit(p.Src, p.Dst, p.Flits)
		}
		g.i++
	}
}
