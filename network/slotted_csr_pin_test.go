package network

import (
	"fmt"
	"testing"
)

// TestCSRPinnedOutcomes pins CSR's counts for one seed per setting (K = 0
// and K > 0, retry, fresh, several d): they were measured before the
// unbuffered control interval got its own path (internal/kernel/csr_k0.go),
// so a speed change that alters a single draw or booking fails here. A
// change of the model's rules must update them, and say so.
func TestCSRPinnedOutcomes(t *testing.T) {
	for _, tc := range []struct {
		d     int
		p0    float64
		retry float64
		fresh bool
		k     int
		want  string
	}{
		{2, 1, 0, false, 0, "2229 2571 1482 2964 236 1718"},
		{3, 0.5, 0.3, false, 0, "2725 4426 1815 5445 519 1743"},
		{5, 0.8, 0, true, 0, "14040 63606 9323 46615 18881 41894"},
		{7, 0.3, 0, false, 0, "50688 111197 33690 235830 163666 245140"},
		{8, 1, 0, false, 0, "104039 1147303 68841 550728 529648 750359"},
		{4, 0.6, 0, false, 1, "8717 14440 5748 22992 5901 15961"},
		{6, 1, 0.5, false, 3, "38417 206125 24197 145182 23662 64550"},
		// (pinned before the one-pass forward steps of csr_k0.go)
		{1, 0.7, 0, false, 0, "850 0 558 558 0 0"},
		{10, 0.5, 0, false, 0, "381001 2753136 251821 2518210 3234511 3592434"},
		{9, 0.4, 0.6, true, 0, "163667 967797 108059 972531 668287 629762"},
	} {
		c := csrConfig(tc.d, tc.p0, tc.retry, tc.fresh, 200)
		c.CSR.K = tc.k
		r := runPlain(t, c)
		res := r.Reservations
		got := fmt.Sprintf("%d %d %d %d %d %d", r.DeliveredPackets, *r.Dropped, r.MeasuredPackets, res.Confirmed, res.Ghost, res.Nacks)
		if got != tc.want {
			t.Errorf("d=%d p0=%g retry=%g fresh=%v k=%d: delivered dropped measured confirmed ghost nacks = %s, pinned %s",
				tc.d, tc.p0, tc.retry, tc.fresh, tc.k, got, tc.want)
		}
	}
}
