package collective

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

// Options are what a caller adds to a task's run: observers of the
// hardware and a way to stop it early. The zero value adds nothing (Run).
type Options struct {
	// Attach is called with the kernel (the scheduled packet router) the
	// task's run builds, before any packet is loaded, so that every packet
	// is created with an observer attached and traces name it
	// (kernel.EnqueueScheduled); the tracer it returns, if not nil,
	// observes the run. Helper runs a task makes on networks of its own
	// (a schedule recorded first, a reading run alongside) are not
	// attached. A task whose hardware cannot be observed packet by packet
	// (mnb with task.hardware=lockstep) refuses Attach with an *Untraced
	// error.
	Attach func(*kernel.Kernel) (kernel.Tracer, error)
	// Stop, when set, stops the run at the end of the slot in which it
	// became true: the run returns an *Interrupted error.
	Stop *atomic.Bool
}

// RunWith is Run with options (traces, an interrupt).
func RunWith(spec topology.Spec, task string, params map[string]string, seed uint64, o Options) (*Result, error) {
	return runTask(spec, task, params, seed, &o)
}

// attach gives k the tracer o.Attach makes (nothing without Attach).
func (o *Options) attach(k *kernel.Kernel) error {
	if o == nil || o.Attach == nil {
		return nil
	}
	t, err := o.Attach(k)
	if err != nil {
		return err
	}
	if t != nil {
		k.SetTracer(t)
	}
	return nil
}

// traced reports whether the run is to be observed packet by packet.
func (o *Options) traced() bool { return o != nil && o.Attach != nil }

// stopped reports whether the caller asked the run to stop.
func (o *Options) stopped() bool { return o != nil && o.Stop != nil && o.Stop.Load() }

// Interrupted is a run stopped by Options.Stop at the end of slot Slot
// (slots 0 to Slot were carried out).
type Interrupted struct {
	Task string
	Slot int64
	// Result, when not nil, is what the slots run did (Status
	// StatusInterrupted; nil for dynamic broadcasting).
	Result *Result
	// Dynamic is Result for dynamic broadcasting: the periods run.
	Dynamic *DynResult
}

func (e *Interrupted) Error() string {
	if e.Slot < 0 {
		return fmt.Sprintf("collective %s: interrupted before its first slot", e.Task)
	}
	return fmt.Sprintf("collective %s: interrupted after router cycle %d (a slot, or a mini-slot of split packets)", e.Task, e.Slot)
}

// Untraced is a trace asked of hardware that has no per-packet trace.
type Untraced struct {
	Task, Hardware, Why string
}

func (e *Untraced) Error() string {
	return fmt.Sprintf("collective %s: task.hardware=%s %s", e.Task, e.Hardware, e.Why)
}

// mnbHardwareOf is the hardware mnb runs on (task.hardware, or its
// default) and params as the run reads them: a traced run without
// task.hardware runs the router, which traces every packet copy (the
// lock-step hardware moves registers, not packets), and says so in its
// params.
func mnbHardwareOf(spec topology.Spec, params map[string]string, o *Options) (map[string]string, error) {
	hw, given := params["task.hardware"]
	if !o.traced() {
		return params, nil
	}
	if !given {
		if spec.D > maxDRouterMNB {
			return nil, inputerr.New("topology.d", spec.D, "an integer from 1 to %d for a traced mnb (traced on the router, task.hardware=router, by the memory its packet copies take)", maxDRouterMNB)
		}
		p := make(map[string]string, len(params)+1)
		for k, v := range params {
			p[k] = v
		}
		p["task.hardware"] = "router"
		return p, nil
	}
	if strings.TrimSpace(hw) == "lockstep" {
		return nil, &Untraced{Task: "mnb", Hardware: "lockstep", Why: "has no per-packet trace (the lock-step hardware moves registers, not packets); use task.hardware=router"}
	}
	return params, nil
}
