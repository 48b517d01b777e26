package network_test

import (
	"encoding/json"
	"fmt"

	"github.com/flitsim/flitsim/network"
)

// Reading results: Build checks the config and lays the network out, the
// Network runs it (under Akita's engine, RunAkita, or a plain loop,
// RunPlain: the same result), and Result holds what was measured. Its JSON
// form is `flitsim run --format json`'s.
func ExampleNetwork_Result() {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "mesh", K: 4, N: 2}
	c.Traffic.Load = 0.3
	c.Run.Warmup, c.Run.Measure = 500, 4000
	n, err := network.Build(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := n.RunAkita()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d terminals, %d cycles simulated (Result.Cycles %d)\n", n.Terminals(), n.Now(), r.Cycles)
	// Status is ok, incomplete, saturated, stall, deadlock or interrupted.
	fmt.Println("status:", r.Status, "saturated:", r.Saturated)
	// Latency in cycles from generation to the tail's ejection (±: the
	// half-width of the 95 % confidence interval, by batch means).
	fmt.Printf("latency: mean %.1f ± %.1f, p99 %.0f, max %.0f\n", r.Latency.Mean, r.Latency.CI95, r.Latency.P99, r.Latency.Max)
	// Offered and accepted flits per terminal per cycle in the window.
	fmt.Printf("offered %.3f, throughput %.3f\n", r.Offered, r.Throughput)
	fmt.Printf("switches per packet %.2f, busiest channel %s at %.2f flits/cycle\n", r.Hops, r.BusiestChannel, r.ChannelUtilMax)
	// The JSON form (flitsim run --format json) has the same fields.
	js, _ := json.Marshal(r)
	var m map[string]any
	_ = json.Unmarshal(js, &m)
	fmt.Println("json:", m["status"], m["measured_delivered"], m["latency"].(map[string]any)["count"])
	// Output:
	// 16 terminals, 4512 cycles simulated (Result.Cycles 4512)
	// status: ok saturated: false
	// latency: mean 10.2 ± 0.2, p99 23, max 54
	// offered 0.298, throughput 0.297
	// switches per packet 3.67, busiest channel r(2,1).out[x-] at 0.36 flits/cycle
	// json: ok 4762 4762
}
