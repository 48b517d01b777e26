package topology

// Size is how big a network is, known from its Spec before it is built:
// what memory estimates (package network/memory) multiply their per-port
// and per-terminal costs by.
type Size struct {
	Switches  int64
	Ports     int64 // switch ports in all (each output port's input pair counted once)
	Terminals int64
}

// uniform is the Size of n switches of ports ports each, each with one
// terminal (the direct networks).
func uniform(n int64, ports int) Size {
	return Size{Switches: n, Ports: n * int64(ports), Terminals: n}
}

// SizeOf is the size of the network s describes, or the error Build
// gives for a parameter. A kind without a Size function (a topology file,
// whose size its file gives) is built and counted.
func SizeOf(s Spec) (Size, error) {
	k, cs, err := checkSpec(s)
	if err != nil {
		return Size{}, err
	}
	if k.Size != nil {
		return k.Size(cs), nil
	}
	t, err := Build(s)
	if err != nil {
		return Size{}, err
	}
	z := Size{Switches: int64(len(t.Switches)), Terminals: int64(t.Terminals())}
	for i := range t.Switches {
		z.Ports += int64(len(t.Switches[i].Out))
	}
	return z, nil
}
