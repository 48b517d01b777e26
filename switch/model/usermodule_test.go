package model_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A switch model in a module of its own (testdata/usermodel: main.go)
// builds against the public seam — Go refuses any internal import across
// modules — registers by name and runs on the 8×8 mesh: every cycle is
// one Step of the user's model and every measured packet is delivered.
// The module is written in a temporary folder: its go.mod requires what
// flitsim's does and replaces flitsim by this checkout, its go.sum is
// flitsim's (so the build needs no network).
func TestUserModule(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var reqs []string
	for _, m := range regexp.MustCompile(`(?m)^\t(\S+) (\S+)`).FindAllStringSubmatch(string(gomod), -1) {
		reqs = append(reqs, "\t"+m[1]+" "+m[2]+" // indirect")
	}
	dir := t.TempDir()
	mod := "module example.com/usermodel\n\ngo 1.26\n\nrequire github.com/flitsim/flitsim v0.0.0\n\nrequire (\n" +
		strings.Join(reqs, "\n") + "\n)\n\nreplace github.com/flitsim/flitsim => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ from, to string }{{filepath.Join(root, "go.sum"), "go.sum"}, {"testdata/usermodel/main.go", "main.go"}} {
		data, err := os.ReadFile(f.from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.to), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=readonly")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run in a module of its own: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`status ok, steps (\d+) = cycles (\d+), measured (\d+) of (\d+) delivered, sends (\d+)`).FindStringSubmatch(string(out))
	if m == nil || m[1] != m[2] || m[3] != m[4] || m[3] == "0" || m[5] == "0" {
		t.Fatalf("the user's model: %s", out)
	}
}
