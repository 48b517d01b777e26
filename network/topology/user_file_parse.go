package topology

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	xbar "github.com/flitsim/flitsim/switch"
)

// The topology file format (docs/configuration.md, "Topology files"): one statement per
// line, '#' starts a comment.
//
//	switch NAME PORTS        a switch with ports 0..PORTS−1 (input i pairs with output i)
//	link A.P B.Q             output port P of switch A feeds input port Q of switch B
//	duplex A.P B.Q           link A.P B.Q and link B.Q A.P
//	terminal T A.P [B.Q]     terminal T injects into input A.P and is reached by output A.P (or B.Q)
//	routing shortest|table   the routing rule
//	route A DESTS PORT       at switch A, packets for DESTS (T, T1-T2, lists of these, or *) leave on PORT
//	shape RADIX DIGITS       terminal addresses as DIGITS digits base RADIX (traffic patterns)
//	ports NAME...            names of the port numbers in reports
//
// Statements may come in any order: the switches are read first, then the
// links and terminals, then the rest. Every error names the file and line.

// fileLine is one statement: its words (comment removed) and line number.
type fileLine struct {
	words []string
	line  int
}

// portRef is port Port of switch Switch.
type portRef struct{ sw, port int }

// fileRoute is one route line: at sw, destinations dst (all when all) leave on port.
type fileRoute struct {
	sw, port int
	all      bool
	dsts     []int
	line     int
}

// fileNet is a topology file being read.
type fileNet struct {
	name     string
	t        *Topology
	byName   map[string]int
	swLine   []int
	outLine  [][]int // the line that used output port p of switch s (0: unused)
	inLine   [][]int // the line that fed input port p of switch s (0: unused)
	termLine []int   // the line that attached terminal t
	rule     string
	ruleLine int
	routes   []fileRoute
	stmt     map[int]string // the statement on each line
}

// fileWords are the statements and their word counts (min, max).
var fileWords = map[string][2]int{
	"switch": {3, 3}, "link": {3, 3}, "duplex": {3, 3}, "terminal": {3, 4},
	"routing": {2, 2}, "route": {4, 4}, "shape": {3, 3}, "ports": {2, 1 + xbar.MaxPorts},
}

const fileUsage = "switch NAME PORTS | link A.P B.Q | duplex A.P B.Q | terminal T A.P [B.Q] | routing shortest|table | route A DESTS PORT | shape RADIX DIGITS | ports NAME..."

// errAt is a bad statement at line: its key is the statement's first word.
func (f *fileNet) errAt(line int, key, problem, allowed string, args ...any) *inputerr.Error {
	// The problem's verbs take the first args, the allowed text's the rest.
	n := strings.Count(problem, "%") - 2*strings.Count(problem, "%%")
	problem = fmt.Sprintf(problem, args[:n]...)
	if len(args) > n {
		allowed = fmt.Sprintf(allowed, args[n:]...)
	}
	return &inputerr.Error{Key: key, Problem: problem, Allowed: allowed, Pos: fmt.Sprintf("%s:%d", f.name, line)}
}

// ParseFile reads a topology file (data, named name in errors) and builds
// its topology with the routing the file gives. Every error is an
// *inputerr.Error placed at "name:LINE".
func ParseFile(data []byte, name string) (*Topology, error) {
	f := &fileNet{name: name, byName: map[string]int{}, t: &Topology{Kind: "file"}, stmt: map[int]string{}}
	// Statements run in three phases, each in line order: the switches,
	// then the wiring, then the rest (which needs the terminal count).
	phase := map[string]int{"switch": 0, "link": 1, "duplex": 1, "terminal": 1}
	do := map[string]func(fileLine) error{
		"switch": f.addSwitch, "link": f.addLink, "duplex": f.addLink, "terminal": f.addTerminal,
		"ports": f.setPorts, "shape": f.setShape, "routing": f.setRule, "route": f.addRoute,
	}
	var phases [3][]fileLine
	for i, text := range strings.Split(string(data), "\n") {
		text, _, _ = strings.Cut(text, "#")
		w := strings.Fields(text)
		if len(w) == 0 {
			continue
		}
		n, ok := fileWords[w[0]]
		if !ok {
			return nil, f.errAt(i+1, w[0], "unknown statement", "statements "+fileUsage)
		}
		if len(w) < n[0] || len(w) > n[1] {
			return nil, f.errAt(i+1, w[0], "%d words", "%s", len(w)-1, statementUsage(w[0]))
		}
		p, wiring := phase[w[0]]
		if !wiring {
			p = 2
		}
		phases[p] = append(phases[p], fileLine{w, i + 1})
		f.stmt[i+1] = w[0]
	}
	for p, lines := range phases {
		for _, l := range lines {
			if err := do[l.words[0]](l); err != nil {
				return nil, err
			}
		}
		if p == 1 {
			if err := f.checkWiring(); err != nil {
				return nil, err
			}
		}
	}
	if err := f.route(); err != nil {
		return nil, err
	}
	if err := f.t.Validate(); err != nil {
		return nil, &inputerr.Error{Key: "topology.file", Value: name, Allowed: "a valid topology file: " + err.Error()}
	}
	return f.t, nil
}

// statementUsage is the syntax of one statement.
func statementUsage(stmt string) string {
	for _, u := range strings.Split(fileUsage, " | ") {
		if strings.HasPrefix(u, stmt+" ") {
			return "the form " + u
		}
	}
	return fileUsage
}

func (f *fileNet) addSwitch(l fileLine) error {
	name := l.words[1]
	if strings.ContainsAny(name, ".*") {
		return f.errAt(l.line, "switch", "name %q contains '.' or '*'", "names without spaces, '.', '*' or '#'", name)
	}
	if prev, dup := f.byName[name]; dup {
		return f.errAt(l.line, "switch", "%s declared twice (first on line %d)", "one switch line per name", name, f.swLine[prev])
	}
	ports, err := strconv.Atoi(l.words[2])
	if err != nil || ports < 1 || ports > xbar.MaxPorts {
		return f.errAt(l.line, "switch", "%q ports", "%s", l.words[2], fmt.Sprintf("1 to %d ports", xbar.MaxPorts))
	}
	if len(f.swLine) >= MaxSwitches {
		return f.errAt(l.line, "switch", "more than %d switches", "", MaxSwitches)
	}
	f.byName[name] = len(f.swLine)
	f.swLine = append(f.swLine, l.line)
	out := make([]End, ports)
	for i := range out {
		out[i] = End{Switch: -1, Terminal: -1}
	}
	f.t.Switches = append(f.t.Switches, Switch{Label: name, Out: out})
	f.outLine = append(f.outLine, make([]int, ports))
	f.inLine = append(f.inLine, make([]int, ports))
	return nil
}

// port reads "A.P", a port of a declared switch.
func (f *fileNet) port(l fileLine, key, tok string) (portRef, error) {
	i := strings.LastIndexByte(tok, '.')
	if i < 0 {
		return portRef{}, f.errAt(l.line, key, "%q is not a port", "SWITCH.PORT, e.g. r0.1", tok)
	}
	sw, ok := f.byName[tok[:i]]
	if !ok {
		return portRef{}, f.errAt(l.line, key, "unknown switch %q", "switches declared with a switch line: %s", tok[:i], f.someSwitches())
	}
	p, err := strconv.Atoi(tok[i+1:])
	if n := len(f.t.Switches[sw].Out); err != nil || p < 0 || p >= n {
		return portRef{}, f.errAt(l.line, key, "switch %s has no port %q", "ports 0..%d (line %d)", tok[:i], tok[i+1:], n-1, f.swLine[sw])
	}
	return portRef{sw, p}, nil
}

// someSwitches names the first few switches, for error messages.
func (f *fileNet) someSwitches() string {
	var names []string
	for i, s := range f.t.Switches {
		if i == 8 {
			names = append(names, fmt.Sprintf("… (%d in all)", len(f.t.Switches)))
			break
		}
		names = append(names, s.Label)
	}
	if len(names) == 0 {
		return "none yet"
	}
	return strings.Join(names, ", ")
}

func (f *fileNet) label(p portRef) string {
	return f.t.Switches[p.sw].Label + "." + strconv.Itoa(p.port)
}

// useOut records that line drives output port p to e.
func (f *fileNet) useOut(l fileLine, p portRef, e End) error {
	if prev := f.outLine[p.sw][p.port]; prev != 0 {
		return f.errAt(l.line, l.words[0], "output port %s used twice (first on line %d)", "one link or terminal per output port", f.label(p), prev)
	}
	f.outLine[p.sw][p.port] = l.line
	f.t.Switches[p.sw].Out[p.port] = e
	return nil
}

// feedIn records that line feeds input port p.
func (f *fileNet) feedIn(l fileLine, p portRef) error {
	if prev := f.inLine[p.sw][p.port]; prev != 0 {
		return f.errAt(l.line, l.words[0], "input port %s used twice (first on line %d)", "one link or terminal into each input port", f.label(p), prev)
	}
	f.inLine[p.sw][p.port] = l.line
	return nil
}

func (f *fileNet) addLink(l fileLine) error {
	a, err := f.port(l, l.words[0], l.words[1])
	if err != nil {
		return err
	}
	b, err := f.port(l, l.words[0], l.words[2])
	if err != nil {
		return err
	}
	pairs := [][2]portRef{{a, b}}
	if l.words[0] == "duplex" {
		pairs = append(pairs, [2]portRef{b, a})
	}
	for _, p := range pairs {
		if err := f.useOut(l, p[0], End{Switch: int32(p[1].sw), Port: int32(p[1].port), Terminal: -1}); err != nil {
			return err
		}
		if err := f.feedIn(l, p[1]); err != nil {
			return err
		}
	}
	return nil
}

func (f *fileNet) addTerminal(l fileLine) error {
	term, err := strconv.Atoi(l.words[1])
	if err != nil || term < 0 || term >= MaxTerminals {
		return f.errAt(l.line, "terminal", "%q is not a terminal number", "0 to %d", l.words[1], MaxTerminals-1)
	}
	for len(f.termLine) <= term {
		f.termLine = append(f.termLine, 0)
		f.t.InSwitch = append(f.t.InSwitch, -1)
		f.t.InPort = append(f.t.InPort, -1)
	}
	if prev := f.termLine[term]; prev != 0 {
		return f.errAt(l.line, "terminal", "terminal %d attached twice (first on line %d)", "one terminal line per terminal", term, prev)
	}
	in, err := f.port(l, "terminal", l.words[2])
	if err != nil {
		return err
	}
	out := in
	if len(l.words) == 4 {
		if out, err = f.port(l, "terminal", l.words[3]); err != nil {
			return err
		}
	}
	if err := f.feedIn(l, in); err != nil {
		return err
	}
	if err := f.useOut(l, out, End{Switch: -1, Terminal: int32(term)}); err != nil {
		return err
	}
	f.termLine[term] = l.line
	f.t.InSwitch[term], f.t.InPort[term] = int32(in.sw), int32(in.port)
	return nil
}

// checkWiring checks what the links and terminals say as a whole: some
// switch and terminal, and terminals numbered without gaps. A port whose
// output is wired but whose input is not makes the network Directed (in-
// and out-degrees differ), which the kernel accepts.
func (f *fileNet) checkWiring() error {
	if len(f.t.Switches) == 0 {
		return &inputerr.Error{Key: "switch", Problem: "the file declares no switch", Allowed: "statements " + fileUsage, Pos: f.name}
	}
	if len(f.termLine) == 0 {
		return &inputerr.Error{Key: "terminal", Problem: "the file attaches no terminal", Allowed: "terminal T A.P lines for terminals 0..N−1", Pos: f.name}
	}
	last := len(f.termLine) - 1
	for t, line := range f.termLine {
		if line == 0 {
			return f.errAt(f.termLine[last], "terminal", "terminal %d is not attached", "terminals numbered 0..%d without gaps (this line attaches %d, the highest)", t, last, last)
		}
	}
	if len(f.t.Switches)*len(f.termLine) > 1<<26 {
		return f.errAt(f.termLine[last], "terminal", "%d switches × %d terminals", "at most 2^26 routing table entries", len(f.t.Switches), len(f.termLine))
	}
	for s := range f.t.Switches {
		for p, line := range f.outLine[s] {
			if line != 0 && f.inLine[s][p] == 0 {
				f.t.Directed = true
			}
		}
	}
	return nil
}

func (f *fileNet) setPorts(l fileLine) error {
	most := 0
	for _, s := range f.t.Switches {
		most = max(most, len(s.Out))
	}
	if len(l.words)-1 < most {
		return f.errAt(l.line, "ports", "%d names", "a name for each port number 0..%d (the largest switch has %d ports)", len(l.words)-1, most-1, most)
	}
	if f.t.PortNames != nil {
		return f.errAt(l.line, "ports", "a second ports line", "one ports line")
	}
	f.t.PortNames = append([]string(nil), l.words[1:]...)
	return nil
}

func (f *fileNet) setShape(l fileLine) error {
	r, err1 := strconv.Atoi(l.words[1])
	d, err2 := strconv.Atoi(l.words[2])
	n := len(f.termLine)
	if f.t.Radix != 0 {
		return f.errAt(l.line, "shape", "a second shape line", "one shape line")
	}
	if err1 != nil || err2 != nil || r < 2 || d < 1 || d > 20 || filePow(r, d) != n {
		return f.errAt(l.line, "shape", "%s %s", "RADIX DIGITS with RADIX^DIGITS = %d, the number of terminals", l.words[1], l.words[2], n)
	}
	f.t.Radix, f.t.Digits = r, d
	return nil
}

// filePow is b^e, or −1 past MaxTerminals.
func filePow(b, e int) int {
	p := 1
	for range e {
		if p *= b; p > MaxTerminals {
			return -1
		}
	}
	return p
}

func (f *fileNet) setRule(l fileLine) error {
	if f.ruleLine != 0 {
		return f.errAt(l.line, "routing", "a second routing line (first on line %d)", "one routing line", f.ruleLine)
	}
	if r := l.words[1]; r != "shortest" && r != "table" {
		return f.errAt(l.line, "routing", "unknown rule %q", "shortest (BFS shortest paths, lowest port on ties) or table (route lines only)", r)
	}
	f.rule, f.ruleLine = l.words[1], l.line
	return nil
}

func (f *fileNet) addRoute(l fileLine) error {
	sw, ok := f.byName[l.words[1]]
	if !ok {
		return f.errAt(l.line, "route", "unknown switch %q", "switches declared with a switch line: %s", l.words[1], f.someSwitches())
	}
	r := fileRoute{sw: sw, line: l.line}
	n := len(f.termLine)
	if l.words[2] == "*" {
		r.all = true
	} else {
		for _, item := range strings.Split(l.words[2], ",") {
			lo, hi, isRange := strings.Cut(item, "-")
			a, err1 := strconv.Atoi(lo)
			b, err2 := a, error(nil)
			if isRange {
				b, err2 = strconv.Atoi(hi)
			}
			if err1 != nil || err2 != nil || a < 0 || b < a || b >= n {
				return f.errAt(l.line, "route", "destinations %q", "terminals 0..%d as T, T1-T2, a comma-separated list of these, or *", l.words[2], n-1)
			}
			for d := a; d <= b; d++ {
				r.dsts = append(r.dsts, d)
			}
		}
	}
	out := f.t.Switches[sw].Out
	p, err := strconv.Atoi(l.words[3])
	if err != nil || p < 0 || p >= len(out) {
		return f.errAt(l.line, "route", "switch %s has no port %q", "ports 0..%d (line %d)", l.words[1], l.words[3], len(out)-1, f.swLine[sw])
	}
	if !out[p].Connected() {
		return f.errAt(l.line, "route", "output port %s.%d leads nowhere", "a port with a link or terminal on its output", l.words[1], p)
	}
	if out[p].ToTerminal() {
		for _, d := range r.dsts {
			if d != int(out[p].Terminal) {
				return f.errAt(l.line, "route", "output port %s.%d reaches terminal %d, not %d", "the port to the next switch, or the destination's own terminal port", l.words[1], p, out[p].Terminal, d)
			}
		}
	}
	r.port = p
	f.routes = append(f.routes, r)
	return nil
}
