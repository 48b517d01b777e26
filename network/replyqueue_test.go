package network

import (
	"errors"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// protocolCfg is the 8×8 mesh of iq routers with 2 VCs of 4 flits under
// request/reply traffic (4-flit requests and replies) at load, each
// terminal holding 2 replies (traffic.reply_queue), in classes message
// classes, for cycles cycles with no backlog stop.
func protocolCfg(classes int, load float64, cycles int64) Config {
	c := classCfg(2, classes, load)
	c.Topology.K = 8
	c.Traffic.ReplyFlits, c.Traffic.ReplyQueue = 4, 2
	c.Run.Warmup, c.Run.Measure, c.Run.Drain, c.Run.MaxBacklog = 0, cycles, 0, 0
	return c
}

// Requests and replies on one class: terminals whose reply queue is full
// refuse requests, the requests back up into the VCs the replies need,
// and the run stops on a protocol deadlock, whose report names a terminal
// with its full reply queue, the reply waiting for an injection VC, and
// the packets holding the VCs.
func TestProtocolDeadlockOneClass(t *testing.T) {
	for _, load := range []float64{0.2, 0.9} {
		r := runPlain(t, protocolCfg(1, load, 20000))
		dl := r.Deadlock
		if dl == nil {
			t.Fatalf("load %v: no deadlock (status %s)", load, r.Status)
		}
		all := strings.Join(dl.Resources, "\n")
		for _, want := range []string{"waits for terminal ", "its reply queue is full (2 replies)", "'s reply worm ", "of injection VC ", " vc "} {
			if !strings.Contains(all, want) {
				t.Fatalf("load %v: the report does not say %q:\n%s", load, want, all)
			}
		}
		if len(dl.Worms) != len(dl.Resources) || len(dl.Worms) < 2 {
			t.Fatalf("load %v: worms %v, resources %d", load, dl.Worms, len(dl.Resources))
		}
	}
}

// The same traffic with replies on a class of their own (VC 1, and the
// terminal's own reply register) never deadlocks: replies are always
// taken at their destination and cannot wait behind requests, so reply
// queues drain and terminals take requests again.
func TestClassesAvoidProtocolDeadlock(t *testing.T) {
	r := runPlain(t, protocolCfg(2, 0.9, 30000))
	if r.Deadlock != nil || r.Stall != nil {
		t.Fatalf("deadlock %+v stall %+v", r.Deadlock, r.Stall)
	}
	if r.RoundTrip == nil || r.RoundTrip.Count < 1000 || r.Classes[1].Delivered < r.RoundTrip.Count {
		t.Fatalf("round trip %+v classes %+v", r.RoundTrip, r.Classes)
	}
}

// The bound binds: a reply queue of 1 gives longer round trips than one of
// 64 at the same load, and with a queue of 64 (never full at this load)
// every request's reply arrives as without a bound.
func TestReplyQueueBinds(t *testing.T) {
	rt := map[int]float64{}
	for _, q := range []int{1, 64} {
		c := classCfg(2, 2, 0.3)
		c.Traffic.ReplyFlits, c.Traffic.ReplyQueue = 4, q
		r := runPlain(t, c)
		if r.Deadlock != nil || r.RoundTrip == nil || r.RoundTrip.Count != r.Classes[0].Delivered {
			t.Fatalf("queue %d: deadlock %v round trip %+v classes %+v", q, r.Deadlock, r.RoundTrip, r.Classes)
		}
		rt[q] = r.RoundTrip.Mean
	}
	if rt[1] <= rt[64] {
		t.Fatalf("round trip with a reply queue of 1: %.2f, of 64: %.2f", rt[1], rt[64])
	}
}

func TestReplyQueueRefused(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Config)
	}{
		{"negative", func(c *Config) { c.Traffic.ReplyQueue = -1 }},
		{"too large", func(c *Config) { c.Traffic.ReplyQueue = 1<<16 + 1 }},
		{"no replies", func(c *Config) { c.Traffic.ReplyFlits = 0 }},
		{"flit crossbar", func(c *Config) { c.Router.Model, c.Buffers.VCs, c.Traffic.Classes = "", nil, 1 }},
	}
	for _, tc := range cases {
		c := classCfg(2, 2, 0.1)
		c.Traffic.ReplyFlits, c.Traffic.ReplyQueue = 2, 4
		tc.edit(&c)
		_, err := Build(c)
		var e *inputerr.Error
		if !errors.As(err, &e) || e.Key != "traffic.reply_queue" {
			t.Errorf("%s: %v, want an input error naming traffic.reply_queue", tc.name, err)
		}
	}
}
