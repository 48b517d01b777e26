// Package network builds an experiment from its configuration and runs it:
// it checks the settings, builds the topology, lays out the cycle kernel
// (package kernel), drives the traffic generator and the run control
// (measurement window, drain, deadlock and stall checks) and hosts the
// network in Akita, as one ticking component with an endpoint per terminal.
//
// The cycle itself — injection, routing, allocation, flow, commit and
// ejection — is package kernel's; see its documentation.
package network
