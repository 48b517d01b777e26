// Command usermodel is a switch model in a module of its own (built by
// switch/model's TestUserModule in a temporary folder with a go.mod of its own): it
// registers "counting-iq" (the iq router seen through a host that counts
// what it moves) through the public seam, runs it on an 8×8 mesh, and
// prints what the model and the network counted. It imports no internal
// package of flitsim (it could not: Go refuses that across modules).
package main

import (
	"fmt"
	"os"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/switch/iq"
	"github.com/flitsim/flitsim/switch/model"
)

// counting wraps the host: it counts the flits the model sends.
type counting struct {
	model.Host
	sent int64
}

func (c *counting) Send(sw, in, out int, f *flit.Flit, at int64) {
	c.sent++
	c.Host.Send(sw, in, out, f, at)
}

// wrapped is the model: iq's, stepped and counted.
type wrapped struct {
	model.Model
	host  *counting
	steps int64
}

func (w *wrapped) Step() { w.steps++; w.Model.Step() }

var last *wrapped

func main() {
	model.Register(model.Info{Name: "counting-iq", VCs: true, Desc: "iq, counted", New: func(h model.Host) (model.Model, error) {
		c := &counting{Host: h}
		m, err := iq.New(c)
		if err != nil {
			return nil, err
		}
		last = &wrapped{Model: m, host: c}
		return last, nil
	}})
	c := network.Default()
	vcs := 2
	c.Router.Model, c.Buffers.VCs, c.Buffers.Input = "counting-iq", &vcs, 8
	c.Run.Warmup, c.Run.Measure = 200, 1000
	r, err := network.Run(c)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	// Every flit sent crosses a switch: the network's flit-hop count is the
	// model's sends; a delivered packet of 4 flits passed r.Hops routers on average.
	fmt.Printf("status %s, steps %d = cycles %d, measured %d of %d delivered, sends %d\n",
		r.Status, last.steps, r.Cycles, r.MeasuredDelivered, r.MeasuredPackets, last.host.sent)
}
