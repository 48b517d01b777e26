package plot

import (
	"bytes"
	"image/png"
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
			Latency: network.Summary{Count: 10, Mean: 10 + float64(i*i)}, Hops: 3}
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
			// Large enough for a slide.
			cfg, err := png.DecodeConfig(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if cfg.Width < 1600 || cfg.Height < 1000 {
				t.Errorf("%s is %d×%d, want at least 1600×1000", name, cfg.Width, cfg.Height)
			}
		}
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	f := file(t, "topology.k=4,8", "traffic.load=0.1:0.4:0.1")
	if err := Write(dir, f, linear); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir)
	doc := readSVG(t, filepath.Join(dir, "latency-vs-offered.svg"))
	for _, s := range []string{"k = 4", "k = 8", "deadlocked, not drawn: point 3 (k = 4, offered load 0.4)",
		"saturated: accepted < offered", "incomplete: measured packets not all delivered",
		"Mean latency vs offered load: mesh k=4,8 n=2, uniform traffic, 4-flit packets, wormhole"} {
		if !doc.hasText(s) {
			t.Errorf("latency SVG lacks %q", s)
		}
	}
	doc = readSVG(t, filepath.Join(dir, "accepted-vs-offered.svg"))
	if !doc.hasText("accepted = offered") {
		t.Errorf("accepted SVG lacks the reference line")
	}
}

func TestCurves(t *testing.T) {
	// traffic.load is the axis wherever it is in the grid.
	f := file(t, "traffic.load=0.1:0.4:0.1", "routing=dor,ecube")
	cs := curves(f)
	if len(cs) != 2 || cs[0].label != "routing dor" || cs[1].label != "routing ecube" || len(cs[0].rows) != 4 {
		t.Errorf("curves: %d, %q", len(cs), cs[0].label)
	}
	// Without traffic.load, the last key is the axis; a single line is
	// "measured" (the title names the setup), not the raw range.
	f = file(t, "traffic.flits=1:8:1")
	cs = curves(f)
	if len(cs) != 1 || cs[0].label != "measured" || len(cs[0].rows) != 8 {
		t.Errorf("single curve: %+v", cs[0].label)
	}
	// Nothing to draw at all still gives valid files.
	f = file(t, "run.seed=1")
	f.Rows[0].DeadlockCycle = new(int64)
	dir := t.TempDir()
	if err := Write(dir, f, linear); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir)
	if err := Write(filepath.Join(dir, "missing", "dir"), f, linear); err == nil {
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
		if err := Write(dir, f, linear); err != nil {
			t.Fatal(err)
		}
		doc := readSVG(t, filepath.Join(dir, "accepted-vs-offered.svg"))
		if got := doc.hasText("saturated: accepted < offered"); got != sat {
			t.Errorf("saturated point %v: ring legend %v", sat, got)
		}
		if got := len(doc.where(isRing)); got != map[bool]int{false: 0, true: 2}[sat] {
			t.Errorf("saturated point %v: %d rings (want the point's and the legend's)", sat, got)
		}
	}
}

func isRing(p svgPath) bool { return p.arc && p.stroke == "#000000" && p.width == 1.5 }

// TestSaturation: the saturation throughput is the curve's largest accepted
// throughput when a point of it is saturated; a curve without a saturated
// point is "not saturated up to" its largest offered load.
func TestSaturation(t *testing.T) {
	row := func(off, acc float64, sat bool) *sweep.Row {
		return &sweep.Row{Metrics: sweep.Metrics{Offered: sweep.Float(off), Throughput: sweep.Float(acc), Saturated: sat}}
	}
	dl := row(0.7, 0.69, true)
	dl.DeadlockCycle = new(int64)
	c := &curve{label: "a", rows: []*sweep.Row{row(0.1, 0.1, false), row(0.4, 0.38, true), row(0.5, 0.41, true), row(0.6, 0.37, true), dl}}
	if s := c.saturation(); !s.Saturated || s.Throughput != 0.41 || s.From != 0.4 {
		t.Errorf("saturation %+v, want 0.41 from 0.4 (the deadlocked point left out)", s)
	}
	if got, want := c.legendLabel(), "a: saturation throughput 0.410 (saturated from offered load 0.4)"; got != want {
		t.Errorf("legend %q, want %q", got, want)
	}
	c = &curve{label: "b", rows: []*sweep.Row{row(0.1, 0.1, false), row(0.3, 0.3, false)}}
	if got, want := c.legendLabel(), "b: not saturated up to offered load 0.3"; got != want {
		t.Errorf("legend %q, want %q", got, want)
	}
}

// TestFormulaApplies: the zero-load line is left out where the closed form
// is not the zero-load latency.
func TestFormulaApplies(t *testing.T) {
	c := network.Default()
	if why := network.ZeroLoadWhyNot(&c); why != "" {
		t.Errorf("default config: %q", why)
	}
	c.Link.Latency = 5
	if why := network.ZeroLoadWhyNot(&c); !strings.Contains(why, "shallower than 5") {
		t.Errorf("4-flit buffers on 5-cycle links: %q", why)
	}
	c = network.Default()
	c.Traffic.Pattern = "cluster-multicast"
	if why := network.ZeroLoadWhyNot(&c); why != "multicast traffic" {
		t.Errorf("multicast: %q", why)
	}
	c = network.Default()
	c.Switching = "packet"
	if why := network.ZeroLoadWhyNot(&c); !strings.Contains(why, "packet router") {
		t.Errorf("packet router: %q", why)
	}
}

// A sweep of blocking tasks over traffic.ratio is drawn against R and also
// draws Chiang's Fig 5.1(b): the system utilisation against R, with the optimum 1 − R; other
// sweeps do not get the file.
func TestUtilizationPlot(t *testing.T) {
	dir := t.TempDir()
	f := file(t, "traffic.clusters=random,cube", "traffic.ratio=0.1:0.7:0.2")
	if err := Write(dir, f, linear); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "utilization.svg")); err == nil {
		t.Fatal("a utilisation plot without utilisation figures")
	}
	for i := range f.Rows {
		u := sweep.Float(0.9 - 0.1*float64(i))
		f.Rows[i].SystemUtilization = &u
	}
	if err := Write(dir, f, linear); err != nil {
		t.Fatal(err)
	}
	doc := readSVG(t, filepath.Join(dir, "utilization.svg"))
	for _, s := range []string{"System utilisation vs communication ratio R", "communication ratio R (traffic.ratio)",
		"optimum 1 − R", "placement random", "placement cube"} {
		if !doc.hasText(s) {
			t.Errorf("utilisation SVG lacks %q", s)
		}
	}
	// R is the sweep's load axis: the latency plot is drawn against it too
	// (Fig 5.1(a)), without the optimum line.
	lat := readSVG(t, filepath.Join(dir, "latency-vs-offered.svg"))
	if !lat.hasText("communication ratio R (traffic.ratio)") || lat.hasText("optimum 1 − R") {
		t.Errorf("latency SVG of a sweep over traffic.ratio is not drawn against R alone")
	}
}
