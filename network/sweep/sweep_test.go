package sweep

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flitsim/flitsim/network"
)

func TestExpandRange(t *testing.T) {
	for spec, want := range map[string][]string{
		"0.05:0.6:0.05":  {"0.05", "0.1", "0.15", "0.2", "0.25", "0.3", "0.35", "0.4", "0.45", "0.5", "0.55", "0.6"},
		"0.1:0.3:0.1":    {"0.1", "0.2", "0.3"},
		"0:1:0.25":       {"0", "0.25", "0.5", "0.75", "1"},
		"-0.1:0.1:0.1":   {"-0.1", "0", "0.1"},
		"1:10:3":         {"1", "4", "7", "10"},
		"1:9:3":          {"1", "4", "7"},
		"4:4:1":          {"4"},
		"1e-3:3e-3:1e-3": {"0.001", "0.002", "0.003"},
		"0.1:0.35:0.1":   {"0.1", "0.2", "0.3"},
		"0:0.7:0.1":      {"0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7"},
		"2:3:0.5":        {"2", "2.5", "3"},
	} {
		got, err := expandRange(spec)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: got %q, %v; want %q", spec, got, err, want)
		}
	}
	// Many float steps: stop is still included.
	got, err := expandRange("0:1:0.001")
	if err != nil || len(got) != 1001 || got[1000] != "1" || got[300] != "0.3" {
		t.Errorf("0:1:0.001: %d values, last %q, %v", len(got), got[len(got)-1], err)
	}
}

func TestParseVary(t *testing.T) {
	v, err := ParseVary("traffic.load=0.05:0.6:0.05")
	if err != nil || v.Key != "traffic.load" || len(v.Values) != 12 || v.Spec != "0.05:0.6:0.05" {
		t.Fatalf("got %+v, %v", v, err)
	}
	v, err = ParseVary("routing=dor, ecube")
	if err != nil || !slices.Equal(v.Values, []string{"dor", "ecube"}) {
		t.Errorf("list: %+v, %v", v, err)
	}
	v, err = ParseVary("topology.order=0,1;1,0")
	if err != nil || !slices.Equal(v.Values, []string{"0,1", "1,0"}) {
		t.Errorf("semicolon list: %+v, %v", v, err)
	}
	v, err = ParseVary("traffic.flits=4,32:96")
	if err != nil || !slices.Equal(v.Values, []string{"4", "32:96"}) {
		t.Errorf("list with a colon: %+v, %v", v, err)
	}
	v, err = ParseVary("run.seed=7")
	if err != nil || !slices.Equal(v.Values, []string{"7"}) {
		t.Errorf("single value: %+v, %v", v, err)
	}
	for arg, parts := range map[string][]string{
		"traffic.load":              {`--vary "traffic.load"`, "KEY=start:stop:step"},
		"=1,2":                      {"--vary", "KEY="},
		"traffic.lod=0.1,0.2":       {"--vary traffic.lod: unknown key", "load"},
		"trafic.load=0.1,0.2":       {"--vary trafic: unknown key", "traffic"},
		"traffic=1,2":               {"--vary traffic", "traffic.load"},
		"traffic.load.x=1":          {"--vary traffic.load.x", "unknown key"},
		"traffic.load=0.1:0.5:0":    {"--vary traffic.load=0.1:0.5:0", "step 0", "step > 0"},
		"traffic.load=0.1:0.5:-0.1": {"step -0.1", "step > 0"},
		"topology.k=4:8:0":          {"step 0", "step > 0"},
		"traffic.load=0.5:0.1:0.1":  {"empty range", "start 0.5 > stop 0.1"},
		"topology.k=8:4:1":          {"empty range"},
		"traffic.load=0.1:0.5":      {"three numbers"},
		"traffic.load=a:0.5:0.1":    {`start "a" is not a number`},
		"traffic.load=0.1:inf:0.1":  {`stop "inf" is not a number`},
		"traffic.load=":             {"no values"},
		"traffic.load=0.1,,0.2":     {"empty value"},
		"traffic.load=0.1,0.1":      {"0.1 given twice"},
		"run.seed=0:10000000:1":     {"at most"},
	} {
		_, err := ParseVary(arg)
		if err == nil {
			t.Errorf("%s: no error", arg)
			continue
		}
		for _, p := range parts {
			if !strings.Contains(err.Error(), p) {
				t.Errorf("%s: error %q lacks %q", arg, err, p)
			}
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error spans lines: %q", arg, err)
		}
	}
}

func TestGridOrder(t *testing.T) {
	s, err := NewSpec("", []string{"run.measure=300"}, []string{"topology.k=3,4", "traffic.load=0.1:0.3:0.1", "routing=dor"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Points != 6 || s.ConfigName != "default.yaml" || !strings.Contains(s.Config, "topology:") {
		t.Fatalf("spec %+v", s)
	}
	var got []string
	for i := 0; i < s.Points; i++ {
		got = append(got, s.Label(i))
	}
	want := []string{
		"topology.k=3, traffic.load=0.1, routing=dor", "topology.k=3, traffic.load=0.2, routing=dor",
		"topology.k=3, traffic.load=0.3, routing=dor", "topology.k=4, traffic.load=0.1, routing=dor",
		"topology.k=4, traffic.load=0.2, routing=dor", "topology.k=4, traffic.load=0.3, routing=dor",
	}
	if !slices.Equal(got, want) {
		t.Errorf("grid order:\n%q\nwant\n%q", got, want)
	}
	if sets := s.PointSets(4); !slices.Equal(sets, []string{"run.measure=300", "topology.k=4", "traffic.load=0.2", "routing=dor"}) {
		t.Errorf("PointSets(4) = %q", sets)
	}
	c, err := s.Load(4)
	if err != nil || c.Topology.K != 4 || c.Traffic.Load != 0.2 || c.Run.Measure != 300 || c.Run.Seed != 1 {
		t.Errorf("Load(4) = %+v, %v", c, err)
	}

	for _, tc := range []struct {
		vary  []string
		parts []string
	}{
		{nil, []string{"--vary: missing"}},
		{[]string{"traffic.load=0.1,0.2", "traffic.load=0.3"}, []string{"--vary traffic.load: key varied twice"}},
		{[]string{"run.seed=1:1000:1", "run.warmup=1:1000:1", "run.measure=1:1000:1"}, []string{"more than 1000000 points"}},
	} {
		_, err := NewSpec("", nil, tc.vary)
		for _, p := range tc.parts {
			if err == nil || !strings.Contains(err.Error(), p) {
				t.Errorf("%q: error %v lacks %q", tc.vary, err, p)
			}
		}
	}
	if _, err := NewSpec(filepath.Join(t.TempDir(), "none.yaml"), nil, []string{"run.seed=1"}); err == nil ||
		!strings.Contains(err.Error(), "none.yaml: cannot read config file") {
		t.Errorf("missing file: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	s, err := NewSpec("", nil, []string{"traffic.load=0.5:1.5:0.5"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(s, Shard{}, Options{Runner: fail(t)})
	if err == nil || err.Error() != "--vary traffic.load: 1.5 is not allowed (allowed: a number from 0 to 1 (flits per node per cycle))" {
		t.Errorf("out-of-range value: %v", err)
	}
	s, _ = NewSpec("", nil, []string{"topology.k=4,x"})
	if _, err = s.Load(1); err == nil || !strings.HasPrefix(err.Error(), `--vary topology.k: "x" is not allowed (allowed: an integer)`) {
		t.Errorf("bad type: %v", err)
	}
	// An error that depends on another key blames the key the user wrote:
	// here the varied one (not the default's buffers.input).
	s, _ = NewSpec("", []string{"switching=vct"}, []string{"traffic.flits=4,8"})
	if _, err = s.Load(1); err == nil || !strings.HasPrefix(err.Error(), "--vary traffic.flits: 8 is not allowed") ||
		!strings.Contains(err.Error(), "buffers.input 4") {
		t.Errorf("cross-key error: %v", err)
	}
	// One that blames a key no --vary gave names the point.
	s, _ = NewSpec("", []string{"switching=vct", "buffers.input=2"}, []string{"traffic.flits=2,8"})
	if _, err = s.Load(1); err == nil || !strings.HasPrefix(err.Error(), "sweep point 1 (traffic.flits=8): --set buffers.input: 2") {
		t.Errorf("cross-key error: %v", err)
	}
	// An error the sweep does not cause is reported as is.
	s, _ = NewSpec("", []string{"traffic.lod=1"}, []string{"run.seed=1,2"})
	if _, err = s.Load(0); err == nil || !strings.HasPrefix(err.Error(), "--set traffic.lod: unknown key") {
		t.Errorf("--set error: %v", err)
	}
}

func fail(t *testing.T) Runner {
	return func(network.Config, func(int64)) (*network.Result, error) {
		t.Error("a point ran although a config is bad")
		return nil, errors.New("ran")
	}
}

func TestShard(t *testing.T) {
	for _, bad := range []string{"0/3", "4/3", "1/0", "a/b", "1", "", "-1/2", "1/2/3"} {
		if _, err := ParseShard(bad); err == nil || !strings.Contains(err.Error(), "1 ≤ i ≤ n") {
			t.Errorf("ParseShard(%q): %v", bad, err)
		}
	}
	sh, err := ParseShard("2/3")
	if err != nil || sh.String() != "2/3" {
		t.Fatalf("ParseShard: %v %v", sh, err)
	}
	if got := sh.Indices(8); !slices.Equal(got, []int{1, 4, 7}) {
		t.Errorf("Indices = %v", got)
	}
	if got := (Shard{}).Indices(3); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("whole Indices = %v", got)
	}
	one, _ := ParseShard("1/1")
	if one.Whole() || one.String() != "1/1" || len(one.Indices(5)) != 5 {
		t.Errorf("1/1: %+v", one)
	}
}

// tiny is a sweep small enough to run in a fraction of a second.
func tiny(t *testing.T) *Spec {
	t.Helper()
	s, err := NewSpec("", []string{"topology.k=4", "run.warmup=50", "run.measure=300"},
		[]string{"buffers.input=1,4", "traffic.load=0.1:0.7:0.2"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func jsonOf(t *testing.T, f *File) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := f.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDeterminism(t *testing.T) {
	s := tiny(t)
	a, err := Run(s, Shard{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Rows) != 8 || a.Shard != "" || a.Format != Format {
		t.Fatalf("rows %d shard %q", len(a.Rows), a.Shard)
	}
	for i, r := range a.Rows {
		if r.Point != i || r.Value("traffic.load") != s.Values(i)[1] || r.Throughput <= 0 || r.LatencyMean <= 0 {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	b, err := Run(tiny(t), Shard{}, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Run(tiny(t), Shard{}, Options{Jobs: 5})
	if err != nil {
		t.Fatal(err)
	}
	ja, jb, jc := jsonOf(t, a), jsonOf(t, b), jsonOf(t, c)
	if !bytes.Equal(ja, jb) || !bytes.Equal(ja, jc) {
		t.Errorf("results differ between runs / job counts")
	}
	// Each point equals a plain `flitsim run` of its config.
	cfg, _ := s.Load(5)
	r, err := network.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(NewRow(s, 5, r), a.Rows[5]) {
		t.Errorf("point 5 differs from network.Run:\n%+v\n%+v", NewRow(s, 5, r), a.Rows[5])
	}
}

func TestShardsMerge(t *testing.T) {
	s := tiny(t)
	whole, err := Run(s, Shard{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []*File
	var names []string
	for i := 1; i <= 3; i++ {
		f, err := Run(tiny(t), Shard{i, 3}, Options{Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		if f.BaseName() != "results-shard-"+string(rune('0'+i))+"-of-3" {
			t.Errorf("BaseName = %s", f.BaseName())
		}
		// Through the file, as merge reads them.
		p := filepath.Join(dir, f.BaseName()+".json")
		if err := os.WriteFile(p, jsonOf(t, f), 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files, names = append(files, g), append(names, p)
	}
	// Reverse order: merge sorts.
	slices.Reverse(files)
	slices.Reverse(names)
	m, err := Merge(files, names)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(jsonOf(t, m), jsonOf(t, whole)) {
		t.Errorf("merged shards differ from the whole sweep:\n%s\n%s", jsonOf(t, m), jsonOf(t, whole))
	}

	// Missing points.
	_, err = Merge(files[:2], names[:2])
	if err == nil || !strings.Contains(err.Error(), "3 of 8 points missing: 0, 3, 6") {
		t.Errorf("missing: %v", err)
	}
	// Duplicated.
	_, err = Merge([]*File{files[0], files[1], files[0], files[2]}, []string{names[0], names[1], "again.json", names[2]})
	if err == nil || !strings.Contains(err.Error(), "is in both "+names[0]+" and again.json") {
		t.Errorf("duplicate: %v", err)
	}
	// A different sweep.
	other, err := NewSpec("", []string{"topology.k=4", "run.warmup=50", "run.measure=301"},
		[]string{"buffers.input=1,4", "traffic.load=0.1:0.7:0.2"})
	if err != nil {
		t.Fatal(err)
	}
	o := &File{Format: Format, Sweep: *other, Shard: "1/3"}
	_, err = Merge([]*File{files[0], o}, []string{"a.json", "b.json"})
	if err == nil || !strings.Contains(err.Error(), "a.json and b.json are from different sweeps: the --set overrides differ") {
		t.Errorf("different sets: %v", err)
	}
	other2 := *s
	other2.Vary = slices.Clone(s.Vary)
	other2.Vary[1] = Vary{Key: "traffic.load", Spec: "0.1,0.3,0.5,0.6", Values: []string{"0.1", "0.3", "0.5", "0.6"}}
	_, err = Merge([]*File{files[0], {Format: Format, Sweep: other2}}, []string{"a.json", "b.json"})
	if err == nil || !strings.Contains(err.Error(), "the values of traffic.load differ") {
		t.Errorf("different values: %v", err)
	}
	other3 := *s
	other3.Config += "\n# edited\n"
	_, err = Merge([]*File{files[0], {Format: Format, Sweep: other3}}, []string{"a.json", "b.json"})
	if err == nil || !strings.Contains(err.Error(), "the base config differs") {
		t.Errorf("different config: %v", err)
	}
	if _, err = Merge(nil, nil); err == nil {
		t.Errorf("merge of nothing: no error")
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	f, err := Run(tiny(t), Shard{2, 3}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	good := string(jsonOf(t, f))
	for name, tc := range map[string]struct{ body, want string }{
		"garbage.json": {"not json", "not a flitsim sweep result file"},
		"other.json":   {`{"format":"x"}`, `format "x"`},
		"points.json":  {strings.Replace(good, `"points": 8`, `"points": 9`, 1), "sweep.points is 9 but the varied values make 8"},
		"shard.json":   {strings.Replace(good, `"point": 1,`, `"point": 2,`, 1), "point 2 does not belong to shard 2/3"},
		"values.json":  {strings.Replace(good, `"traffic.load": 0.3,`, `"traffic.load": 0.4,`, 1), "point 1 has values buffers.input=1, traffic.load=0.4"},
		"range.json":   {strings.Replace(good, `"point": 1,`, `"point": 99,`, 1), "point 99 is not allowed"},
		"lacks.json":   {strings.Replace(good, `"hops"`, `"hop"`, 1), `lacks "hops"`},
	} {
		_, err := ReadFile(write(name, tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "none.json")); err == nil || !strings.Contains(err.Error(), "cannot read") {
		t.Errorf("missing file: %v", err)
	}
}

func TestRowJSONRoundTrip(t *testing.T) {
	s, err := NewSpec("", nil, []string{"routing=dor,ecube", "traffic.load=0.10,1e-1", "switch.reuse=true"})
	if err != nil {
		t.Fatal(err)
	}
	dl := &network.Deadlock{Cycle: 77}
	f := &File{Format: Format, Sweep: *s}
	for i := 0; i < s.Points; i++ {
		r := &network.Result{Offered: 0.1, Throughput: math.NaN(), Cycles: 9,
			Latency: network.Summary{Count: 3, Mean: 2.5, P50: 2, P95: 3, P99: 3, Max: 3}, Hops: 2, Status: network.StatusOK}
		if i == 1 {
			r.Latency = network.Summary{} // nothing measured
			r.Deadlock, r.Incomplete, r.Status = dl, true, network.StatusDeadlock
		}
		f.Rows = append(f.Rows, NewRow(s, i, r))
	}
	data := jsonOf(t, f)
	for _, s := range []string{`"routing": "ecube"`, `"traffic.load": 0.10`, `"traffic.load": 1e-1`,
		`"switch.reuse": true`, `"throughput": null`, `"deadlock_cycle": 77`} {
		if !bytes.Contains(data, []byte(s)) {
			t.Errorf("JSON lacks %s:\n%s", s, data)
		}
	}
	p := filepath.Join(t.TempDir(), "r.json")
	os.WriteFile(p, data, 0o644)
	g, err := ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(jsonOf(t, g), data) {
		t.Errorf("round trip differs:\n%s\n%s", jsonOf(t, g), data)
	}
	var csv bytes.Buffer
	g.WriteCSV(&csv)
	lines := strings.Split(csv.String(), "\n")
	if lines[0] != "point,routing,traffic.load,switch.reuse,offered,throughput,latency_mean,latency_p50,latency_p95,latency_p99,latency_max,latency_ci95,network_latency_mean,hops,channel_util_mean,channel_util_max,system_utilization,cycles,deadlock_cycle,incomplete,saturated,status" {
		t.Errorf("CSV header %s", lines[0])
	}
	if lines[1] != "0,dor,0.10,true,0.1,,2.5,2,3,3,3,0,0,2,0,0,,9,,false,false,ok" || lines[2] != "1,dor,1e-1,true,0.1,,,,,,,,,,0,0,,9,77,true,false,deadlock" {
		t.Errorf("CSV rows:\n%s", csv.String())
	}
}

func TestRunObserved(t *testing.T) {
	s := tiny(t)
	cfg, _ := s.Load(3)
	want, err := network.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var seen []int64
	got, err := RunObserved(cfg, func(c int64) { seen = append(seen, c) })
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("RunObserved differs from network.Run")
	}
	if len(seen) == 0 || seen[len(seen)-1] != got.Cycles || !slices.IsSorted(seen) {
		t.Errorf("observed %v, run ended at %d", seen, got.Cycles)
	}
	cfg.Run.Measure = 5000
	cfg.Run.MaxBacklog = 0 // (point 3 saturates: run it to the end)
	seen = nil
	if _, err := RunObserved(cfg, func(c int64) { seen = append(seen, c) }); err != nil || len(seen) < 5 {
		t.Errorf("observed %v, %v", seen, err)
	}
}

func TestProgressAndErrors(t *testing.T) {
	s := tiny(t)
	var mu sync.Mutex
	var last Status
	calls := 0
	_, err := Run(s, Shard{1, 2}, Options{Progress: func(st Status) {
		mu.Lock()
		defer mu.Unlock()
		if st.Cycles < last.Cycles || st.Done < last.Done || st.Cycles > st.Total {
			t.Errorf("progress went from %+v to %+v", last, st)
		}
		last = st
		calls++
	}})
	if err != nil {
		t.Fatal(err)
	}
	if last.Done != 4 || last.Points != 4 || last.Cycles != last.Total || last.Total != 4*350 || calls < 5 {
		t.Errorf("final progress %+v after %d calls", last, calls)
	}

	// A failing point: the first error in grid order; a panic is a *PanicError.
	_, err = Run(s, Shard{}, Options{Jobs: 1, Runner: func(c network.Config, _ func(int64)) (*network.Result, error) {
		if c.Traffic.Load == 0.5 {
			return nil, errors.New("boom")
		}
		return &network.Result{}, nil
	}})
	if err == nil || err.Error() != "boom" {
		t.Errorf("runner error: %v", err)
	}
	_, err = Run(s, Shard{}, Options{Runner: func(c network.Config, _ func(int64)) (*network.Result, error) {
		if c.Traffic.Load == 0.5 {
			panic("kaboom")
		}
		return &network.Result{}, nil
	}})
	var pe *PanicError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "kaboom") {
		t.Errorf("panic: %v", err)
	}
	_, err = Run(s, Shard{}, Options{Runner: func(network.Config, func(int64)) (*network.Result, error) { return nil, nil }})
	if err == nil || !strings.Contains(err.Error(), "neither a result nor an error") {
		t.Errorf("nil result: %v", err)
	}
}

// A sweep stopped while it checks its points' configs returns at once,
// with the points done before (a resumed sweep's) and ErrInterrupted,
// having run none.
func TestStopWhileChecking(t *testing.T) {
	s, err := NewSpec("", []string{"topology.k=3"}, []string{"run.seed=1:1000000:1"})
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	ran := false
	opts := Options{Stop: &stop, Done: []Row{{Point: 7}},
		Runner: func(network.Config, func(int64)) (*network.Result, error) { ran = true; return nil, nil }}
	stop.Store(true)
	t0 := time.Now() // (checking the million points would take minutes)
	f, err := Run(s, Shard{}, opts)
	if !errors.Is(err, ErrInterrupted) || ran || f == nil || len(f.Rows) != 1 || f.Rows[0].Point != 7 {
		t.Fatalf("err %v, ran %v, file %+v", err, ran, f)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// The points are checked in parallel, but the error is the first refused
// point's in grid order (1.001 here, of the 500 refused).
func TestFirstLoadErrorInGridOrder(t *testing.T) {
	s, err := NewSpec("", nil, []string{"traffic.load=0.001:1.5:0.001"})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		_, err = Run(s, Shard{}, Options{Runner: fail(t)})
		if err == nil || !strings.HasPrefix(err.Error(), "--vary traffic.load: 1.001 is not allowed") {
			t.Fatalf("error %v", err)
		}
	}
}

// system_utilization (blocking tasks' ρ) survives the JSON round trip; a
// row written before the column existed reads as null.
func TestSystemUtilizationColumn(t *testing.T) {
	u := Float(0.69)
	r := Row{Point: 2, Values: []KV{{"traffic.ratio", "0.3"}}, Metrics: Metrics{SystemUtilization: &u, Status: "ok"}}
	b, err := r.MarshalJSON()
	if err != nil || !strings.Contains(string(b), `"system_utilization":0.69`) {
		t.Fatalf("%s %v", b, err)
	}
	var back Row
	if err := back.UnmarshalJSON(b); err != nil || back.SystemUtilization == nil || *back.SystemUtilization != u {
		t.Fatalf("%+v %v", back, err)
	}
	old := strings.Replace(string(b), `"system_utilization":0.69,`, "", 1)
	if err := back.UnmarshalJSON([]byte(old)); err != nil || back.SystemUtilization != nil || len(back.Values) != 1 {
		t.Fatalf("without the column: %+v %v", back, err)
	}
}
