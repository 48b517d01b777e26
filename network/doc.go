// Package network builds an experiment from its configuration and runs it:
// it checks the settings, builds the topology, lays out the cycle kernel
// (package kernel), drives the traffic generator and the run control
// (measurement window, drain, deadlock and stall checks) and hosts the
// network in Akita, as one ticking component with an endpoint per terminal.
//
// The cycle itself — injection, routing, allocation, flow, commit and
// ejection — is package kernel's; see its documentation.
//
// # Using the package as a library
//
// The stable surface for other Go programs (docs/go.md, "Stable
// surface", and the Examples):
//
//   - a configuration: Config (Default, or configs.Load / configs.LoadBytes
//     from YAML), Validate;
//   - running it: Run, or Build and then Network.RunAkita, RunPlain or
//     RunAkitaHooked, Network.Warnings, StopOn, Now, Terminals, Result;
//   - results: Result and the types it holds (Summary, ChannelLoad,
//     Delivery, Deadlock, Stall, BacklogStop, Violations, MultiStats,
//     MultiExperiments), Judge, the
//     Status constants, ZeroLoadLatency;
//   - your own Akita components: NewComponent, AttachEndpoints, Endpoint,
//     PacketMsg, DeliveryMsg;
//   - your own topologies: topology.Register with topology.FromEdges (an
//     edge list and a routing function), or a topology file;
//   - stepping it yourself: Network.Cycle, Done, Emit, EmitMulticast;
//     observing it: Network.SetTracer with a Tracer (the Wait constants name
//     why a flit waited).
//
// The cycle kernel is not part of this surface: it lives in the module's
// internal/kernel package, which other modules cannot import, and a built
// Network keeps it unexported (the module's own tracers, command and verify
// suite reach it through kernel.Of).
//
// Packets handed to an Endpoint are measured whatever run.warmup says (see
// AttachEndpoints); run.warmup and run.measure bound the synthetic traffic's
// measurement window.
package network
