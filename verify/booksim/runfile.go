package booksim

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Option is one BookSim runfile option and what it becomes in flitsim: the
// one home of the map docs/booksim.md shows.
type Option struct {
	Name string // BookSim's option
	Key  string // the flitsim key it sets, "" when none
	// Value translates BookSim's value to the key's (nil: the same
	// text); for an option without a key, it checks that the value is
	// one flitsim has (error otherwise).
	Value func(v string) (string, error)
	Note  string // what the doc says when the match is not one to one
}

// Options lists every option the comparison's runfiles use, in the order of
// docs/booksim.md's table.
var Options = []Option{
	{Name: "topology", Key: "topology.kind"},
	{Name: "k", Key: "topology.k"},
	{Name: "n", Key: "topology.n"},
	{Name: "routing_function", Key: "routing"},
	{Name: "router", Key: "router.model"},
	{Name: "num_vcs", Key: "buffers.vcs"},
	{Name: "vc_buf_size", Key: "buffers.input", Note: "flits per VC under router.model: iq"},
	{Name: "wait_for_tail_credit", Key: "vc.release", Value: oneOf(map[string]string{"0": "tail", "1": "tail-credit"})},
	{Name: "vc_allocator", Key: "router.vc_allocator", Value: allocatorName},
	{Name: "sw_allocator", Key: "router.sw_allocator", Value: allocatorName},
	{Name: "alloc_iters", Key: "router.alloc_iters"},
	{Name: "credit_delay", Key: "router.credit_delay"},
	{Name: "routing_delay", Key: "router.routing_delay"},
	{Name: "vc_alloc_delay", Key: "router.vc_alloc_delay"},
	{Name: "sw_alloc_delay", Key: "router.sw_alloc_delay"},
	{Name: "st_final_delay", Key: "router.st_final_delay"},
	{Name: "input_speedup", Key: "router.input_speedup"},
	{Name: "output_speedup", Key: "router.output_speedup", Note: "into an unbounded output buffer, BookSim's output_buffer_size = −1 (its default)"},
	{Name: "internal_speedup", Value: only("1", "1.0"), Note: "flitsim's iq router runs its allocation once a cycle"},
	{Name: "traffic", Key: "traffic.pattern"},
	{Name: "packet_size", Key: "traffic.flits"},
	{Name: "injection_rate_uses_flits", Value: only("1"), Note: "traffic.load is always flits/node/cycle"},
	{Name: "use_read_write", Value: only("0"), Note: "no request/reply classes"},
	{Name: "injection_rate", Key: "traffic.load"},
	{Name: "sim_type", Value: only("latency"), Note: "every open-loop run measures latency and throughput"},
	{Name: "warmup_periods", Note: "run.warmup = warmup_periods × sample_period"},
	{Name: "sample_period", Note: "run.warmup and run.measure are made of it"},
	{Name: "max_samples", Note: "run.measure = (max_samples − warmup_periods) × sample_period, BookSim's longest measurement"},
	{Name: "sim_count", Value: only("1"), Note: "one simulation per run"},
	{Name: "seed", Key: "run.seed", Note: "the random streams differ: same seed, different packets"},
}

func only(allowed ...string) func(string) (string, error) {
	return func(v string) (string, error) {
		for _, a := range allowed {
			if v == a {
				return v, nil
			}
		}
		return "", fmt.Errorf("%s (flitsim has only %s)", v, strings.Join(allowed, " or "))
	}
}

func oneOf(m map[string]string) func(string) (string, error) {
	return func(v string) (string, error) {
		if t, ok := m[v]; ok {
			return t, nil
		}
		return "", fmt.Errorf("%s (allowed: 0, 1)", v)
	}
}

// allocatorName is BookSim's allocator name in flitsim's spelling
// (separable_input_first → separable-input-first).
func allocatorName(v string) (string, error) { return strings.ReplaceAll(v, "_", "-"), nil }

// ReadRunfile reads a BookSim runfile's "name = value;" options (// and /*
// */ comments skipped), in order.
func ReadRunfile(path string) ([][2]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	text := string(data)
	for {
		i := strings.Index(text, "/*")
		if i < 0 {
			break
		}
		j := strings.Index(text[i:], "*/")
		if j < 0 {
			return nil, fmt.Errorf("%s: unclosed /* comment", path)
		}
		text = text[:i] + text[i+j+2:]
	}
	var opts [][2]string
	for _, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "//")
		for _, st := range strings.Split(line, ";") {
			if strings.TrimSpace(st) == "" {
				continue
			}
			k, v, ok := strings.Cut(st, "=")
			if !ok {
				return nil, fmt.Errorf("%s: %q is not name = value", path, strings.TrimSpace(st))
			}
			opts = append(opts, [2]string{strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"`)})
		}
	}
	return opts, nil
}

// FlitsimSets translates a runfile's options into flitsim --set overrides
// ("key=value"), by Options; an option missing from Options, or with a value
// flitsim does not have, is an error naming it. The link latency is
// BookSim's channel latency: 1 on a mesh, 2 on a torus (use_noc_latency).
func FlitsimSets(opts [][2]string) ([]string, error) {
	byName := map[string]*Option{}
	for i := range Options {
		byName[Options[i].Name] = &Options[i]
	}
	val := map[string]string{}
	var sets []string
	for _, kv := range opts {
		o := byName[kv[0]]
		if o == nil {
			return nil, fmt.Errorf("BookSim option %s: no flitsim equivalent (known: docs/booksim.md)", kv[0])
		}
		v := kv[1]
		if o.Value != nil {
			t, err := o.Value(v)
			if err != nil {
				return nil, fmt.Errorf("BookSim option %s: %v", kv[0], err)
			}
			v = t
		}
		val[kv[0]] = kv[1]
		if o.Key != "" {
			sets = append(sets, o.Key+"="+v)
		}
	}
	period, err := intOpt(val, "sample_period", 1000)
	if err != nil {
		return nil, err
	}
	warm, err := intOpt(val, "warmup_periods", 3)
	if err != nil {
		return nil, err
	}
	samples, err := intOpt(val, "max_samples", 10)
	if err != nil {
		return nil, err
	}
	if samples <= warm {
		return nil, fmt.Errorf("BookSim option max_samples: %d leaves no sample after %d warm-up periods", samples, warm)
	}
	link := "1"
	if val["topology"] == "torus" {
		link = "2"
	}
	return append(sets, "run.warmup="+strconv.Itoa(warm*period),
		"run.measure="+strconv.Itoa((samples-warm)*period), "link.latency="+link), nil
}

// intOpt is a runfile's integer option, or BookSim's default def.
func intOpt(val map[string]string, name string, def int) (int, error) {
	s, ok := val[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("BookSim option %s: %q is not a non-negative integer", name, s)
	}
	return n, nil
}
