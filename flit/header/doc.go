// Package header encodes and decodes multicast (multi-address) message
// headers: the six multi-address encodings of Chiang 1995 (Ch. 2–3), plus
// the pseudo all-destination padding of §4.3, as sequences of B-bit flits.
//
// Encoding: Encode(scheme, destinations, Options) gives the header a source
// sends. Schemes (canonical name, then accepted aliases):
//
//	ad               all-destination: one address per flit, ascending, then EOH
//	pseudo-ad        all-destination padded with repeated addresses so that a
//	                 branch's header lag is its first destination's distance
//	                 from the first destination (Lemma 5)
//	bs-buffered      one bit per node, buffered whole at every switch
//	bs-hierarchical  k enable bits and k equal sub-fields, recursively
//	mrb              multiple region broadcast (b:e)
//	mrs              multiple region stride (b:e:s)
//	mrm              multiple region mask (b:e:m)
//	mrbs             multiple region bit string (b:e:T)
//
// Region schemes start with a region counter (the Delta-MIN form of Ch. 3,
// the one Table 3.1 counts); Options.EOH gives the Ch. 2 form that ends with
// an EOH region instead.
//
// Decoding happens in two places:
//
//   - Router.Decode: a generic k-port router whose port i reaches a given set
//     of nodes (Ch. 2): destination subsets are disjoint, an address goes
//     only to its own port.
//   - MIN.Decode: one k×k switch of a Delta MIN (cube, omega, baseline,
//     butterfly; Ch. 3): paths are unique, so headers may overlap — an
//     address or region is copied to every enabled port ("useless" on all
//     but its own), and a region counter replaces the EOH. MIN.Multicast
//     decodes a header switch by switch from a source to the terminals.
//
// The switch-level reachable sets come from the simulator's own topology
// builder (network/topology), by following the wiring, so every MIN kind is
// handled by the same code.
package header
