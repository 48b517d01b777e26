package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/outfile"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/search"
)

const searchSynopsis = `Usage: flitsim deadlock-search [-c FILE.yaml] [--set key=value]... [flags]

Runs many scenarios of concurrent multicasts and unicasts with varied start
cycles on the network of the config (its topology, buffers, arbiter and
multicast.worm / multicast.encoding) and stops at the first deadlock. It
prints the deadlock and a config that replays it (also written to --out), or
how many scenarios all completed. Scenarios are drawn at random from --seed,
or enumerated with --exhaustive (every set of --multicasts multicasts whose
destinations are contiguous regions, from every source and start offset).

Example: synchronous worms, pseudo all-destination headers, a proper priority:
  flitsim deadlock-search --set topology.kind=cube --set topology.k=2 \
    --set topology.n=4 --set buffers.input=0 --set buffers.output=1 \
    --set multicast.worm=sync --set multicast.encoding=pseudo-ad \
    --set arbiter=upper-first --scenarios 100000
`

func cmdSearch(args []string, stdout io.Writer) error {
	fs := newFlags("deadlock-search")
	file := fs.StringP("config", "c", "", "base experiment YAML `FILE` (default: the embedded default)")
	sets := fs.StringArray("set", nil, "override a key: `key=value` (repeatable)")
	scenarios := fs.Int("scenarios", 10000, "scenarios to run (at most, with --exhaustive)")
	seed := fs.Uint64("seed", 1, "seed of the scenario generator")
	mcasts := fs.Int("multicasts", 3, "concurrent multicast worms per scenario")
	unicasts := fs.Int("unicasts", 1, "concurrent unicasts per scenario")
	offset := fs.Int("max-offset", 6, "start cycles are drawn from 0 to this")
	flits := fs.String("flits", "4-24", "data flits per packet: `N` or a range a-b")
	dests := fs.String("dests", "2-8", "destinations per multicast: `N` or a range a-b")
	exhaustive := fs.Bool("exhaustive", false, "enumerate scenarios instead of drawing them")
	out := fs.String("out", "", "write the replay config of a deadlock to `FILE`")
	format := fs.StringP("format", "f", "table", "output format: table or json")
	if help, err := parseFlags(fs, searchSynopsis, args, stdout); help || err != nil {
		return err
	}
	if err := checkFormat(*format, "table", "json"); err != nil {
		return err
	}
	if len(fs.Args()) > 0 {
		return fmt.Errorf("deadlock-search: unexpected argument %q", fs.Args()[0])
	}
	fr, err := network.ParseFlitRange(*flits)
	if err != nil {
		return fmt.Errorf("--flits: %v", err)
	}
	dr, err := network.ParseFlitRange(*dests)
	if err != nil {
		return inputerr.New("--dests", strconv.Quote(*dests), "a count like 4 or a range like 2-8")
	}
	cfg, err := loadConfig(*file, *sets)
	if err != nil {
		return err
	}
	files := configFiles(*file, cfg)
	files.Output("--out", *out)
	if err := files.Check(); err != nil {
		return err
	}
	spec := search.Spec{Base: cfg, Scenarios: *scenarios, Seed: *seed, Multicasts: *mcasts,
		Unicasts: *unicasts, MaxOffset: *offset, MinFlits: fr.Min, MaxFlits: fr.Max,
		MinDests: dr.Min, MaxDests: dr.Max, Exhaustive: *exhaustive}
	if bar := newProgress("deadlock-search", int64(*scenarios), "scenarios"); bar != nil {
		spec.Progress = func(done int) { bar.set(int64(done)) }
		defer bar.finish()
	}
	release := watchInterrupts("stopping at the end of this cycle")
	defer release()
	spec.Stop = &stopRequested
	o, err := search.Run(spec)
	if err != nil {
		return err
	}
	if err := printSearch(stdout, o, cfg, *out, *format); err != nil {
		return err
	}
	if o.Interrupted {
		return interruptedError("interrupted after %d of %d scenarios", o.Run, *scenarios)
	}
	return nil
}

// printSearch writes a search's outcome (and the replay config to out).
func printSearch(stdout io.Writer, o *search.Outcome, cfg network.Config, out, format string) error {
	var err error
	var replay []byte
	if o.Found {
		if replay, err = search.ReplayYAML(o); err != nil {
			return err
		}
		if out != "" {
			if err := outfile.WriteFile(out, replay); err != nil {
				return fmt.Errorf("--out: %v", err)
			}
		}
	}
	if format == "json" {
		doc := map[string]any{
			"scenarios": o.Run, "found": o.Found, "scenario": o.Scenario, "packets": o.Packets,
			"deadlock": o.Deadlock, "stalled": o.Stalled, "replay": string(replay),
		}
		if o.Interrupted {
			doc["interrupted"] = true
		}
		return writeAnyJSON(stdout, doc)
	}
	if !o.Found {
		if o.Interrupted {
			fmt.Fprint(stdout, "interrupted: ")
		}
		fmt.Fprintf(stdout, "no deadlock: %d scenarios completed (%s worms, %s headers, arbiter %s on %s)\n",
			o.Run, cfg.Multicast.Worm, cfg.Multicast.Encoding, cfg.Arbiter, describeTopology(cfg.Topology))
		if o.Stalled > 0 {
			fmt.Fprintf(stdout, "warning: %d scenarios reached the drain limit without a deadlock (starvation?)\n", o.Stalled)
		}
		return nil
	}
	fmt.Fprintf(stdout, "deadlock in scenario %d of %d, at cycle %d:\n", o.Scenario, o.Run, o.Deadlock.Cycle)
	for _, r := range o.Deadlock.Resources {
		fmt.Fprintf(stdout, "  %s\n", r)
	}
	fmt.Fprintf(stdout, "\nreplay config:\n%s", replay)
	return nil
}

func writeAnyJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
