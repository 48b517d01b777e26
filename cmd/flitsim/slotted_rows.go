package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/network"
)

// slottedRows rewrites the summary rows of a slotted-router run
// (switching: slotted): its traffic is traffic.p0 per link buffer, not a
// pattern and a load, and it adds the throughput per node, the drops by
// cause and p_1..p_d.
func slottedRows(r *network.Result, rows [][]string) [][]string {
	c := &r.Config
	if !strings.EqualFold(strings.TrimSpace(c.Switching), "slotted") {
		return rows
	}
	or := func(v, def string) string {
		if v == "" {
			return def
		}
		return v
	}
	set := func(key, value string) {
		if i := slices.IndexFunc(rows, func(row []string) bool { return row[0] == key }); i >= 0 {
			rows[i][1] = value
		}
	}
	fbfly := strings.EqualFold(strings.TrimSpace(c.Topology.Kind), "folded-butterfly") // (per-node figures per butterfly node)
	set("switching", fmt.Sprintf("slotted: scheme %s, slotted.k %s (waiting places per link buffer)",
		or(c.Slotted.Scheme, "simple"), or(c.Slotted.K, "0")))
	if strings.EqualFold(strings.TrimSpace(c.Slotted.Scheme), "csr") {
		csrSettingRows(c, set)
	} else if strings.HasPrefix(strings.ToLower(strings.TrimSpace(c.Slotted.Scheme)), "deflection") {
		set("routing", "crossbar: preferred links first (non-wasting), the rest deflected (2 hops each)")
		set("traffic", "a new packet per free link per slot, destination uniform over the other nodes")
	} else if fbfly {
		set("routing", "greedy: a stage's cross link where its row bit differs, else straight; d links a packet")
		set("traffic", "a new packet per free link buffer per slot, destination row uniform (source included)")
	} else {
		set("routing", "descending dimensions from the buffer a packet enters")
		set("traffic", "a new packet per free link buffer per slot, destination uniform (source included)")
	}
	set("load", "traffic.p0 "+num(c.Traffic.P0))
	var causes []string
	for name, v := range r.DroppedByCause {
		causes = append(causes, fmt.Sprintf("%s %d", name, v))
	}
	slices.Sort(causes)
	set("measured packets", fmt.Sprintf("%d delivered, %d dropped of %d (entered in the window)",
		r.MeasuredDelivered, r.MeasuredDropped, r.MeasuredPackets))
	set("dropped packets", fmt.Sprintf("%d (%s)", *r.Dropped, or(strings.Join(causes, ", "), "none")))
	if r.ThroughputPerNode != nil {
		p := make([]string, len(r.PType))
		for i, v := range r.PType {
			p[i] = num(v)
		}
		i := slices.IndexFunc(rows, func(row []string) bool { return row[0] == "throughput" })
		most := "at most 2"
		if fbfly {
			most = "at most 2/d; × d per row of d nodes, a hypercube node"
		}
		extra := [][]string{{"throughput per node", num(*r.ThroughputPerNode) + " packets/node/slot (" + most + ")"}}
		extra = append(extra, csrResultRows(r)...)
		if r.Deflections != nil {
			extra = append(extra, []string{"deflections per packet", num(r.Deflections.Mean) + " (mean; each adds 2 hops)"})
			if r.OldestAge != nil {
				extra = append(extra, []string{"oldest packet, lockout", fmt.Sprintf("%d slots, %d deflections at most; longest lockout %d slots",
					*r.OldestAge, *r.MaxDeflections, *r.LongestLockout)})
			}
		} else {
			extra = append(extra, []string{"p_1 … p_d", strings.Join(p, ", ")})
			pi := make([]string, len(r.Pi))
			for i, v := range r.Pi {
				pi[i] = num(v)
			}
			extra = append(extra, []string{"π_1 … π_d (forward links)", strings.Join(pi, ", ")})
		}
		rows = slices.Insert(rows, i, extra...)
	}
	return rows
}
