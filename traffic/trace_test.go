package traffic

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
)

func TestParseTrace(t *testing.T) {
	in := `# a comment
cycle, src, dst, flits

 5 , 1, 2, 4
3,0,3,1
5,3,0,2
  # indented comment
0,2,1,8
`
	got, err := ParseTrace(strings.NewReader(in), "t.csv", 4)
	if err != nil {
		t.Fatal(err)
	}
	want := []Packet{{Cycle: 0, Src: 2, Dst: 1, Flits: 8}, {Cycle: 3, Src: 0, Dst: 3, Flits: 1}, {Cycle: 5, Src: 1, Dst: 2, Flits: 4}, {Cycle: 5, Src: 3, Dst: 0, Flits: 2}}
	if !packetsEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	// CRLF, no header, no trailing newline.
	got, err = ParseTrace(strings.NewReader("1,0,1,1\r\n2,1,0,3"), "w.csv", 2)
	if err != nil || !packetsEqual(got, []Packet{{Cycle: 1, Src: 0, Dst: 1, Flits: 1}, {Cycle: 2, Src: 1, Dst: 0, Flits: 3}}) {
		t.Fatalf("CRLF: %v %v", got, err)
	}
	got, err = ParseTrace(strings.NewReader("1,0,1,1\n140737488355328,1,0,2\n"), "last.csv", 2)
	if err != nil || len(got) != 2 || got[1].Cycle != MaxCycle {
		t.Fatalf("a packet at MaxCycle: %v %v", got, err)
	}
}

func TestParseTraceErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"1,2,3\n", `traffic.trace: t.csv line 1: "1,2,3" with 3 fields is not allowed (allowed: 4 comma-separated fields cycle,src,dst,flits)`},
		{"# c\n\n1,2,3,4,5\n", `t.csv line 3: "1,2,3,4,5" with 5 fields`},
		{"x,0,1,1\n", "traffic.trace: t.csv line 1: cycle x is not allowed (allowed: an integer from 0 to 140737488355328 (the last cycle the engine times exactly))"},
		{"140737488355329,0,1,1\n", "t.csv line 1: cycle 140737488355329 is not allowed"},
		{"9223372036854775807,0,1,1\n", "t.csv line 1: cycle 9223372036854775807 is not allowed"},
		{"", "traffic.trace: t.csv: no packets is not allowed (allowed: at least one line cycle,src,dst,flits)"},
		{"cycle,src,dst,flits\n# only a header\n\n", "traffic.trace: t.csv: no packets"},
		{"-1,0,1,1\n", "t.csv line 1: cycle -1 is not allowed"},
		{"1.5,0,1,1\n", "t.csv line 1: cycle 1.5 is not allowed"},
		{"0,0,1,1\n0,8,1,1\n", "traffic.trace: t.csv line 2: src 8 is not allowed (allowed: a terminal from 0 to 7)"},
		{"0,-1,1,1\n", "line 1: src -1 is not allowed"},
		{"0,0,99,1\n", "line 1: dst 99 is not allowed (allowed: a terminal from 0 to 7 (a multicast lists several, separated by spaces or ;))"},
		{"0,0,1,0\n", "traffic.trace: t.csv line 1: flits 0 is not allowed (allowed: an integer ≥ 1)"},
		{"0,0,1,\n", `line 1: flits "" is not allowed`},
		{"0,0,1,two words\n", `line 1: flits "two words" is not allowed`},
		{"cycle,src,dst,flits\ncycle,src,dst,flits\n", "line 2: cycle cycle is not allowed"},
		{"1,0,1,1\n" + strings.Repeat("9", 2<<20) + "\n", "line 2: unreadable"},
	}
	for _, c := range cases {
		_, err := ParseTrace(strings.NewReader(c.in), "t.csv", 8)
		var e *inputerr.Error
		if !errors.As(err, &e) {
			t.Errorf("%.30q: error %v is not *inputerr.Error", c.in, err)
			continue
		}
		if e.Key != "traffic.trace" || !strings.Contains(e.Error(), c.want) || strings.ContainsAny(e.Error(), "\n\r") {
			t.Errorf("%.30q: got %q, want %q", c.in, e.Error(), c.want)
		}
	}
}

func TestReadTrace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tr.csv")
	if err := os.WriteFile(path, []byte("cycle,src,dst,flits\n2,1,0,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTrace(path, 2)
	if err != nil || !packetsEqual(got, []Packet{{Cycle: 2, Src: 1, Dst: 0, Flits: 4}}) {
		t.Fatalf("%v %v", got, err)
	}
	if err := os.WriteFile(path, []byte("2,1,0,4\n2,1,5,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTrace(path, 2); err == nil || !strings.Contains(err.Error(), path+" line 2: dst 5") {
		t.Errorf("bad file: %v", err)
	}
	missing := filepath.Join(dir, "nope.csv")
	_, err = ReadTrace(missing, 2)
	var e *inputerr.Error
	if !errors.As(err, &e) || e.Key != "traffic.trace" || e.Value != missing ||
		e.Error() != "traffic.trace: "+missing+" is not allowed (allowed: a readable CSV file of cycle,src,dst,flits)" {
		t.Errorf("missing file: %v", err)
	}
}

func TestTraceGenerator(t *testing.T) {
	pkts := []Packet{{Cycle: 0, Src: 2, Dst: 1, Flits: 8}, {Cycle: 3, Src: 0, Dst: 3, Flits: 1}, {Cycle: 5, Src: 1, Dst: 2, Flits: 4}, {Cycle: 5, Src: 3, Dst: 0, Flits: 2}, {Cycle: 9, Src: 1, Dst: 1, Flits: 1}}
	g := NewTrace(pkts)
	var r recorder
	var calls []int64
	for now := g.NextAt(0); now != math.MaxInt64; now = g.NextAt(now + 1) {
		calls = append(calls, now)
		r.cycle = now
		g.Generate(now, &r)
	}
	if !slices.Equal(calls, []int64{0, 3, 5, 9}) {
		t.Errorf("NextAt visited %v", calls)
	}
	if !packetsEqual(r.pkts, pkts) {
		t.Errorf("emitted %v", r.pkts)
	}
	// Called late, it emits everything due.
	g = NewTrace(pkts)
	r.pkts = nil
	g.Generate(5, &r)
	if len(r.pkts) != 4 || g.NextAt(6) != 9 {
		t.Errorf("late call emitted %v, NextAt %d", r.pkts, g.NextAt(6))
	}
	if NewTrace(nil).NextAt(0) != math.MaxInt64 {
		t.Error("empty trace NextAt")
	}
}

func FuzzParseTrace(f *testing.F) {
	for _, s := range []string{
		"cycle,src,dst,flits\n0,1,2,3\n",
		"# c\n\n 5 , 1, 2, 4\n3,0,3,1\n",
		"1,2,3\n", "-1,0,0,1", "0,0,0,0", "a,b,c,d", "9223372036854775808,0,0,1", "\xff,\x00,,",
	} {
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, in string, terminals int) {
		pkts, err := ParseTrace(strings.NewReader(in), "fuzz.csv", terminals)
		if err != nil {
			var e *inputerr.Error
			if !errors.As(err, &e) || e.Key != "traffic.trace" || strings.ContainsAny(e.Error(), "\n\r") {
				t.Fatalf("bad error %q", err)
			}
			return
		}
		for i, p := range pkts {
			if p.Cycle < 0 || p.Src < 0 || p.Src >= terminals || p.Dst < 0 || p.Dst >= terminals || p.Flits < 1 ||
				i > 0 && p.Cycle < pkts[i-1].Cycle {
				t.Fatalf("bad packet %d %+v", i, p)
			}
		}
	})
}

func packetsEqual(a, b []Packet) bool { return reflect.DeepEqual(a, b) }

func TestTraceMulticastDestinations(t *testing.T) {
	got, err := ParseTrace(strings.NewReader("0,2,3 4;5|6,8\n1,1,7,2\n"), "m.csv", 8)
	want := []Packet{{Cycle: 0, Src: 2, Dst: 3, Flits: 8, Dsts: []int{3, 4, 5, 6}}, {Cycle: 1, Src: 1, Dst: 7, Flits: 2}}
	if err != nil || !packetsEqual(got, want) {
		t.Fatalf("got %+v, %v", got, err)
	}
	if _, err := ParseTrace(strings.NewReader("0,2,3 9,8\n"), "m.csv", 8); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("bad multicast destination: %v", err)
	}
}
