package trace

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/outfile"
	"github.com/flitsim/flitsim/network"
)

// GTKWave save file. A VCD's enum signals are numbers; GTKWave shows names
// for them through translate filter files (lines "VALUE NAME", VALUE as the
// trace displays it: decimal here). The save file loads the dump, applies
// the filters to kind, state and reason, and opens with the busiest scopes
// shown:
//
//   - the BusySwitches switches whose output links carried the most flits in
//     the traced cycles (ties: the lower switch index), each with its output
//     links that carried flits (valid, kind, worm) and the occupancy of its
//     input and output buffers that flits entered;
//   - the BusyTerminals terminals that injected the most flits, each with
//     state, reason, worm and its injection link's valid and kind.
//
// Paths in the save file are absolute; GTKWave also finds the dump and the
// filters beside the save file when the three are moved together (it
// re-anchors them at the directory [savefile] names).
const (
	BusySwitches  = 4
	BusyTerminals = 2
)

// Filters are the translate filters, by the signal they name: file suffix
// and contents.
var Filters = []struct{ Signal, Text string }{
	{"kind", enumFilter(4, func(i int) string { return flit.Kind(i).String() })},
	{"state", enumFilter(4, func(i int) string { return []string{"idle", "advancing", "blocked", "done"}[i] })},
	{"reason", enumFilter(int(network.WaitInject)+1, func(i int) string { return network.Wait(i).String() })},
}

func enumFilter(n int, name func(int) string) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d %s\n", i, name(i))
	}
	return b.String()
}

// SideFiles are the files SaveFiles writes beside the dump vcdPath:
// STEM.gtkw, then the filters STEM.kind.txt, STEM.state.txt and
// STEM.reason.txt (in Filters' order), as paths of the same form as
// vcdPath.
func SideFiles(vcdPath string) (save string, filters []string) {
	stem := strings.TrimSuffix(vcdPath, filepath.Ext(vcdPath))
	for _, f := range Filters {
		filters = append(filters, stem+"."+f.Signal+".txt")
	}
	return stem + ".gtkw", filters
}

// SaveFiles writes SideFiles(vcdPath) beside the dump vcdPath (already
// written by v, which must be closed), and returns their paths (the save
// file first), absolute. Each is written whole or not at all.
func (v *VCD) SaveFiles(vcdPath string) ([]string, error) {
	abs, err := filepath.Abs(vcdPath)
	if err != nil {
		return nil, err
	}
	save, filters := SideFiles(abs)
	filter := map[string]string{}
	for i, f := range Filters {
		if err := outfile.WriteFile(filters[i], []byte(f.Text)); err != nil {
			return nil, err
		}
		filter[f.Signal] = filters[i]
	}
	err = outfile.Write(save, func(w io.Writer) error { return v.WriteGTKW(w, abs, save, filter) })
	return append([]string{save}, filters...), err
}

// WriteGTKW writes a save file for the dump at dump (this save file at
// save; filter maps kind, state and reason to their filter files).
func (v *VCD) WriteGTKW(w io.Writer, dump, save string, filter map[string]string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "[*] flitsim: the %d busiest switches (flits out) and %d busiest terminals (flits injected) of this dump\n", BusySwitches, BusyTerminals)
	fmt.Fprintf(bw, "[dumpfile] %q\n[savefile] %q\n[timestart] %d\n[size] 1600 1000\n[sst_expanded] 1\n[treeopen] network.\n", dump, save, v.from)
	g := gtkw{bw: bw, filter: filter}
	sw, term := v.busiest()
	for _, s := range sw {
		g.switchScope(v, s.idx, s.flits)
	}
	for _, t := range term {
		g.terminal(v, t.idx, t.flits)
	}
	return bw.Flush()
}

type busy struct {
	idx   int32
	flits int64
}

// busiest ranks the traced switches by flits out and terminals by flits
// injected (those that moved none are left out).
func (v *VCD) busiest() (sw, term []busy) {
	bySw := map[int32]int64{}
	for i := range v.chs {
		c := &v.chs[i]
		if c.flits == 0 {
			continue
		}
		if c.owner >= 0 {
			bySw[c.owner] += c.flits
		} else {
			term = append(term, busy{-1 - c.owner, c.flits})
		}
	}
	for s, n := range bySw {
		sw = append(sw, busy{s, n})
	}
	order := func(a, b busy) int {
		if a.flits != b.flits {
			return cmp.Compare(b.flits, a.flits)
		}
		return cmp.Compare(a.idx, b.idx)
	}
	slices.SortFunc(sw, order)
	slices.SortFunc(term, order)
	return sw[:min(len(sw), BusySwitches)], term[:min(len(term), BusyTerminals)]
}

// gtkw writes traces, setting the display flags only when they change.
type gtkw struct {
	bw     *bufio.Writer
	filter map[string]string
	flags  int
}

// Trace flags (GTKWave's analyzer.h).
const (
	trHex        = 1 << 1
	trDec        = 1 << 2
	trBin        = 1 << 3
	trRjustify   = 1 << 5
	trBlank      = 1 << 9
	trFTranslate = 1 << 13
)

func (g *gtkw) setFlags(f int) {
	if f != g.flags {
		fmt.Fprintf(g.bw, "@%x\n", f)
		g.flags = f
	}
}

// label writes a blank line with a comment.
func (g *gtkw) label(s string) {
	g.setFlags(trBlank)
	fmt.Fprintf(g.bw, "-%s\n", s)
}

// trace adds signal name (with its range if wider than a bit), translated
// by the filter for enum if not "".
func (g *gtkw) trace(name string, width int, enum string) {
	if width > 1 {
		name += fmt.Sprintf("[%d:0]", width-1)
	}
	switch {
	case enum != "":
		g.setFlags(trDec | trRjustify | trFTranslate)
		fmt.Fprintf(g.bw, "^%d %s\n", slices.IndexFunc(Filters, func(f struct{ Signal, Text string }) bool { return f.Signal == enum })+1, g.filter[enum])
	case width == 1:
		g.setFlags(trBin | trRjustify)
	default:
		g.setFlags(trDec | trRjustify)
	}
	fmt.Fprintln(g.bw, name)
}

func (g *gtkw) channel(c *vchan) {
	g.trace(c.path+".valid", 1, "")
	g.trace(c.path+".kind", 2, "kind")
	g.trace(c.path+".worm", 32, "")
}

func (g *gtkw) switchScope(v *VCD, s int32, flits int64) {
	label := v.k.Topo.Switches[s].Label
	g.label(fmt.Sprintf("%s (%s): %d flits out", v.l.swScope[s], label, flits))
	for i := range v.bufs {
		if b := &v.bufs[i]; b.sw == s && b.in > 0 {
			g.trace(b.path+".occupancy", b.width, "")
		}
	}
	for i := range v.chs {
		if c := &v.chs[i]; c.owner == s && c.flits > 0 {
			g.channel(c)
		}
	}
}

func (g *gtkw) terminal(v *VCD, t int32, flits int64) {
	for i := range v.eps {
		e := &v.eps[i]
		if e.term != t {
			continue
		}
		g.label(fmt.Sprintf("t%d: %d flits injected", t, flits))
		g.trace(e.path+".state", 2, "state")
		g.trace(e.path+".reason", 3, "reason")
		g.trace(e.path+".worm", 32, "")
		g.channel(&v.chs[v.chIdx[v.l.nlinks+t]])
	}
}
