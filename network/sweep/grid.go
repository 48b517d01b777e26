// Package sweep runs parameter sweeps: a base experiment (a config file and
// --set overrides) and one or more varied keys, each with a list of values,
// whose cartesian product is a grid of points. Every point is one config,
// loaded through configs.LoadBytes exactly like `flitsim run` loads one, and
// run deterministically from its own run.seed. Points can be split into
// shards (index ≡ i−1 mod n) that are run apart and merged afterwards.
//
// Grid order: the first varied key is the outermost (slowest-changing), the
// last the innermost, like nested loops written in flag order. Points are
// numbered from 0 in that order.
package sweep

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
)

// MaxPoints bounds the size of a grid (and of one varied key's list).
const MaxPoints = 1_000_000

// Vary is one varied key with its values, in order.
type Vary struct {
	Key string `json:"key"`
	// Spec is the text given after "KEY=" (a range or a list).
	Spec string `json:"spec"`
	// Values are the values the key takes, as --set would write them.
	Values []string `json:"values"`
}

// Spec describes a sweep: everything that defines its points. Two shards
// belong to the same sweep when their Specs are the same (Equal).
type Spec struct {
	// ConfigName is the config file's path as given ("default.yaml" for the
	// embedded default); it names the file in error messages only.
	ConfigName string `json:"config_name"`
	// Config is the text of the base config file.
	Config string `json:"config"`
	// Sets are the --set overrides, in order (applied before the point's
	// values).
	Sets []string `json:"sets"`
	// Vary lists the varied keys, outermost first.
	Vary []Vary `json:"vary"`
	// Points is the size of the grid.
	Points int `json:"points"`
}

// NewSpec reads the base config file (path "" is the embedded default) and
// parses the --vary arguments. The points are not loaded yet (see Load).
func NewSpec(path string, sets, vary []string) (*Spec, error) {
	s := &Spec{ConfigName: configs.DefaultName, Sets: append([]string{}, sets...)}
	if path == "" {
		s.Config = string(configs.DefaultYAML())
	} else {
		data, err := os.ReadFile(path)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("%s: cannot read config file: %v", path, err)
		}
		s.ConfigName, s.Config = path, string(data)
	}
	if len(vary) == 0 {
		return nil, errors.New("--vary: missing (allowed: one or more --vary KEY=start:stop:step or KEY=v1,v2,...)")
	}
	size := 1
	for _, arg := range vary {
		v, err := ParseVary(arg)
		if err != nil {
			return nil, err
		}
		for _, w := range s.Vary {
			if w.Key == v.Key {
				return nil, fmt.Errorf("--vary %s: key varied twice (%s and %s) (allowed: each key in one --vary)", v.Key, w.Spec, v.Spec)
			}
		}
		if size > MaxPoints/len(v.Values) {
			return nil, fmt.Errorf("--vary %s=%s: the grid has more than %d points (allowed: at most %d)", v.Key, v.Spec, MaxPoints, MaxPoints)
		}
		size *= len(v.Values)
		s.Vary = append(s.Vary, v)
	}
	s.Points = size
	return s, nil
}

// ParseVary reads one --vary argument: KEY=start:stop:step (numbers; stop is
// included when the steps reach it within 1e-9 of a step), KEY=v1,v2,...
// (taken literally), KEY=v1;v2;... (for values that hold commas, like
// topology.order=0,1;1,0) or KEY=value.
func ParseVary(arg string) (Vary, error) {
	key, spec, ok := strings.Cut(arg, "=")
	key, spec = strings.TrimSpace(key), strings.TrimSpace(spec)
	if !ok || key == "" {
		return Vary{}, fmt.Errorf("--vary %q: want KEY=start:stop:step or KEY=v1,v2,... (e.g. traffic.load=0.05:0.6:0.05)", arg)
	}
	if err := CheckKey(key); err != nil {
		return Vary{}, fmt.Errorf("--vary %v", err)
	}
	v := Vary{Key: key, Spec: spec}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("--vary %s=%s: %s", key, spec, fmt.Sprintf(format, args...))
	}
	switch {
	case spec == "":
		return v, bad("no values (allowed: start:stop:step, or a list v1,v2,...)")
	case strings.ContainsAny(spec, ",;"):
		sep := ","
		if strings.Contains(spec, ";") {
			sep = ";"
		}
		for _, s := range strings.Split(spec, sep) {
			s = strings.TrimSpace(s)
			if s == "" {
				return v, bad("an empty value in the list (allowed: values separated by %q)", sep)
			}
			if slices.Contains(v.Values, s) {
				return v, bad("value %s given twice (allowed: each value once)", s)
			}
			v.Values = append(v.Values, s)
		}
		if len(v.Values) > MaxPoints {
			return v, bad("%d values (allowed: at most %d)", len(v.Values), MaxPoints)
		}
	case strings.Contains(spec, ":"):
		vals, err := expandRange(spec)
		if err != nil {
			return v, bad("%v", err)
		}
		v.Values = vals
	default:
		v.Values = []string{spec}
	}
	return v, nil
}

// CheckKey checks that key is a configuration key holding a single value.
func CheckKey(key string) error {
	keys := configs.Keys()
	path := strings.Split(key, ".")
	for i := range path {
		prefix := strings.Join(path[:i], ".")
		var level []string
		for _, k := range keys {
			rest, ok := k.Key, true
			if prefix != "" {
				rest, ok = strings.CutPrefix(k.Key, prefix+".")
			}
			if !ok {
				continue
			}
			name, _, _ := strings.Cut(rest, ".")
			if !slices.Contains(level, name) {
				level = append(level, name)
			}
		}
		if len(level) == 0 {
			return &inputerr.Error{Key: strings.Join(path[:i+1], "."),
				Problem: "unknown key (" + prefix + " is a single value, not a block of keys)"}
		}
		if !slices.Contains(level, path[i]) {
			return &inputerr.Error{Key: strings.Join(path[:i+1], "."), Problem: "unknown key",
				Allowed: levelName(prefix) + ": " + strings.Join(level, ", ")}
		}
	}
	var below []string
	for _, k := range keys {
		if k.Key == key {
			return nil
		}
		if strings.HasPrefix(k.Key, key+".") {
			below = append(below, k.Key)
		}
	}
	return &inputerr.Error{Key: key, Value: "a block of keys",
		Allowed: "one of its keys: " + strings.Join(below, ", ")}
}

// levelName names the keys below prefix as an unknown-key error lists them.
func levelName(prefix string) string {
	if prefix == "" {
		return "top-level keys"
	}
	return "keys in " + prefix
}

// expandRange expands "start:stop:step". Integer literals give exact
// integers; otherwise value i is start + i·step rounded to the decimals the
// literals use, and stop itself when within 1e-9 of a step of it.
func expandRange(spec string) ([]string, error) {
	parts := strings.Split(spec, ":")
	if len(parts) != 3 {
		return nil, fmt.Errorf("a range needs three numbers start:stop:step (allowed: e.g. 0.05:0.6:0.05, or a list v1,v2,...)")
	}
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	var ints [3]int64
	allInt := true
	for i, p := range parts {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			allInt = false
			break
		}
		ints[i] = n
	}
	if allInt {
		start, stop, step := ints[0], ints[1], ints[2]
		if step <= 0 {
			return nil, fmt.Errorf("step %s is not allowed (allowed: a step > 0)", parts[2])
		}
		if start > stop {
			return nil, fmt.Errorf("empty range: start %s > stop %s (allowed: start ≤ stop)", parts[0], parts[1])
		}
		span := uint64(stop - start) // no overflow: stop ≥ start
		n := span/uint64(step) + 1
		if n > MaxPoints {
			return nil, fmt.Errorf("%d values (allowed: at most %d)", n, MaxPoints)
		}
		out := make([]string, n)
		for i := range out {
			out[i] = strconv.FormatInt(start+int64(i)*step, 10)
		}
		return out, nil
	}
	var f [3]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			name := [3]string{"start", "stop", "step"}[i]
			return nil, fmt.Errorf("%s %q is not a number (allowed: start:stop:step of finite numbers)", name, p)
		}
		f[i] = x
	}
	start, stop, step := f[0], f[1], f[2]
	if step <= 0 {
		return nil, fmt.Errorf("step %s is not allowed (allowed: a step > 0)", parts[2])
	}
	if start > stop {
		return nil, fmt.Errorf("empty range: start %s > stop %s (allowed: start ≤ stop)", parts[0], parts[1])
	}
	steps := (stop-start)/step + 1e-9
	if steps+1 > MaxPoints {
		return nil, fmt.Errorf("more than %d values (allowed: at most %d)", MaxPoints, MaxPoints)
	}
	n := int(math.Floor(steps)) + 1
	dec := max(decimals(parts[0]), decimals(parts[2]))
	out := make([]string, n)
	for i := range out {
		x := start + float64(i)*step
		if math.Abs(x-stop) <= 1e-9*step {
			out[i] = formatDec(stop, max(dec, decimals(parts[1])))
			continue
		}
		out[i] = formatDec(x, dec)
	}
	// Rounding may not merge two values, but guard against it anyway.
	for i := 1; i < n; i++ {
		if out[i] == out[i-1] {
			return nil, fmt.Errorf("step %s is too small for the values to differ (allowed: a larger step)", parts[2])
		}
	}
	return out, nil
}

// decimals is the number of decimal places a number literal uses (1.25 → 2,
// 5e-3 → 3, 1e2 → 0); -1 if it needs more than 15.
func decimals(lit string) int {
	mant, exp := lit, 0
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		mant = lit[:i]
		e, err := strconv.Atoi(lit[i+1:])
		if err != nil {
			return -1
		}
		exp = e
	}
	d := 0
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		d = len(mant) - i - 1
	}
	d -= exp
	if d < 0 {
		d = 0
	}
	if d > 15 {
		return -1
	}
	return d
}

// formatDec writes x rounded to dec decimals without trailing zeros; with
// dec < 0, to 12 significant digits.
func formatDec(x float64, dec int) string {
	var s string
	if dec < 0 {
		x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
		s = strconv.FormatFloat(x, 'f', -1, 64)
	} else {
		s = strconv.FormatFloat(x, 'f', dec, 64)
		if strings.Contains(s, ".") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// Values returns the values of point i (0 ≤ i < Points), one per varied
// key: the last key changes fastest.
func (s *Spec) Values(i int) []string {
	out := make([]string, len(s.Vary))
	for j := len(s.Vary) - 1; j >= 0; j-- {
		n := len(s.Vary[j].Values)
		out[j] = s.Vary[j].Values[i%n]
		i /= n
	}
	return out
}

// Label describes point i: "traffic.load=0.1, topology.k=4".
func (s *Spec) Label(i int) string {
	vals := s.Values(i)
	parts := make([]string, len(vals))
	for j, v := range vals {
		parts[j] = s.Vary[j].Key + "=" + v
	}
	return strings.Join(parts, ", ")
}

// PointSets is the --set list of point i: the sweep's sets, then the point's
// values.
func (s *Spec) PointSets(i int) []string {
	sets := append([]string{}, s.Sets...)
	for j, v := range s.Values(i) {
		sets = append(sets, s.Vary[j].Key+"="+v)
	}
	return sets
}

// Load loads and validates point i's config like `flitsim run` would. An
// error about a varied key's value names the --vary flag; other errors that
// only this point has name the point.
func (s *Spec) Load(i int) (network.Config, error) {
	cfg, _, err := s.LoadWarn(i)
	return cfg, err
}

// LoadWarn is Load that also returns the point's warnings (keys given that
// do nothing for its topology kind or traffic pattern: configs.LoadWarn).
func (s *Spec) LoadWarn(i int) (network.Config, []string, error) {
	cfg, warnings, err := configs.LoadBytesWarn([]byte(s.Config), s.ConfigName, s.PointSets(i))
	if err == nil {
		return cfg, warnings, nil
	}
	cfg, err = s.pointErr(i, err)
	return cfg, nil, err
}

// pointErr names the --vary flag or the point in point i's load error.
func (s *Spec) pointErr(i int, err error) (network.Config, error) {
	var cfg network.Config
	if pe, ok := inputerr.As(err); ok && pe.Pos == inputerr.CommandLine {
		for _, v := range s.Vary {
			if v.Key == pe.Key {
				return cfg, fmt.Errorf("--vary %v", pe.At(""))
			}
		}
	}
	// The same error without the sweep's values: not the sweep's doing.
	if _, baseErr := configs.LoadBytes([]byte(s.Config), s.ConfigName, s.Sets); baseErr != nil && baseErr.Error() == err.Error() {
		return cfg, err
	}
	return cfg, fmt.Errorf("sweep point %d (%s): %v", i, s.Label(i), err)
}

// Equal reports whether s and t describe the same sweep (the config file's
// text, the sets and the varied keys' values; names and specs may differ).
// If not, why says what differs.
func (s *Spec) Equal(t *Spec) (ok bool, why string) {
	switch {
	case s.Config != t.Config:
		return false, fmt.Sprintf("the base config differs (%s vs %s)", s.ConfigName, t.ConfigName)
	case !slices.Equal(s.Sets, t.Sets):
		return false, fmt.Sprintf("the --set overrides differ (%q vs %q)", s.Sets, t.Sets)
	case len(s.Vary) != len(t.Vary):
		return false, fmt.Sprintf("the varied keys differ (%s vs %s)", s.varyKeys(), t.varyKeys())
	}
	for j := range s.Vary {
		a, b := s.Vary[j], t.Vary[j]
		if a.Key != b.Key {
			return false, fmt.Sprintf("the varied keys differ (%s vs %s)", s.varyKeys(), t.varyKeys())
		}
		if !slices.Equal(a.Values, b.Values) {
			return false, fmt.Sprintf("the values of %s differ (%s vs %s)", a.Key, a.Spec, b.Spec)
		}
	}
	if s.Points != t.Points {
		return false, fmt.Sprintf("the number of points differs (%d vs %d)", s.Points, t.Points)
	}
	return true, ""
}

func (s *Spec) varyKeys() string {
	keys := make([]string, len(s.Vary))
	for j, v := range s.Vary {
		keys[j] = v.Key
	}
	return strings.Join(keys, ",")
}

// Shard is part i of n of a sweep (1 ≤ I ≤ N): the points whose index is
// ≡ I−1 mod N. The zero Shard is the whole sweep.
type Shard struct{ I, N int }

// ParseShard reads "i/n".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, inputerr.New("--shard", strconv.Quote(s), "i/n with 1 ≤ i ≤ n, e.g. 2/3")
	}
	return Shard{i, n}, nil
}

// Whole reports whether sh is the whole sweep (the zero Shard).
func (sh Shard) Whole() bool { return sh.N == 0 }

func (sh Shard) String() string {
	if sh.Whole() {
		return ""
	}
	return fmt.Sprintf("%d/%d", sh.I, sh.N)
}

// Holds reports whether point i belongs to the shard.
func (sh Shard) Holds(i int) bool { return sh.Whole() || i%sh.N == sh.I-1 }

// Indices lists the points of a grid of size points that the shard holds.
func (sh Shard) Indices(points int) []int {
	var out []int
	for i := 0; i < points; i++ {
		if sh.Holds(i) {
			out = append(out, i)
		}
	}
	return out
}
