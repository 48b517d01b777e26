package trace

import (
	"cmp"
	"fmt"
	"github.com/flitsim/flitsim/internal/kernel"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

// The save file beside a VCD names only signals of the dump (with GTKWave's
// [msb:0] suffix for vectors), applies the filters written beside it to the
// enum signals, and shows the busiest switches and terminals by flits moved,
// counted here from the moves themselves.
func TestGTKWaveSaveFile(t *testing.T) {
	dir := t.TempDir()
	vcdPath := filepath.Join(dir, "mesh.vcd")
	f, err := os.Create(vcdPath)
	if err != nil {
		t.Fatal(err)
	}
	var v *VCD
	var r *recorder
	n, _ := runNet(t, smallMesh(), func(n *network.Network) []network.Tracer {
		if v, err = NewVCD(f, kernel.Of(n), Options{}); err != nil {
			t.Fatal(err)
		}
		r = newRecorder(kernel.Of(n))
		return []network.Tracer{v, r}
	})
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	paths, err := v.SaveFiles(vcdPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "mesh.gtkw"); paths[0] != want || len(paths) != 1+len(Filters) {
		t.Fatalf("wrote %v, want %s and %d filters", paths, want, len(Filters))
	}
	data, err := os.ReadFile(vcdPath)
	if err != nil {
		t.Fatal(err)
	}
	vf := readVCD(t, data)
	save, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	labels, shown := checkSaveFile(t, string(save), vcdPath, paths[0], vf)
	if shown < 20 {
		t.Fatalf("only %d signals shown", shown)
	}

	// The busiest switches, from the recorded moves.
	l := newLayout(kernel.Of(n))
	out := map[int32]int64{}
	inj := map[int32]int64{}
	for ch, ms := range r.moves {
		if ch < l.nlinks {
			out[l.portSw[ch]] += int64(len(ms))
		} else {
			inj[ch-l.nlinks] += int64(len(ms))
		}
	}
	var want []string
	for _, top := range []struct {
		m    map[int32]int64
		n    int
		name func(int32, int64) string
	}{
		{out, BusySwitches, func(s int32, f int64) string {
			return fmt.Sprintf("%s (%s): %d flits out", Sanitize(kernel.Of(n).Topo.Switches[s].Label), kernel.Of(n).Topo.Switches[s].Label, f)
		}},
		{inj, BusyTerminals, func(t int32, f int64) string { return fmt.Sprintf("t%d: %d flits injected", t, f) }},
	} {
		var ks []int32
		for k := range top.m {
			ks = append(ks, k)
		}
		slices.SortFunc(ks, func(a, b int32) int {
			if c := cmp.Compare(top.m[b], top.m[a]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		for _, k := range ks[:top.n] {
			want = append(want, top.name(k, top.m[k]))
		}
	}
	if strings.Join(labels, "\n") != strings.Join(want, "\n") {
		t.Errorf("save file shows\n%s\nwant\n%s", strings.Join(labels, "\n"), strings.Join(want, "\n"))
	}
}

// checkSaveFile checks the save file's lines and returns its labels and the
// number of signals it shows.
func checkSaveFile(t *testing.T, save, vcdPath, savePath string, vf *vcdFile) (labels []string, shown int) {
	t.Helper()
	ranged := regexp.MustCompile(`^(.*)\[(\d+):0\]$`)
	flags, filter := int64(0), ""
	for i, line := range strings.Split(strings.TrimSuffix(save, "\n"), "\n") {
		fail := func(format string, a ...any) {
			t.Helper()
			t.Fatalf("save file line %d %q: %s", i+1, line, fmt.Sprintf(format, a...))
		}
		switch {
		case strings.HasPrefix(line, "[dumpfile] "):
			if line != fmt.Sprintf("[dumpfile] %q", vcdPath) {
				fail("want the dump %s", vcdPath)
			}
		case strings.HasPrefix(line, "[savefile] "):
			if line != fmt.Sprintf("[savefile] %q", savePath) {
				fail("want the save file %s", savePath)
			}
		case strings.HasPrefix(line, "[") || strings.HasPrefix(line, "*"):
		case strings.HasPrefix(line, "@"):
			var err error
			if flags, err = strconv.ParseInt(line[1:], 16, 64); err != nil {
				fail("bad flags")
			}
		case strings.HasPrefix(line, "^"):
			n, p, _ := strings.Cut(line[1:], " ")
			id, err := strconv.Atoi(n)
			if err != nil || id < 1 || id > len(Filters) {
				fail("bad filter number")
			}
			text, err := os.ReadFile(p)
			if err != nil || string(text) != Filters[id-1].Text {
				fail("filter file %s: %v", p, err)
			}
			filter = Filters[id-1].Signal
		case strings.HasPrefix(line, "-"):
			if flags&trBlank == 0 {
				fail("a label without the blank flag")
			}
			labels = append(labels, line[1:])
		default:
			name, width := line, 1
			if m := ranged.FindStringSubmatch(line); m != nil {
				name = m[1]
				width, _ = strconv.Atoi(m[2])
				width++
			}
			vv, ok := vf.vars[strings.ReplaceAll(name, ".", "/")]
			if !ok || vv.width != width {
				fail("no such signal in the dump (width %d)", width)
			}
			base := name[strings.LastIndex(name, ".")+1:]
			translated := base == "kind" || base == "state" || base == "reason"
			if translated != (flags&trFTranslate != 0) || translated && filter != base {
				fail("flags %x, filter %q", flags, filter)
			}
			shown++
		}
	}
	return labels, shown
}

// GTKWave's own tools agree on the signal names: fstminer lists the FST's
// facilities as a save file, and every signal of ours is among them.
func TestGTKWaveNamesMatchFST(t *testing.T) {
	miner, conv := gtkwaveTool(t, "fstminer"), gtkwaveTool(t, "vcd2fst")
	dir := t.TempDir()
	vcdPath := filepath.Join(dir, "m.vcd")
	f, err := os.Create(vcdPath)
	if err != nil {
		t.Fatal(err)
	}
	var v *VCD
	runNet(t, smallMesh(), func(n *network.Network) []network.Tracer {
		if v, err = NewVCD(f, kernel.Of(n), Options{Window: Window{To: 100}}); err != nil {
			t.Fatal(err)
		}
		return []network.Tracer{v}
	})
	v.Close()
	f.Close()
	paths, err := v.SaveFiles(vcdPath)
	if err != nil {
		t.Fatal(err)
	}
	fst := filepath.Join(dir, "m.fst")
	if msg, err := exec.Command(conv, vcdPath, fst).CombinedOutput(); err != nil {
		t.Fatalf("vcd2fst: %v\n%s", err, msg)
	}
	// Facilities that ever take a value 0…7 (-c: all of them): every signal
	// shown takes one (enums) or is 0 in the first dump.
	facs := map[string]bool{}
	for m := range 8 {
		out, err := exec.Command(miner, "-n", "-c", "-m", strconv.Itoa(m), "-d", fst).Output()
		if err != nil {
			t.Fatalf("fstminer: %v", err)
		}
		for _, l := range strings.Split(string(out), "\n") {
			facs[strings.TrimSpace(l)] = true
		}
	}
	data, _ := os.ReadFile(vcdPath)
	vf := readVCD(t, data)
	save, _ := os.ReadFile(paths[0])
	n := 0
	for _, l := range strings.Split(string(save), "\n") {
		if strings.HasPrefix(l, "network.") {
			// fstminer lists only what takes a value: skip a signal that is
			// x throughout (a reason of a terminal never blocked).
			p := strings.ReplaceAll(l, ".", "/")
			if i := strings.LastIndex(p, "["); i > 0 {
				p = p[:i]
			}
			if !slices.ContainsFunc(vf.changes[p], func(c vcdChange) bool { return c.val != "x" }) {
				continue
			}
			n++
			if !facs[l] {
				t.Errorf("%s is not a facility GTKWave knows", l)
			}
		}
	}
	if n == 0 {
		t.Fatal("no signals in the save file")
	}
}
