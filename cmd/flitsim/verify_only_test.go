package main

import (
	"strings"
	"testing"

	"github.com/flitsim/flitsim/verify"
)

// TestVerifyOnly: --only hands its prefix to verify.RunOnly (plain verify
// does not), and a prefix no claim has is bad input: one line, exit 2.
func TestVerifyOnly(t *testing.T) {
	oldRun, oldOnly := verifyRun, verifyRunOnly
	defer func() { verifyRun, verifyRunOnly = oldRun, oldOnly }()
	var got []string
	verifyRun = func() ([]verify.Row, error) { got = append(got, "all"); return nil, nil }
	verifyRunOnly = func(p string) ([]verify.Row, error) {
		got = append(got, p)
		if p != "brebner" {
			return nil, nil
		}
		return []verify.Row{{ID: "brebner-3-01-n2-time", Status: verify.Pass, Seconds: 0.1}}, nil
	}
	if code, out, _ := runMain(t, "verify", "--only", "brebner"); code != 0 || !strings.Contains(out, "brebner-3-01") {
		t.Errorf("--only brebner: exit %d\n%s", code, out)
	}
	code, _, errOut := runMain(t, "verify", "--only", "nonsense")
	if code != 2 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "--only: nonsense is not allowed") {
		t.Errorf("--only nonsense: exit %d, %q", code, errOut)
	}
	if strings.Join(got, ",") != "brebner,nonsense" {
		t.Errorf("calls %v", got)
	}
}
