package main

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/traffic"
)

// renderTable writes a table with a header row and rows; long cells wrap at
// word boundaries to keep each column under 60 characters.
func renderTable(w io.Writer, header []string, rows [][]string) error {
	t := tablewriter.NewTable(w, tablewriter.WithRowAutoWrap(tw.WrapNormal), tablewriter.WithRowMaxWidth(60))
	t.Header(header)
	if err := t.Bulk(rows); err != nil {
		return err
	}
	return t.Render()
}

// writeTable writes the two-column key/value summary of a run.
func writeTable(w io.Writer, r *network.Result) error {
	rows := summaryRows(r)
	rows = append(rows, deadlockRows(r.Deadlock)...)
	rows = append(rows, escapedRows(r.EscapedCycles)...)
	for _, d := range r.Deliveries {
		rows = append(rows, []string{fmt.Sprintf("delivered #%d", d.ID),
			fmt.Sprintf("%d→%s: generated %d, delivered %d (%s)", d.Src, network.DestText(d.Dst), d.Generated, d.Delivered, count(d.Latency, "cycle"))})
	}
	if st := r.Stall; st != nil {
		rows = append(rows, []string{"stall", fmt.Sprintf("no flit moved from cycle %d to %d, and no deadlock: livelock or starvation", st.Since, st.Cycle)})
	}
	rows = append(rows, experimentRows(r.Experiments)...)
	rows = append(rows, multiRows(r)...)
	for _, c := range r.Channels {
		rows = append(rows, []string{"channel " + c.Channel,
			fmt.Sprintf("→ %s: %s, %.4g per cycle", c.To, count(c.Flits, "flit"), c.Utilisation)})
	}
	rows = append(rows, busiestRouters(r.Routers, busiestShown)...)
	return renderTable(w, []string{"result", "value"}, rows)
}

// summaryRows are the rows every run prints: what was simulated and its
// headline figures.
func summaryRows(r *network.Result) [][]string {
	c := &r.Config
	routing := c.Routing
	if routing == "" {
		routing = "default for " + c.Topology.Kind
	}
	trafficText, loadText := trafficLoadText(r)
	measured := "measured packets"
	if sc, err := traffic.ParseScheme(c.Multicast.Scheme); err == nil && sc.Software() {
		measured = "measured messages"
	}
	rows := [][]string{
		{"topology", describeTopology(c.Topology)},
		{"terminals", strconv.Itoa(r.Terminals)},
		{"switching", switchingText(c)},
		{"routing", routing + ", arbiter " + c.Arbiter},
		{"traffic", trafficText},
		{"load", loadText},
		{"seed", strconv.FormatUint(c.Run.Seed, 10)},
		{"status", statusText(r)},
		{"cycles", strconv.FormatInt(r.Cycles, 10)},
		{"injected packets", fmt.Sprintf("%d (%s)", r.InjectedPackets, count(r.InjectedFlits, "flit"))},
		{"delivered packets", fmt.Sprintf("%d (%s)", r.DeliveredPackets, count(r.DeliveredFlits, "flit"))},
		{measured, fmt.Sprintf("%d delivered of %d", r.MeasuredDelivered, r.MeasuredPackets)},
		{"latency mean ± 95 % CI", meanCI(r.Latency)},
		{"latency p50 / p95 / p99", fmt.Sprintf("%s / %s / %s cycles", num(r.Latency.P50), num(r.Latency.P95), num(r.Latency.P99))},
		{"latency max", countText(num(r.Latency.Max), "cycle")},
		{"network latency mean ± 95 % CI", meanCI(r.NetworkLatency)},
		{"throughput", num(r.Throughput) + " flits/node/cycle"},
		{"offered", num(r.Offered) + " flits/node/cycle"},
		{"hops (routers passed)", num(r.Hops)},
		{"channel util mean / max", fmt.Sprintf("%s / %s", num(r.ChannelUtilMean), num(r.ChannelUtilMax))},
		{"busiest channel", r.BusiestChannel},
		{"max buffer occupancy", count(r.MaxBufferOccupancy, "flit")},
	}
	if len(r.Warnings) > 0 { // (after the status; stderr has them too, as it has the status)
		i := slices.IndexFunc(rows, func(row []string) bool { return row[0] == "status" }) + 1
		for j, w := range r.Warnings {
			rows = slices.Insert(rows, i+j, []string{"warning", w})
		}
	}
	if r.SystemUtilization != nil { // (after the throughput)
		i := slices.IndexFunc(rows, func(row []string) bool { return row[0] == "throughput" }) + 1
		rows = slices.Insert(rows, i, []string{"system utilisation", num(*r.SystemUtilization) + " (time computing; 1 − R at best)"})
	}
	if r.Dropped != nil { // (after the delivered packets)
		i := slices.IndexFunc(rows, func(row []string) bool { return row[0] == "delivered packets" }) + 1
		rows = slices.Insert(rows, i, []string{"dropped packets", strconv.FormatInt(*r.Dropped, 10) + " (queue.full: drop)"})
	}
	if b := r.BlockedMulticasts; b != nil { // (after the injected packets: B = blocked / (blocked + injected))
		i := slices.IndexFunc(rows, func(row []string) bool { return row[0] == "injected packets" }) + 1
		rows = slices.Insert(rows, i, []string{"blocked multicasts", strconv.FormatInt(*b, 10) + " (rb trees, dropped at the source)"})
	}
	if b := r.BookSim; b != nil { // (after the headline figures it renames)
		i := slices.IndexFunc(rows, func(row []string) bool { return row[0] == "offered" }) + 1
		rows = slices.Insert(rows, i, []string{"BookSim's names", fmt.Sprintf("packet latency average %s, network latency average %s, accepted flit rate %s",
			num(b.PacketLatencyAverage), num(b.NetworkLatencyAverage), num(b.AcceptedFlitRate))})
	}
	if mc := describeMulticast(c); mc != "" {
		rows = append(rows[:5:5], append([][]string{{"multicast", mc}}, rows[5:]...)...)
	}
	return slottedRows(r, rows)
}

// meanCI writes a latency's mean and confidence interval, e.g. "24.7 ±
// 0.3 cycles", or "24.7 ± n/a cycles (2 of 20 batches measured, at least
// 10 needed)" when there is no interval (never "± 0").
func meanCI(s network.Summary) string {
	if math.IsNaN(s.CI95) {
		why := s.CI95Note
		if why == "" {
			why = "no interval"
		}
		return fmt.Sprintf("%s ± n/a cycles (%s)", num(s.Mean), why)
	}
	return fmt.Sprintf("%s ± %s cycles", num(s.Mean), num(s.CI95))
}

// trafficLoadText describes the run's traffic and its load: a pattern and
// rate, a trace, listed packets or a batch.
func trafficLoadText(r *network.Result) (trafficText, loadText string) {
	c := &r.Config
	trafficText = fmt.Sprintf("%s, %s flits/packet", c.Traffic.Pattern, c.Traffic.Flits)
	loadText = num(c.Traffic.Load) + " flits/node/cycle"
	if traffic.IsMulticastPattern(c.Traffic.Pattern) {
		loadText = num(c.Traffic.Load) + " (system load: flits/node/cycle × destinations)"
		size := max(c.Traffic.Cluster, c.Traffic.ClusterSize) // (equal when both are set)
		if size == 0 {
			size = r.Terminals
		}
		placed := ""
		if a, err := traffic.ParseAllocation(c.Traffic.Clusters); err == nil && a != traffic.AllocCube {
			placed = " " + a.String()
		}
		trafficText = fmt.Sprintf("%s (%d-node clusters%s), %s flits/message", c.Traffic.Pattern, size, placed, c.Traffic.Flits)
		if p, _ := traffic.LookupPattern(c.Traffic.Pattern); p.Name == traffic.BlockingMulticast || p.Name == traffic.NonBlockingMulticast {
			loadText = "communication ratio R = " + num(c.Traffic.Ratio)
		}
	}
	switch {
	case c.Traffic.Trace != "":
		trafficText, loadText = "trace "+c.Traffic.Trace, "as in the trace"
	case len(c.Traffic.Packets) > 0:
		trafficText, loadText = count(len(c.Traffic.Packets), "packet")+" listed in traffic.packets", "as listed"
	}
	if strings.EqualFold(c.Traffic.Mode, "batch") {
		trafficText, loadText = fmt.Sprintf("batch of %s per node, %s", count(max(1, c.Traffic.H), "packet"), c.Traffic.Pattern), "all at cycle 0"
	}
	return trafficText, loadText
}

// deadlockRows are "deadlock none", or the deadlock's cycle, worms,
// resources and switches.
func deadlockRows(d *network.Deadlock) [][]string {
	if d == nil {
		return [][]string{{"deadlock", "none"}}
	}
	worms := make([]string, len(d.Worms))
	for i, wm := range d.Worms {
		worms[i] = fmt.Sprintf("#%d %d→%s", wm.ID, wm.Src, network.DestText(wm.Dst))
	}
	rows := [][]string{
		{"deadlock", fmt.Sprintf("at cycle %d (stuck since %d)", d.Cycle, d.Since)},
		{"deadlock worms", strings.Join(worms, ", ")},
		{"deadlock resources", strings.Join(d.Resources, " → ")},
	}
	if len(d.Switches) > 0 {
		rows = append(rows, []string{"deadlock switches", strings.Join(d.Switches, ", ")})
	}
	return rows
}

// escapedRows are the count of wait-for cycles escape VCs broke and the
// first one (routing: adaptive; none otherwise).
func escapedRows(e *network.EscapedCycles) [][]string {
	if e == nil {
		return nil
	}
	rows := [][]string{{"escaped cycles", fmt.Sprintf("%d (deadlock checks that found a wait-for cycle only an escape VC broke)", e.Count)}}
	if f := e.First; f != nil {
		worms := make([]string, len(f.Worms))
		for i, wm := range f.Worms {
			worms[i] = fmt.Sprintf("#%d %d→%s", wm.ID, wm.Src, network.DestText(wm.Dst))
		}
		rows = append(rows, []string{"first escaped cycle", fmt.Sprintf("at cycle %d: %s; %s", f.Cycle, strings.Join(worms, ", "), strings.Join(f.Resources, " → "))},
			[]string{"broken by", f.Escape})
	}
	return rows
}

// busiestShown is the number of routers the table lists (run.router_activity).
const busiestShown = 5

// busiestRouters lists the n routers that switched the most flits (ties:
// the most blocked cycles, then switch order) as table rows.
func busiestRouters(rs []network.RouterActivity, n int) [][]string {
	if len(rs) == 0 {
		return nil
	}
	order := make([]int, len(rs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(rs[b].FlitsSwitched, rs[a].FlitsSwitched), cmp.Compare(rs[b].BlockedCycles, rs[a].BlockedCycles))
	})
	var rows [][]string
	for _, i := range order[:min(n, len(order))] {
		rows = append(rows, []string{"busy router " + rs[i].Router,
			fmt.Sprintf("%s switched, %s blocked", count(rs[i].FlitsSwitched, "flit"), count(rs[i].BlockedCycles, "cycle"))})
	}
	return rows
}

// writeChannels writes run.channels' list as CSV, a row per channel.
func writeChannels(w io.Writer, cs []network.ChannelLoad) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"channel", "to", "flits", "utilisation"})
	for _, c := range cs {
		cw.Write([]string{c.Channel, c.To, strconv.FormatUint(c.Flits, 10), strconv.FormatFloat(c.Utilisation, 'g', -1, 64)})
	}
	cw.Flush()
	return cw.Error()
}

// describeTopology writes a topology's kind and the parameters set.
func describeTopology(t network.TopologyConfig) string {
	s := t.Kind
	add := func(k string, v any) { s += fmt.Sprintf(" %s=%v", k, v) }
	if t.D != 0 {
		add("d", t.D)
	}
	if t.K != 0 {
		add("k", t.K)
	} else if t.Rectangular() {
		add("k", t.Sides)
	}
	if t.N != 0 {
		add("n", t.N)
	}
	if len(t.Dims) > 0 {
		add("dims", t.Dims)
	}
	if len(t.Order) > 0 {
		add("order", t.Order)
	}
	if t.Symmetric {
		add("symmetric", true)
	}
	if t.Path != "" {
		add("path", t.Path)
		if t.Path == "given" {
			add("path_index", t.PathIndex)
		}
	}
	if t.File != "" {
		add("file", t.File)
	}
	return s
}

// num writes a float briefly: up to 4 decimals, no trailing zeros.
func num(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "n/a"
	}
	s := strconv.FormatFloat(f, 'f', 4, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

// writeJSON writes the whole result, indented. Non-finite floats (which JSON
// cannot hold) are written as 0, except in types that write their own JSON
// (a latency summary writes a missing confidence interval as null).
func writeJSON(w io.Writer, r *network.Result) error {
	c := *r
	finite(reflect.ValueOf(&c).Elem())
	b, err := json.MarshalIndent(&c, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// finite replaces NaN and ±Inf in v's float fields by 0 (v is addressable),
// leaving alone values that marshal themselves.
func finite(v reflect.Value) {
	if v.Type().Implements(reflect.TypeFor[json.Marshaler]()) {
		return
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			v.SetFloat(0)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				finite(v.Field(i))
			}
		}
	case reflect.Pointer:
		if !v.IsNil() && v.Elem().Kind() == reflect.Struct {
			cp := reflect.New(v.Elem().Type())
			cp.Elem().Set(v.Elem())
			finite(cp.Elem())
			v.Set(cp)
		}
	}
}

// writeCSV writes a header row of flattened JSON keys (latency.mean,
// config.topology.k, ...) and one row of values. The columns depend only on
// the Result type, not on the values (an absent deadlock gives empty cells).
func writeCSV(w io.Writer, r *network.Result) error {
	var keys, vals []string
	flatten(reflect.ValueOf(*r), reflect.TypeOf(*r), "", &keys, &vals)
	cw := csv.NewWriter(w)
	cw.Write(keys)
	cw.Write(vals)
	cw.Flush()
	return cw.Error()
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" || !f.IsExported() || f.Tag.Get("csv") == "-" {
		return ""
	}
	if name == "" {
		name = f.Name
	}
	return name
}

// flatten appends the leaves of v (of type t; v may be invalid for "absent")
// as dotted keys and their values.
func flatten(v reflect.Value, t reflect.Type, prefix string, keys, vals *[]string) {
	if t.Kind() == reflect.Pointer {
		if v.IsValid() && !v.IsNil() {
			v = v.Elem()
		} else {
			v = reflect.Value{}
		}
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct && !t.Implements(reflect.TypeFor[fmt.Stringer]()) {
		for i := 0; i < t.NumField(); i++ {
			name := jsonName(t.Field(i))
			if name == "" {
				continue
			}
			var fv reflect.Value
			if v.IsValid() {
				fv = v.Field(i)
			}
			key := name
			if prefix != "" {
				key = prefix + "." + name
			}
			flatten(fv, t.Field(i).Type, key, keys, vals)
		}
		return
	}
	*keys = append(*keys, prefix)
	*vals = append(*vals, cell(v))
}

// cell writes one leaf value; lists are joined with ";", a non-finite
// float is an empty cell.
func cell(v reflect.Value) string {
	if !v.IsValid() {
		return ""
	}
	if s, ok := v.Interface().(fmt.Stringer); ok {
		return s.String()
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return "" // (no value, e.g. no confidence interval: as in a sweep's CSV)
		}
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case reflect.Slice, reflect.Array:
		parts := make([]string, v.Len())
		for i := range parts {
			e := v.Index(i)
			if e.Kind() == reflect.Struct {
				// e.g. deadlock worms: id:src>dst
				var fs []string
				for j := 0; j < e.NumField(); j++ {
					fs = append(fs, cell(e.Field(j)))
				}
				if len(fs) == 3 {
					parts[i] = fs[0] + ":" + fs[1] + ">" + fs[2]
				} else {
					parts[i] = strings.Join(fs, ":")
				}
				continue
			}
			parts[i] = cell(e)
		}
		return strings.Join(parts, ";")
	}
	return fmt.Sprint(v.Interface())
}
