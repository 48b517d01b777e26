package iq

import "github.com/flitsim/flitsim/switch/model"

// NewNoEscape is the router without Duato's escape path: under adaptive
// routing a head asks only for adaptive VCs (escape_test.go).
func NewNoEscape(h model.Host) (model.Model, error) {
	m, err := New(h)
	if err == nil {
		m.(*router).noEscape = true
	}
	return m, err
}
