package main

import (
	"fmt"

	"github.com/flitsim/flitsim/network"
)

// csrSettingRows rewrites the setting rows of a CSR run (slotted.scheme:
// csr) through set.
func csrSettingRows(c *network.Config, set func(key, value string)) {
	retry := "csr.retry 1"
	if c.CSR.Retry != nil {
		retry = "csr.retry " + num(*c.CSR.Retry)
	}
	if c.CSR.Fresh {
		retry = "csr.fresh (NACKed packets dropped)"
	}
	set("switching", fmt.Sprintf("slotted: scheme csr, csr.k %d (waiting places per link buffer), csr.beta %s, %s",
		c.CSR.K, num(c.CSR.Beta), retry))
	set("routing", "descending dimensions from the entry buffer, every link booked by a control flit first")
	set("traffic", "a new packet per entry buffer (2d a node) per slot, destination uniform (source included)")
}

// csrResultRows are a CSR run's extra result rows: the throughput per unit
// of real time and the link bookings (none for other runs).
func csrResultRows(r *network.Result) [][]string {
	if r.ThroughputPerTime == nil || r.Reservations == nil {
		return nil
	}
	res := r.Reservations
	return [][]string{
		{"throughput per time", num(*r.ThroughputPerTime) + " packets/node/time unit (R/(1 + csr.beta))"},
		{"reservations", fmt.Sprintf("%d confirmed, %d ghost, %d NACKs (link bookings in the window)",
			res.Confirmed, res.Ghost, res.Nacks)},
	}
}
