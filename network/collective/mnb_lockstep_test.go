package collective

import (
	"errors"
	"reflect"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network/topology"
)

// The lock-step hardware carries out the MNB schedule with the same slots,
// per-slot link use, transmissions and deliveries as the scheduled router
// running it node by node.
func TestMNBLockstepMatchesRouter(t *testing.T) {
	for d := 1; d <= 10; d++ {
		spec := topology.Spec{Kind: "hypercube", D: d}
		lock, err := Run(spec, "mnb", nil, 1)
		if err != nil {
			t.Fatalf("d=%d lockstep: %v", d, err)
		}
		rt, err := Run(spec, "mnb", map[string]string{"task.hardware": "router"}, 1)
		if err != nil {
			t.Fatalf("d=%d router: %v", d, err)
		}
		if !lock.Delivered || lock.Slots != *lock.Formula {
			t.Errorf("d=%d lockstep: delivered %v in %v slots, want %v", d, lock.Delivered, lock.Slots, *lock.Formula)
		}
		if lock.Params[0] != "task.hardware=lockstep" || rt.Params[0] != "task.hardware=router" {
			t.Errorf("d=%d params %v, %v", d, lock.Params, rt.Params)
		}
		lock.Params, rt.Params = nil, nil
		if !reflect.DeepEqual(lock, rt) {
			t.Errorf("d=%d: lockstep %+v\nrouter %+v", d, lock, rt)
		}
	}
}

func TestMNBHardwareKey(t *testing.T) {
	spec := topology.Spec{Kind: "hypercube", D: 15}
	var ie *inputerr.Error
	if _, err := Run(spec, "mnb", map[string]string{"task.hardware": "router"}, 1); !errors.As(err, &ie) || ie.Key != "topology.d" {
		t.Errorf("router MNB on the 15-cube: error %v, want one for topology.d", err)
	}
	if _, err := Run(topology.Spec{Kind: "hypercube", D: 3}, "mnb", map[string]string{"task.hardware": "simd"}, 1); !errors.As(err, &ie) || ie.Key != "task.hardware" {
		t.Errorf("task.hardware=simd: error %v, want one for task.hardware", err)
	}
}
