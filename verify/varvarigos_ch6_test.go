package verify

import "testing"

// TestCSRPlainRows: the plain rows of ch. 6 pass (Table 6.1's quick rows,
// arrival in exactly d slots, no lockout).
func TestCSRPlainRows(t *testing.T) {
	for _, id := range []string{"varvarigos-ch6-table61-quick", "varvarigos-ch6-csr-exactly-d", "varvarigos-ch6-csr-no-lockout"} {
		if r := measure(claim(t, id)); r.Status != Pass {
			t.Errorf("%s: %s (%s)", id, r.Status, r.Measured)
		}
	}
}

// TestCSRTable61Explains: only the two light rows, where the thesis's
// simulation sits more than 1 % above its own analysis, may be explained
// as deviations.
func TestCSRTable61Explains(t *testing.T) {
	for i := range csrTable61 {
		if got := csrTable61Explain(i)() != ""; got != (i < 2) {
			t.Errorf("row %d: explained %v", i+1, got)
		}
	}
}
