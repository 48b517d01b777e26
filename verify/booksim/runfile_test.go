package booksim

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs"
)

// The 2-VC runfile becomes these flitsim keys, option by option.
func TestFlitsimSets2VC(t *testing.T) {
	fl, err := FlitsimFor("runfiles/mesh88_2vc.cfg")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"topology.kind=mesh", "topology.k=8", "topology.n=2", "routing=dor", "router.model=iq",
		"buffers.vcs=2", "buffers.input=8", "vc.release=tail", "router.vc_allocator=islip",
		"router.sw_allocator=islip", "router.alloc_iters=2", "router.credit_delay=2",
		"router.routing_delay=0", "router.vc_alloc_delay=1", "router.sw_alloc_delay=1",
		"router.st_final_delay=1", "router.input_speedup=1", "router.output_speedup=1",
		"traffic.pattern=uniform", "traffic.flits=4",
		"traffic.load=0.1", "run.seed=0", "run.warmup=3000", "run.measure=7000", "link.latency=1",
	}
	if !slices.Equal(fl.Sets, want) {
		t.Fatalf("sets\n%v\nwant\n%v", fl.Sets, want)
	}
}

// Every runfile of the comparison translates into a configuration flitsim
// accepts (the router keys included), and the 16-VC one waits for tail
// credits.
func TestRunfilesLoadInFlitsim(t *testing.T) {
	for _, f := range []string{"mesh88_1vc.cfg", "mesh88_2vc.cfg", "mesh88_16vc.cfg"} {
		fl, err := FlitsimFor("runfiles/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := configs.Load("", fl.Sets); err != nil {
			t.Errorf("%s: flitsim refuses %v: %v", f, fl.Sets, err)
		}
	}
	fl, _ := FlitsimFor("runfiles/mesh88_16vc.cfg")
	if !slices.Contains(fl.Sets, "vc.release=tail-credit") || !slices.Contains(fl.Sets, "buffers.vcs=16") {
		t.Errorf("16 VCs: %v", fl.Sets)
	}
}

func TestFlitsimSetsRejects(t *testing.T) {
	for _, c := range []struct {
		opts [][2]string
		says string
	}{
		{[][2]string{{"topology", "mesh"}, {"vc_allocator", "islip"}, {"priority", "age"}}, "BookSim option priority: no flitsim equivalent (known: docs/booksim.md)"},
		{[][2]string{{"internal_speedup", "2.0"}}, "BookSim option internal_speedup: 2.0 (flitsim has only 1 or 1.0)"},
		{[][2]string{{"wait_for_tail_credit", "yes"}}, "BookSim option wait_for_tail_credit: yes (allowed: 0, 1)"},
		{[][2]string{{"sample_period", "x"}}, `BookSim option sample_period: "x" is not a non-negative integer`},
		{[][2]string{{"max_samples", "3"}}, "BookSim option max_samples: 3 leaves no sample after 3 warm-up periods"},
	} {
		_, err := FlitsimSets(c.opts)
		if err == nil || err.Error() != c.says {
			t.Errorf("%v: error %v, want %q", c.opts, err, c.says)
		}
	}
}

func TestReadRunfile(t *testing.T) {
	f := t.TempDir() + "/r.cfg"
	text := "// comment\ntopology = mesh; k = 8; /* a\nblock */ n=2;\ntraffic = \"uniform\"; // trailing\n"
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRunfile(f)
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"topology", "mesh"}, {"k", "8"}, {"n", "2"}, {"traffic", "uniform"}}
	if !slices.Equal(got, want) {
		t.Fatalf("read %v, want %v", got, want)
	}
	if err := os.WriteFile(f, []byte("topology mesh;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRunfile(f); err == nil || !strings.Contains(err.Error(), `"topology mesh" is not name = value`) {
		t.Errorf("error %v", err)
	}
}

// docs/booksim.md's option table has a row for every option Options maps
// (the table is the page's copy of Options).
func TestOptionsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/booksim.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range Options {
		if !strings.Contains(string(doc), "| `"+o.Name+" = ") && !strings.Contains(string(doc), ", `"+o.Name+" = ") {
			t.Errorf("docs/booksim.md has no row for BookSim option %s", o.Name)
		}
		if o.Key != "" && !strings.Contains(string(doc), "`"+o.Key) {
			t.Errorf("docs/booksim.md does not name %s's key %s", o.Name, o.Key)
		}
	}
}
