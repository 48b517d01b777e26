package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
	"github.com/flitsim/flitsim/traffic"
)

const listSynopsis = `Usage: flitsim list

Lists the topologies (with their parameters and routing functions), the
routing functions, arbiters, switching modes, traffic patterns and every
configuration key with what it accepts and its default.
`

func cmdList(args []string, stdout io.Writer) error {
	fs := newFlags("list")
	if help, err := parseFlags(fs, listSynopsis, args, stdout); help || err != nil {
		return err
	}
	if len(fs.Args()) > 0 {
		return fmt.Errorf("list: unexpected argument %q", fs.Args()[0])
	}
	sections := topologySections()
	sections = append(sections, arbiterSection(), switchingSection(), patternSection(), keySection())
	return writeListSections(stdout, sections)
}

// listSection is one titled table of flitsim list.
type listSection struct {
	title  string
	header []string
	rows   [][]string
}

// topologySections lists the topology kinds, their parameters and the
// routing functions they use.
func topologySections() []listSection {
	var rows, params [][]string
	usedBy := map[string][]string{}
	// A routing name several kinds use with different meanings ("standard"
	// is each network's own route) gets each kind's description.
	routingDesc := map[string][]kindsDesc{} // name → its distinct descriptions
	for _, k := range topology.Kinds() {
		rows = append(rows, []string{k.Name, strings.Join(k.ParamNames(), ", "), strings.Join(k.RoutingNames(), ", "), k.Desc})
		for _, r := range k.Routings {
			usedBy[r.Name] = append(usedBy[r.Name], k.Name)
			ds := routingDesc[r.Name]
			if i := slices.IndexFunc(ds, func(d kindsDesc) bool { return d.desc == r.Desc }); i >= 0 {
				ds[i].kinds = append(ds[i].kinds, k.Name)
			} else if r.Desc != "" {
				routingDesc[r.Name] = append(ds, kindsDesc{[]string{k.Name}, r.Desc})
			}
		}
		for _, p := range k.Params {
			params = append(params, []string{"topology." + p.Key, k.Name, p.Allowed, p.Default, p.Desc})
		}
	}
	sections := []listSection{
		{"Topologies (topology.kind; the first routing is the default)", []string{"kind", "parameters", "routing", "description"}, rows},
		{"Topology parameters (a config naming the kind gives them; example is a typical value)",
			[]string{"key", "kind", "allowed", "example", "description"}, params},
	}

	routings := make([]string, 0, len(usedBy))
	for r := range usedBy {
		routings = append(routings, r)
	}
	sort.Strings(routings)
	rows = nil
	for _, r := range routings {
		rows = append(rows, []string{r, strings.Join(usedBy[r], ", "), routingDescText(routingDesc[r])})
	}
	return append(sections, listSection{"Routing functions (routing)", []string{"routing", "topologies", "description"}, rows})
}

func arbiterSection() listSection {
	var rows [][]string
	for _, a := range xbar.Arbiters() {
		rows = append(rows, []string{a.Name, a.Desc, strings.Join(a.Aliases, ", ")})
	}
	return listSection{"Arbiters (arbiter)", []string{"arbiter", "grants first", "aliases"}, rows}
}

func switchingSection() listSection {
	var rows [][]string
	for _, m := range xbar.Modes() {
		rows = append(rows, []string{m.String(), m.Describe()})
	}
	rows = append(rows, []string{"packet", "the packet-switched router (a switch model of its own): a packet is one unit that crosses a link in a cycle; one queue per out-link (queue.*), store-and-forward"})
	return listSection{"Switching modes (switching)", []string{"switching", "a packet moves on when"}, rows}
}

func patternSection() listSection {
	var rows [][]string
	for _, p := range traffic.AllPatterns() {
		rows = append(rows, []string{p.Name, p.ParamText(), p.Desc})
	}
	return listSection{"Traffic patterns (traffic.pattern)", []string{"pattern", "parameters", "description"}, rows}
}

func keySection() listSection {
	var rows [][]string
	for _, k := range listedKeys() {
		rows = append(rows, []string{k.Key, k.Allowed, k.Default})
	}
	return listSection{"Configuration keys (YAML or --set key=value)", []string{"key", "allowed", "default"}, rows}
}

// writeListSections prints each section's title and table, a blank line
// between sections.
func writeListSections(stdout io.Writer, sections []listSection) error {
	for i, s := range sections {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintln(stdout, s.title)
		if len(s.rows) == 0 {
			fmt.Fprintln(stdout, "  (none registered)")
			continue
		}
		if err := renderTable(stdout, s.header, s.rows); err != nil {
			return err
		}
	}
	return nil
}

type kindsDesc struct {
	kinds []string
	desc  string
}

// routingDescText is a routing's description, or when kinds describe it
// differently each one, "kinds: description", joined by "; ".
func routingDescText(ds []kindsDesc) string {
	if len(ds) == 1 {
		return ds[0].desc
	}
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = strings.Join(d.kinds, ", ") + ": " + d.desc
	}
	return strings.Join(parts, "; ")
}
