package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/flitsim/flitsim/internal/outfile"
	"github.com/flitsim/flitsim/network"
)

// csvOut is one of `flitsim run`'s CSV outputs: a flag naming the file, the
// run key it sets, and what it writes from the result.
type csvOut struct {
	flag  string
	path  *string
	set   func(*network.RunConfig)
	write func(io.Writer, *network.Result) error
	f     *outfile.File
}

// addCSVFlags declares --channels, --per-node, --per-pair, --histogram and
// --routers.
func addCSVFlags(fs *pflag.FlagSet) []*csvOut {
	outs := []*csvOut{
		{flag: "channels", set: func(r *network.RunConfig) { r.Channels = true },
			write: func(w io.Writer, r *network.Result) error { return writeChannels(w, r.Channels) }},
		{flag: "per-node", set: func(r *network.RunConfig) { r.PerNode = true }, write: writePerNode},
		{flag: "per-pair", set: func(r *network.RunConfig) { r.PerPair = true }, write: writePerPair},
		{flag: "histogram", set: func(r *network.RunConfig) { r.Histogram = true }, write: writeHistogram},
		{flag: "routers", set: func(r *network.RunConfig) { r.RouterActivity = true }, write: writeRouters},
	}
	usage := map[string]string{
		"channels":  "write every channel's load over the measurement window to `FILE.csv`",
		"per-node":  "write every terminal's packets, throughput and latency to `FILE.csv` (sets run.per_node)",
		"per-pair":  "write every source–destination pair's packets and mean latency to `FILE.csv` (sets run.per_pair)",
		"histogram": "write the exact latency histogram to `FILE.csv` (sets run.histogram)",
		"routers":   "write every router's flits switched and blocked cycles to `FILE.csv` (sets run.router_activity)",
	}
	for _, o := range outs {
		o.path = fs.String(o.flag, "", usage[o.flag])
	}
	return outs
}

// openCSV starts the files asked for (before the run, so that a bad path
// fails at once; each is put in place only when complete, see outfile).
func openCSV(outs []*csvOut) error {
	for _, o := range outs {
		if *o.path == "" {
			continue
		}
		f, err := outfile.Create(*o.path)
		if err != nil {
			return fmt.Errorf("--%s: %v", o.flag, err)
		}
		o.f = f
	}
	return nil
}

// setCSVKeys sets the run keys of the CSV outputs asked for, before the
// network is built.
func setCSVKeys(outs []*csvOut, run *network.RunConfig) {
	for _, o := range outs {
		if *o.path != "" {
			o.set(run)
		}
	}
}

// closeCSV drops the files left unwritten (after an error): each keeps
// what it held before.
func closeCSV(outs []*csvOut) {
	for _, o := range outs {
		if o.f != nil {
			o.f.Abort()
		}
	}
}

// writeCSVOuts writes and closes every file asked for.
func writeCSVOuts(outs []*csvOut, r *network.Result) error {
	for _, o := range outs {
		if o.f == nil {
			continue
		}
		err := o.write(o.f, r)
		if err != nil {
			o.f.Abort()
		} else {
			err = o.f.Commit()
		}
		o.f = nil
		if err != nil {
			return fmt.Errorf("--%s: %s: %v", o.flag, *o.path, err)
		}
	}
	return nil
}

func fmtF(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
func fmtI(i int64) string   { return strconv.FormatInt(i, 10) }

// writeRows writes a header and rows as CSV.
func writeRows(w io.Writer, header []string, n int, row func(i int) []string) error {
	cw := csv.NewWriter(w)
	cw.Write(header)
	for i := range n {
		cw.Write(row(i))
	}
	cw.Flush()
	return cw.Error()
}

func writePerNode(w io.Writer, r *network.Result) error {
	return writeRows(w, []string{"node", "sent", "received", "offered", "throughput",
		"src_latency_mean", "src_latency_p99", "dst_latency_mean", "dst_latency_p99"}, len(r.PerNode), func(i int) []string {
		s := r.PerNode[i]
		return []string{strconv.Itoa(s.Node), fmtI(s.Sent), fmtI(s.Received), fmtF(s.Offered), fmtF(s.Throughput),
			fmtF(s.SrcLatencyMean), fmtF(s.SrcLatencyP99), fmtF(s.DstLatencyMean), fmtF(s.DstLatencyP99)}
	})
}

func writePerPair(w io.Writer, r *network.Result) error {
	return writeRows(w, []string{"src", "dst", "packets", "latency_mean"}, len(r.PerPair), func(i int) []string {
		p := r.PerPair[i]
		return []string{strconv.Itoa(p.Src), strconv.Itoa(p.Dst), fmtI(p.Packets), fmtF(p.LatencyMean)}
	})
}

func writeHistogram(w io.Writer, r *network.Result) error {
	return writeRows(w, []string{"latency", "count"}, len(r.LatencyHistogram), func(i int) []string {
		b := r.LatencyHistogram[i]
		return []string{fmtI(b.Latency), fmtI(b.Count)}
	})
}

func writeRouters(w io.Writer, r *network.Result) error {
	return writeRows(w, []string{"router", "flits_switched", "blocked_cycles"}, len(r.Routers), func(i int) []string {
		a := r.Routers[i]
		return []string{a.Router, strconv.FormatUint(a.FlitsSwitched, 10), fmtI(a.BlockedCycles)}
	})
}
