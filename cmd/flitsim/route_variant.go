package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/han"
)

// routeVar is --variant's variant (nil: none) and its route.k.
type routeVar struct {
	v *han.Variant
	k int
}

// routeVariant takes route.k out of the --set overrides (a key of route's
// machine, not of run's) and returns --variant's variant with it.
func routeVariant(variant, alg string, sets []string) (routeVar, []string, error) {
	given := ""
	var rest []string
	for _, s := range sets {
		key, v, _ := strings.Cut(s, "=")
		if strings.TrimSpace(key) != "route.k" {
			rest = append(rest, s)
			continue
		}
		given = strings.TrimSpace(v)
	}
	if variant == "" {
		if given != "" {
			return routeVar{}, nil, fmt.Errorf("--set route.k=%s: route.k is a parameter of --variant (%s); give one", given, strings.Join(han.VariantNames(), ", "))
		}
		return routeVar{}, rest, nil
	}
	v := han.FindVariant(variant)
	switch {
	case v == nil:
		return routeVar{}, nil, inputerr.New("--variant", variant, "%s (3d and kd are not built yet)", strings.Join(han.VariantNames(), ", "))
	case alg != v.Alg:
		return routeVar{}, nil, inputerr.New("--algorithm", alg, "%s with --variant %s (%s)", v.Alg, v.Name, v.Desc)
	}
	rv := routeVar{v, v.KDefault}
	if given != "" {
		k, err := strconv.Atoi(given)
		if err != nil || k < v.KMin || k > v.KMax || k%2 != 0 {
			return routeVar{}, nil, (&inputerr.Error{Key: "route.k", Value: given, Allowed: v.KRule()}).At(inputerr.CommandLine)
		}
		rv.k = k
	}
	return rv, rest, nil
}

// routeVariantSides is the square mesh the variant runs on, or the bad key.
func routeVariantSides(rv routeVar, c *network.Config) (rows, cols int, err error) {
	t := c.Topology
	if t.Kind != "mesh" || len(t.Sides) > 2 || len(t.Sides) == 0 && t.N != 2 {
		return 0, 0, inputerr.New("topology.kind", t.Kind, "a 2-D mesh (route runs on a 2-D mesh)")
	}
	n := t.Side(0)
	if t.Rectangular() {
		return 0, 0, inputerr.New("topology.k", fmt.Sprintf("%d,%d", t.Side(0), t.Side(1)), "one side: --variant %s runs on square meshes", rv.v.Name)
	}
	if msg := rv.v.Sides(n, rv.k); msg != "" {
		return 0, 0, fmt.Errorf("--set %s", msg)
	}
	return n, n, nil
}
