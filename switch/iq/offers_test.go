package iq_test

import (
	"encoding/json"
	"testing"

	"github.com/flitsim/flitsim/switch/iq"
	"github.com/flitsim/flitsim/switch/model"
)

// offerCheck is the iq router behind a check of the host's Offering: at
// the start of every cycle a terminal whose bit is clear has nothing in
// its source register.
type offerCheck struct {
	model.Model
	h     model.Host
	off   []uint64
	stats *offerStats
}

type offerStats struct{ set, clear, staleClear, staleSet, moved int }

var offerSeen = &offerStats{}

// plainHost hides the host's optional methods (Offers) from the model.
type plainHost struct{ model.Host }

func init() {
	model.Register(model.Info{Name: "iq-offer-check", VCs: true, Replies: true, New: func(h model.Host) (model.Model, error) {
		o, ok := h.(model.Offers)
		if !ok {
			return iq.New(h) // (TestOffering fails: no bit was seen)
		}
		m, err := iq.New(h)
		return &offerCheck{Model: m, h: h, off: o.Offering(), stats: offerSeen}, err
	}})
	model.Register(model.Info{Name: "iq-no-offers", VCs: true, Replies: true, New: func(h model.Host) (model.Model, error) {
		if _, ok := model.Host(plainHost{h}).(model.Offers); ok {
			panic("plainHost shows Offers")
		}
		return iq.New(plainHost{h})
	}})
}

func (c *offerCheck) Step() {
	s := c.stats
	for t := range c.h.Topology().Terminals() {
		_, ok := c.h.Source(t)
		switch {
		case c.off[t>>6]>>(t&63)&1 != 0:
			s.set++
			if !ok {
				s.staleSet++ // (here every flit placed is ready in its cycle)
			}
		case ok:
			s.staleClear++ // (a flit offered while its bit is clear)
		default:
			s.clear++
		}
	}
	if o := c.h.(model.Offers).Offering(); &o[0] != &c.off[0] {
		s.moved++ // (Offering must return the same slice in every call)
	}
	c.Model.Step()
}

// The host's Offering clears no bit of a terminal with a flit to offer
// (and, in these runs, where a register's flit is always ready, sets no
// bit of an empty one),
// returns one slice throughout, and the iq router runs the same with it
// as on a host without it (the same JSON), at a load where sources are
// often empty and, at saturation, often full.
func TestOffering(t *testing.T) {
	for _, load := range []float64{0.2, 0.6} {
		*offerSeen = offerStats{}
		c := bars(2)
		c.Traffic.Load = load
		c.Run.Warmup, c.Run.Measure, c.Run.Drain, c.Run.MaxBacklog = 200, 1500, 0, 0
		c.Router.Model = "iq-offer-check"
		a := run(t, c)
		c.Router.Model = "iq-no-offers"
		b := run(t, c)
		a.Config.Router.Model, b.Config.Router.Model = "", "" // (the models' names differ)
		s := *offerSeen
		if s.staleClear != 0 || s.staleSet != 0 || s.moved != 0 || s.set == 0 || s.clear == 0 {
			t.Errorf("load %v: bits set %d, clear %d, clear with a flit offered %d, set with none %d, other slices %d", load, s.set, s.clear, s.staleClear, s.staleSet, s.moved)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("load %v: with Offering\n%s\nwithout\n%s", load, ja, jb)
		}
	}
}
