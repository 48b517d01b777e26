package kernel

import (
	"testing"

	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

// copyOnce sends, in slot 0, a copy of every packet held at node 0 over
// port, and delivers every arrival; it records the arrivals.
type copyOnce struct {
	port int32
	pk   *ScheduledPackets
	got  []int32
	aux  []uint64 // per arrival, its aux when it arrived
}

func (c *copyOnce) Sends(slot int64, node int32, out []SlotSend) []SlotSend {
	for i := int32(0); slot == 0 && node == 0 && i < c.pk.n; i++ {
		if c.pk.valid(i) && c.pk.At(i) == 0 {
			out = append(out, SlotSend{Packet: i, Port: c.port, Copy: true})
		}
	}
	return out
}

func (c *copyOnce) Arrived(_ int64, _, _ int32, pkt int32) bool {
	c.got, c.aux = append(c.got, pkt), append(c.aux, c.pk.Aux(pkt))
	return false
}

// A scheduled packet's fields, aux's 64 bits included, survive its record
// (20 bytes, aux in halves), a copy's and a freed record's reuse.
func TestScheduledRecordFields(t *testing.T) {
	topo, err := topology.Build(topology.Spec{Kind: "hypercube", D: 1, Routing: "ecube"})
	if err != nil {
		t.Fatal(err)
	}
	s := &copyOnce{port: -1}
	k, err := NewKernel(topo, KernelSpec{Mode: xbar.SAF, OutDepth: 1, Latency: 1, Model: "packet", Packet: PacketSpec{Schedule: s}})
	if err != nil {
		t.Fatal(err)
	}
	for o, e := range topo.Switches[0].Out {
		if e.Switch == 1 {
			s.port = int32(o)
		}
	}
	s.pk = k.ScheduledPackets()
	const aux = 1<<63 | 1<<40 | 0xdeadbeef
	i := k.EnqueueScheduled(0, 1, aux)
	k.Step()
	if len(s.got) != 1 || s.got[0] == i {
		t.Fatalf("arrivals %v, want one copy of packet %d", s.got, i)
	}
	j := s.got[0]
	if a, src, dst := s.pk.Aux(i), s.pk.Src(i), s.pk.Dst(i); a != aux || src != 0 || dst != 1 || s.aux[0] != aux {
		t.Errorf("packet %d: aux %#x src %d dst %d (its copy's aux %#x), want %#x 0 1", i, a, src, dst, s.aux[0], uint64(aux))
	}
	if k2 := k.EnqueueScheduled(1, 0, 5); k2 != j || s.pk.Aux(k2) != 5 || s.pk.Src(k2) != 1 {
		t.Errorf("after the copy was freed: packet %d (aux %d, src %d), want record %d reused with aux 5, src 1", k2, s.pk.Aux(k2), s.pk.Src(k2), j)
	}
}
