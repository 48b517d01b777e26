package main

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/flitsim/flitsim/verify"
)

func TestVerify(t *testing.T) {
	old := verifyRun
	defer func() { verifyRun = old }()
	rows := []verify.Row{
		{ID: "a", Source: "paper", Claim: "x", Published: "1", Measured: "1.01", Tolerance: "within 5 percent", Status: verify.Pass, Seconds: 1.25},
		{ID: "d", Source: "paper", Claim: "y", Published: "19", Measured: "18", Tolerance: "exact", Status: verify.Deviation,
			Reason: "the format gives 18 " + strings.Repeat("and a long reason ", 20), Seconds: 0.5},
	}
	verifyRun = func() ([]verify.Row, error) { return rows, nil }
	// A deviation is shown with its reason but does not fail the command.
	code, out, _ := runMain(t, "verify")
	for _, want := range []string{"TOLERANCE", "TIME", "within 5 percent", "1.2s", "deviation", "why a deviation: the format gives 18",
		"2 claims: 1 pass, 1 deviation, 0 fail, 0 error"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("verify: exit %d, output lacks %q\n%s", code, want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 120 {
			t.Errorf("verify: line of %d characters (> 120): %q", n, l)
		}
	}
	code, out, _ = runMain(t, "verify", "--format", "json")
	var got []verify.Row
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || !slices.Equal(got, rows) {
		t.Errorf("verify json: exit %d\n%s", code, out)
	}
	for _, field := range []string{`"tolerance": "within 5 percent"`, `"seconds": 1.25`, `"status": "deviation"`, `"reason": "the format`} {
		if !strings.Contains(out, field) {
			t.Errorf("verify json lacks %s:\n%s", field, out)
		}
	}
	rows = append(rows, verify.Row{ID: "b", Measured: "2", Status: verify.Fail})
	wantFail(t, 1, []string{"verify"}, "1 of 3 claims failed")
	verifyRun = func() ([]verify.Row, error) {
		return []verify.Row{{ID: "c", Measured: "no\nway", Status: verify.Error}}, errors.New("c: no\nway")
	}
	wantFail(t, 1, []string{"verify"}, "1 of 1 claims failed", "c: no; way")
}

func TestWrapText(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  []string
	}{
		{"", 5, []string{""}},
		{"a b c", 3, []string{"a b", "c"}},
		{"chiang-table3.1-3-hierarchical-bit-string", 24, []string{"chiang-table3.1-3-", "hierarchical-bit-string"}},
		{"abcdefgh", 3, []string{"abc", "def", "gh"}},
		{"x ≈ ¼ ÷", 5, []string{"x ≈ ¼", "÷"}},
	} {
		if got := wrapText(c.in, c.width); !slices.Equal(got, c.want) {
			t.Errorf("wrapText(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}
