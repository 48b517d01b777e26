package verify

import (
	_ "embed"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
)

// Brebner 1983's chapter-3 tables (digest §5.3: 829 rows, OCR-fixed) and
// the reference model's figures for them: the digest's runs (Appendix A),
// copied from ../shared/notes/seeds so that verify does not depend on them,
// and the runs recorded here, each under the command that made it
// (testdata/brebner_refrun.py), which cover every entry the digest excludes
// (§8.1) and take precedence.
var (
	//go:embed data/brebner_tables.csv
	brebnerTablesCSV string
	//go:embed data/brebner_refmodel.csv
	brebnerRefCSV string
	//go:embed data/brebner_refruns.csv
	brebnerRefRunsCSV string
)

// bEntry is one table entry: mean / variance / maximum over 500
// experiments of one measure in one phase on one graph.
type bEntry struct {
	table, graph, variant string
	phase, measure        string // phase "1", "2" or "total"; measure time, maxpop or maxqueue
	d, n, nodes, h        int
	mean, variance        float64
	max                   int64
	note                  string
	ref                   *bRef // the reference model's figures, if it ran this entry
}

// bRef is the reference model's mean, variance and maximum over trials
// experiments; recorded is whether it comes from a run recorded with its
// command (data/brebner_refruns.csv) rather than the digest's table.
type bRef struct {
	mean, variance float64
	max            int64
	trials         int
	recorded       bool
}

func atoiOr(s string, def int) int {
	if v, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
		return v
	}
	return def
}

// brebnerEntries parses the embedded tables (the router tables only: Table
// 3-6 is the multinomial distribution, not a network).
func brebnerEntries() ([]bEntry, error) {
	recs, err := csv.NewReader(strings.NewReader(brebnerTablesCSV)).ReadAll()
	if err != nil {
		return nil, err
	}
	refs, err := brebnerRefs()
	if err != nil {
		return nil, err
	}
	var out []bEntry
	for _, r := range recs[1:] {
		if len(r) < 14 {
			return nil, fmt.Errorf("brebner tables: short row %q", r)
		}
		if r[0] == "3-6" {
			continue
		}
		e := bEntry{table: r[0], graph: r[1], variant: r[2], phase: r[3], measure: r[4],
			d: atoiOr(r[5], 0), n: atoiOr(r[6], 0), nodes: atoiOr(r[7], 0), h: atoiOr(r[8], 1), note: r[13]}
		if e.mean, err = strconv.ParseFloat(r[9], 64); err != nil {
			return nil, fmt.Errorf("brebner tables %s: mean %q", r[0], r[9])
		}
		if e.variance, err = strconv.ParseFloat(r[10], 64); err != nil {
			return nil, fmt.Errorf("brebner tables %s: variance %q", r[0], r[10])
		}
		e.max = int64(atoiOr(r[11], -1))
		if e.graph == "d-shuffle" && e.d == 0 {
			e.d = dshuffleDegree(e.nodes, e.n)
		}
		e.ref = refs[refKey(e.table, e.d, e.n, e.phase, e.measure)]
		out = append(out, e)
	}
	return out, nil
}

// dshuffleDegree is d with d^n = nodes (the CSV leaves d out of some
// rows; digest §8.1 item 8).
func dshuffleDegree(nodes, n int) int {
	for d := 2; d <= nodes; d++ {
		p := 1
		for range n {
			p *= d
		}
		if p == nodes {
			return d
		}
	}
	return 0
}

func refKey(table string, d, n int, phase, measure string) string {
	return fmt.Sprintf("%s|%d|%d|%s|%s", table, d, n, phase, measure)
}

// brebnerRefs is the reference model's figures by entry: the digest's,
// overridden by the recorded runs.
func brebnerRefs() (map[string]*bRef, error) {
	out := map[string]*bRef{}
	if err := readRefs(brebnerRefCSV, false, out); err != nil {
		return nil, fmt.Errorf("brebner reference model: %w", err)
	}
	if err := readRefs(brebnerRefRunsCSV, true, out); err != nil {
		return nil, fmt.Errorf("brebner reference runs: %w", err)
	}
	return out, nil
}

// readRefs adds one file's figures to out. Columns: table, graph, variant,
// d, n, N, phase, measure, thesis mean, var, max, model mean, var, max, z,
// trials; lines starting with # are comments (the recorded runs' commands).
func readRefs(text string, recorded bool, out map[string]*bRef) error {
	rd := csv.NewReader(strings.NewReader(text))
	rd.Comment = '#'
	recs, err := rd.ReadAll()
	if err != nil {
		return err
	}
	for _, r := range recs {
		if len(r) < 16 || r[0] == "table" {
			continue
		}
		m, err1 := strconv.ParseFloat(r[11], 64)
		v, err2 := strconv.ParseFloat(r[12], 64)
		if err1 != nil || err2 != nil {
			if recorded {
				return fmt.Errorf("row %q: mean %q, variance %q", strings.Join(r[:8], ","), r[11], r[12])
			}
			continue
		}
		d := atoiOr(r[3], 0)
		if r[1] == "d-shuffle" && d == 0 {
			d = dshuffleDegree(atoiOr(r[5], 0), atoiOr(r[4], 0))
		}
		out[refKey(r[0], d, atoiOr(r[4], 0), r[6], r[7])] = &bRef{mean: m, variance: v, max: int64(atoiOr(r[13], -1)), trials: atoiOr(r[15], 1000), recorded: recorded}
	}
	return nil
}
