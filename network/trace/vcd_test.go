package trace

import (
	"bufio"
	"bytes"
	"fmt"
	"github.com/flitsim/flitsim/internal/kernel"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

// vcdFile is a parsed value change dump.
type vcdFile struct {
	timescale string
	vars      map[string]vcdVar // by path: scope/scope/name
	changes   map[string][]vcdChange
	end       int64 // last timestamp
	scopes    map[string]bool
}

type vcdVar struct {
	id    string
	width int
}

type vcdChange struct {
	t   int64
	val string // binary digits without leading zeros, or "x"
}

// readVCD parses the subset of IEEE 1364 VCD the writer produces, checking
// its structure: declarations, monotonic timestamps, values of known ids.
func readVCD(t *testing.T, data []byte) *vcdFile {
	t.Helper()
	f := &vcdFile{vars: map[string]vcdVar{}, changes: map[string][]vcdChange{}, end: -1, scopes: map[string]bool{}}
	byID := map[string]string{}
	widths := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var stack []string
	defs := true
	now := int64(-1)
	line := 0
	fail := func(format string, a ...any) {
		t.Helper()
		t.Fatalf("vcd line %d: %s", line, fmt.Sprintf(format, a...))
	}
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		if defs {
			w := strings.Fields(s)
			switch w[0] {
			case "$timescale":
				f.timescale = strings.Join(w[1:len(w)-1], " ")
			case "$scope":
				if len(w) != 4 || w[1] != "module" || w[3] != "$end" {
					fail("bad scope %q", s)
				}
				stack = append(stack, w[2])
				f.scopes[strings.Join(stack, "/")] = true
			case "$upscope":
				if len(stack) == 0 {
					fail("upscope at top")
				}
				stack = stack[:len(stack)-1]
			case "$var":
				if len(w) < 6 || w[len(w)-1] != "$end" {
					fail("bad var %q", s)
				}
				wd, err := strconv.Atoi(w[2])
				if err != nil || wd < 1 {
					fail("bad width %q", s)
				}
				p := strings.Join(append(append([]string(nil), stack...), w[4]), "/")
				if _, dup := f.vars[p]; dup {
					fail("duplicate var %s", p)
				}
				if _, dup := byID[w[3]]; dup {
					fail("duplicate id %q", w[3])
				}
				byID[w[3]] = p
				widths[w[3]] = wd
				f.vars[p] = vcdVar{id: w[3], width: wd}
			case "$enddefinitions":
				if len(stack) != 0 {
					fail("unclosed scopes %v", stack)
				}
				defs = false
			case "$version", "$comment", "$date":
			default:
				fail("unexpected %q in definitions", s)
			}
			continue
		}
		switch {
		case s == "$dumpvars" || s == "$end":
		case s[0] == '#':
			v, err := strconv.ParseInt(s[1:], 10, 64)
			if err != nil || v <= now {
				fail("timestamp %q after %d", s, now)
			}
			now = v
		case s[0] == 'b':
			val, id, ok := strings.Cut(s[1:], " ")
			p, known := byID[id]
			if !ok || !known {
				fail("bad vector change %q", s)
			}
			if val != "x" {
				if strings.Trim(val, "01") != "" || len(val) > widths[id] || len(val) > 1 && val[0] == '0' {
					fail("bad vector value %q (width %d)", s, widths[id])
				}
			}
			f.changes[p] = append(f.changes[p], vcdChange{now, val})
		case s[0] == '0' || s[0] == '1' || s[0] == 'x':
			p, known := byID[s[1:]]
			if !known || widths[s[1:]] != 1 {
				fail("bad scalar change %q", s)
			}
			f.changes[p] = append(f.changes[p], vcdChange{now, s[:1]})
		default:
			fail("unexpected %q", s)
		}
		if now < 0 {
			fail("value before the first timestamp")
		}
	}
	f.end = now
	for p, cs := range f.changes {
		for i := 1; i < len(cs); i++ {
			if cs[i].t == cs[i-1].t {
				t.Fatalf("%s changes twice at %d", p, cs[i].t)
			}
			if cs[i].val == cs[i-1].val {
				t.Fatalf("%s: %s at %d is not a change", p, cs[i].val, cs[i].t)
			}
		}
	}
	return f
}

// at is the value of signal p during cycle c.
func (f *vcdFile) at(p string, c int64) string {
	cs := f.changes[p]
	i := sort.Search(len(cs), func(i int) bool { return cs[i].t > c })
	if i == 0 {
		return "?"
	}
	return cs[i-1].val
}

// count is the number of cycles up to the end in which p is 1.
func (f *vcdFile) count(p string) int64 {
	var n int64
	cs := f.changes[p]
	for i, c := range cs {
		if c.val != "1" {
			continue
		}
		end := f.end
		if i+1 < len(cs) {
			end = cs[i+1].t
		}
		n += end - c.t
	}
	return n
}

func bin(v uint64) string { return strconv.FormatUint(v, 2) }

// chanPaths maps every connected channel of k to its VCD scope.
func chanPaths(k *kernel.Kernel) map[int32]string {
	l := newLayout(k)
	m := map[int32]string{}
	for ch := int32(0); ch < l.nlinks; ch++ {
		if !k.ChannelConnected(ch) {
			continue
		}
		s := l.portSw[ch]
		m[ch] = "network/" + Sanitize(k.Topo.Switches[s].Label) + "/" + Sanitize("out_"+l.portName(int(ch-l.portBase[s])))
	}
	for term := 0; term < k.Topo.Terminals(); term++ {
		m[l.nlinks+int32(term)] = "network/t" + strconv.Itoa(term) + "/inj"
	}
	return m
}

// The recorded channel moves, buffer occupancies and source states equal the
// simulation's, in a mesh (input buffers) and a MIN with multicast (output
// buffers only).
func TestVCDMatchesSimulation(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    network.Config
	}{{"mesh", smallMesh()}, {"min", chiangMIN()}} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			var r *recorder
			var v *VCD
			n, _ := runNet(t, tc.c, func(n *network.Network) []network.Tracer {
				var err error
				if v, err = NewVCD(&out, kernel.Of(n), Options{}); err != nil {
					t.Fatal(err)
				}
				r = newRecorder(kernel.Of(n))
				return []network.Tracer{v, r}
			})
			if err := v.Close(); err != nil {
				t.Fatal(err)
			}
			k := kernel.Of(n)
			f := readVCD(t, out.Bytes())
			if f.timescale != "1ns" {
				t.Errorf("timescale %q", f.timescale)
			}
			if f.end != k.Now() {
				t.Errorf("dump ends at %d, run at %d", f.end, k.Now())
			}
			paths := chanPaths(k)
			var total int64
			checked := 0
			for ch, p := range paths {
				if _, ok := f.vars[p+"/valid"]; !ok {
					t.Fatalf("no %s/valid", p)
				}
				got := f.count(p + "/valid")
				want := int64(len(r.moves[ch]))
				if int(ch) < len(k.Links) && uint64(want) != k.Links[ch].Flits {
					t.Fatalf("%s: recorder %d, link %d", p, want, k.Links[ch].Flits)
				}
				if got != want {
					t.Errorf("%s: %d valid cycles, %d flits", p, got, want)
				}
				total += got
				for _, m := range r.moves[ch] {
					checked++
					if g := f.at(p+"/worm", m.cycle); g != bin(m.worm) {
						t.Fatalf("%s cycle %d: worm %s, want %d", p, m.cycle, g, m.worm)
					}
					if g := f.at(p+"/seq", m.cycle); g != bin(uint64(m.seq)) {
						t.Fatalf("%s cycle %d: seq %s, want %d", p, m.cycle, g, m.seq)
					}
					if g := f.at(p+"/kind", m.cycle); g != bin(uint64(m.kind)) {
						t.Fatalf("%s cycle %d: kind %s, want %d", p, m.cycle, g, m.kind)
					}
				}
			}
			if total == 0 || checked == 0 {
				t.Fatal("no flit traced")
			}
			// Idle channels show x.
			for _, p := range paths {
				for _, c := range f.changes[p+"/valid"] {
					if c.val == "0" && f.at(p+"/worm", c.t) != "x" {
						t.Fatalf("%s idle at %d but worm %s", p, c.t, f.at(p+"/worm", c.t))
					}
				}
			}
			// Buffer occupancy and owner at the end of every simulated cycle.
			bufPath := bufferPaths(k)
			maxOcc := 0
			for cyc, occ := range r.occ {
				for b, o := range occ {
					p, ok := bufPath[int32(b)]
					if !ok {
						continue
					}
					if g := f.at(p+"/occupancy", cyc); g != bin(uint64(o)) {
						t.Fatalf("%s cycle %d: occupancy %s, want %d", p, cyc, g, o)
					}
					want := "x"
					if w := r.own[cyc][b]; w != 0 {
						want = bin(w)
					}
					if g := f.at(p+"/owner", cyc); g != want {
						t.Fatalf("%s cycle %d: owner %s, want %s", p, cyc, g, want)
					}
					maxOcc = max(maxOcc, o)
				}
			}
			if maxOcc != k.MaxOccupancy() {
				t.Errorf("max occupancy %d, kernel %d", maxOcc, k.MaxOccupancy())
			}
			// A source advances exactly when its injection channel carries
			// a flit.
			for term := 0; term < k.Topo.Terminals(); term++ {
				p := "network/t" + strconv.Itoa(term)
				for c := int64(0); c < f.end; c++ {
					st := f.at(p+"/state", c)
					valid := f.at(p+"/inj/valid", c)
					if (st == "1" || st == "11") != (valid == "1") {
						t.Fatalf("%s cycle %d: state %s, injection valid %s", p, c, st, valid)
					}
					if st == "10" && f.at(p+"/reason", c) == "x" || st != "10" && f.at(p+"/reason", c) != "x" {
						t.Fatalf("%s cycle %d: state %s, reason %s", p, c, st, f.at(p+"/reason", c))
					}
				}
			}
		})
	}
}

// bufferPaths maps every switch buffer to its VCD scope.
func bufferPaths(k *kernel.Kernel) map[int32]string {
	l := newLayout(k)
	m := map[int32]string{}
	for b := int32(0); b < k.Buffers(); b++ {
		sw, port, out, src, _ := k.BufferInfo(b)
		if src {
			continue
		}
		side := "in_"
		if out {
			side = "out_"
		}
		m[b] = "network/" + Sanitize(k.Topo.Switches[sw].Label) + "/" + Sanitize(side+l.portName(int(port)))
	}
	return m
}

// The same run gives the same bytes.
func TestVCDDeterministic(t *testing.T) {
	dump := func() []byte {
		var out bytes.Buffer
		var v *VCD
		runNet(t, smallMesh(), func(n *network.Network) []network.Tracer {
			v, _ = NewVCD(&out, kernel.Of(n), Options{})
			return []network.Tracer{v}
		})
		v.Close()
		return out.Bytes()
	}
	if a, b := dump(), dump(); !bytes.Equal(a, b) {
		t.Fatal("two runs gave different dumps")
	}
}

// --trace-window and --trace-only limit the dump.
func TestVCDWindowAndOnly(t *testing.T) {
	var out bytes.Buffer
	var v *VCD
	runNet(t, smallMesh(), func(n *network.Network) []network.Tracer {
		var err error
		v, err = NewVCD(&out, kernel.Of(n), Options{Window: Window{From: 50, To: 120}, Only: "r(0,*),t3"})
		if err != nil {
			t.Fatal(err)
		}
		return []network.Tracer{v}
	})
	v.Close()
	f := readVCD(t, out.Bytes())
	var tops []string
	for s := range f.scopes {
		if strings.Count(s, "/") == 1 {
			tops = append(tops, s)
		}
	}
	sort.Strings(tops)
	if want := "network/r_0_0 network/r_0_1 network/r_0_2 network/r_0_3 network/t3"; strings.Join(tops, " ") != want {
		t.Errorf("scopes %v, want %s", tops, want)
	}
	first := int64(-1)
	for _, cs := range f.changes {
		for _, c := range cs {
			if c.t < 50 || c.t > 120 {
				t.Fatalf("change at %d outside the window", c.t)
			}
			if first < 0 || c.t < first {
				first = c.t
			}
		}
	}
	if first != 50 || f.end != 120 {
		t.Errorf("dump from %d to %d, want 50 to 120", first, f.end)
	}
}

// A deadlocked run (the 8-node ring) ends with its worms still holding
// their buffers.
func TestVCDDeadlock(t *testing.T) {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "torus", K: 8, N: 1}
	c.Traffic.Packets = []string{"0,0,5,8", "0,2,7,8", "0,4,1,8", "0,6,3,8"}
	c.Run = network.RunConfig{Warmup: 0, Measure: 1, Drain: 500, Seed: 1, DeadlockCheck: 8}
	var out bytes.Buffer
	var v *VCD
	n, res := runNet(t, c, func(n *network.Network) []network.Tracer {
		v, _ = NewVCD(&out, kernel.Of(n), Options{})
		return []network.Tracer{v}
	})
	if res.Deadlock == nil {
		t.Fatalf("the ring did not deadlock (%d of %d packets delivered in %d cycles): the test needs it to", res.MeasuredDelivered, res.MeasuredPackets, res.Cycles)
	}
	v.Close()
	f := readVCD(t, out.Bytes())
	owned := 0
	for p := range f.vars {
		if strings.HasSuffix(p, "/owner") && f.at(p, f.end) != "x" {
			owned++
		}
	}
	if owned == 0 {
		t.Errorf("no buffer owned at the end of a deadlock (cycle %d)", kernel.Of(n).Now())
	}
}

// GTKWave's vcd2fst converts the dump. CI installs gtkwave (.ci/run); a
// machine without it skips only this conversion.
func TestVCD2FST(t *testing.T) {
	var out bytes.Buffer
	var v *VCD
	runNet(t, chiangMIN(), func(n *network.Network) []network.Tracer {
		v, _ = NewVCD(&out, kernel.Of(n), Options{})
		return []network.Tracer{v}
	})
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	readVCD(t, out.Bytes())
	bin := gtkwaveTool(t, "vcd2fst")
	dir := t.TempDir()
	in, fst := filepath.Join(dir, "min.vcd"), filepath.Join(dir, "min.fst")
	if err := os.WriteFile(in, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	msg, err := exec.Command(bin, in, fst).CombinedOutput()
	if err != nil {
		t.Fatalf("vcd2fst: %v\n%s", err, msg)
	}
	if st, err := os.Stat(fst); err != nil || st.Size() == 0 {
		t.Fatalf("vcd2fst wrote no FST (%v)\n%s", err, msg)
	}
	if back, err := exec.LookPath("fst2vcd"); err == nil {
		vcd, err := exec.Command(back, fst).Output()
		if err != nil {
			t.Fatalf("fst2vcd: %v", err)
		}
		for _, want := range []string{"s0_0", "out_0", "occupancy", "$enddefinitions"} {
			if !bytes.Contains(vcd, []byte(want)) {
				t.Errorf("FST read back lacks %q", want)
			}
		}
	}
}

func TestAppendBin(t *testing.T) {
	for _, x := range []uint64{0, 1, 2, 5, 127, 128, 255, 256, 1023, 65535, 65536, 1<<32 - 1, 1 << 40, 1<<64 - 1} {
		if got := string(appendBin(nil, x)); got != strconv.FormatUint(x, 2) {
			t.Errorf("%d: %s", x, got)
		}
	}
}
