package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The documentation's commands are run by TestDocs, so that README.md and
// docs/*.md cannot drift from what flitsim does. The conventions (also in
// docs/tests.md):
//
//   - A ```console block is a transcript: a line starting with "$ " is a
//     command, run by bash; the lines after it, up to the next "$ " line or
//     the block's end, are its expected standard output and error, merged.
//     A line that is exactly "..." matches any number of lines; "…" inside a
//     line matches any text within that line. Everything else must match
//     exactly, trailing spaces aside.
//   - A ```sh, ```bash or ```shell block is commands without shown output:
//     every line that is not blank or a "#" comment is run.
//   - Every block names its language, so that no command escapes unseen;
//     ```text, ```yaml, ```go and the rest are not run.
//   - A command ending in "# exit N" must exit with status N, others with 0.
//     A line ending in "\" continues on the next line.
//   - An HTML comment on the line right before a block adjusts it:
//     "<!-- doctest: skip REASON -->" does not run it (REASON is logged), and
//     "<!-- doctest: append ARGS -->" appends ARGS to each flitsim or go
//     command of the block (before any pipe or redirection), to shorten it.
//
// Every page runs in a folder of its own whose entries link to the
// repository's top level, so its commands see configs/ and cmd/ as in a
// clone and the files they write land in the folder, not in the clone;
// "go test" and "go vet" run in the clone, which they do not write to.
// "flitsim" on PATH is the command built from this tree.

// docCommand is one command found in a document.
type docCommand struct {
	file string
	line int
	cmd  string   // the command line, continuations joined
	exit int      // the exit status it must end with
	want []string // expected output lines (console blocks)
	show bool     // a console command, whose output is compared
	skip string   // why it is not run ("" = run)
}

var (
	docExitRe      = regexp.MustCompile(`\s+#\s*exit\s+(\d+)\s*$`)
	docDirectiveRe = regexp.MustCompile(`^\s*<!--\s*doctest:\s*(skip|append)\b\s*(.*?)\s*-->\s*$`)
)

// parseDoc returns the runnable commands of one markdown document.
func parseDoc(file, text string) ([]docCommand, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var cmds []docCommand
	for i := 0; i < len(lines); i++ {
		fence, lang, ok := docFence(lines[i])
		if !ok {
			continue
		}
		end := i + 1
		for end < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[end]), fence) {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("%s:%d: code block never closed", file, i+1)
		}
		if lang == "" {
			return nil, fmt.Errorf("%s:%d: code block without a language: say console or sh to run it, text, yaml, go … not to", file, i+1)
		}
		directive, arg := "", ""
		if i > 0 {
			if m := docDirectiveRe.FindStringSubmatch(lines[i-1]); m != nil {
				directive, arg = m[1], m[2]
			}
		}
		if directive == "skip" && arg == "" {
			return nil, fmt.Errorf("%s:%d: doctest: skip needs a reason", file, i)
		}
		// A block indented under a list item: its lines lose the fence's indent.
		indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " \t"))]
		body := make([]string, 0, end-i-1)
		for _, l := range lines[i+1 : end] {
			body = append(body, strings.TrimPrefix(l, indent))
		}
		var block []docCommand
		switch lang {
		case "console":
			block = parseConsole(file, i+2, body)
		case "sh", "bash", "shell":
			block = parseShell(file, i+2, body)
		}
		for _, c := range block {
			switch directive {
			case "skip":
				c.skip = arg
			case "append":
				c.cmd = appendArgs(c.cmd, arg)
			}
			cmds = append(cmds, c)
		}
		i = end
	}
	return cmds, nil
}

// docFence reports whether line opens a fenced code block, with the fence
// (``` or longer, or ~~~) and the block's language.
func docFence(line string) (fence, lang string, ok bool) {
	t := strings.TrimSpace(line)
	for _, c := range []string{"`", "~"} {
		n := 0
		for n < len(t) && t[n:n+1] == c {
			n++
		}
		if n >= 3 {
			info := strings.Fields(t[n:])
			if len(info) > 0 {
				lang = strings.ToLower(info[0])
			}
			return t[:n], lang, true
		}
	}
	return "", "", false
}

// joinContinued joins lines[i] with the lines that follow a trailing "\";
// it returns the joined line and the index of its last line.
func joinContinued(lines []string, i int) (string, int) {
	s := strings.TrimRight(lines[i], " \t")
	for strings.HasSuffix(s, `\`) && i+1 < len(lines) {
		i++
		s = strings.TrimRight(strings.TrimSuffix(s, `\`), " \t") + " " + strings.TrimSpace(lines[i])
	}
	return s, i
}

// newDocCommand reads a command line's "# exit N" annotation.
func newDocCommand(file string, line int, s string) docCommand {
	c := docCommand{file: file, line: line, cmd: strings.TrimSpace(s)}
	if m := docExitRe.FindStringSubmatch(c.cmd); m != nil {
		c.exit, _ = strconv.Atoi(m[1])
		c.cmd = strings.TrimSpace(c.cmd[:len(c.cmd)-len(m[0])])
	}
	return c
}

func parseConsole(file string, first int, lines []string) []docCommand {
	var cmds []docCommand
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "$ ") {
			if len(cmds) > 0 {
				cmds[len(cmds)-1].want = append(cmds[len(cmds)-1].want, lines[i])
			}
			continue
		}
		start := i
		s, j := joinContinued(lines, i)
		i = j
		c := newDocCommand(file, first+start, strings.TrimPrefix(s, "$ "))
		c.show = true
		cmds = append(cmds, c)
	}
	return cmds
}

func parseShell(file string, first int, lines []string) []docCommand {
	var cmds []docCommand
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		start := i
		s, j := joinContinued(lines, i)
		i = j
		cmds = append(cmds, newDocCommand(file, first+start, s))
	}
	return cmds
}

// docOperatorRe finds where a command's own arguments end: its first pipe,
// redirection, list operator or comment.
var docOperatorRe = regexp.MustCompile(`\s(\||&&|;|>|>>|2>|2>&1|<|#)(\s|$)`)

// appendArgs adds args to every flitsim or go command of a shell line, at
// the end of that command's own arguments.
func appendArgs(cmd, args string) string {
	var out strings.Builder
	rest := cmd
	for rest != "" {
		loc := docOperatorRe.FindStringIndex(rest)
		seg, tail := rest, ""
		if loc != nil {
			seg, tail = rest[:loc[0]], rest[loc[0]:]
		}
		f := strings.Fields(seg)
		if len(f) > 0 && (f[0] == "flitsim" || f[0] == "go") {
			seg += " " + args
		}
		out.WriteString(seg)
		if loc == nil {
			break
		}
		op := rest[loc[0]:loc[1]]
		out.WriteString(op)
		rest = tail[len(op):]
		if strings.TrimSpace(op) == "#" {
			out.WriteString(rest)
			break
		}
	}
	return out.String()
}

// matchOutput reports whether got matches the want lines, with "..." lines
// matching any run of lines and "…" any text within a line; on a mismatch it
// says where.
func matchOutput(want []string, got string) (bool, string) {
	g := trimLines(strings.Split(strings.TrimRight(got, "\n"), "\n"))
	if strings.TrimSpace(got) == "" {
		g = nil
	}
	w := trimLines(want)
	for len(w) > 0 && w[len(w)-1] == "" {
		w = w[:len(w)-1]
	}
	res := make([]*regexp.Regexp, len(w))
	for i, l := range w {
		if l != "..." {
			parts := strings.Split(l, "…")
			for k := range parts {
				parts[k] = regexp.QuoteMeta(parts[k])
			}
			res[i] = regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
		}
	}
	// best is the furthest want line reached, for the message.
	best, bestG := 0, 0
	memo := map[[2]int]bool{}
	var match func(wi, gi int) bool
	match = func(wi, gi int) bool {
		if wi > best || (wi == best && gi > bestG) {
			best, bestG = wi, gi
		}
		key := [2]int{wi, gi}
		if v, ok := memo[key]; ok {
			return v
		}
		var ok bool
		switch {
		case wi == len(w):
			ok = gi == len(g)
		case w[wi] == "...":
			ok = match(wi+1, gi) || (gi < len(g) && match(wi, gi+1))
		default:
			ok = gi < len(g) && res[wi].MatchString(g[gi]) && match(wi+1, gi+1)
		}
		memo[key] = ok
		return ok
	}
	if match(0, 0) {
		return true, ""
	}
	exp, saw := "(end of output)", "(end of output)"
	if best < len(w) {
		exp = w[best]
	}
	if bestG < len(g) {
		saw = g[bestG]
	}
	return false, fmt.Sprintf("expected line %d %q, got output line %d %q", best+1, exp, bestG+1, saw)
}

func trimLines(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = strings.TrimRight(l, " \t\r")
	}
	return out
}

// docFiles lists the documents whose commands are run.
func docFiles(t *testing.T, root string) []string {
	files := []string{filepath.Join(root, "README.md")}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(more)
	return append(files, more...)
}

// docFolder makes a folder whose entries link to the repository's top level.
func docFolder(t *testing.T, root string) string {
	dir := t.TempDir()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == ".git" || e.Name() == "flitsim" {
			continue
		}
		if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// repoRoot is the clone's top level.
var repoRoot, _ = filepath.Abs("../..")

// docTimeout bounds one documented command: the docs show short runs.
const docTimeout = 2 * time.Minute

// runDocCommand runs c in dir with bin's folder first on PATH and returns
// its merged output and exit status.
func runDocCommand(c docCommand, dir, bin string) (string, int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), docTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", c.cmd)
	cmd.Dir = dir
	if strings.HasPrefix(c.cmd, "go test ") || strings.HasPrefix(c.cmd, "go vet ") {
		// In the clone itself, where the build cache knows its packages
		// (in the linked folder every package would be compiled afresh);
		// go test and go vet write no file there.
		cmd.Dir = repoRoot
	}
	env := []string{"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"), "TERM=dumb", "NO_COLOR=1"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "COLUMNS=") && !strings.HasPrefix(kv, "TERM=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		return out.String(), -1, fmt.Errorf("did not finish within %v", docTimeout)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), ee.ExitCode(), nil
	}
	return out.String(), 0, err
}

// TestDocs runs every command that README.md and docs/*.md show and checks
// the output they show.
func TestDocs(t *testing.T) {
	root := repoRoot
	bin := buildFlitsim(t)
	for _, file := range docFiles(t, root) {
		rel, _ := filepath.Rel(root, file)
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cmds, err := parseDoc(rel, string(text))
			if err != nil {
				t.Fatal(err)
			}
			dir := docFolder(t, root)
			for _, c := range cmds {
				checkDocCommand(t, c, dir, bin)
			}
		})
	}
}

func checkDocCommand(t *testing.T, c docCommand, dir, bin string) {
	t.Helper()
	where := fmt.Sprintf("%s:%d: %s", c.file, c.line, c.cmd)
	if c.skip != "" {
		t.Logf("%s: not run: %s", where, c.skip)
		return
	}
	start := time.Now()
	out, code, err := runDocCommand(c, dir, bin)
	t.Logf("%s (%.1f s)", where, time.Since(start).Seconds())
	if err != nil {
		t.Errorf("%s: %v\n%s", where, err, out)
		return
	}
	if code != c.exit {
		t.Errorf("%s: exit status %d, the document says %d\n%s", where, code, c.exit, out)
		return
	}
	if c.show {
		if ok, why := matchOutput(c.want, out); !ok {
			t.Errorf("%s: output differs from the document: %s\nfull output:\n%s", where, why, out)
		}
	}
}
