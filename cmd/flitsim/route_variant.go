package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/han"
)

// routeKStripDefault is route.k when --variant kstrip does not set it: the
// thesis's four-strip H (5 buffers, 4.05n + 1.5n).
const routeKStripDefault = 4

// routeVariant takes route.k out of the --set overrides (a key of route's
// machine, not of run's) and returns the strips of --variant kstrip (0:
// no variant).
func routeVariant(variant, alg string, sets []string) (int, []string, error) {
	k, given := routeKStripDefault, ""
	var rest []string
	for _, s := range sets {
		key, v, _ := strings.Cut(s, "=")
		if strings.TrimSpace(key) != "route.k" {
			rest = append(rest, s)
			continue
		}
		given = strings.TrimSpace(v)
		n, err := strconv.Atoi(given)
		if err != nil || n < 4 || n > 64 || n%2 != 0 {
			return 0, nil, (&inputerr.Error{Key: "route.k", Value: given, Allowed: "an even number of strips from 4 to 64"}).At(inputerr.CommandLine)
		}
		k = n
	}
	switch {
	case variant == "" && given != "":
		return 0, nil, fmt.Errorf("--set route.k=%s: route.k is the strips of --variant kstrip; give --variant kstrip", given)
	case variant == "":
		return 0, rest, nil
	case variant != han.VariantKStrip:
		return 0, nil, inputerr.New("--variant", variant, "kstrip (the issue's other variants are not built yet)")
	case alg != han.AlgH:
		return 0, nil, inputerr.New("--algorithm", alg, "h with --variant kstrip (k-strip H)")
	}
	return k, rest, nil
}

// routeKStripSides is the square mesh k-strip H runs on, or the bad key.
func routeKStripSides(k int, c *network.Config) (rows, cols int, err error) {
	t := c.Topology
	if t.Kind != "mesh" || len(t.Sides) > 2 || len(t.Sides) == 0 && t.N != 2 {
		return 0, 0, inputerr.New("topology.kind", t.Kind, "a 2-D mesh (route runs on a 2-D mesh)")
	}
	n := t.Side(0)
	if t.Rectangular() {
		return 0, 0, inputerr.New("topology.k", fmt.Sprintf("%d,%d", t.Side(0), t.Side(1)), "one side: k-strip H runs on square meshes")
	}
	if msg := han.KStripSides(n, k); msg != "" {
		return 0, 0, fmt.Errorf("--set %s", msg)
	}
	return n, n, nil
}
