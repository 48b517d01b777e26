package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/link"
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

	var rows [][]string
	usedBy := map[string][]string{}
	for _, k := range topology.Kinds() {
		rows = append(rows, []string{k.Name, strings.Join(k.Params, ", "), strings.Join(k.Routings, ", "), k.Desc})
		for _, r := range k.Routings {
			usedBy[r] = append(usedBy[r], k.Name)
		}
	}
	sections := []struct {
		title  string
		header []string
		rows   [][]string
	}{{"Topologies (topology.kind; the first routing is the default)", []string{"kind", "parameters", "routing", "description"}, rows}}

	routings := make([]string, 0, len(usedBy))
	for r := range usedBy {
		routings = append(routings, r)
	}
	sort.Strings(routings)
	rows = nil
	for _, r := range routings {
		rows = append(rows, []string{r, strings.Join(usedBy[r], ", ")})
	}
	sections = append(sections, struct {
		title  string
		header []string
		rows   [][]string
	}{"Routing functions (routing)", []string{"routing", "topologies"}, rows})

	rows = nil
	for _, p := range xbar.PolicyNames() {
		pol, _ := xbar.ParsePolicy(p)
		rows = append(rows, []string{p, pol.Describe()})
	}
	sections = append(sections, struct {
		title  string
		header []string
		rows   [][]string
	}{"Arbiters (arbiter)", []string{"arbiter", "grants first"}, rows})

	rows = nil
	for _, m := range link.ModeNames() {
		mode, _ := link.ParseMode(m)
		rows = append(rows, []string{m, mode.Describe()})
	}
	sections = append(sections, struct {
		title  string
		header []string
		rows   [][]string
	}{"Switching modes (switching)", []string{"switching", "a packet moves on when"}, rows})

	rows = nil
	for _, p := range append(traffic.Patterns(), traffic.MulticastPatterns()...) {
		rows = append(rows, []string{p.Name, p.Params, p.Desc})
	}
	sections = append(sections, struct {
		title  string
		header []string
		rows   [][]string
	}{"Traffic patterns (traffic.pattern)", []string{"pattern", "parameters", "description"}, rows})

	rows = nil
	for _, k := range configs.Keys() {
		rows = append(rows, []string{k.Key, k.Allowed, k.Default})
	}
	sections = append(sections, struct {
		title  string
		header []string
		rows   [][]string
	}{"Configuration keys (YAML or --set key=value)", []string{"key", "allowed", "default"}, rows})

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
