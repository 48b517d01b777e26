package network

import (
	"math"
	"reflect"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
)

// Conflict Sense Routing on the slotted hypercube router (slotted.scheme:
// csr; docs/slotted.md): its keys, their checks and its result fields. The
// protocol itself is the kernel's (internal/kernel/csr.go).

// CSRConfig sets the CSR protocol (slotted.scheme: csr).
type CSRConfig struct {
	// Beta is the control interval's length in time units (a packet's
	// transmission takes one): a slot lasts 1 + β, which only scales
	// throughput_per_time.
	Beta float64 `yaml:"beta" json:"beta,omitempty" allowed:"a number ≥ 0 (control interval, time units; slotted.scheme: csr)" default:"0"`
	// Retry is q_r, the probability per slot that a backlogged entry
	// buffer retries its packet; nil is 1.
	Retry *float64 `yaml:"retry" json:"retry,omitempty" allowed:"a probability in (0, 1] (retry per slot of a backlogged entry buffer; slotted.scheme: csr)" default:"1"`
	// K is the number of waiting places per link buffer (§3.5's general
	// form; 0 is the hypercube implementation of §6.3).
	K int `yaml:"k" json:"k,omitempty" allowed:"an integer from 0 to 64 (waiting places per link buffer; slotted.scheme: csr)" default:"0"`
	// Fresh drops a NACKed packet (cause nacked) instead of backlogging
	// its entry buffer: every attempt is then a new packet, with
	// probability traffic.p0 per entry buffer per slot — the memoryless
	// attempt process the analysis (§6.4) assumes; csr.retry is unused.
	Fresh bool `yaml:"fresh" json:"fresh,omitempty" allowed:"true or false (NACKed packets dropped, not retried; slotted.scheme: csr)" default:"false"`
}

// csrAllowed is the allowed text declared on CSRConfig's field name.
func csrAllowed(name string) string {
	f, _ := reflect.TypeFor[CSRConfig]().FieldByName(name)
	return f.Tag.Get("allowed")
}

// isCSR reports whether c selects the CSR scheme of the slotted router.
func isCSR(c *Config) bool {
	return isSlotted(c) && strings.EqualFold(strings.TrimSpace(c.Slotted.Scheme), "csr")
}

// csrSpec checks the CSR keys of c into s (whose scheme is CSR).
func csrSpec(c *Config, s *kernel.SlottedSpec) error {
	if kind := strings.ToLower(strings.TrimSpace(c.Topology.Kind)); kind != "hypercube" {
		return inputerr.New("topology.kind", c.Topology.Kind, "hypercube with slotted.scheme: csr")
	}
	if s.K != 0 {
		return inputerr.New("slotted.k", c.Slotted.K, "0 with slotted.scheme: csr (csr.k sets its link buffers)")
	}
	cc := c.CSR
	if !(cc.Beta >= 0) || math.IsInf(cc.Beta, 1) {
		return inputerr.New("csr.beta", cc.Beta, csrAllowed("Beta"))
	}
	s.Retry = 1
	if cc.Retry != nil {
		if r := *cc.Retry; !(r > 0 && r <= 1) {
			return inputerr.New("csr.retry", r, csrAllowed("Retry"))
		}
		s.Retry = *cc.Retry
	}
	if cc.K < 0 || cc.K > 64 {
		return inputerr.New("csr.k", cc.K, csrAllowed("K"))
	}
	s.K, s.Fresh = cc.K, cc.Fresh
	return nil
}

// Reservations is Result.Reservations: CSR's link bookings in the window.
type Reservations struct {
	// Confirmed bookings were kept (their packet entered); ghost ones were
	// made and then freed by their flit's NACK; Nacks counts the flits
	// NACKed.
	Confirmed int64 `json:"confirmed"`
	Ghost     int64 `json:"ghost"`
	Nacks     int64 `json:"nacks"`
}

// fillCSR sets r's CSR figures from the slotted router's counts c.
func (n *Network) fillCSR(r *Result, c *kernel.SlottedCounts) {
	if !isCSR(&n.Cfg) {
		return
	}
	r.Reservations = &Reservations{Confirmed: c.Confirmed, Ghost: c.Ghost, Nacks: c.Nacks}
	r.Violations.ChannelOverUse += c.Collisions
	r.Violations.Overflow += c.Overflows
	if r.ThroughputPerNode != nil {
		t := *r.ThroughputPerNode / (1 + n.Cfg.CSR.Beta)
		r.ThroughputPerTime = &t
	}
}
