package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// versionString describes the binary from its build information: the module
// version (v1.2.3 when installed with go install …@v1.2.3; in a git checkout
// Go stamps a pseudo-version, +dirty with uncommitted changes; "(devel)"
// without VCS information), the VCS revision and time, and "(dirty)" when
// the checkout had uncommitted changes.
func versionString() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "flitsim (no build information)"
	}
	return formatVersion(bi)
}

func formatVersion(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	s := map[string]string{}
	for _, kv := range bi.Settings {
		s[kv.Key] = kv.Value
	}
	parts := []string{"flitsim " + v}
	if rev := s["vcs.revision"]; rev != "" {
		r := "revision " + rev
		if s["vcs.modified"] == "true" {
			r += " (dirty)"
		}
		parts = append(parts, r)
	}
	if t := s["vcs.time"]; t != "" {
		parts = append(parts, "committed "+t)
	}
	parts = append(parts, bi.GoVersion)
	return strings.Join(parts, ", ")
}

const versionSynopsis = `Usage: flitsim version   (or flitsim --version)

Prints the module version and VCS revision of this binary, the time of its
commit, whether the checkout had uncommitted changes, and the Go version.
`

func cmdVersion(args []string, stdout io.Writer) error {
	fs := newFlags("version")
	if help, err := parseFlags(fs, versionSynopsis, args, stdout); help || err != nil {
		return err
	}
	if rest := fs.Args(); len(rest) > 0 {
		return fmt.Errorf("version: unexpected argument %q", rest[0])
	}
	_, err := fmt.Fprintln(stdout, versionString())
	return err
}
