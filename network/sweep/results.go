package sweep

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/network"
)

// Format marks a sweep result file.
const Format = "flitsim-sweep/1"

// File is a sweep's results (results.json) or one shard's
// (results-shard-i-of-n.json).
type File struct {
	Format string `json:"format"`
	Sweep  Spec   `json:"sweep"`
	// Shard is "i/n" for a shard's file, empty for a whole sweep.
	Shard string `json:"shard,omitempty"`
	// Rows are the points held, in grid order.
	Rows []Row `json:"results"`
}

// Row is one point: its index, the varied keys' values, then what it
// measured.
type Row struct {
	Point  int
	Values []KV
	Metrics
}

// KV is a varied key's value.
type KV struct{ Key, Value string }

// Metrics is the flattened part of a network.Result a sweep keeps.
type Metrics struct {
	Offered            Float `json:"offered"`
	Throughput         Float `json:"throughput"`
	LatencyMean        Float `json:"latency_mean"`
	LatencyP50         Float `json:"latency_p50"`
	LatencyP95         Float `json:"latency_p95"`
	LatencyP99         Float `json:"latency_p99"`
	LatencyMax         Float `json:"latency_max"`
	LatencyCI95        Float `json:"latency_ci95"`
	NetworkLatencyMean Float `json:"network_latency_mean"`
	Hops               Float `json:"hops"`
	ChannelUtilMean    Float `json:"channel_util_mean"`
	ChannelUtilMax     Float `json:"channel_util_max"`
	// SystemUtilization is blocking tasks' share of time computing
	// (Chiang's ρ; null for other traffic).
	SystemUtilization *Float `json:"system_utilization"`
	Cycles            int64  `json:"cycles"`
	DeadlockCycle     *int64 `json:"deadlock_cycle"`
	Incomplete        bool   `json:"incomplete"`
	Saturated         bool   `json:"saturated"`
	// Status is the run's verdict (network.Judge): ok, incomplete,
	// saturated, stall, deadlock or interrupted.
	Status string `json:"status"`
}

// Float is a float64 whose JSON form is null for NaN and ±Inf.
type Float float64

// MarshalJSON writes the shortest form, or null if not finite.
func (f Float) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, x, 'g', -1, 64), nil
}

// UnmarshalJSON reads a number, or null as NaN.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	var x float64
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	*f = Float(x)
	return nil
}

// NewRow flattens point i's result.
func NewRow(s *Spec, i int, r *network.Result) Row {
	row := Row{Point: i}
	for j, v := range s.Values(i) {
		row.Values = append(row.Values, KV{s.Vary[j].Key, v})
	}
	row.Metrics = Metrics{
		Offered: Float(r.Offered), Throughput: Float(r.Throughput),
		LatencyMean: Float(r.Latency.Mean), LatencyP50: Float(r.Latency.P50),
		LatencyP95: Float(r.Latency.P95), LatencyP99: Float(r.Latency.P99),
		LatencyMax: Float(r.Latency.Max), LatencyCI95: Float(r.Latency.CI95),
		NetworkLatencyMean: Float(r.NetworkLatency.Mean), Hops: Float(r.Hops),
		ChannelUtilMean: Float(r.ChannelUtilMean), ChannelUtilMax: Float(r.ChannelUtilMax),
		Cycles: r.Cycles, Incomplete: r.Incomplete, Saturated: r.Saturated, Status: r.Status,
	}
	if r.SystemUtilization != nil {
		u := Float(*r.SystemUtilization)
		row.SystemUtilization = &u
	}
	if r.Latency.Count == 0 {
		// No packet measured: no latency (null, an empty CSV cell), not 0.
		nan := Float(math.NaN())
		m := &row.Metrics
		m.LatencyMean, m.LatencyP50, m.LatencyP95, m.LatencyP99, m.LatencyMax, m.LatencyCI95 = nan, nan, nan, nan, nan, nan
		m.NetworkLatencyMean, m.Hops = nan, nan
	}
	if r.Deadlock != nil {
		c := r.Deadlock.Cycle
		row.DeadlockCycle = &c
	}
	return row
}

// Value returns the row's value of a varied key ("" if absent).
func (r *Row) Value(key string) string {
	for _, kv := range r.Values {
		if kv.Key == key {
			return kv.Value
		}
	}
	return ""
}

// jsonNumber matches a JSON number literal.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// MarshalJSON writes one flat object: "point", the varied keys (a value
// that reads as a JSON number or boolean is written as one, exactly as
// given), then the metrics.
func (r Row) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"point":%d`, r.Point)
	for _, kv := range r.Values {
		k, _ := json.Marshal(kv.Key)
		b.WriteByte(',')
		b.Write(k)
		b.WriteByte(':')
		if jsonNumber.MatchString(kv.Value) || kv.Value == "true" || kv.Value == "false" {
			b.WriteString(kv.Value)
		} else {
			v, _ := json.Marshal(kv.Value)
			b.Write(v)
		}
	}
	m, err := json.Marshal(r.Metrics)
	if err != nil {
		return nil, err
	}
	b.WriteByte(',')
	b.Write(m[1:])
	return b.Bytes(), nil
}

var metricNames = func() map[string]bool {
	m := map[string]bool{}
	t := reflect.TypeFor[Metrics]()
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		m[name] = true
	}
	return m
}()

// UnmarshalJSON reads what MarshalJSON writes; keys that are neither
// "point" nor a metric are varied keys, in the order written.
func (r *Row) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errors.New("a result row must be an object")
	}
	metrics := map[string]json.RawMessage{}
	*r = Row{Point: -1}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		switch {
		case key == "point":
			if err := json.Unmarshal(raw, &r.Point); err != nil {
				return fmt.Errorf("point: %v", err)
			}
		case metricNames[key]:
			metrics[key] = raw
		default:
			v := string(raw)
			if strings.HasPrefix(v, `"`) {
				if err := json.Unmarshal(raw, &v); err != nil {
					return err
				}
			}
			r.Values = append(r.Values, KV{key, v})
		}
	}
	if _, ok := metrics["system_utilization"]; !ok {
		metrics["system_utilization"] = json.RawMessage("null") // (results written before it existed)
	}
	for name := range metricNames {
		if _, ok := metrics[name]; !ok {
			return fmt.Errorf("point %d lacks %q", r.Point, name)
		}
	}
	m, _ := json.Marshal(metrics)
	return json.Unmarshal(m, &r.Metrics)
}

// WriteJSON writes f, indented.
func (f *File) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}

// Header is the CSV header: point, the varied keys, then the metrics.
func (f *File) Header() []string {
	h := []string{"point"}
	for _, v := range f.Sweep.Vary {
		h = append(h, v.Key)
	}
	t := reflect.TypeFor[Metrics]()
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		h = append(h, name)
	}
	return h
}

// Cells writes a row as CSV cells (an empty cell for a non-finite number or
// no deadlock).
func (r *Row) Cells() []string {
	c := []string{strconv.Itoa(r.Point)}
	for _, kv := range r.Values {
		c = append(c, kv.Value)
	}
	v := reflect.ValueOf(r.Metrics)
	for i := 0; i < v.NumField(); i++ {
		switch x := v.Field(i).Interface().(type) {
		case Float:
			c = append(c, floatCell(x))
		case *Float:
			if x == nil {
				c = append(c, "")
			} else {
				c = append(c, floatCell(*x))
			}
		case int64:
			c = append(c, strconv.FormatInt(x, 10))
		case *int64:
			if x == nil {
				c = append(c, "")
			} else {
				c = append(c, strconv.FormatInt(*x, 10))
			}
		case bool:
			c = append(c, strconv.FormatBool(x))
		case string:
			c = append(c, x)
		default:
			panic(fmt.Sprintf("sweep: metric of type %T", x))
		}
	}
	return c
}

// floatCell is a CSV cell: empty for a non-finite number.
func floatCell(x Float) string {
	if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
		return ""
	}
	return strconv.FormatFloat(float64(x), 'g', -1, 64)
}

// WriteCSV writes the header and one line per row.
func (f *File) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(f.Header())
	for i := range f.Rows {
		cw.Write(f.Rows[i].Cells())
	}
	cw.Flush()
	return cw.Error()
}

// Names of the files a sweep writes into its output folder.
const (
	ResultsJSON = "results.json"
	ResultsCSV  = "results.csv"
)

// BaseName is the results file name without extension: "results", or
// "results-shard-i-of-n" for a shard.
func (f *File) BaseName() string {
	if f.Shard == "" {
		return "results"
	}
	i, n, _ := strings.Cut(f.Shard, "/")
	return "results-shard-" + i + "-of-" + n
}

// ReadFile reads a sweep result file (a whole sweep's or a shard's).
func ReadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read: %v", path, unwrapPath(err))
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: not a flitsim sweep result file (%v)", path, err)
	}
	if f.Format != Format {
		return nil, fmt.Errorf("%s: not a flitsim sweep result file (format %q, allowed: %q)", path, f.Format, Format)
	}
	if f.Sweep.Points < 0 || f.Sweep.Points > MaxPoints {
		return nil, fmt.Errorf("%s: sweep.points %d is not allowed (allowed: 0 to %d)", path, f.Sweep.Points, MaxPoints)
	}
	size := 1
	for _, v := range f.Sweep.Vary {
		if len(v.Values) == 0 || size > MaxPoints/len(v.Values) {
			size = -1
			break
		}
		size *= len(v.Values)
	}
	if size != f.Sweep.Points {
		return nil, fmt.Errorf("%s: sweep.points is %d but the varied values make %d points", path, f.Sweep.Points, size)
	}
	var shard Shard
	if f.Shard != "" {
		if shard, err = ParseShard(f.Shard); err != nil {
			return nil, fmt.Errorf("%s: shard: %v", path, err)
		}
	}
	for k := range f.Rows {
		r := &f.Rows[k]
		if r.Point < 0 || r.Point >= f.Sweep.Points {
			return nil, fmt.Errorf("%s: point %d is not allowed (allowed: 0 to %d)", path, r.Point, f.Sweep.Points-1)
		}
		if !shard.Holds(r.Point) {
			return nil, fmt.Errorf("%s: point %d does not belong to shard %s", path, r.Point, f.Shard)
		}
		want := f.Sweep.Values(r.Point)
		ok := len(r.Values) == len(want)
		for j := 0; ok && j < len(want); j++ {
			ok = r.Values[j].Key == f.Sweep.Vary[j].Key && r.Values[j].Value == want[j]
		}
		if !ok {
			return nil, fmt.Errorf("%s: point %d has values %s, the sweep's point %d is %s",
				path, r.Point, describeKV(r.Values), r.Point, f.Sweep.Label(r.Point))
		}
	}
	return &f, nil
}

func describeKV(kvs []KV) string {
	parts := make([]string, len(kvs))
	for i, kv := range kvs {
		parts[i] = kv.Key + "=" + kv.Value
	}
	return strings.Join(parts, ", ")
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Merge joins shard files (read by ReadFile; names are their paths, for
// messages) into the whole sweep's results. The files must describe the same
// sweep, and together hold every point exactly once.
func Merge(files []*File, names []string) (*File, error) {
	if len(files) == 0 {
		return nil, errors.New("merge: no result files given (allowed: shard JSON files, or a folder holding results-shard-*.json)")
	}
	ref := &files[0].Sweep
	for k := 1; k < len(files); k++ {
		if ok, why := ref.Equal(&files[k].Sweep); !ok {
			return nil, fmt.Errorf("merge: %s and %s are from different sweeps: %s", names[0], names[k], why)
		}
	}
	from := make([]int, ref.Points) // file index + 1 holding each point
	out := &File{Format: Format, Sweep: *ref, Rows: make([]Row, 0, ref.Points)}
	for k, f := range files {
		for _, r := range f.Rows {
			if prev := from[r.Point]; prev != 0 {
				if prev-1 == k {
					return nil, fmt.Errorf("merge: point %d (%s) appears twice in %s", r.Point, ref.Label(r.Point), names[k])
				}
				return nil, fmt.Errorf("merge: point %d (%s) is in both %s and %s", r.Point, ref.Label(r.Point), names[prev-1], names[k])
			}
			from[r.Point] = k + 1
			out.Rows = append(out.Rows, r)
		}
	}
	var missing []string
	for i, k := range from {
		if k == 0 {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		n := len(missing)
		if n > 20 {
			missing = append(missing[:20], fmt.Sprintf("and %d more", n-20))
		}
		return nil, fmt.Errorf("merge: %d of %d points missing: %s (no file given holds them; points are numbered from 0 in grid order)",
			n, ref.Points, strings.Join(missing, ", "))
	}
	sort.Slice(out.Rows, func(a, b int) bool { return out.Rows[a].Point < out.Rows[b].Point })
	return out, nil
}
