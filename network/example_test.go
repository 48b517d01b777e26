package network_test

import (
	"fmt"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/network"
)

// Running an experiment from Go: start from the defaults (the same as
// configs/default.yaml), change what the experiment needs and run it.
func ExampleRun() {
	c := network.Default() // an 8×8 mesh, wormhole, uniform traffic
	c.Topology = network.TopologyConfig{Kind: "torus", K: 4, N: 2}
	c.Traffic.Load = 0.1 // flits per terminal per cycle
	c.Run.Warmup, c.Run.Measure = 500, 2000
	r, err := network.Run(c)
	if err != nil {
		fmt.Println(err) // a bad setting: one line naming the key
		return
	}
	fmt.Printf("%s: %d of %d measured packets delivered, mean latency %.2f cycles\n",
		r.Status, r.MeasuredDelivered, r.MeasuredPackets, r.Latency.Mean)
	// Output:
	// ok: 776 of 776 measured packets delivered, mean latency 7.59 cycles
}

// The same from YAML, as the command line reads it: configs.LoadBytes (or
// configs.Load for a file) checks every key and applies overrides written
// as on the command line (--set key=value).
func ExampleRun_yaml() {
	yaml := []byte(`
topology: {kind: hypercube, d: 4}
traffic: {pattern: transpose, load: 0.05, flits: 8}
run: {warmup: 200, measure: 2000}
`)
	c, err := configs.LoadBytes(yaml, "experiment.yaml", []string{"switching=vct", "buffers.input=8"})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := network.Run(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %s: %s, %.2f hops\n", c.Topology.Kind, c.Switching, r.Status, r.Hops)
	_, err = configs.LoadBytes(yaml, "experiment.yaml", []string{"traffic.load=2"})
	fmt.Println(err)
	// Output:
	// hypercube vct: ok, 2.90 hops
	// --set traffic.load: 2 is not allowed (allowed: a number from 0 to 1 (flits per node per cycle))
}
