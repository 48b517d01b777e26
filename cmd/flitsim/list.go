package main

import (
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"

	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
	"github.com/flitsim/flitsim/traffic"
)

const listSynopsis = `Usage: flitsim list [WORD] [--format table|json|markdown] [--width N]

Lists the topologies (with their parameters and routing functions), the
routing functions, arbiters, switching modes, traffic patterns and every
configuration key with what it accepts and its default.

WORD keeps part of the list: a section (topology, parameters, routing,
arbiter, switching, pattern, keys), or else the entries whose name contains
WORD or that name it in a list (flitsim list mesh: the kind, its
parameters, its routing functions, the keys that take it).

--format markdown prints the reference page of the manual, docs/reference.md:
  flitsim list --format markdown > docs/reference.md
`

func cmdList(args []string, stdout io.Writer) error {
	fs := newFlags("list")
	format := fs.String("format", "table", "output format: table, json or markdown")
	width := fs.Int("width", 0, "fit the tables in N columns (default: the terminal's width or $COLUMNS when stdout is a terminal, else 100)")
	if help, err := parseFlags(fs, listSynopsis, args, stdout); help || err != nil {
		return err
	}
	if err := checkFormat(*format, "table", "json", "markdown"); err != nil {
		return err
	}
	if fs.Changed("width") && (*width < minListWidth || *width > maxListWidth) {
		return inputerr.New("--width", *width, "%d to %d columns", minListWidth, maxListWidth)
	}
	if len(fs.Args()) > 1 {
		return inputerr.New("list", strconv.Quote(strings.Join(fs.Args(), " ")), "one word")
	}
	sections := listSections()
	if len(fs.Args()) == 1 {
		var err error
		if sections, err = filterSections(sections, fs.Args()[0]); err != nil {
			return err
		}
	}
	switch *format {
	case "json":
		return writeListJSON(stdout, sections)
	case "markdown":
		return writeListMarkdown(stdout, sections)
	}
	if !fs.Changed("width") {
		*width = listWidth(stdout)
	}
	return writeListSections(stdout, sections, *width)
}

// listSections are every section of flitsim list, in its order.
func listSections() []listSection {
	sections := topologySections()
	return append(sections, arbiterSection(), switchingSection(), patternSection(), keySection())
}

// listSection is one titled table of flitsim list.
type listSection struct {
	name   string   // the word that selects it, and its JSON name
	words  []string // other words that select it
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
		{"topologies", []string{"topology", "kinds"}, "Topologies (topology.kind; the first routing is the default)", []string{"kind", "parameters", "routing", "description"}, rows},
		{"parameters", []string{"topology", "params"}, "Topology parameters (a config naming the kind gives them; example is a typical value)",
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
	return append(sections, listSection{"routing", []string{"routings"}, "Routing functions (routing)", []string{"routing", "topologies", "description"}, rows})
}

func arbiterSection() listSection {
	var rows [][]string
	for _, a := range xbar.Arbiters() {
		rows = append(rows, []string{a.Name, a.Desc, strings.Join(a.Aliases, ", ")})
	}
	return listSection{"arbiters", []string{"arbiter"}, "Arbiters (arbiter)", []string{"arbiter", "grants first", "aliases"}, rows}
}

func switchingSection() listSection {
	var rows [][]string
	for _, m := range xbar.Modes() {
		rows = append(rows, []string{m.String(), m.Describe()})
	}
	rows = append(rows, []string{"packet", "the packet-switched router (a switch model of its own): a packet is one unit that crosses a link in a cycle; one queue per out-link (queue.*), store-and-forward"})
	rows = append(rows, []string{"slotted", "the slotted hypercube router of Varvarigos ch. 5 (a switch model of its own, topology.kind hypercube): one packet per link per slot, a conflict's loser waits (slotted.k) or is dropped; load traffic.p0"})
	rows = append(rows, []string{"lockstep-mesh", "Han's lock-step mesh computer (flitsim route, not run; topology.kind mesh): every step a link direction carries one message, a processor holds lockstep.buffers; a step that breaks a rule is refused"})
	return listSection{"switching", []string{"modes"}, "Switching modes (switching)", []string{"switching", "a packet moves on when"}, rows}
}

func patternSection() listSection {
	var rows [][]string
	for _, p := range traffic.AllPatterns() {
		rows = append(rows, []string{p.Name, p.ParamText(), p.Desc})
	}
	return listSection{"patterns", []string{"pattern", "traffic"}, "Traffic patterns (traffic.pattern)", []string{"pattern", "parameters", "description"}, rows}
}

func keySection() listSection {
	var rows [][]string
	for _, k := range listedKeys() {
		rows = append(rows, []string{k.Key, k.Allowed, k.Default})
	}
	return listSection{"keys", []string{"key", "config"}, "Configuration keys (YAML or --set key=value)", []string{"key", "allowed", "default"}, rows}
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
