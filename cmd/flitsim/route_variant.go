package main

import (
	"fmt"
	"os"
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
	v := han.FindVariantFor(variant, alg)
	switch {
	case v == nil:
		return routeVar{}, nil, inputerr.New("--variant", variant, "%s", strings.Join(han.VariantNames(), ", "))
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

// routeVariantSides is the mesh the variant runs on (a square; 3d and kd:
// a cube of topology.n = K dimensions, K going to rv.k), or the bad key.
func routeVariantSides(rv *routeVar, c *network.Config) (rows, cols int, err error) {
	t := c.Topology
	dims := max(t.N, len(t.Sides))
	want := "a 2-D mesh (route runs on a 2-D mesh)"
	switch rv.v.Dims {
	case 3:
		want = "a 3-D mesh with --variant 3d (topology.n=3)"
	case -1:
		want = "a mesh of 3 to 8 dimensions with --variant kd (topology.n=K)"
	}
	okDims := dims == 2 && rv.v.Dims == 0 || dims == 3 && rv.v.Dims == 3 || dims >= 3 && rv.v.Dims == -1
	if t.Kind != "mesh" || !okDims {
		if t.Kind == "mesh" {
			return 0, 0, inputerr.New("topology.n", dims, "%s", want)
		}
		return 0, 0, inputerr.New("topology.kind", t.Kind, "%s", want)
	}
	n := t.Side(0)
	if t.Rectangular() {
		return 0, 0, inputerr.New("topology.k", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(t.Sides)), ","), "[]"), "one side: --variant %s runs on square meshes and cubes", rv.v.Name)
	}
	if rv.v.Dims != 0 {
		rv.k = dims
	}
	if msg := rv.v.Sides(n, rv.k); msg != "" {
		return 0, 0, fmt.Errorf("--set %s", msg)
	}
	return n, n, nil
}

// routeDestsKD is the permutation of a K-D variant's n^K processors (index
// Σ x_a·n^{K−1−a}, the last axis fastest), named or from a file.
func routeDestsKD(bcast, perm string, rv *routeVar, n int, seed uint64) ([][]int32, string, error) {
	if bcast != "" {
		return nil, "", inputerr.New("--variant", rv.v.Name, "none with --broadcast (the variants route permutations, so far)")
	}
	K := rv.k
	N := 1
	for range K {
		N *= n
	}
	path, isFile := strings.CutPrefix(perm, "file:")
	if !isFile {
		p, err := han.PermutationKD(perm, n, K, seed)
		if err != nil {
			return nil, "", inputerr.New("--permutation", perm, "%s, file:F (on a %d-D mesh)", strings.Join(han.PermutationsKD, ", "), K)
		}
		return han.Lists(p), perm, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "", fmt.Errorf("--permutation %s: %v", perm, err)
	}
	defer f.Close()
	p, err := han.ReadPermutationMesh(f, N/n, n)
	if err != nil {
		return nil, "", fmt.Errorf("--permutation %s: not a permutation of the %d processors (n^%d, row-major, the last axis fastest): %v", perm, N, K, err)
	}
	return han.Lists(p), perm, nil
}
