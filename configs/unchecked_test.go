package configs

import "testing"

// LoadUnchecked reads a kind the simulator cannot build; Load rejects it.
// Keys and types are still checked.
func TestLoadUnchecked(t *testing.T) {
	sets := []string{"topology.kind=no-such-kind", "topology.d=3", "topology.n=6"}
	if _, err := Load("", sets); err == nil {
		t.Fatal("Load accepted topology.kind=no-such-kind")
	}
	cfg, err := LoadUnchecked("", sets)
	if err != nil || cfg.Topology.Kind != "no-such-kind" || cfg.Topology.D != 3 || cfg.Topology.N != 6 {
		t.Errorf("got %+v, %v", cfg.Topology, err)
	}
	if _, err := LoadUnchecked("", []string{"topology.d=x"}); err == nil {
		t.Error("LoadUnchecked accepted a non-integer topology.d")
	}
}
