package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseDoc(t *testing.T) {
	doc := strings.Join([]string{
		"Some prose.",
		"```console",
		"$ flitsim run \\",
		"    -c x.yaml # exit 4",
		"status saturated",
		"...",
		"$ echo hi",
		"hi",
		"```",
		"<!-- doctest: append --set run.measure=100 -->",
		"```sh",
		"# a comment",
		"",
		"flitsim run | head -3   # first lines",
		"go test ./network -run X",
		"```",
		"<!-- doctest: skip needs the network -->",
		"```bash",
		"git clone somewhere",
		"```",
		"```yaml",
		"$ not: run",
		"```",
	}, "\n")
	cmds, err := parseDoc("d.md", doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []docCommand{
		{file: "d.md", line: 3, cmd: "flitsim run -c x.yaml", exit: 4, want: []string{"status saturated", "..."}, show: true},
		{file: "d.md", line: 7, cmd: "echo hi", want: []string{"hi"}, show: true},
		{file: "d.md", line: 14, cmd: "flitsim run --set run.measure=100 | head -3   # first lines"},
		{file: "d.md", line: 15, cmd: "go test ./network -run X --set run.measure=100"},
		{file: "d.md", line: 19, cmd: "git clone somewhere", skip: "needs the network"},
	}
	if !reflect.DeepEqual(cmds, want) {
		t.Errorf("parseDoc:\n got %+v\nwant %+v", cmds, want)
	}
}

func TestParseDocErrors(t *testing.T) {
	for _, doc := range []string{
		"```console\n$ echo never closed\n",
		"<!-- doctest: skip -->\n```sh\necho x\n```\n",
		"```\nflitsim run\n```\n",
	} {
		if _, err := parseDoc("d.md", doc); err == nil {
			t.Errorf("parseDoc(%q) took a broken document", doc)
		}
	}
}

func TestMatchOutput(t *testing.T) {
	cases := []struct {
		want []string
		got  string
		ok   bool
	}{
		{[]string{"a", "b"}, "a\nb\n", true},
		{[]string{"a", "b"}, "a  \nb", true},
		{[]string{"a", "b"}, "a\nc\n", false},
		{[]string{"a"}, "a\nb\n", false},
		{[]string{"a", "...", "z"}, "a\nb\nc\nz\n", true},
		{[]string{"a", "...", "z"}, "a\nz\n", true},
		{[]string{"a", "...", "z"}, "a\nb\n", false},
		{[]string{"...", "c"}, "a\nb\nc", true},
		{[]string{"took … s, done"}, "took 1.25 s, done", true},
		{[]string{"took … s, done"}, "took 1.25 ms, failed", false},
		{[]string{"x.y (z)"}, "xay (z)", false},
		{nil, "", true},
		{nil, "something", false},
		{[]string{"a", ""}, "a\n", true},
	}
	for _, c := range cases {
		if ok, why := matchOutput(c.want, c.got); ok != c.ok {
			t.Errorf("matchOutput(%q, %q) = %v (%s), want %v", c.want, c.got, ok, why, c.ok)
		}
	}
}

func TestAppendArgs(t *testing.T) {
	cases := [][3]string{
		{"flitsim run", "-x", "flitsim run -x"},
		{"flitsim run --format json | jq .cycles", "-x", "flitsim run --format json -x | jq .cycles"},
		{"flitsim run > out.txt && flitsim verify", "-x", "flitsim run -x > out.txt && flitsim verify -x"},
		{"cat f | head", "-x", "cat f | head"},
		{"flitsim run 2>&1 | tail -1", "-x", "flitsim run -x 2>&1 | tail -1"},
	}
	for _, c := range cases {
		if got := appendArgs(c[0], c[1]); got != c[2] {
			t.Errorf("appendArgs(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func FuzzParseDoc(f *testing.F) {
	f.Add("```console\n$ a \\\n b # exit 2\nout\n...\n```\n")
	f.Add("<!-- doctest: append -x -->\n```sh\nflitsim run | x\n```")
	f.Fuzz(func(t *testing.T, doc string) {
		cmds, err := parseDoc("f.md", doc)
		if err != nil {
			return
		}
		for _, c := range cmds {
			if c.line < 1 || c.exit < 0 {
				t.Fatalf("command %+v", c)
			}
			matchOutput(c.want, doc)
		}
	})
}
