package verify

import "testing"

// Every registered claim reproduces its published value.
func TestClaimsPass(t *testing.T) {
	rows, err := Run()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("no claims registered")
	}
	for _, r := range rows {
		if r.Status != Pass {
			t.Errorf("%s (%s): published %s, measured %s: %s", r.ID, r.Source, r.Published, r.Measured, r.Status)
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
