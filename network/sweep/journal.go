package sweep

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/flitsim/flitsim/internal/outfile"
)

// JournalFormat marks a sweep's journal: the points finished so far, one
// JSON row a line, written as each point finishes so that an interrupted
// sweep keeps them and `flitsim sweep --resume` runs only the others.
const JournalFormat = "flitsim-sweep-journal/1"

// journalHeader is a journal's first line: which sweep (and shard) it holds.
type journalHeader struct {
	Format string `json:"format"`
	Sweep  Spec   `json:"sweep"`
	Shard  string `json:"shard,omitempty"`
}

// JournalName is the journal's file name in a sweep's output folder:
// results.points.jsonl, or results-shard-i-of-n.points.jsonl.
func JournalName(shard Shard) string {
	f := File{Shard: shard.String()}
	return f.BaseName() + ".points.jsonl"
}

// Journal appends finished points to a sweep's journal file.
type Journal struct {
	mu   sync.Mutex
	f    *os.File
	path string
}

// CreateJournal starts a new journal for spec's shard in dir (which must
// exist), replacing any old one.
func CreateJournal(dir string, spec *Spec, shard Shard) (*Journal, error) {
	path := filepath.Join(dir, JournalName(shard))
	if err := writeJournal(path, spec, shard, nil); err != nil {
		return nil, err
	}
	return openJournal(path)
}

// ResumeJournal reads the journal of spec's shard in dir and returns the
// points it holds, in the order they finished, and the journal, open to add
// the rest. A journal of another sweep or shard is refused. A last line cut
// short (the process was killed while writing it) is dropped.
func ResumeJournal(dir string, spec *Spec, shard Shard) (*Journal, []Row, error) {
	path := filepath.Join(dir, JournalName(shard))
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("--resume: %s holds no sweep to resume (no %s; run without --resume to start one)", dir, JournalName(shard))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("--resume: cannot read %s: %v", path, unwrapPath(err))
	}
	rows, err := parseJournal(data, path, spec, shard)
	if err != nil {
		return nil, nil, err
	}
	// Rewritten whole, so that a torn last line does not stay in the middle.
	if err := writeJournal(path, spec, shard, rows); err != nil {
		return nil, nil, err
	}
	j, err := openJournal(path)
	return j, rows, err
}

func parseJournal(data []byte, path string, spec *Spec, shard Shard) ([]Row, error) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if n := len(lines); n > 0 && !bytes.HasSuffix(lines[n-1], []byte("\n")) {
		lines = lines[:n-1] // torn or empty last line
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("--resume: %s is empty (not a sweep journal)", path)
	}
	var h journalHeader
	if err := json.Unmarshal(lines[0], &h); err != nil || h.Format != JournalFormat {
		return nil, fmt.Errorf("--resume: %s is not a flitsim sweep journal (allowed: the %s a sweep with --out wrote)", path, JournalFormat)
	}
	if ok, why := spec.Equal(&h.Sweep); !ok {
		return nil, fmt.Errorf("--resume: %s was made by a different sweep: %s (allowed: the same config, --set and --vary as the sweep being resumed)", path, why)
	}
	if h.Shard != shard.String() {
		return nil, fmt.Errorf("--resume: %s was made by shard %q, not %q", path, h.Shard, shard.String())
	}
	seen := map[int]bool{}
	var rows []Row
	for l, line := range lines[1:] {
		var r Row
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("--resume: %s line %d: not a result row (%v)", path, l+2, err)
		}
		if err := checkRow(spec, shard, &r); err != nil {
			return nil, fmt.Errorf("--resume: %s line %d: %v", path, l+2, err)
		}
		if !seen[r.Point] {
			seen[r.Point] = true
			rows = append(rows, r)
		}
	}
	return rows, nil
}

// checkRow makes sure r is one of the shard's points, with its values.
func checkRow(spec *Spec, shard Shard, r *Row) error {
	if r.Point < 0 || r.Point >= spec.Points || !shard.Holds(r.Point) {
		return fmt.Errorf("point %d is not one of this sweep's", r.Point)
	}
	want := spec.Values(r.Point)
	ok := len(r.Values) == len(want)
	for j := 0; ok && j < len(want); j++ {
		ok = r.Values[j].Key == spec.Vary[j].Key && r.Values[j].Value == want[j]
	}
	if !ok {
		return fmt.Errorf("point %d has values %s, the sweep's point %d is %s", r.Point, describeKV(r.Values), r.Point, spec.Label(r.Point))
	}
	return nil
}

// writeJournal writes a journal holding rows whole (outfile), so that an
// interrupt never leaves half of it.
func writeJournal(path string, spec *Spec, shard Shard, rows []Row) error {
	var b bytes.Buffer
	h, err := json.Marshal(journalHeader{Format: JournalFormat, Sweep: *spec, Shard: shard.String()})
	if err != nil {
		return err
	}
	b.Write(h)
	b.WriteByte('\n')
	for _, r := range rows {
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := outfile.WriteFile(path, b.Bytes()); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, unwrapPath(err))
	}
	return nil
}

func openJournal(path string) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %v", path, unwrapPath(err))
	}
	return &Journal{f: f, path: path}, nil
}

// Add appends a finished point (safe for concurrent use). The line goes to
// the file at once, in one write, so an interrupt keeps it.
func (j *Journal) Add(r Row) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, err := j.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("cannot write %s: %v", j.path, unwrapPath(err))
	}
	return nil
}

// Close closes the journal file.
func (j *Journal) Close() error { return j.f.Close() }
