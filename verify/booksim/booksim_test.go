package booksim

import (
	"context"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func parseFile(t *testing.T, name string) Result {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Captured output of booksim2 @28f43299 on runfiles/mesh88_2vc.cfg at load
// 0.2 (seed 0): the overall statistics at the end are the result.
func TestParseFinishedRun(t *testing.T) {
	r := parseFile(t, "testdata/mesh88_2vc_0.2.out")
	want := Result{Offered: 0.2, PacketLatency: 34.0102, NetworkLatency: 33.6345, FlitLatency: 29.9161,
		Injected: 0.20212, Accepted: 0.202146, Hops: 6.2757, Samples: 6, Cycles: 6120}
	if r != want {
		t.Fatalf("parsed\n%+v\nwant\n%+v", r, want)
	}
	if !r.Point().Saturates(11) {
		t.Errorf("latency 34.01 against zero-load 11 (limit 33) should saturate")
	}
	if r.Point().Saturates(12) {
		t.Errorf("latency 34.01 against zero-load 12 (limit 36) should not saturate")
	}
}

// At load 0.5 BookSim gives up after three sample periods: the last
// period's figures and BookSim's reason are the result.
func TestParseUnstableRun(t *testing.T) {
	r := parseFile(t, "testdata/mesh88_2vc_0.5.out")
	if !r.Unstable || r.Reason != "Average latency for class 0 exceeded 500 cycles. Aborting simulation." {
		t.Fatalf("Unstable %v, Reason %q", r.Unstable, r.Reason)
	}
	if r.Offered != 0.5 || r.PacketLatency != 513.119 || r.NetworkLatency != 108.867 ||
		r.Accepted != 0.376531 || r.Samples != 3 || r.Cycles != 0 {
		t.Fatalf("parsed %+v", r)
	}
	if !r.Point().Saturates(1000) {
		t.Errorf("an unstable run saturates whatever the zero-load latency")
	}
}

func TestParseRejects(t *testing.T) {
	full, err := os.ReadFile("testdata/mesh88_2vc_0.2.out")
	if err != nil {
		t.Fatal(err)
	}
	cut := string(full[:strings.Index(string(full), "Draining")])
	for name, c := range map[string]struct{ in, says string }{
		"empty":     {"", "no statistics for traffic class 0"},
		"truncated": {cut, "ends before the run finished"},
		"bad value": {strings.Replace(string(full), "Time taken is 6120", "Time taken is 6x20", 1), `"Time taken is 6x20 cycles"`},
		"bad stat":  {strings.Replace(string(full), "= 34.0102", "= 3q", 1), `"Packet latency average = 3q`},
	} {
		_, err := Parse(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: error %v, want one saying %s", name, err, c.says)
		}
	}
}

// Saturation on a model network whose latency is L0/(1 − load/0.4) and
// which is unstable past 0.4: latency passes 3·L0 at load 0.4·(2/3).
func TestSaturationBisection(t *testing.T) {
	const l0 = 20.0
	probes := 0
	probe := func(rate float64) (Point, error) {
		probes++
		if rate >= 0.4 {
			return Point{Offered: rate, PacketLatency: 600, Unstable: true}, nil
		}
		return Point{Offered: rate, PacketLatency: l0 / (1 - rate/0.4), Accepted: rate}, nil
	}
	sat, seen, err := Saturation(probe, l0)
	if err != nil {
		t.Fatal(err)
	}
	knee := 0.4 * 2 / 3
	if sat > knee || knee-sat > Resolution {
		t.Fatalf("saturation %v, want within %v below %v", sat, Resolution, knee)
	}
	if len(seen) != probes || probes != 9 || seen[0].Offered != 1 {
		t.Fatalf("%d probes (%d recorded, first at %v), want 9: load 1, then 8 halvings to 1/256", probes, len(seen), seen[0].Offered)
	}
	if _, _, err := Saturation(probe, 0); err == nil {
		t.Errorf("zero-load latency 0 accepted")
	}
	// A network that never saturates reports 1 after one probe.
	sat, seen, _ = Saturation(func(r float64) (Point, error) { return Point{Offered: r, PacketLatency: l0}, nil }, l0)
	if sat != 1 || len(seen) != 1 {
		t.Errorf("never saturating: %v after %d probes", sat, len(seen))
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := Median(c.xs); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}

// With BookSim2 installed (booksim on PATH, see build.sh), a real run on
// the 2-VC runfile at load 0.2 parses, accepts what it is offered and
// reports a cost. Skipped, saying so, when booksim is not on PATH.
func TestRunInstalledBookSim(t *testing.T) {
	if _, err := exec.LookPath("booksim"); err != nil {
		t.Skip("booksim not on PATH (build it with verify/booksim/build.sh): the real run is not checked")
	}
	rn := Runner{Runfile: "runfiles/mesh88_2vc.cfg", Args: []string{"sample_period=500"}}
	r, err := rn.Run(context.Background(), 0.2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Unstable || r.Offered != 0.2 || math.Abs(r.Accepted-0.2) > 0.02 || r.PacketLatency < 20 || r.Cycles < 2000 {
		t.Fatalf("run at 0.2: %+v", r.Result)
	}
	if r.CyclesPerSecond() <= 0 {
		t.Fatalf("no cost measured: %v CPU for %d cycles", r.CPU, r.Cycles)
	}
}

// BookSim refuses "injection_rate=1" (an integer for a float key): the
// runner always writes a decimal point, and the parser reports a refusal.
func TestFloatArgAndRefusal(t *testing.T) {
	for v, want := range map[float64]string{1: "1.0", 0.5: "0.5", 0.00390625: "0.00390625", 0: "0.0"} {
		if got := floatArg(v); got != want {
			t.Errorf("floatArg(%v) = %q, want %q", v, got, want)
		}
	}
	out := "OVERRIDE Parameter: injection_rate=1\nParse error : Unknown integer field: injection_rate\n"
	_, err := Parse(strings.NewReader(out))
	if err == nil || !strings.Contains(err.Error(), "booksim refused its input: Parse error : Unknown integer field: injection_rate") {
		t.Errorf("Parse of a refusal: %v", err)
	}
}
