package sweep

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestStopAndResume: a sweep stopped after some points returns them with
// ErrInterrupted; run again with them as Done, it runs only the others and
// gives what an uninterrupted sweep gives.
func TestStopAndResume(t *testing.T) {
	want, err := Run(tiny(t), Shard{}, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var finished []Row
	opts := Options{Jobs: 1, Stop: &stop, Finished: func(r Row) error {
		finished = append(finished, r)
		if len(finished) == 3 {
			stop.Store(true)
		}
		return nil
	}}
	part, err := Run(tiny(t), Shard{}, opts)
	if !errors.Is(err, ErrInterrupted) || part == nil || len(part.Rows) != 3 || len(finished) != 3 {
		t.Fatalf("interrupted: %v, %+v", err, part)
	}
	ran := 0
	rest, err := Run(tiny(t), Shard{}, Options{Jobs: 2, Done: part.Rows, Finished: func(Row) error { ran++; return nil }})
	if err != nil || ran != 5 {
		t.Fatalf("resumed: %v, ran %d points", err, ran)
	}
	if !bytes.Equal(jsonOf(t, rest), jsonOf(t, want)) {
		t.Errorf("resumed sweep differs from an uninterrupted one")
	}
	// An error from Finished stops the sweep with that error.
	if _, err := Run(tiny(t), Shard{}, Options{Finished: func(Row) error { return errors.New("disk full") }}); err == nil || err.Error() != "disk full" {
		t.Errorf("Finished error: %v", err)
	}
}

// TestJournal: rows written as points finish are read back on resume; a
// torn last line is dropped; another sweep's or shard's journal is refused.
func TestJournal(t *testing.T) {
	dir := t.TempDir()
	s := tiny(t)
	j, err := CreateJournal(dir, s, Shard{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Run(s, Shard{}, Options{Jobs: 1, Finished: j.Add})
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	path := filepath.Join(dir, "results.points.jsonl")
	data, _ := os.ReadFile(path)
	// Keep 5 points and half of the 6th, as a kill while writing would.
	lines := bytes.SplitAfter(data, []byte("\n"))
	torn := bytes.Join(lines[:1+5], nil)
	torn = append(torn, lines[6][:len(lines[6])/2]...)
	os.WriteFile(path, torn, 0o644)
	j, rows, err := ResumeJournal(dir, tiny(t), Shard{})
	if err != nil || len(rows) != 5 {
		t.Fatalf("resume: %v, %d rows", err, len(rows))
	}
	j.Close()
	if got, _ := os.ReadFile(path); !bytes.Equal(got, bytes.Join(lines[:6], nil)) {
		t.Errorf("the torn line was not dropped from the journal")
	}
	for k, r := range rows {
		if !bytes.Equal(jsonOf(t, &File{Rows: []Row{r}}), jsonOf(t, &File{Rows: []Row{f.Rows[k]}})) {
			t.Errorf("row %d read back differs", k)
		}
	}

	other, _ := NewSpec("", []string{"topology.k=4", "run.warmup=50", "run.measure=301"}, []string{"buffers.input=1,4", "traffic.load=0.1:0.7:0.2"})
	for _, tc := range []struct {
		spec  *Spec
		shard Shard
		dir   string
		want  string
	}{
		{other, Shard{}, dir, "results.points.jsonl was made by a different sweep: the --set overrides differ"},
		{s, Shard{}, t.TempDir(), "holds no sweep to resume (no results.points.jsonl"},
		{s, Shard{1, 2}, dir, "no results-shard-1-of-2.points.jsonl"},
	} {
		if _, _, err := ResumeJournal(tc.dir, tc.spec, tc.shard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: want %q", err, tc.want)
		}
	}
	os.WriteFile(path, []byte("{\"format\":\"something else\"}\n"), 0o644)
	if _, _, err := ResumeJournal(dir, s, Shard{}); err == nil || !strings.Contains(err.Error(), "is not a flitsim sweep journal") {
		t.Errorf("foreign file: %v", err)
	}
}
