package network

import (
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// The keys of Conflict Sense Routing (slotted.scheme: csr; Varvarigos 1992
// ch. 6), declared here for `flitsim analytic --scheme csr`, which
// evaluates the thesis's model of it (eqs. 6.1–6.8) at them.

// CSRConfig sets Conflict Sense Routing.
type CSRConfig struct {
	// Beta is a control interval's length in packet times: a slot is
	// 1 + β time units.
	Beta float64 `yaml:"beta" json:"beta,omitempty" allowed:"a number ≥ 0: the control interval in packet times (a slot lasts 1 + β; slotted.scheme: csr)" default:"0"`
	// Retry is the probability q_r with which a blocked packet tries again
	// in a slot (nil: 1, the thesis's best).
	Retry *float64 `yaml:"retry" json:"retry,omitempty" allowed:"a probability above 0, at most 1: a blocked packet's retry per slot (slotted.scheme: csr)" default:"1"`
	// K is the packets a link buffer holds besides the one on its link.
	K int `yaml:"k" json:"k,omitempty" allowed:"an integer ≥ 0: waiting places per link buffer (slotted.scheme: csr)" default:"0"`
}

// CSRSettings are the checked settings of a CSR configuration.
type CSRSettings struct {
	D     int     // topology.d
	P0    float64 // traffic.p0: q_a, a new packet at an entry buffer per slot
	Beta  float64 // csr.beta
	Retry float64 // csr.retry: q_r
	K     int     // csr.k
}

// IsCSR reports whether c selects the slotted router's csr scheme.
func IsCSR(c *Config) bool {
	return strings.EqualFold(strings.TrimSpace(c.Slotted.Scheme), "csr")
}

// CheckCSR checks c's CSR keys and the slotted router's keys that CSR
// shares (traffic.p0, the traffic kind), and returns them; slotted.k, the
// ch. 5 schemes' waiting places, must be 0 (CSR's are csr.k).
func CheckCSR(c *Config) (CSRSettings, error) {
	shared := *c
	shared.Slotted = SlottedConfig{Scheme: "simple"}
	st, err := CheckSlotted(&shared)
	if err != nil {
		return CSRSettings{}, err
	}
	if k, err := parseSlottedK(c.Slotted.K); err != nil || k != 0 {
		return CSRSettings{}, inputerr.New("slotted.k", c.Slotted.K, "0 with slotted.scheme: csr (its waiting places are csr.k)")
	}
	s := CSRSettings{D: st.D, P0: st.P0, Beta: c.CSR.Beta, Retry: 1, K: c.CSR.K}
	if c.CSR.Retry != nil {
		s.Retry = *c.CSR.Retry
	}
	switch {
	case !(s.Beta >= 0):
		return s, inputerr.New("csr.beta", c.CSR.Beta, "a number ≥ 0 (the control interval, in packet times)")
	case !(s.Retry > 0 && s.Retry <= 1):
		return s, inputerr.New("csr.retry", s.Retry, "a probability above 0, at most 1")
	case s.K < 0:
		return s, inputerr.New("csr.k", s.K, "an integer ≥ 0")
	}
	return s, nil
}
