package inputerr_test

import (
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit/header"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/search"
	"github.com/flitsim/flitsim/network/sweep"
	"github.com/flitsim/flitsim/network/topology"
	"github.com/flitsim/flitsim/network/trace"
	"github.com/flitsim/flitsim/traffic"
)

// TestEveryPackageUsesTheType feeds bad input to each package that rejects
// input and checks that the error is an *inputerr.Error naming the key.
func TestEveryPackageUsesTheType(t *testing.T) {
	second := func(_ any, err error) error { return err }
	bad := network.Default()
	bad.Switching = "teleport"
	cases := []struct {
		pkg, key string
		err      error
	}{
		{"flit/header ParseScheme", "scheme", second(header.ParseScheme("morse"))},
		{"flit/header ParseDests", "dests", second(header.ParseDests("1:x", 8))},
		{"flit/header NewMIN", "min", second(header.NewMIN("clos", 2, 3))},
		{"network/topology", "topology.k", second(topology.Build(topology.Spec{Kind: "mesh", K: 1, N: 2}))},
		{"traffic NewPattern", "traffic.pattern", second(traffic.NewPattern("zigzag", traffic.Shape{N: 4, Radix: 2, Digits: 2}, nil, 0, nil))},
		{"traffic ParseTrace", "traffic.trace", second(traffic.ParseTrace(strings.NewReader("0,1,9,1"), "t.csv", 4))},
		{"traffic ParseScheme", "multicast.scheme", second(traffic.ParseScheme("carrier-pigeon"))},
		{"traffic NewClusterMulticast", "traffic.cluster", second(traffic.NewClusterMulticast(8, 3, 0.1, traffic.Length{Min: 4, Max: 4}, nil))},
		{"network", "switching", second(network.Build(bad))},
		{"configs value", "run.seed", second(configs.LoadBytes([]byte("run:\n  seed: x\n"), "f.yaml", nil))},
		{"configs unknown key", "traffic.lod", second(configs.LoadBytes(nil, "f.yaml", []string{"traffic.lod=1"}))},
		{"configs validate", "topology.k", second(configs.LoadBytes([]byte("topology:\n  kind: mesh\n  k: 1\n  n: 2\n"), "f.yaml", nil))},
		{"network/sweep", "traffic.nope", sweep.CheckKey("traffic.nope")},
		{"network/sweep ParseShard", "--shard", second(sweep.ParseShard("3/2"))},
		{"network/trace", "--trace-window", second(trace.ParseWindow("9:3"))},
		{"network/search", "--scenarios", (&search.Spec{Base: network.Default(), Scenarios: 0}).Check()},
	}
	for _, c := range cases {
		e, ok := inputerr.As(c.err)
		switch {
		case c.err == nil:
			t.Errorf("%s: bad input accepted", c.pkg)
		case !ok:
			t.Errorf("%s: %T %v is not an *inputerr.Error", c.pkg, c.err, c.err)
		case e.Key != c.key:
			t.Errorf("%s: key %q, want %q (%v)", c.pkg, e.Key, c.key, e)
		}
	}
}
