package network

import "github.com/flitsim/flitsim/internal/kernel"

// The cycle kernel lives in the module's internal/kernel package; these
// aliases are the parts of it a program built on package network sees:
// the types read from a Result (Summary, Delivery, Deadlock, DeadlockWorm,
// Violations, Location, MultiStats), the Tracer interface (with Dropper)
// and the Wait reasons it reports, and the multicast header encodings.
// The kernel itself is not among them (testdata/surface.txt).
type (
	Violations   = kernel.Violations
	Tracer       = kernel.Tracer
	Dropper      = kernel.Dropper // a Tracer that also logs dropped packets (queue.full: drop)
	Escaper      = kernel.Escaper // a Tracer that also logs the first cycle an escape VC broke (Result.EscapedCycles)
	EscapedCycle = kernel.EscapedCycle
	Wait         = kernel.Wait
	Location     = kernel.Location
	Deadlock     = kernel.Deadlock
	DeadlockWorm = kernel.DeadlockWorm
	Delivery     = kernel.Delivery
	Summary      = kernel.Summary
	Encoding     = kernel.Encoding
)

// Reasons a front flit waits (Tracer.Blocked).
const (
	WaitLink   = kernel.WaitLink
	WaitPort   = kernel.WaitPort
	WaitArb    = kernel.WaitArb
	WaitSpace  = kernel.WaitSpace
	WaitTail   = kernel.WaitTail
	WaitSync   = kernel.WaitSync
	WaitInject = kernel.WaitInject
)

// Multicast header encodings.
const (
	SingleFlit           = kernel.SingleFlit
	AllDestination       = kernel.AllDestination
	PseudoAllDestination = kernel.PseudoAllDestination
)

// batches is the number of time batches for batch-means intervals (the
// kernel's latency statistics, the verdict's shortfall).
const batches = kernel.Batches

// EncodingNames lists the multicast.encoding values.
func EncodingNames() []string { return kernel.EncodingNames() }

// ParseEncoding reads a kernel header encoding name.
func ParseEncoding(s string) (Encoding, error) { return kernel.ParseEncoding(s) }

// DestText writes a destination list: 5, or {3,4,5}.
func DestText(d []int32) string { return kernel.DestText(d) }

func init() {
	kernel.SetOwner(func(x any) *kernel.Kernel {
		if n, ok := x.(*Network); ok && n != nil {
			return n.k
		}
		return nil
	})
}
