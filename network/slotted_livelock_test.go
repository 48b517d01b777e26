package network

import (
	"strings"
	"testing"
)

// TestLivelockLockoutWarned: Fig. 6.7's lockout (00 and 11 exchange two
// packets a slot, so 01 and 10 hold two passing packets every slot) is a
// starvation the network never stops for: longest_lockout is every slot
// after the first packets reach 01 and 10, at one of those nodes, and the
// run warns ("lockout: ", over 100·d slots). No packet ages: once the
// pattern is set up packets take 2 slots undeflected (the first slots,
// when 01 and 10 still inject, may deflect one).
func TestLivelockLockoutWarned(t *testing.T) {
	for _, scheme := range []string{"deflection-simple", "deflection-priority"} {
		c := slottedConfig(2, scheme, "0", 1, 1000)
		c.Slotted.Fixed = []int32{3, -1, -1, 0}
		r := runPlain(t, c)
		if r.LongestLockout == nil || *r.LongestLockout < 1000 || r.LockoutNode == nil || (*r.LockoutNode != 1 && *r.LockoutNode != 2) {
			t.Fatalf("%s: longest lockout %v at node %v, want ≥ 1000 slots at 01 or 10", scheme, r.LongestLockout, r.LockoutNode)
		}
		if *r.OldestAge > 5 || *r.MaxDeflections > 1 {
			t.Errorf("%s: oldest age %d, max deflections %d: want at most 5 and 1", scheme, *r.OldestAge, *r.MaxDeflections)
		}
		if w := livelockLines(r); len(w) != 1 || !strings.HasPrefix(w[0], "lockout: node ") {
			t.Errorf("%s: warnings %q, want one lockout line", scheme, r.Warnings)
		}
	}
}

// TestLivelockNormalRun: the closed network (p0 = 1, uniform) has short
// lockouts and young packets: no warning, while the figures agree with the
// delivered packets' (the oldest is at least the latency maximum and the
// deflection histogram's last bin; a delivered packet's slots are its
// distance plus two per deflection, so oldest_age ≥ max_deflections·2 at
// least for that packet, and ≤ the run's slots).
func TestLivelockNormalRun(t *testing.T) {
	for _, scheme := range []string{"deflection-simple", "deflection-priority"} {
		for _, d := range []int{2, 5, 8} {
			r := runPlain(t, slottedConfig(d, scheme, "0", 1, 1000))
			if r.OldestAge == nil {
				t.Fatalf("%s d=%d: no oldest_age", scheme, d)
			}
			h := r.Deflections.Histogram
			age, defl, lock := *r.OldestAge, *r.MaxDeflections, *r.LongestLockout
			if age < int64(r.Latency.Max) || defl < h[len(h)-1].Deflections || age < 2*defl || age > r.Cycles || defl == 0 || lock == 0 {
				t.Errorf("%s d=%d: oldest %d, max deflections %d, lockout %d; latency max %v, histogram %v", scheme, d, age, defl, lock, r.Latency.Max, h)
			}
			if w := livelockLines(r); len(w) != 0 || age > 10*int64(d)+20 {
				t.Errorf("%s d=%d: oldest %d slots, warnings %q", scheme, d, age, r.Warnings)
			}
		}
	}
}

// TestLivelockOnlyDeflection: the other schemes bound a packet's life
// (dropped or delivered within d slots, or queued FIFO) and carry no watch.
func TestLivelockOnlyDeflection(t *testing.T) {
	for _, sc := range []string{"simple", "csr"} {
		r := runPlain(t, slottedConfig(3, sc, "", 0.5, 100))
		if r.OldestAge != nil || r.MaxDeflections != nil || r.LongestLockout != nil {
			t.Errorf("%s: livelock fields set", sc)
		}
	}
}

// livelockLines is r's livelock and lockout warnings.
func livelockLines(r *Result) []string {
	var out []string
	for _, w := range r.Warnings {
		if strings.HasPrefix(w, "livelock: ") || strings.HasPrefix(w, "lockout: ") {
			out = append(out, w)
		}
	}
	return out
}

// TestLivelockRule: the warning's threshold is 100·d slots, exclusive, for
// a packet's age and for a lockout alike.
func TestLivelockRule(t *testing.T) {
	for _, tc := range []struct {
		age, lock int64
		want      []string
	}{
		{400, 400, nil},
		{401, 0, []string{"livelock: a packet spent 401 slots"}},
		{3, 401, []string{"lockout: node 7 could not inject for 401 consecutive slots"}},
		{500, 900, []string{"livelock: ", "lockout: "}},
	} {
		r := &Result{}
		r.Config.Topology.D = 4
		defl, node := int64(9), 7
		r.OldestAge, r.MaxDeflections, r.LongestLockout, r.LockoutNode = &tc.age, &defl, &tc.lock, &node
		got := livelockWarnings(r)
		ok := len(got) == len(tc.want)
		for i := 0; ok && i < len(got); i++ {
			ok = strings.HasPrefix(got[i], tc.want[i]) && !strings.Contains(got[i], ";")
		}
		if !ok {
			t.Errorf("age %d, lockout %d: %q, want lines starting %q", tc.age, tc.lock, got, tc.want)
		}
	}
}
