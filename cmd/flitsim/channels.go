package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/topology"
)

const channelsSynopsis = `Usage: flitsim channels [-c FILE.yaml] [--set key=value]... --clusters MASK,MASK,...
       [--seed N] [--format table|json]

Partitions a multistage network (MIN) into clusters and counts, for each
cluster, the channels its traffic uses at every connection C_{n−1} … C_0
(C_i: the links leaving stage G_i; Chiang 1995 ch. 5): every route between
two distinct members is traced through the built network's routing
function. Prints the counts per connection and the channels two clusters
share (named by their sending switch port, as run's channel reports name
them). A cluster is a mask over the binary terminal address, most
significant bit first: 0, 1 or x (any), e.g. x0xx = {0–3, 8–11} of 16.

  --clusters  comma-separated masks, as wide as the addresses, disjoint

  flitsim channels --set topology.kind=baseline --set topology.k=2 --set topology.n=4 --clusters x0xx,010x,11xx
  flitsim channels --set topology.kind=modified-baseline --set topology.k=2 --set topology.n=4 \
                   --clusters xxx0,xxx1
`

// channelsMaxTerminals bounds the network: a cluster of N members traces
// N(N−1) routes.
const channelsMaxTerminals = 1 << 12

// channelsCluster is one cluster in the JSON output.
type channelsCluster struct {
	Cluster  string `json:"cluster"`
	Nodes    []int  `json:"nodes"`
	Channels []int  `json:"channels"` // count at C_{n−1} … C_0
}

// channelsShared is the channels two clusters both use at one connection.
type channelsShared struct {
	Clusters   [2]string `json:"clusters"`
	Connection string    `json:"connection"`
	Channels   []string  `json:"channels"`
}

type channelsReport struct {
	Topology    string            `json:"topology"`
	Routing     string            `json:"routing"`
	Terminals   int               `json:"terminals"`
	Connections []string          `json:"connections"`
	Clusters    []channelsCluster `json:"clusters"`
	Shared      []channelsShared  `json:"shared"`
}

func cmdChannels(args []string, stdout io.Writer) error {
	fs := newFlags("channels")
	file := fs.StringP("config", "c", "", "experiment YAML `FILE` (its topology block; default: the embedded default)")
	sets := fs.StringArray("set", nil, "override a key: `key=value` (topology.kind, topology.k, topology.n, ...)")
	masks := fs.String("clusters", "", "comma-separated cluster `MASKS` over the binary address (0, 1, x), e.g. x0xx,010x,11xx")
	seed := fs.String("seed", "", "random seed, a shortcut for --set run.seed=`N` (an ESMIN's random paths)")
	format := fs.StringP("format", "f", "table", "output format: table or json")
	if help, err := parseFlags(fs, channelsSynopsis, args, stdout); help || err != nil {
		return err
	}
	if err := checkFormat(*format, "table", "json"); err != nil {
		return err
	}
	if rest := fs.Args(); len(rest) > 0 {
		return fmt.Errorf("channels: unexpected argument %q (give the config file with -c FILE)", rest[0])
	}
	if !fs.Changed("clusters") {
		return inputerr.New(topology.ClusterFlag, "(not given)", "comma-separated cluster masks, e.g. x0xx,010x,11xx")
	}
	all := *sets
	if fs.Changed("seed") {
		all = append(all, "run.seed="+*seed)
	}
	cfg, _, err := configs.LoadChecked(*file, all, checkChannelsSize)
	if err != nil {
		return err
	}
	if err := configFiles(*file, cfg).Check(); err != nil {
		return err
	}
	rep, err := channelsMeasure(cfg, strings.Split(*masks, ","))
	if err != nil {
		return err
	}
	if *format == "json" {
		return writeLayoutAny(stdout, rep)
	}
	return writeChannelsTable(stdout, rep)
}

// checkChannelsSize refuses, before the network is built, more terminals
// than channelsMaxTerminals.
func checkChannelsSize(c *network.Config) error {
	s, err := topology.SizeOf(c.Topology)
	if err == nil && s.Terminals > channelsMaxTerminals {
		return inputerr.New("topology", fmt.Sprintf("%d terminals", s.Terminals), "at most %d terminals for flitsim channels", channelsMaxTerminals)
	}
	return nil
}

// channelsMeasure builds cfg's network and measures the partition masks.
func channelsMeasure(cfg network.Config, masks []string) (*channelsReport, error) {
	spec := cfg.Topology
	spec.Routing, spec.Seed = cfg.Routing, cfg.Run.Seed
	t, err := topology.Build(spec)
	if err != nil {
		return nil, err
	}
	p, err := topology.PartitionChannels(t, masks, rand.New(rand.NewPCG(cfg.Run.Seed, 2)))
	if err != nil {
		if _, bad := inputerr.As(err); bad {
			return nil, err
		}
		return nil, &exitError{exitInternal, fmt.Errorf("internal error: %v", err)}
	}
	return channelsReportOf(t, describeTopology(cfg.Topology), p), nil
}

// channelsReportOf writes p as the command prints it.
func channelsReportOf(t *topology.Topology, desc string, p *topology.Partition) *channelsReport {
	l := p.Layout
	rep := &channelsReport{Topology: desc, Routing: t.Router.Name(), Terminals: t.Terminals(), Shared: []channelsShared{}}
	for j := range l.Stages {
		rep.Connections = append(rep.Connections, "C_"+strconv.Itoa(l.Stages-1-j))
	}
	for _, u := range p.Uses {
		rep.Clusters = append(rep.Clusters, channelsCluster{Cluster: u.Cluster.Mask, Nodes: u.Members, Channels: u.Counts()})
	}
	for _, s := range p.Shared {
		i := l.Stages - 1 - s.J
		sh := channelsShared{Clusters: [2]string{p.Uses[s.A].Cluster.Mask, p.Uses[s.B].Cluster.Mask}, Connection: rep.Connections[s.J]}
		for _, a := range s.Channels {
			sh.Channels = append(sh.Channels, l.ChannelName(t, i, a))
		}
		rep.Shared = append(rep.Shared, sh)
	}
	return rep
}

func writeChannelsTable(w io.Writer, rep *channelsReport) error {
	head := append([]string{"cluster", "nodes"}, rep.Connections...)
	var rows [][]string
	for _, c := range rep.Clusters {
		row := []string{c.Cluster, strconv.Itoa(len(c.Nodes))}
		for _, n := range c.Channels {
			row = append(row, strconv.Itoa(n))
		}
		rows = append(rows, row)
	}
	if err := renderTable(w, head, rows); err != nil {
		return err
	}
	if len(rep.Shared) == 0 {
		_, err := fmt.Fprintf(w, "%s (%s): no channel shared by two clusters\n", rep.Topology, rep.Routing)
		return err
	}
	rows = rows[:0]
	for _, s := range rep.Shared {
		rows = append(rows, []string{s.Clusters[0] + " & " + s.Clusters[1], s.Connection, strconv.Itoa(len(s.Channels)), channelList(s.Channels)})
	}
	return renderTable(w, []string{"shared by", "connection", "channels", "names"}, rows)
}

// channelList shortens a long list of channel names for the table (the
// JSON output has them all).
func channelList(names []string) string {
	if len(names) <= 4 {
		return strings.Join(names, " ")
	}
	return strings.Join(names[:3], " ") + fmt.Sprintf(" … (%d more)", len(names)-3)
}
