// Package booksim is BookSim2's side of the side-by-side comparison
// (docs/booksim.md): it runs the booksim binary on a runfile at an injection
// rate, reads what BookSim prints (packet latency average, network latency
// average, accepted flit rate, whether the run was unstable), and finds the
// saturation throughput by a procedure that takes any simulator's runs, so
// that flitsim's side is measured the same way.
package booksim

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Result is what one BookSim2 run reports for traffic class 0: the overall
// statistics when the run finished, else those of the last sample period
// it printed (then Unstable is set).
type Result struct {
	Offered        float64 // injection_rate of the run (flits/node/cycle with injection_rate_uses_flits)
	PacketLatency  float64 // "Packet latency average": creation to ejection, source queueing included
	NetworkLatency float64 // "Network latency average": injection into the network to ejection
	FlitLatency    float64 // "Flit latency average"
	Injected       float64 // "Injected flit rate average" (flits/node/cycle)
	Accepted       float64 // "Accepted flit rate average" (flits/node/cycle)
	Hops           float64 // "Hops average" (finished runs only)
	Samples        int     // sample periods printed (warm-up included)
	Cycles         int64   // "Time taken is N cycles": every simulated cycle, drain included; 0 when unstable
	Unstable       bool    // BookSim gave up: latency over latency_thres or no convergence
	Reason         string  // BookSim's words when Unstable
}

// Parse reads BookSim2's standard output.
func Parse(r io.Reader) (Result, error) {
	var res Result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	class, overall, finished := -1, false, false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "OVERRIDE Parameter: injection_rate="):
			v, err := strconv.ParseFloat(strings.TrimPrefix(line, "OVERRIDE Parameter: injection_rate="), 64)
			if err != nil {
				return res, fmt.Errorf("booksim output: %q: %v", line, err)
			}
			res.Offered = v
		case res.Offered == 0 && strings.HasPrefix(line, "injection_rate"):
			// the runfile's own rate, echoed in the configuration block
			if v, ok := assignment(line, "injection_rate"); ok {
				res.Offered = v
			}
		case strings.HasPrefix(line, "Parse error"), strings.HasPrefix(line, "Error"):
			return res, fmt.Errorf("booksim refused its input: %s", line)
		case strings.HasPrefix(line, "Class "):
			class, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(line, "Class "), ":"))
			if class == 0 {
				res.Samples++
			}
		case line == "====== Overall Traffic Statistics ======":
			overall = true
		case strings.HasPrefix(line, "====== Traffic class "):
			class, _ = strconv.Atoi(strings.Trim(strings.TrimPrefix(line, "====== Traffic class "), " ="))
		case strings.HasPrefix(line, "Time taken is "):
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(line, "Time taken is "), " cycles"), 10, 64)
			if err != nil {
				return res, fmt.Errorf("booksim output: %q: %v", line, err)
			}
			res.Cycles, finished = n, true
		case strings.Contains(line, "Aborting simulation"), strings.HasPrefix(line, "Too many sample periods"),
			strings.HasPrefix(line, "Simulation unstable"):
			res.Unstable = true
			if res.Reason == "" {
				res.Reason = line
			}
		case class == 0:
			if err := res.stat(line); err != nil {
				return res, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return res, fmt.Errorf("booksim output: %v", err)
	}
	if res.Samples == 0 {
		return res, fmt.Errorf("booksim output: no statistics for traffic class 0 (not BookSim2 output, or it stopped early)")
	}
	if !finished && !res.Unstable {
		return res, fmt.Errorf("booksim output ends before the run finished (no \"Time taken\" line, no instability reported)")
	}
	if overall && res.Unstable {
		res.Unstable = false // a later simulation of sim_count > 1 finished
	}
	return res, nil
}

// stat reads one "NAME average = V" line of the current class's block.
func (res *Result) stat(line string) error {
	name, val, ok := strings.Cut(line, " average")
	if !ok {
		return nil
	}
	_, val, ok = strings.Cut(val, "=")
	if !ok {
		return nil
	}
	val = strings.TrimSpace(val)
	if i := strings.IndexByte(val, ' '); i >= 0 {
		val = val[:i] // "34.01 (1 samples)"
	}
	dst := map[string]*float64{
		"Packet latency":     &res.PacketLatency,
		"Network latency":    &res.NetworkLatency,
		"Flit latency":       &res.FlitLatency,
		"Injected flit rate": &res.Injected,
		"Accepted flit rate": &res.Accepted,
		"Hops":               &res.Hops,
	}[name]
	if dst == nil {
		return nil
	}
	v, err := strconv.ParseFloat(val, 64)
	if err != nil {
		return fmt.Errorf("booksim output: %q: %v", line, err)
	}
	*dst = v
	return nil
}

// assignment reads "key = value;" from the configuration echo.
func assignment(line, key string) (float64, bool) {
	k, v, ok := strings.Cut(line, "=")
	if !ok || strings.TrimSpace(k) != key {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), ";")), 64)
	return f, err == nil
}
