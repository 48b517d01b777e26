package network

// The checked CSR settings `flitsim analytic --scheme csr` evaluates the
// thesis's model (eqs. 6.1–6.8) at.

// CSRSettings are the checked settings of a CSR configuration.
type CSRSettings struct {
	D     int     // topology.d
	P0    float64 // traffic.p0: q_a, a new packet at an entry buffer per slot
	Beta  float64 // csr.beta
	Retry float64 // csr.retry: q_r
	K     int     // csr.k
	Fresh bool    // csr.fresh: a NACKed packet is dropped, every attempt new
}

// IsCSR reports whether c selects the slotted router's csr scheme.
func IsCSR(c *Config) bool { return isCSR(c) }

// CheckCSR checks c's slotted-router and CSR keys (the same checks as
// Build) and returns them.
func CheckCSR(c *Config) (CSRSettings, error) {
	s, err := slottedSpec(c)
	if err != nil {
		return CSRSettings{}, err
	}
	return CSRSettings{D: c.Topology.D, P0: s.P0, Beta: c.CSR.Beta, Retry: s.Retry, K: s.K, Fresh: s.Fresh}, nil
}
