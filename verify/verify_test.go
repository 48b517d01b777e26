package verify

import (
	"errors"
	"fmt"
	"testing"
)

// Every registered claim reproduces its published value, or, for a claim
// that documents why it cannot, what its documented reading predicts.
func TestClaimsPass(t *testing.T) {
	rows, err := Run()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("no claims registered")
	}
	deviation, explains := map[string]bool{}, map[string]bool{}
	for _, c := range Claims() {
		deviation[c.ID], explains[c.ID] = c.Deviation != "", c.Explain != nil
	}
	for _, r := range rows {
		want := Pass
		if deviation[r.ID] || explains[r.ID] && r.Status == Deviation && r.Reason != "" {
			// (Explain: the measurement fits an independent reading that
			// the paper does not; the reason says which.)
			want = Deviation
		}
		if r.Status != want || r.Seconds <= 0 {
			t.Errorf("%s (%s): published %s, measured %s: %s in %gs, want %s", r.ID, r.Source, r.Published, r.Measured, r.Status, r.Seconds, want)
		}
	}
}

// measure maps Measure's outcome to a status: a deviation claim never
// passes, and a run that fell short fails rather than erring.
func TestMeasureStatus(t *testing.T) {
	m := func(s string, ok bool, err error) func() (string, bool, error) {
		return func() (string, bool, error) { return s, ok, err }
	}
	for _, c := range []struct {
		claim  Claim
		status string
	}{
		{Claim{ID: "p", Measure: m("1", true, nil)}, Pass},
		{Claim{ID: "f", Measure: m("2", false, nil)}, Fail},
		{Claim{ID: "d", Deviation: "the paper's table is inconsistent", Measure: m("18", true, nil)}, Deviation},
		{Claim{ID: "df", Deviation: "why", Measure: m("17", false, nil)}, Fail},
		{Claim{ID: "s", Measure: m("", false, fmt.Errorf("fig.yaml: 72 of 4370: %w", ErrShortfall))}, Fail},
		{Claim{ID: "e", Measure: m("", false, errors.New("no such file"))}, Error},
		{Claim{ID: "x", Measure: func() (string, bool, error) { panic("boom") }}, Error},
	} {
		r := measure(c.claim)
		if r.Status != c.status {
			t.Errorf("%s: status %s, want %s (measured %q)", c.claim.ID, r.Status, c.status, r.Measured)
		}
		if (r.Status == Deviation) != (r.Reason != "") {
			t.Errorf("%s: status %s with reason %q", c.claim.ID, r.Status, r.Reason)
		}
	}
}

func TestRegisterRejectsBadClaims(t *testing.T) {
	for name, c := range map[string]Claim{
		"no id":      {Measure: func() (string, bool, error) { return "", true, nil }},
		"no measure": {ID: "x"},
		"duplicate":  {ID: "varvarigos-hypercube-mid", Measure: func() (string, bool, error) { return "", true, nil }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Register did not panic", name)
				}
			}()
			Register(c)
		}()
	}
}
