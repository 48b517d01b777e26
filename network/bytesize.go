package network

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ByteSize is an amount of memory in bytes (run.max_memory). YAML and
// --set accept a plain number of bytes or a number with a unit: B, kB, MB,
// GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024), in any
// case, with or without a space: 8GiB, 512MB, "19.2 GB".
type ByteSize int64

// byteUnits are the accepted units, by lower-case name.
var byteUnits = map[string]float64{
	"": 1, "b": 1,
	"k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
}

// ByteSizeAllowed says what ParseByteSize accepts (error messages).
const ByteSizeAllowed = "a size in bytes like 8GiB, 512MB or 2000000000 (units B, kB, MB, GB, TB, KiB, MiB, GiB, TiB)"

// ParseByteSize reads a size such as "8GiB", "512 MB" or "1500000".
func ParseByteSize(s string) (ByteSize, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' && r != 'e' && r != 'E' && r != '+' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = strings.TrimSpace(t[:i]), strings.ToLower(strings.TrimSpace(t[i:]))
	}
	f, err := strconv.ParseFloat(num, 64)
	mult, ok := byteUnits[unit]
	if err != nil || !ok || f < 0 || math.IsInf(f, 0) || f*mult >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is not %s", s, ByteSizeAllowed)
	}
	return ByteSize(math.Round(f * mult)), nil
}

// UnmarshalYAML accepts a number of bytes or a size with a unit.
func (b *ByteSize) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: want %s", n.Line, ByteSizeAllowed)
	}
	v, err := ParseByteSize(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %v", n.Line, err)
	}
	*b = v
	return nil
}

// MarshalYAML writes the short form.
func (b ByteSize) MarshalYAML() (any, error) { return b.String(), nil }

// String writes the size with the largest binary unit that divides it
// exactly (8GiB, 1536MiB), else in bytes; 0 is "0".
func (b ByteSize) String() string {
	for _, u := range []struct {
		name string
		v    ByteSize
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if b != 0 && b%u.v == 0 {
			return strconv.FormatInt(int64(b/u.v), 10) + u.name
		}
	}
	return strconv.FormatInt(int64(b), 10)
}

// Human writes the size in decimal units with three significant digits
// ("32.1 GB", "512 MB"), as the memory check's message gives it.
func (b ByteSize) Human() string {
	f := float64(b)
	for _, u := range []string{"B", "kB", "MB", "GB", "TB", "PB"} {
		if f < 999.5 || u == "PB" {
			if u == "B" {
				return fmt.Sprintf("%d B", int64(b))
			}
			return strconv.FormatFloat(f, 'g', 3, 64) + " " + u
		}
		f /= 1000
	}
	return ""
}
