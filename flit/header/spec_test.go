package header

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
)

func TestParseDests(t *testing.T) {
	for spec, want := range map[string][]int{
		"1:12:1,32:50:2,90": append(append(span(1, 12), 32, 34, 36, 38, 40, 42, 44, 46, 48, 50), 90),
		"5":                 {5},
		" 3 , 1 ,3":         {1, 3},
		"1:6:2":             {1, 3, 5},
		"0:255:100":         {0, 100, 200},
		"7:7":               {7},
		"2:4,3:5":           {2, 3, 4, 5},
	} {
		got, err := ParseDests(spec, 256)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("ParseDests(%q) = %v, %v; want %v", spec, got, err, want)
		}
	}
	for spec, part := range map[string]string{
		"":        "e.g. 1:12:1",
		"1,,2":    `"" (not a non-negative integer`,
		"a":       `"a"`,
		"-1":      "non-negative",
		"+1":      "non-negative",
		"1:2:3:4": "more than three fields",
		"5:3":     "begin after end",
		"1:9:0":   "stride below 1",
		"256":     "node 256 ≥ 256 nodes",
		"1:300":   "node 300 ≥ 256 nodes",
		"1:2:x":   `"x"`,
	} {
		_, err := ParseDests(spec, 256)
		var e *inputerr.Error
		if !errors.As(err, &e) || e.Key != "dests" || !strings.Contains(err.Error(), part) {
			t.Errorf("ParseDests(%q) = %v, want a dests error containing %q", spec, err, part)
		}
	}
}

func TestFormatDests(t *testing.T) {
	d, _ := ParseDests(Table31Patterns[0], 256)
	if got := FormatDests(d); got != "1:12,32:50:2,60:75,90:117:3" {
		t.Errorf("FormatDests(pattern 1) = %q", got)
	}
	if got := FormatDests([]int{9, 1, 3, 4}); got != "1,3,4,9" && got != "1:3:2,4,9" {
		t.Errorf("FormatDests = %q", got)
	}
}

// Whatever the input, ParseDests either fails with a one-line dests error
// (items are quoted, so a newline in the input stays escaped) or gives a
// sorted, duplicate-free, in-range set that FormatDests writes back to the
// same set.
func FuzzParseDests(f *testing.F) {
	for _, s := range append(Table31Patterns[:], "", ",", "1:", ":1", "0:0:0", "1:12:1,32:50:2,90", "9999999999999999999", "0:199:9223372036854775807", " 4 : 8 : 2 ") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		d, err := ParseDests(spec, 200)
		if err != nil {
			var e *inputerr.Error
			if !errors.As(err, &e) || e.Key != "dests" || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("ParseDests(%q): %v", spec, err)
			}
			return
		}
		if len(d) == 0 || d[0] < 0 || d[len(d)-1] >= 200 || !slices.IsSorted(d) || len(slices.Compact(slices.Clone(d))) != len(d) {
			t.Fatalf("ParseDests(%q) = %v", spec, d)
		}
		back, err := ParseDests(FormatDests(d), 200)
		if err != nil || !slices.Equal(back, d) {
			t.Fatalf("round trip of %v via %q: %v, %v", d, FormatDests(d), back, err)
		}
	})
}
