package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/network/topology"
)

const distancesSynopsis = `Usage: flitsim distances [-c FILE.yaml] [--set key=value]... [--format table|json]

Builds the configured network (a random class's member from run.seed) and
prints its distances between terminals, in links crossed between switches:
on the built graph (shortest paths by BFS; direct networks only) and on the
routes the routing function takes (every ordered pair traced hop by hop):
diameter, mean over all N² pairs (self included, the folded-cube paper's
MID) and over pairs with source ≠ destination, and how many pairs lie at
each distance.

  --set topology.kind=folded-cube --set topology.d=8   diameter ⌈d/2⌉ = 4
  --set topology.kind=pseudocube --set topology.d=10 --seed 3

An interrupt (Ctrl-C, SIGINT or SIGTERM) stops it at once: it prints the
distances finished (the graph's, say), the others null with a note saying
they were interrupted (JSON: "interrupted": true), and exits with status 130.
`

// Size limits: the BFS runs from every node, 64 at a time; the routes are
// traced one pair at a time.
const (
	distancesMaxGraph  = 1 << 14
	distancesMaxRoutes = 1 << 10
)

// distanceStats is one distance distribution in the JSON output.
type distanceStats struct {
	Diameter     int     `json:"diameter"`
	MeanAll      float64 `json:"mean_all"`
	MeanDistinct float64 `json:"mean_distinct"`
	Histogram    []int64 `json:"histogram"`
}

type distancesReport struct {
	Topology  string         `json:"topology"`
	Routing   string         `json:"routing"`
	Seed      uint64         `json:"seed"`
	Terminals int            `json:"terminals"`
	Graph     *distanceStats `json:"graph"`  // null for a MIN, or past distancesMaxGraph
	Routes    *distanceStats `json:"routes"` // null past distancesMaxRoutes
	Notes     []string       `json:"notes,omitempty"`
	// Interrupted is set when an interrupt stopped the measures: graph or
	// routes (null) were not finished, and the notes say which.
	Interrupted bool `json:"interrupted,omitempty"`
}

func cmdDistances(args []string, stdout io.Writer) error {
	fs := newFlags("distances")
	file := fs.StringP("config", "c", "", "experiment YAML `FILE` (default: the embedded default)")
	sets := fs.StringArray("set", nil, "override a key: `key=value` (repeatable; dotted keys)")
	seed := fs.String("seed", "", "random seed, a shortcut for --set run.seed=`N` (draws a random topology's member)")
	format := fs.StringP("format", "f", "table", "output format: table or json")
	if help, err := parseFlags(fs, distancesSynopsis, args, stdout); help || err != nil {
		return err
	}
	if err := checkFormat(*format, "table", "json"); err != nil {
		return err
	}
	if rest := fs.Args(); len(rest) > 0 {
		return fmt.Errorf("distances: unexpected argument %q (give the config file with -c FILE)", rest[0])
	}
	all := *sets
	if fs.Changed("seed") {
		all = append(all, "run.seed="+*seed)
	}
	cfg, _, err := configs.LoadChecked(*file, all, checkDistancesSize)
	if err != nil {
		return err
	}
	if err := configFiles(*file, cfg).Check(); err != nil { // (stdout redirected to the config)
		return err
	}
	spec := cfg.Topology
	spec.Routing, spec.Seed = cfg.Routing, cfg.Run.Seed
	release := watchInterrupts("stopping now, with the distances finished")
	defer release()
	var t *topology.Topology
	if untilInterrupted(func() { t, err = topology.Build(spec) }) {
		return interruptedError("distances interrupted while building the network: nothing measured")
	}
	if err != nil {
		return err
	}
	n := t.Terminals()
	rep := &distancesReport{Topology: describeTopology(cfg.Topology), Routing: t.Router.Name(), Seed: cfg.Run.Seed, Terminals: n}
	if err := measureDistances(t, rep); err != nil {
		return err
	}
	if *format == "json" {
		err = writeLayoutAny(stdout, rep)
	} else {
		err = writeDistancesTable(stdout, rep)
	}
	if err == nil && rep.Interrupted {
		err = interruptedError("distances interrupted: %s", strings.Join(rep.Notes, "; "))
	}
	return err
}

// measureDistances fills in rep's graph and route distances of t, as far
// as an interrupt lets it (then rep.Interrupted, and a note says what is
// missing).
func measureDistances(t *topology.Topology, rep *distancesReport) error {
	if !direct(t) {
		rep.Notes = append(rep.Notes, "graph: not a direct network (terminals inject and eject at different switches)")
	} else {
		var g topology.Distances
		var err error
		switch {
		case untilInterrupted(func() { g, err = topology.GraphDistances(t) }):
			rep.Interrupted = true
			rep.Notes = append(rep.Notes, "graph: interrupted before every BFS finished")
		case err != nil:
			rep.Notes = append(rep.Notes, "graph: "+err.Error())
		default:
			rep.Graph = summarise(g)
		}
	}
	switch {
	case rep.Terminals > distancesMaxRoutes:
		rep.Notes = append(rep.Notes, fmt.Sprintf("routes: not traced for more than %d terminals", distancesMaxRoutes))
	case rep.Interrupted:
		rep.Notes = append(rep.Notes, "routes: not traced (interrupted)")
	default:
		var r topology.Distances
		var err error
		if untilInterrupted(func() { r, err = topology.RouteDistances(t, nil) }) {
			rep.Interrupted = true
			rep.Notes = append(rep.Notes, "routes: interrupted before every pair was traced")
			return nil
		}
		if err != nil {
			return &exitError{exitInternal, fmt.Errorf("internal error: %v", err)}
		}
		rep.Routes = summarise(r)
	}
	return nil
}

// direct reports whether every terminal ejects at the switch it injects
// into (so the switch graph's distances are the terminals').
func direct(t *topology.Topology) bool {
	for term, s := range t.InSwitch {
		found := false
		for _, e := range t.Switches[s].Out {
			found = found || (e.ToTerminal() && int(e.Terminal) == term)
		}
		if !found {
			return false
		}
	}
	return true
}

func summarise(d topology.Distances) *distanceStats {
	return &distanceStats{Diameter: d.Diameter(), MeanAll: d.MeanAll(), MeanDistinct: d.MeanDistinct(), Histogram: d.Hist}
}

func writeDistancesTable(w io.Writer, rep *distancesReport) error {
	rows := [][]string{
		{"topology", fmt.Sprintf("%s, %d terminals, seed %d", rep.Topology, rep.Terminals, rep.Seed)},
		{"routing", rep.Routing},
	}
	for _, part := range []struct {
		name string
		s    *distanceStats
	}{{"graph (BFS)", rep.Graph}, {"routes", rep.Routes}} {
		if part.s == nil {
			continue
		}
		h := make([]string, len(part.s.Histogram))
		for i, c := range part.s.Histogram {
			h[i] = strconv.FormatInt(c, 10)
		}
		rows = append(rows,
			[]string{part.name + " diameter", strconv.Itoa(part.s.Diameter)},
			[]string{part.name + " mean", fmt.Sprintf("%s over N² pairs, %s with source ≠ destination", exact(part.s.MeanAll), exact(part.s.MeanDistinct))},
			[]string{part.name + " pairs at 0, 1, … links", strings.Join(h, ", ")})
	}
	for _, n := range rep.Notes {
		rows = append(rows, []string{"note", n})
	}
	return renderTable(w, []string{"distances", "value"}, rows)
}

// exact writes a mean with up to 10 significant digits (the folded cube's
// MIDs are short binary fractions, e.g. 2.40625).
func exact(f float64) string { return strconv.FormatFloat(f, 'g', 10, 64) }
