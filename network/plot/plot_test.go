package plot

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/sweep"
)

// file makes a sweep file with made-up results: two lines (topology.k=4, 8)
// over traffic.load, one point deadlocked, one incomplete, one saturated,
// one NaN.
func file(t *testing.T, vary ...string) *sweep.File {
	t.Helper()
	s, err := sweep.NewSpec("", nil, vary)
	if err != nil {
		t.Fatal(err)
	}
	f := &sweep.File{Format: sweep.Format, Sweep: *s}
	for i := 0; i < s.Points; i++ {
		r := &network.Result{Offered: 0.1 * float64(i%4+1), Throughput: 0.09 * float64(i%4+1),
			Latency: network.Summary{Count: 10, Mean: 10 + float64(i*i)}}
		switch i {
		case 3:
			r.Deadlock = &network.Deadlock{Cycle: 500}
		case 6:
			r.Incomplete = true
		case 7:
			r.Saturated = true
		case 5:
			r.Latency.Mean = math.NaN()
		}
		f.Rows = append(f.Rows, sweep.NewRow(s, i, r))
	}
	return f
}

func checkFiles(t *testing.T, dir string) {
	t.Helper()
	for _, name := range Files {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(name) {
		case ".svg":
			if !bytes.HasPrefix(data, []byte("<?xml")) && !bytes.HasPrefix(data, []byte("<svg")) || !bytes.Contains(data, []byte("</svg>")) {
				t.Errorf("%s is not an SVG: %.60q", name, data)
			}
		case ".png":
			if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) || len(data) < 1000 {
				t.Errorf("%s is not a PNG (%d bytes)", name, len(data))
			}
		}
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	f := file(t, "topology.k=4,8", "traffic.load=0.1:0.4:0.1")
	if err := Write(dir, f); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir)
	svg, _ := os.ReadFile(filepath.Join(dir, "latency-vs-offered.svg"))
	for _, s := range []string{"topology.k=4", "topology.k=8", "deadlocked, not drawn: point 3 (topology.k=4, traffic.load=0.4)", "saturated or incomplete"} {
		if !strings.Contains(string(svg), s) {
			t.Errorf("latency SVG lacks %q", s)
		}
	}
	svg, _ = os.ReadFile(filepath.Join(dir, "accepted-vs-offered.svg"))
	if !strings.Contains(string(svg), "accepted = offered") {
		t.Errorf("accepted SVG lacks the reference line")
	}
}

func TestCurves(t *testing.T) {
	// traffic.load is the axis wherever it is in the grid.
	f := file(t, "traffic.load=0.1:0.4:0.1", "routing=dor,ecube")
	cs := curves(f)
	if len(cs) != 2 || cs[0].label != "routing=dor" || cs[1].label != "routing=ecube" || len(cs[0].rows) != 4 {
		t.Errorf("curves: %d, %q", len(cs), cs[0].label)
	}
	// Without traffic.load, the last key is the axis; a single line is
	// labelled with its range.
	f = file(t, "traffic.flits=1:8:1")
	cs = curves(f)
	if len(cs) != 1 || cs[0].label != "traffic.flits=1:8:1" || len(cs[0].rows) != 8 {
		t.Errorf("single curve: %+v", cs[0].label)
	}
	// Nothing to draw at all still gives valid files.
	f = file(t, "run.seed=1")
	f.Rows[0].DeadlockCycle = new(int64)
	dir := t.TempDir()
	if err := Write(dir, f); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir)
	if err := Write(filepath.Join(dir, "missing", "dir"), f); err == nil {
		t.Errorf("writing into a missing folder: no error")
	}
}

// TestSaturatedRinged: a point that is saturated but delivered everything
// is ringed too; a sweep without such points has no ring legend.
func TestSaturatedRinged(t *testing.T) {
	for _, sat := range []bool{false, true} {
		f := file(t, "traffic.load=0.1:0.2:0.1")
		f.Rows[1].Saturated = sat
		dir := t.TempDir()
		if err := Write(dir, f); err != nil {
			t.Fatal(err)
		}
		svg, _ := os.ReadFile(filepath.Join(dir, "accepted-vs-offered.svg"))
		if got := strings.Contains(string(svg), "saturated or incomplete"); got != sat {
			t.Errorf("saturated point %v: ring legend %v", sat, got)
		}
	}
}
