package configs

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
)

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "exp.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// noValidate stubs network.Validate for tests of decoding alone.
func noValidate(t *testing.T) {
	t.Helper()
	old := validate
	validate = func(*network.Config) error { return nil }
	t.Cleanup(func() { validate = old })
}

func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", parts)
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\r\n") {
		t.Errorf("error is not one line: %q", msg)
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("error %q does not contain %q", msg, p)
		}
	}
}

func TestDefaultEqualsNetworkDefault(t *testing.T) {
	noValidate(t)
	got, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := network.Default(); !reflect.DeepEqual(got, want) {
		t.Errorf("embedded default.yaml\n got %+v\nwant %+v", got, want)
	}
}

func TestShippedFilesLoad(t *testing.T) {
	noValidate(t)
	for _, name := range []string{"default.yaml", "ring_deadlock.yaml", "mesh_complete.yaml"} {
		c, err := Load(name, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if name == "ring_deadlock.yaml" {
			want := network.TopologyConfig{Kind: "torus", K: 8, N: 1}
			if !reflect.DeepEqual(c.Topology, want) || c.Buffers.Input != 2 || c.Traffic.Load != 0.8 ||
				c.Traffic.Flits != (network.FlitRange{Min: 16, Max: 16}) || c.Run.Warmup != 0 || c.Run.Measure != 20000 {
				t.Errorf("ring_deadlock.yaml: %+v", c)
			}
		}
	}
}

func TestUnknownKeyInFile(t *testing.T) {
	noValidate(t)
	p := writeFile(t, "traffic:\n  pattern: uniform\n  lod: 0.3\n")
	_, err := Load(p, nil)
	wantErr(t, err, p+":3: ", "traffic.lod", "unknown key", "pattern, load, flits")
	var uk *inputerr.Error
	if !errors.As(err, &uk) || uk.Key != "traffic.lod" || uk.Problem != "unknown key" {
		t.Errorf("want an unknown-key *inputerr.Error for traffic.lod, got %#v", err)
	}
	_, err = Load(writeFile(t, "toplogy:\n  kind: mesh\n"), nil)
	wantErr(t, err, ":1: ", "toplogy: unknown key", "topology, switching")
}

func TestUnknownKeyViaSet(t *testing.T) {
	noValidate(t)
	_, err := Load("", []string{"traffic.lod=0.3"})
	wantErr(t, err, "--set traffic.lod: unknown key", "load")
	_, err = Load("", []string{"nosuch=1"})
	wantErr(t, err, "nosuch: unknown key", "topology")
	_, err = Load("", []string{"run.seed.x=1"})
	wantErr(t, err, "run.seed.x: unknown key")
	_, err = Load("", []string{"run=1"})
	wantErr(t, err, "run:", "warmup")
	_, err = Load("", []string{"traffic.load"})
	wantErr(t, err, "key=value")
}

func TestTypeErrors(t *testing.T) {
	noValidate(t)
	for _, tc := range []struct{ body, want string }{
		{"run:\n  seed: abc\n", `:2: run.seed: "abc" is not allowed (allowed: a non-negative integer)`},
		{"run:\n  seed: -1\n", `run.seed: "-1" is not allowed`},
		{"topology:\n  kind: mesh\n  k: 2.5\n", `:3: topology.k: "2.5" is not allowed (allowed: an integer)`},
		{"traffic:\n  load: high\n", `traffic.load: "high" is not allowed (allowed: a finite number)`},
		{"traffic:\n  load: .nan\n", `traffic.load: ".nan" is not allowed`},
		{"switch:\n  reuse: maybe\n", `switch.reuse: "maybe" is not allowed (allowed: true or false)`},
		{"topology:\n  dims: 1,x\n", `topology.dims: "1,x" is not allowed (allowed: a list of integers`},
		{"topology:\n  dims: [1, [2]]\n", `topology.dims: [`},
		{"traffic:\n  flits: 4-x\n", `traffic.flits: "4-x" is not allowed (allowed: a flit count`},
		{"routing: [dor]\n", `routing: ["dor"] is not allowed (allowed: a string)`},
		{"topology: mesh\n", `topology: "mesh" is not allowed (allowed: a mapping with keys kind`},
		{"- 1\n- 2\n", `top level must be a mapping`},
		{"run:\n  seed: 1\n  seed: 2\n", `run.seed: key given twice`},
		{"run: {seed: 1\n", `exp.yaml:`},
	} {
		_, err := Load(writeFile(t, tc.body), nil)
		wantErr(t, err, tc.want)
	}
	for _, tc := range []struct{ set, want string }{
		{"run.seed=abc", `--set run.seed: "abc" is not allowed (allowed: a non-negative integer)`},
		{"run.warmup=", `--set run.warmup: "" is not allowed (allowed: an integer)`},
		{"traffic.load=x", `traffic.load: "x" is not allowed (allowed: a finite number)`},
		{"switch.reuse=2", `switch.reuse: "2" is not allowed (allowed: true or false)`},
		{"topology.order=a,b", `topology.order: "a,b" is not allowed`},
	} {
		_, err := Load("", []string{tc.set})
		wantErr(t, err, tc.want)
	}
}

func TestSetOverridesFile(t *testing.T) {
	noValidate(t)
	p := writeFile(t, "traffic:\n  load: 0.5\n  flits: 8\nrun:\n  seed: 7\n")
	c, err := Load(p, []string{"traffic.load=0.3", "run.seed=9", "switch.reuse=false",
		"topology.dims=1,2,1,2,0", "link.latency=3", "traffic.flits=32-96", "traffic.load=0.35"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Traffic.Load != 0.35 || c.Run.Seed != 9 || c.ReuseOn() || c.Link.Latency != 3 ||
		!reflect.DeepEqual(c.Topology.Dims, network.IntList{1, 2, 1, 2, 0}) ||
		c.Traffic.Flits != (network.FlitRange{Min: 32, Max: 96}) {
		t.Errorf("overrides not applied: %+v", c)
	}
	// Untouched keys keep the file's or the default's value.
	if c.Traffic.Pattern != "uniform" || c.Run.Warmup != 1000 {
		t.Errorf("defaults lost: %+v", c)
	}
	// An empty string value resets a string.
	c, err = Load("", []string{"arbiter="})
	if err != nil || c.Arbiter != "" {
		t.Errorf("arbiter= gave %q, %v", c.Arbiter, err)
	}
}

func TestSetThroughAlias(t *testing.T) {
	noValidate(t)
	p := writeFile(t, "x: &b {input: 2}\n")
	_, err := Load(p, nil)
	wantErr(t, err, "x: unknown key")
	p = writeFile(t, "buffers: &b\n  input: 2\n  output: 2\n")
	c, err := Load(p, []string{"buffers.output=0"})
	if err != nil || c.Buffers != (network.BufferConfig{Input: 2, Output: 0}) {
		t.Errorf("got %+v, %v", c.Buffers, err)
	}
}

func TestTopologyReset(t *testing.T) {
	noValidate(t)
	// A file without topology keeps the default mesh.
	c, err := Load(writeFile(t, "traffic:\n  load: 0.1\n"), nil)
	if err != nil || !reflect.DeepEqual(c.Topology, network.Default().Topology) {
		t.Errorf("no topology block: got %+v, %v", c.Topology, err)
	}
	// A file with topology starts that block from zero: no k or n leak.
	c, err = Load(writeFile(t, "topology:\n  kind: hypercube\n  d: 6\n"), nil)
	if err != nil || !reflect.DeepEqual(c.Topology, network.TopologyConfig{Kind: "hypercube", D: 6}) {
		t.Errorf("hypercube: got %+v, %v", c.Topology, err)
	}
	// --set of another kind discards the file's (or default's) block too.
	c, err = Load("", []string{"topology.kind=hypercube", "topology.d=4"})
	if err != nil || !reflect.DeepEqual(c.Topology, network.TopologyConfig{Kind: "hypercube", D: 4}) {
		t.Errorf("--set kind: got %+v, %v", c.Topology, err)
	}
	// --set of other topology keys edits the block in place.
	c, err = Load("", []string{"topology.k=4"})
	if err != nil || !reflect.DeepEqual(c.Topology, network.TopologyConfig{Kind: "mesh", K: 4, N: 2}) {
		t.Errorf("--set k: got %+v, %v", c.Topology, err)
	}
	c, err = Load("", []string{"topology.kind=mesh", "topology.k=4"})
	if err != nil || !reflect.DeepEqual(c.Topology, network.TopologyConfig{Kind: "mesh", K: 4, N: 2}) {
		t.Errorf("--set same kind: got %+v, %v", c.Topology, err)
	}
	// An empty file or a null topology is all defaults / an empty block.
	c, err = Load(writeFile(t, "# nothing\n"), nil)
	if err != nil || !reflect.DeepEqual(c, network.Default()) {
		t.Errorf("empty file: got %+v, %v", c, err)
	}
	c, err = Load(writeFile(t, "topology:\n"), nil)
	if err != nil || !reflect.DeepEqual(c.Topology, network.TopologyConfig{}) {
		t.Errorf("null topology: got %+v, %v", c.Topology, err)
	}
}

// The embedded default's 4-flit packets give way to 1 when a --set picks
// the packet router; a length the user wrote is kept and refused.
func TestPacketLengthRule(t *testing.T) {
	c, err := Load("", []string{"switching=packet", "topology.kind=hypercube", "topology.d=4"})
	if err != nil || c.Traffic.Flits.Min != 1 || c.Traffic.Flits.Max != 1 {
		t.Errorf("--set switching=packet: flits %+v, %v", c.Traffic.Flits, err)
	}
	if c, err := Load("", nil); err != nil || c.Traffic.Flits.Min != 4 {
		t.Errorf("default: flits %+v, %v", c.Traffic.Flits, err)
	}
	if _, err := Load("", []string{"switching=packet", "traffic.flits=4"}); err == nil || !strings.Contains(err.Error(), "traffic.flits: 4") {
		t.Errorf("--set traffic.flits=4 with packets: error %v", err)
	}
	if _, err := Load(writeFile(t, "switching: packet\ntraffic:\n  flits: 4\n"), nil); err == nil || !strings.Contains(err.Error(), "traffic.flits") {
		t.Errorf("a file's 4-flit packets with switching: packet: error %v", err)
	}
	c, err = Load(writeFile(t, "switching: packet\ntopology:\n  kind: hypercube\n  d: 3\n"), nil)
	if err != nil || c.Traffic.Flits.Min != 1 || c.Traffic.Flits.Max != 1 {
		t.Errorf("a file with switching: packet and no traffic.flits: flits %+v, %v", c.Traffic.Flits, err)
	}
}

func TestMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"), nil)
	wantErr(t, err, "nope.yaml: cannot read config file: no such file or directory")
}

func TestValidateErrorsArePlaced(t *testing.T) {
	old := validate
	defer func() { validate = old }()
	validate = func(c *network.Config) error {
		if c.Traffic.Load > 1 {
			return &inputerr.Error{Key: "traffic.load", Value: "2", Allowed: "0 ≤ load ≤ 1"}
		}
		if c.Topology.K < 2 {
			return &inputerr.Error{Key: "topology.k", Value: "1", Allowed: "k ≥ 2"}
		}
		return nil
	}
	p := writeFile(t, "traffic:\n  load: 2\n")
	_, err := Load(p, nil)
	wantErr(t, err, p+":2: traffic.load: 2 is not allowed")
	var ce *inputerr.Error
	if !errors.As(err, &ce) || ce.Key != "traffic.load" {
		t.Errorf("want a *inputerr.Error, got %#v", err)
	}
	_, err = Load("", []string{"traffic.load=2"})
	wantErr(t, err, "--set traffic.load: 2 is not allowed")
	// A key missing from a block the file gave is placed at the block.
	_, err = Load(writeFile(t, "topology:\n  kind: mesh\n"), nil)
	wantErr(t, err, "exp.yaml:1: topology.k: 1 (not given) is not allowed")
	_, err = Load(writeFile(t, "run:\n  seed: 3\n"), []string{"topology.k=1"})
	wantErr(t, err, "--set topology.k: 1 is not allowed")
}

func TestKeys(t *testing.T) {
	keys := Keys()
	m := map[string]Key{}
	for _, k := range keys {
		m[k.Key] = k
	}
	if k := m["run.seed"]; k.Allowed != "a non-negative integer" || k.Default != "1" {
		t.Errorf("run.seed: %+v", k)
	}
	if k := m["traffic.flits"]; k.Default != "4" {
		t.Errorf("traffic.flits: %+v", k)
	}
	if len(keys) < 20 {
		t.Errorf("only %d keys", len(keys))
	}
}

func FuzzLoad(f *testing.F) {
	f.Add(DefaultYAML(), "traffic.load=0.3")
	for _, name := range []string{"ring_deadlock.yaml", "mesh_complete.yaml"} {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b, "topology.kind=hypercube")
		}
	}
	f.Add([]byte("a: &a [*a]\n"), "")
	f.Add([]byte("topology: &t {kind: mesh, k: *t}\n"), "topology.k=3")
	f.Add([]byte("topology:\n  kind: torus\n  k: [4, 6]\n"), "topology.k=3,5")
	f.Add([]byte("topology: {kind: mesh, k: [2, [3]], n: 2}\n"), "topology.k=[")
	f.Add([]byte("run: {seed: 99999999999999999999999}\ntraffic: {flits: 3-}\n"), "run=")
	f.Add([]byte("<<: {run: 1}\n---\nx: 1\n"), "a.b.c=d")
	f.Add([]byte("topology:\n  dims: [1, [2, {a: b}]]\n"), "topology.dims=")
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		var sets []string
		if set != "" {
			sets = []string{set}
		}
		_, err := LoadBytes(data, "fuzz.yaml", sets)
		if err != nil && strings.ContainsAny(err.Error(), "\r\n") {
			t.Errorf("error is not one line: %q", err)
		}
	})
}

// TestUnusedKeysWarn checks the warnings for keys that do nothing for the
// chosen topology kind or traffic pattern, and that none is raised for a
// key the kind or pattern declares.
func TestUnusedKeysWarn(t *testing.T) {
	p := writeFile(t, "topology:\n  kind: hypercube\n  d: 3\n  dims: 1,0\n")
	cases := []struct {
		path string
		sets []string
		want []string // substrings, one warning each, in order
	}{
		{"", []string{"topology.d=5"}, []string{"--set topology.d: ignored (mesh has no parameter d; its parameters: k, n, order)"}},
		{"", []string{"topology.kind=hypercube", "topology.d=3", "topology.order=2,1,0"}, nil},
		{p, nil, []string{p + ":4: topology.dims: ignored (hypercube has no parameter dims"}},
		{"", []string{"traffic.hotspots=1,2"}, []string{"--set traffic.hotspots: ignored (pattern uniform does not read it; hotspot does)"}},
		{"", []string{"traffic.pattern=hotspot", "traffic.hotspots=1,2", "traffic.hotspot_fraction=0.5"}, nil},
		{"", []string{"traffic.pattern=hotspot", "traffic.hotspots=1", "traffic.cluster=4"}, []string{"traffic.cluster: ignored (pattern hotspot"}},
		{"", []string{"traffic.pattern=cluster", "traffic.cluster=4"}, nil},
		// A trace replaces the pattern: its keys are not the pattern's business.
		{"", []string{"traffic.packets=0,0,1,4", "traffic.hotspots=1"}, nil},
	}
	for _, c := range cases {
		_, warnings, err := LoadWarn(c.path, c.sets)
		if err != nil {
			t.Fatalf("%v: %v", c.sets, err)
		}
		if len(warnings) != len(c.want) {
			t.Errorf("%s %v: warnings %q, want %d", c.path, c.sets, warnings, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(warnings[i], w) {
				t.Errorf("%v: warning %q lacks %q", c.sets, warnings[i], w)
			}
		}
	}
}

// TestShippedConfigsHaveNoUnusedKeys loads every config in this folder and
// its subfolders.
func TestShippedConfigsHaveNoUnusedKeys(t *testing.T) {
	files := shippedConfigs(t)
	if len(files) < 20 {
		t.Fatalf("found %d configs", len(files))
	}
	for _, f := range files {
		if _, warnings, err := LoadWarn(f, nil); err != nil || len(warnings) > 0 {
			t.Errorf("%s: %v %q", f, err, warnings)
		}
	}
}

// TestErrorsBlameWhatTheUserWrote: an error names a key the user wrote,
// where they wrote it, not a key of the embedded default (issue 14 item 10).
func TestErrorsBlameWhatTheUserWrote(t *testing.T) {
	packets := writeFile(t, "traffic:\n  packets:\n    - \"0,0,1,4\"\n    - \"5,0,99,4\"\n")
	small := writeFile(t, "buffers:\n  input: 2\n")
	cases := []struct {
		path string
		sets []string
		want string // the whole message
	}{
		{"", []string{"switching=saf", "traffic.flits=16"},
			"--set traffic.flits: 16 is not allowed (allowed: at most 4 flits: saf buffers (buffers.input 4) must hold a whole packet)"},
		{"", []string{"traffic.flits=16", "switching=vct", "traffic.flits=16"},
			"--set traffic.flits: 16 is not allowed (allowed: at most 4 flits: vct buffers (buffers.input 4) must hold a whole packet)"},
		{"", []string{"switching=saf", "buffers.input=2", "buffers.output=0"},
			"--set buffers.input: 2 is not allowed (allowed: ≥ 4: saf buffers must hold a whole packet (traffic.flits max))"},
		{small, []string{"switching=saf"},
			small + ":2: buffers.input: 2 is not allowed (allowed: ≥ 4: saf buffers must hold a whole packet (traffic.flits max))"},
		{packets, nil,
			packets + ":4: traffic.packets: entry 2: dst 99 is not allowed (allowed: a terminal from 0 to 63 (a multicast lists several, separated by spaces or ;))"},
		{"", []string{"traffic.packets=0,0,64,4"},
			"--set traffic.packets: entry 1: dst 64 is not allowed (allowed: a terminal from 0 to 63 (a multicast lists several, separated by spaces or ;))"},
		{"", []string{"traffic.pattern=hotspot"},
			"--set traffic.pattern: hotspot is not allowed (allowed: hotspot only with traffic.hotspots, a non-empty list of terminals 0..63)"},
		// With only the default's keys involved, the error stays on its key.
		{"", []string{"topology.kind=hypercube"},
			"--set topology.d: 0 (not given) is not allowed (allowed: an integer from 1 to 20 (2^d ≤ 1048576 terminals))"},
	}
	for _, c := range cases {
		_, err := Load(c.path, c.sets)
		if err == nil || err.Error() != c.want {
			t.Errorf("%v:\n got %v\nwant %s", c.sets, err, c.want)
		}
		if _, ok := inputerr.As(err); !ok {
			t.Errorf("%v: %T is not an *inputerr.Error", c.sets, err)
		}
	}
}
