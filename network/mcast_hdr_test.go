package network_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
)

// TestDecodedHeaderRefusals: a switch-decoded header needs a tree worm on a
// Delta MIN; elsewhere Build names multicast.encoding (exit 2), and on a
// MIN with a tree worm it builds.
func TestDecodedHeaderRefusals(t *testing.T) {
	for _, tc := range []struct {
		kind, worm string
		ok         bool
		says       string
	}{
		{"cube", "sync", true, ""},
		{"omega", "async", true, ""},
		{"cube", "path", false, "multicast.worm: path"},
		{"mesh", "async", false, "topology.kind mesh"},
	} {
		c := network.Default()
		c.Topology = network.TopologyConfig{Kind: tc.kind, K: 2, N: 4}
		c.Multicast.Worm, c.Multicast.Encoding = tc.worm, "region-stride"
		_, err := network.Build(c)
		var ie *inputerr.Error
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s, %s worm: %v", tc.kind, tc.worm, err)
		case !tc.ok && (!errors.As(err, &ie) || ie.Key != "multicast.encoding" || !strings.Contains(err.Error(), tc.says)):
			t.Errorf("%s, %s worm: error %v, want one naming multicast.encoding and %q", tc.kind, tc.worm, err, tc.says)
		}
	}
}
