package trace

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network/han"
)

// lockstepRun routes dests with alg on an n×n mesh, traced into the
// three formats, and untraced; the results must agree.
func lockstepRun(t *testing.T, alg string, n int, dests [][]int32) (res *han.Result, vcd, timeline []byte, log [][]string) {
	t.Helper()
	var v, p, e bytes.Buffer
	tr := &han.Trace{Events: &e, Observers: []han.Observer{NewLockstepVCD(&v), NewLockstepTimeline(&p)}}
	res, err := han.RunMesh(alg, n, n, han.Buffers(alg, n), dests, han.Static, tr)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := han.RunMesh(alg, n, n, han.Buffers(alg, n), dests, han.Static, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res, plain) {
		t.Errorf("traced run differs from the untraced:\n%+v\n%+v", res, plain)
	}
	rows, err := csv.NewReader(&e).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return res, v.Bytes(), p.Bytes(), rows[1:]
}

// vcdMessages reads every message's final place off the dump and counts
// the hops: a hop changes exactly one of a message's row and column.
func vcdMessages(t *testing.T, f *vcdFile, slots int) (final []int32, hops int) {
	t.Helper()
	for id := range slots {
		rc := [2]int64{-1, -1}
		for i, sig := range []string{"row", "col"} {
			cs := f.changes["mesh/m"+strconv.Itoa(id)+"/"+sig]
			if len(cs) == 0 {
				t.Fatalf("message %d has no %s", id, sig)
			}
			for _, c := range cs {
				if c.t > 0 {
					hops++
				}
			}
			last := cs[len(cs)-1].val
			if last != "x" {
				rc[i], _ = strconv.ParseInt(last, 2, 64)
			}
		}
		if rc[0] >= 0 {
			final = append(final, int32(rc[0])*int32(f.cols(t))+int32(rc[1]))
		}
	}
	return final, hops
}

// cols is the mesh's side from the processors' scopes (p_0_C).
func (f *vcdFile) cols(t *testing.T) int {
	c := 0
	for c = 0; f.scopes["mesh/p_0_"+strconv.Itoa(c)]; c++ {
	}
	return c
}

// A traced routing ends where the untraced one does, every message at its
// destination; the dump has one row-or-column change per hop the event log
// lists, and the timeline one span per hop plus one per message.
func TestLockstepTracesAgree(t *testing.T) {
	for _, alg := range []string{han.AlgQ, han.AlgH, han.AlgGreedyFF} {
		n := 8
		p, _ := han.Permutation("random", n, 3)
		res, vcd, tl, log := lockstepRun(t, alg, n, han.Lists(p))
		f := readVCD(t, vcd)
		final, hops := vcdMessages(t, f, n*n)
		var want []int32
		for _, d := range p {
			want = append(want, d)
		}
		if !reflect.DeepEqual(final, want) {
			t.Errorf("%s: final places %v, want the destinations %v", alg, final, want)
		}
		data := 0
		for _, r := range log {
			if r[1] == "data" {
				data++
			}
		}
		if hops != data || hops == 0 {
			t.Errorf("%s: %d hops in the VCD, %d data rows in the event log", alg, hops, data)
		}
		spans, phases := timelineSpans(t, tl)
		if spans != hops+n*n {
			t.Errorf("%s: %d message spans, want %d hops + %d messages", alg, spans, hops, n*n)
		}
		ran := 0
		for _, s := range res.Stages {
			for _, ph := range s.Phases {
				if ph.Actual > 0 {
					ran++
				}
			}
		}
		if phases != ran {
			t.Errorf("%s: %d phase spans, %d phases took steps", alg, phases, ran)
		}
	}
}

// timelineSpans parses the timeline and counts the messages' spans and
// the phases'.
func timelineSpans(t *testing.T, data []byte) (spans, phases int) {
	t.Helper()
	var doc struct {
		TraceEvents []struct {
			Ph  string `json:"ph"`
			Pid int    `json:"pid"`
			Dur *int64 `json:"dur"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("timeline: %v", err)
	}
	for _, e := range doc.TraceEvents {
		if e.Ph != "X" {
			continue
		}
		if e.Dur == nil || *e.Dur < 1 {
			t.Errorf("span without a positive duration: %+v", e)
		}
		switch e.Pid {
		case 0:
			phases++
		case 2:
			spans++
		}
	}
	return spans, phases
}

// One message from corner to corner under greedy: 2(n − 1) hops, its
// processor's pool 1 then 0, the destination's 0 then 1; the phases row
// and column marked at their first steps.
func TestLockstepTraceOneMessage(t *testing.T) {
	n := 8
	dest := make([]int32, n*n)
	for i := range dest {
		dest[i] = -1
	}
	dest[0] = int32(n*n - 1)
	_, vcd, _, _ := lockstepRun(t, han.AlgGreedyFF, n, han.Lists(dest))
	f := readVCD(t, vcd)
	final, hops := vcdMessages(t, f, n*n)
	if !reflect.DeepEqual(final, []int32{int32(n*n - 1)}) || hops != 2*(n-1) {
		t.Errorf("final %v after %d hops, want [%d] after %d", final, hops, n*n-1, 2*(n-1))
	}
	src, dst := f.changes["mesh/p_0_0/held"], f.changes["mesh/p_7_7/held"]
	if len(src) != 2 || src[0].val != "1" || src[1] != (vcdChange{1, "0"}) {
		t.Errorf("source pool %v", src)
	}
	if len(dst) != 2 || dst[0].val != "0" || dst[1] != (vcdChange{int64(2 * (n - 1)), "1"}) {
		t.Errorf("destination pool %v", dst)
	}
	starts := f.changes["mesh/phase_start"]
	var at []int64
	for _, c := range starts {
		if c.val == "1" {
			at = append(at, c.t)
		}
	}
	if !reflect.DeepEqual(at, []int64{1, int64(n)}) {
		t.Errorf("phases start at %v, want 1 (row) and %d (column)", at, n)
	}
}

// A restricted broadcast's copies get their places as they are made.
func TestLockstepTraceBroadcast(t *testing.T) {
	n := 8
	dests := han.RandomBroadcast(n, 1) // (26 messages, 26 copies)
	res, vcd, _, _ := lockstepRun(t, han.AlgH, n, dests)
	final, _ := vcdMessages(t, readVCD(t, vcd), n*n)
	if len(final) != res.Messages+res.Copies || res.Copies == 0 {
		t.Fatalf("%d messages in the dump, the run had %d and %d copies", len(final), res.Messages, res.Copies)
	}
	seen := map[int32]bool{}
	for _, p := range final {
		if seen[p] {
			t.Errorf("two messages end at processor %d", p)
		}
		seen[p] = true
	}
	for _, ds := range dests {
		for _, d := range ds {
			if !seen[d] {
				t.Errorf("no message ends at destination %d", d)
			}
		}
	}
}

// GTKWave's vcd2fst converts the lock-step dump.
func TestLockstepVCD2FST(t *testing.T) {
	p, _ := han.Permutation("transpose", 8, 1)
	_, vcd, _, _ := lockstepRun(t, han.AlgQ, 8, han.Lists(p))
	bin := gtkwaveTool(t, "vcd2fst")
	dir := t.TempDir()
	in, fst := filepath.Join(dir, "q.vcd"), filepath.Join(dir, "q.fst")
	if err := os.WriteFile(in, vcd, 0o644); err != nil {
		t.Fatal(err)
	}
	msg, err := exec.Command(bin, in, fst).CombinedOutput()
	if err != nil || strings.Contains(string(msg), "rror") {
		t.Fatalf("vcd2fst: %v\n%s", err, msg)
	}
	if st, err := os.Stat(fst); err != nil || st.Size() == 0 {
		t.Fatalf("vcd2fst wrote no FST (%v)\n%s", err, msg)
	}
}
