package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
)

// shellOrSkip returns the path of shell sh; without it the test skips,
// except in CI (.ci/run installs zsh and fish), where it fails.
func shellOrSkip(t *testing.T, sh string) string {
	t.Helper()
	p, err := exec.LookPath(sh)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed (.ci/run installs it)", sh)
		}
		t.Skipf("%s is not installed", sh)
	}
	return p
}

// writeCompletion writes flitsim completion SHELL to a file.
func writeCompletion(t *testing.T, sh string) string {
	t.Helper()
	code, out, errs := runMain(t, "completion", sh)
	if code != 0 {
		t.Fatalf("completion %s: exit %d: %s", sh, code, errs)
	}
	f := filepath.Join(t.TempDir(), "flitsim."+sh)
	if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestCompletionScriptsParse(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			p := shellOrSkip(t, sh)
			f := writeCompletion(t, sh)
			if out, err := exec.Command(p, "-n", f).CombinedOutput(); err != nil {
				t.Fatalf("%s -n: %v\n%s", sh, err, out)
			}
		})
	}
	wantFail(t, 2, []string{"completion", "tcsh"}, `"tcsh"`, "bash, zsh, fish")
	wantFail(t, 2, []string{"completion"}, "bash, zsh, fish")
}

// completeCases are command lines (completed at their end) and candidates
// each must offer (and, after "=", only those).
var completeCases = []struct {
	line string
	want []string
}{
	{"flitsim ru", []string{"run"}},
	{"flitsim ver", []string{"verify", "version"}},
	{"flitsim run --se", []string{"--set", "--seed"}},
	{"flitsim run --set topology.ki", []string{"topology.kind="}},
	{"flitsim run --set arbiter=", []string{"round-robin", "oldest", "upper-first", "source", "clock", "grab"}},
	{"flitsim run --set topology.kind=me", []string{"mesh"}},
	{"flitsim run --format ", []string{"table", "json", "csv"}},
	{"flitsim verify -f ", []string{"table", "json"}},
	{"flitsim sweep --vary traffic.lo", []string{"traffic.load="}},
	{"flitsim completion ", []string{"bash", "zsh", "fish"}},
	{"flitsim run --trace-perfetto-tracks ", []string{"worm", "router", "link"}},
	{"flitsim -", []string{"--config", "--trace-vcd"}},
	{"flitsim collective --task ", []string{"mnb", "snb", "te", "pmnb", "dynamic"}},
	{"flitsim collective --task s", []string{"snb", "sns"}},
	{"flitsim layout --set topology.kind=", []string{"torus", "hypercube", "dshuffle", "folded-cube", "permutation-cube", "pseudocube"}},
	{"flitsim help vers", []string{"version"}},
	{"flitsim sweep --plot-scale ", []string{"auto", "linear", "log"}},
}

func checkCandidates(t *testing.T, line string, got, want []string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%q offers %q, want it to include %q", line, got, w)
		}
	}
	if strings.Contains(line, "=") && len(got) != len(want) {
		t.Errorf("%q offers %q, want exactly %q", line, got, want)
	}
}

// TestCompletionBash completes lines with the bash script's function, as
// bash would call it.
func TestCompletionBash(t *testing.T) {
	bash := shellOrSkip(t, "bash")
	f := writeCompletion(t, "bash")
	for _, c := range completeCases {
		script := `source "$1"; COMP_LINE=$2; COMP_POINT=${#COMP_LINE}; _flitsim; printf '%s\n' "${COMPREPLY[@]}"`
		out, err := exec.Command(bash, "-c", script, "bash", f, c.line).CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", c.line, err, out)
		}
		// After "=" (in COMP_WORDBREAKS) bash completes the value alone.
		checkCandidates(t, c.line, strings.Fields(string(out)), c.want)
	}
}

// TestCompletionFish asks fish itself (complete -C) for the candidates.
func TestCompletionFish(t *testing.T) {
	fish := shellOrSkip(t, "fish")
	f := writeCompletion(t, "fish")
	for _, c := range completeCases {
		out, err := exec.Command(fish, "--no-config", "-c", `source $argv[1]; complete -C$argv[2]`, f, c.line).CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", c.line, err, out)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			got = append(got, strings.SplitN(l, "\t", 2)[0]) // candidate, then its description
		}
		want := c.want
		if i := strings.LastIndex(c.line, " "); strings.Contains(c.line[i:], "=") {
			key := c.line[i+1 : strings.Index(c.line, "=")+1]
			want = nil
			for _, w := range c.want {
				want = append(want, key+w) // fish completes the whole word
			}
		}
		checkCandidates(t, c.line, got, want)
	}
}

// TestCompletionZsh loads the script into zsh's completion system, then
// runs _flitsim on each line with compadd, compset and _files replaced by
// functions that print what they are given (zsh has no way to complete
// outside an interactive shell).
func TestCompletionZsh(t *testing.T) {
	zsh := shellOrSkip(t, "zsh")
	f := writeCompletion(t, "zsh")
	script := `autoload -U compinit && compinit -u -d "$2"; source "$1"; whence -w _flitsim`
	out, err := exec.Command(zsh, "-f", "-c", script, "zsh", f, filepath.Join(t.TempDir(), "zcompdump")).CombinedOutput()
	if err != nil || string(out) != "_flitsim: function\n" {
		t.Fatalf("loading the script: %v\n%s", err, out)
	}
	// The stubs do what zsh does: compset -P moves the longest match out of
	// PREFIX, compadd offers the words PREFIX begins, with the -S suffix.
	stubs := `compdef() { : }
compset() { [[ $1 == -P ]] && PREFIX=${PREFIX##$~2} }
compadd() {
    local suf= w
    while [[ $1 != -- ]]; do [[ $1 == -S ]] && { suf=$2; shift }; shift; done; shift
    for w in "$@"; do [[ $w == ${PREFIX}* ]] && print -r -- "$w$suf"; done
    return 0
}
_files() { print -r -- '<files>' }
source "$1"
words=(${=2}); [[ $2 == *" " ]] && words+=(""); CURRENT=${#words}; PREFIX=${words[CURRENT]}
_flitsim || :`
	for _, c := range completeCases {
		out, err := exec.Command(zsh, "-f", "-c", stubs, "zsh", f, c.line).CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", c.line, err, out)
		}
		// After "=" compset drops the key: zsh completes the value alone.
		checkCandidates(t, c.line, strings.Fields(string(out)), c.want)
	}
}

// TestCompletionValues checks the keys' values against what a run accepts:
// each value completed for a key appears in the error a bad value gives.
func TestCompletionValues(t *testing.T) {
	allowed := regexp.MustCompile(`\(allowed: (.*)\)`)
	for key, vals := range keyValues() {
		if key == "routing" || key == "traffic.pattern" {
			continue // per topology kind / unicast or multicast: checked by list's tests
		}
		args := []string{"run", "--set", key + "=zz-bogus", "--set", "run.warmup=0", "--set", "run.measure=1", "--set", "run.drain=1"}
		if key == "topology.path" { // checked for an ESMIN only
			args = append(args, "--set", "topology.kind=esmin", "--set", "topology.dims=1,2,0", "--set", "topology.k=2", "--set", "topology.n=3")
		}
		_, _, stderr := runMain(t, args...)
		m := allowed.FindStringSubmatch(stderr)
		if m == nil {
			t.Errorf("%s=zz-bogus: no allowed list in %q", key, stderr)
			continue
		}
		for _, v := range vals {
			if !regexp.MustCompile(`(^|[ ,])` + regexp.QuoteMeta(v) + `($|[ ,(])`).MatchString(m[1]) {
				t.Errorf("%s: completion offers %q, the run allows %s", key, v, m[1])
			}
		}
	}
	// The --format values come from the flags' usage; checkFormat must agree.
	d := completionData()
	for cmd, flags := range d.flags {
		for _, f := range flags {
			if f.long != "format" {
				continue
			}
			_, _, stderr := runMain(t, cmd, "--format", "zz-bogus")
			m := allowed.FindStringSubmatch(stderr)
			if m == nil || strings.Join(f.values, ", ") != m[1] {
				t.Errorf("%s --format: completion offers %q, the command says %q", cmd, f.values, stderr)
			}
		}
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, _ := runMain(t, args...)
		if code != 0 || !strings.HasPrefix(out, "flitsim ") || !strings.HasSuffix(out, runtime.Version()+"\n") {
			t.Errorf("%q: exit %d, %q", args, code, out)
		}
	}
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-11-26T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	if got, want := formatVersion(bi), "flitsim (devel), revision 0123abcd (dirty), committed 2026-11-26T10:00:00Z, go1.26.0"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	bi = &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"}}
	if got, want := formatVersion(bi), "flitsim v1.2.3, go1.26.0"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestCompletionCommandValues checks the values completed for a command's
// own flag or key against what the command accepts: collective's --task
// values against its error for a bad one, and layout's kinds against
// buildLayout, which must lay out each (and refuse the mesh).
func TestCompletionCommandValues(t *testing.T) {
	var task compFlag
	for _, f := range completionData().flags["collective"] {
		if f.long == "task" {
			task = f
		}
	}
	_, _, stderr := runMain(t, "collective", "--task", "zz-bogus")
	m := regexp.MustCompile(`\(allowed: (.*)\)`).FindStringSubmatch(stderr)
	if task.what != "enum" || m == nil || strings.Join(task.values, ", ") != m[1] {
		t.Errorf("collective --task: completion offers %s %q, the command says %q", task.what, task.values, stderr)
	}
	kinds := layoutKindNames()
	if len(kinds) < 6 {
		t.Errorf("layout kinds %q: want the six of layoutKinds", kinds)
	}
	for _, k := range append(kinds, "mesh") {
		_, _, err := buildLayout(network.TopologyConfig{Kind: k, K: 4, N: 2, D: 3})
		var ie *inputerr.Error
		refused := errors.As(err, &ie) && ie.Key == "topology.kind"
		if refused != (k == "mesh") {
			t.Errorf("layout of %s: %v (completion offers it: %t)", k, err, k != "mesh")
		}
	}
}

func TestHelpVersion(t *testing.T) {
	for _, args := range [][]string{{"help", "version"}, {"version", "-h"}, {"version", "--help"}} {
		code, out, errs := runMain(t, args...)
		if code != 0 || !strings.HasPrefix(out, "Usage: flitsim version") || strings.Contains(out, "Flags:") || errs != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	if code, out, _ := runMain(t, "help", "help"); code != 0 || out != usage {
		t.Errorf("help help: exit %d, want the usage text", code)
	}
	wantFail(t, 2, []string{"help", "zz"}, `"zz"`, "version, help")
	wantFail(t, 2, []string{"version", "extra"}, `"extra"`)
}
