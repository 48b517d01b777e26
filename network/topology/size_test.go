package topology

import "testing"

// SizeOf, from the parameters alone, agrees with what Build makes: exactly
// for the switches and terminals, and the ports within 2× (the directed
// cubes' in-degree varies).
func TestSizeOfMatchesBuild(t *testing.T) {
	for _, k := range Kinds() {
		if k.Size == nil {
			continue
		}
		s, err := k.Defaults()
		if err != nil {
			t.Fatal(err)
		}
		tp, err := Build(s)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		z, err := SizeOf(s)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		var ports int64
		for i := range tp.Switches {
			ports += int64(len(tp.Switches[i].Out))
		}
		if z.Switches != int64(len(tp.Switches)) || z.Terminals != int64(tp.Terminals()) || z.Ports < ports || z.Ports > 2*ports {
			t.Errorf("%s: SizeOf %+v; built %d switches, %d ports, %d terminals", k.Name, z, len(tp.Switches), ports, tp.Terminals())
		}
	}
	if _, err := SizeOf(Spec{Kind: "hypercube", D: 25}); err == nil {
		t.Error("SizeOf of a 25-cube: no error")
	}
}
