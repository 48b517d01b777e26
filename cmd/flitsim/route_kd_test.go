package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// route --variant 3d|kd: H on a cube of topology.n dimensions, the thesis's
// bound in the JSON, exit 3 on 2 buffers for an input that needs 3, and
// one line with exit 2 for what does not fit.
func TestRouteKD(t *testing.T) {
	code, out, errs := routeRun(t, "--algorithm", "h", "--variant", "3d", "--set", "topology.n=3", "--set", "topology.k=8", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Alg   string `json:"algorithm"`
		Dims  []int  `json:"dims"`
		Data  int64  `json:"data_steps"`
		Int   int64  `json:"integer_steps"`
		Max   int    `json:"max_buffer"`
		Bound struct {
			Data float64 `json:"data_steps"`
			Int  float64 `json:"integer_steps"`
		} `json:"bound"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Alg != "h-3d" || len(r.Dims) != 3 || r.Data != 68 || r.Int != 40 || r.Max > 3 || r.Bound.Data != 100 || r.Bound.Int != 76 {
		t.Errorf("%+v", r)
	}
	if code, out, errs = routeRun(t, "--algorithm", "h", "--variant", "kd", "--set", "topology.n=4", "--set", "topology.k=4", "--permutation", "rot180"); code != 0 || !strings.Contains(out, "4×4×4×4 lock-step mesh, rot180") {
		t.Errorf("kd: exit %d, %q %q", code, out, errs)
	}
	if code, out, errs = routeRun(t, "--algorithm", "q", "--variant", "kd", "--set", "topology.n=3", "--set", "topology.k=8"); code != 0 || !strings.Contains(out, "algorithm Q-KD, 8×8×8 lock-step mesh, random, static schedule, 10 buffers") {
		t.Errorf("Q kd: exit %d, %q %q", code, out, errs)
	}
	// (Lemma 4.3's three: (0,0,1) and (0,0,5) swap through (0,0,3).)
	var b strings.Builder
	for p := range 512 {
		d := map[int]int{1: 5, 5: 1}[p]
		if p != 1 && p != 5 {
			d = p
		}
		b.WriteString(strings.Repeat(" ", min(p, 1)) + strconv.Itoa(d))
	}
	f := filepath.Join(t.TempDir(), "swap.txt")
	if err := os.WriteFile(f, []byte(b.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = routeRun(t, "--algorithm", "h", "--variant", "3d", "--set", "topology.n=3", "--set", "topology.k=8", "--set", "lockstep.buffers=2", "--permutation", "file:"+f)
	if code != exitDeadlock || !strings.Contains(errs, "at processor (0,0,3)") {
		t.Errorf("2 buffers: exit %d, %q", code, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--algorithm", "h", "--variant", "3d", "--set", "topology.k=8"}, "topology.n: 2 is not allowed (allowed: a 3-D mesh with --variant 3d (topology.n=3))"},
		{[]string{"--algorithm", "h", "--variant", "kd", "--set", "topology.n=3", "--set", "topology.k=6"}, "topology.k=6: H on a 3-D mesh needs a side that is a power of two"},
		{[]string{"--algorithm", "q", "--variant", "3d", "--set", "topology.n=3", "--set", "topology.k=8"}, "--algorithm: q is not allowed (allowed: h with --variant 3d"},
		{[]string{"--algorithm", "h", "--variant", "3d", "--set", "topology.n=3", "--set", "topology.k=8", "--permutation", "shuffle"}, "--permutation: shuffle is not allowed (allowed: random, rot180, transpose, file:F (on a 3-D mesh))"},
		{[]string{"--algorithm", "h", "--variant", "3d", "--set", "topology.n=3", "--set", "topology.k=4", "--permutation", "file:" + f}, "not a permutation of the 64 processors"},
	} {
		code, _, errs := routeRun(t, c.args...)
		if code != exitBadInput || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", c.args, code, errs, c.want)
		}
	}
}
