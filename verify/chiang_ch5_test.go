package verify

import (
	"strings"
	"testing"
)

// The channel-count rows pass, and their check fails on the network the
// figure contrasts (the plain baseline's counts are not the modified one's).
func TestChiangChannelRows(t *testing.T) {
	n := 0
	for _, c := range Claims() {
		if !strings.HasPrefix(c.ID, "chiang-fig5.") && !strings.HasPrefix(c.ID, "chiang-fig7.5-") && c.ID != "chiang-fig4.10-channels" {
			continue
		}
		n++
		if got, ok, err := c.Measure(); !ok || err != nil {
			t.Errorf("%s: %s (%v)", c.ID, got, err)
		}
	}
	if n != 14 {
		t.Errorf("%d channel rows, want 14", n)
	}
	m := exactCounts("baseline", 2, 4, "x0xx,010x,11xx", channelBalanced(4, 8, 2, 4), noneShared)
	if got, ok, err := m(); ok || err != nil {
		t.Errorf("the plain baseline passes the modified one's counts: %s (%v)", got, err)
	}
	m = exactCounts("modified-butterfly", 2, 4, "xxx0,xxx1", channelBalanced(4, 8, 8), sharedAt(16, 3, 2, 1))
	if got, ok, _ := m(); ok {
		t.Errorf("the modified butterfly shares channels: %s", got)
	}
}
