package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network/esmintree"
	"github.com/flitsim/flitsim/network/plot"
	"github.com/flitsim/flitsim/network/topology"
)

// A study (--dests random:K or random:A-B) builds each algorithm's trees over
// --trials random destination sets of every size on each network (one -c
// file each), as Chiang §6.5 does for Figs 6.8–6.12: T, the mean channels
// of the trees that do not block, and B, the fraction that block (rb).

// mtreeStudy is one curve: a network and an algorithm over the sizes.
type mtreeStudy struct {
	Network   string            `json:"network"`
	Config    string            `json:"config,omitempty"`
	Algorithm string            `json:"algorithm"`
	Source    int               `json:"source"`
	Points    []esmintree.Point `json:"points"`
	net       *esmintree.Net    // (not printed)
	alg       esmintree.Alg     // (not printed)
}

// studyRange reads random:K or random:A-B; ok is false for other specs.
func studyRange(spec string) (lo, hi int, ok bool, err error) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(spec), "random:")
	if !ok {
		return 0, 0, false, nil
	}
	a, b, isRange := strings.Cut(rest, "-")
	lo, err1 := strconv.Atoi(a)
	hi, err2 := lo, error(nil)
	if isRange {
		hi, err2 = strconv.Atoi(b)
	}
	if err1 != nil || err2 != nil || lo < 1 || hi < lo {
		return 0, 0, true, inputerr.New("--dests", spec, "random:K or random:A-B with 1 ≤ A ≤ B (destination counts)")
	}
	return lo, hi, true, nil
}

// studyCurves builds the networks of files (one each; none: the --set
// keys alone) and pairs each with every algorithm of algs (a comma list).
func studyCurves(files, sets []string, algs string, src, hi int) ([]mtreeStudy, error) {
	var as []esmintree.Alg
	for _, s := range strings.Split(algs, ",") {
		a, ok := esmintree.ParseAlg(s)
		if !ok {
			return nil, inputerr.New("--algorithm", algs, "lb, fb, rb, rm or a comma list of them (omt builds no random study)")
		}
		as = append(as, a)
	}
	if len(files) == 0 {
		files = []string{""}
	}
	var curves []mtreeStudy
	for _, f := range files {
		cfg, err := loadConfig(f, sets)
		if err != nil {
			return nil, err
		}
		net, err := topology.ESMINTrees(cfg.Topology)
		if err != nil {
			return nil, err
		}
		nodes := 1 << net.Bits()
		if src < 0 || src >= nodes {
			return nil, inputerr.New("--source", src, "a node from 0 to %d", nodes-1)
		}
		if hi > nodes {
			return nil, inputerr.New("--dests", fmt.Sprintf("random:…%d", hi), "at most the %d nodes", nodes)
		}
		for _, a := range as {
			curves = append(curves, mtreeStudy{Network: fmt.Sprintf("CU-ESMIN(%d:%s)", nodes, joinInts(cfg.Topology.Dims)),
				Config: f, Algorithm: a.String(), Source: src, net: net, alg: a})
		}
	}
	return curves, nil
}

// runStudy fills every curve's points, plots them into plotFile (if
// named) and prints them. Each size of each curve draws from its own
// source, seeded by seed and the size, so every curve of one network sees
// the same destination sets.
func runStudy(w io.Writer, curves []mtreeStudy, lo, hi, trials int, seed uint64, plotFile, format string) error {
	for i := range curves {
		c := &curves[i]
		for k := lo; k <= hi; k++ {
			rng := rand.New(rand.NewPCG(seed, uint64(k)))
			c.Points = append(c.Points, c.net.Study(c.alg, c.Source, k, trials, rng))
		}
	}
	if plotFile != "" {
		if err := plotStudy(plotFile, curves); err != nil {
			return err
		}
	}
	return writeStudy(w, curves, format)
}

// writeStudy prints the study as JSON or as one table row per size and
// curve.
func writeStudy(w io.Writer, curves []mtreeStudy, format string) error {
	if format == "json" {
		b, err := json.MarshalIndent(struct {
			Study []mtreeStudy `json:"study"`
		}{curves}, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	var rows [][]string
	for _, c := range curves {
		for _, p := range c.Points {
			rows = append(rows, []string{c.Network, c.Algorithm, strconv.Itoa(p.Dests), strconv.Itoa(p.Sets),
				fmt.Sprintf("%.2f ± %.2f", p.Channels, p.CI95), fmt.Sprintf("%.3f", p.Blocking)})
		}
	}
	return renderTable(w, []string{"network", "algorithm", "destinations", "sets", "channels T", "blocking B"}, rows)
}

// plotStudy draws T (B when every curve is rb) against the destinations
// into name (.svg or .png).
func plotStudy(name string, curves []mtreeStudy) error {
	blocking := true
	for _, c := range curves {
		blocking = blocking && c.alg == esmintree.RB
	}
	mp := &plot.ModelPlot{Title: "ESMIN multicast trees: channels used (T) vs destinations (Chiang Figs 6.8–6.10, 6.12)",
		XLabel: "destinations", YLabel: "channels carrying a copy, mean over the sets (T)"}
	if blocking {
		mp.Title, mp.YLabel, mp.YMax = "Random Branch blocking (B) vs destinations (Chiang Fig 6.11)", "blocking rate B", 1
	}
	for _, c := range curves {
		mc := plot.ModelCurve{LineName: c.Algorithm + " " + c.Network}
		if c.Config != "" {
			mc.LineName = c.Algorithm + " " + strings.TrimSuffix(filepath.Base(c.Config), ".yaml")
		}
		for _, p := range c.Points {
			y := p.Channels
			if blocking {
				y = p.Blocking
			}
			mc.Line = append(mc.Line, plot.XY{X: float64(p.Dests), Y: y})
		}
		mp.Curves = append(mp.Curves, mc)
	}
	return mp.Save(name)
}
