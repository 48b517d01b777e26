package main

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit/header"
)

const completionSynopsis = `Usage: flitsim completion bash|zsh|fish

Prints a shell completion script: commands, their flags, the configuration
keys after --set and --vary, and the values a key or flag allows (topology
kinds, routings, arbiters, switching modes, traffic patterns, multicast
settings, output formats). Install it with, e.g.:

  bash:  flitsim completion bash > ~/.local/share/bash-completion/completions/flitsim
  zsh:   flitsim completion zsh > "${fpath[1]}/_flitsim"   (then restart zsh)
  fish:  flitsim completion fish > ~/.config/fish/completions/flitsim.fish

or, for the current shell only: source <(flitsim completion bash).
`

// commandNames are flitsim's commands, in the order help lists them.
var commandNames = []string{"run", "list", "verify", "encode", "sweep", "merge", "deadlock-search", "layout", "distances", "channels", "collective", "analytic", "route", "multicast-tree", "completion", "version", "help"}

func cmdCompletion(args []string, stdout io.Writer) error {
	fs := newFlags("completion")
	if help, err := parseFlags(fs, completionSynopsis, args, stdout); help || err != nil {
		return err
	}
	rest := fs.Args()
	if len(rest) != 1 {
		return &inputerr.Error{Key: "completion", Value: strings.Join(rest, " "), Problem: "give one shell", Allowed: "bash, zsh, fish"}
	}
	d := completionData()
	var script string
	switch rest[0] {
	case "bash":
		script = d.bash()
	case "zsh":
		script = d.zsh()
	case "fish":
		script = d.fish()
	default:
		return inputerr.New("completion", strconv.Quote(rest[0]), "bash, zsh, fish")
	}
	_, err := io.WriteString(stdout, script)
	return err
}

// compFlag is one flag as the completion scripts see it.
type compFlag struct {
	long, short string
	takesValue  bool
	what        string   // for a value: "keys" (key=value), "vary" (KEY=…), "enum", "file" or "none"
	values      []string // what = "enum"
}

// compData is everything the scripts complete.
type compData struct {
	flags map[string][]compFlag // per command ("run" also for flitsim -FLAG)
	keys  []string              // configuration keys
	enums map[string][]string   // per key: the values it allows, if a fixed set
	// cmdEnums: per command and key, the values that command takes where
	// they are fewer than the key's (layout lays out only some kinds).
	cmdEnums map[string]map[string][]string
}

// completionData gathers the commands' flags (from the commands' own flag
// sets) and the keys and their values (from the registries).
func completionData() compData {
	d := compData{flags: map[string][]compFlag{}, enums: keyValues(),
		cmdEnums: map[string]map[string][]string{"layout": {"topology.kind": layoutKindNames()}}}
	for _, c := range commandNames {
		if c == "help" {
			continue
		}
		for _, f := range commandFlags(c) {
			d.flags[c] = append(d.flags[c], toCompFlag(f))
		}
	}
	for _, k := range configs.Keys() {
		d.keys = append(d.keys, k.Key)
	}
	return d
}

// commandFlags returns command c's flags, as c defines them: the command is
// started with flagSink set, so it hands its flag set over instead of
// parsing and returns at once. (Not safe alongside concurrent dispatches;
// flitsim completion does nothing else.)
func commandFlags(c string) []*pflag.Flag {
	var got *pflag.FlagSet
	flagSink = func(fs *pflag.FlagSet) { got = fs }
	defer func() { flagSink = nil }()
	if err := dispatch([]string{c}, io.Discard); err != nil || got == nil {
		panic(fmt.Sprintf("completion: command %s did not hand over its flags (%v)", c, err))
	}
	var out []*pflag.Flag
	got.VisitAll(func(f *pflag.Flag) { out = append(out, f) })
	return out
}

// valuesAnnotation lists a flag's allowed values (pflag annotation).
const valuesAnnotation = "flitsim_values"

func toCompFlag(f *pflag.Flag) compFlag {
	cf := compFlag{long: f.Name, short: f.Shorthand, takesValue: f.Value.Type() != "bool", what: "none"}
	if !cf.takesValue {
		return cf
	}
	switch {
	case f.Name == "set":
		cf.what = "keys"
	case f.Name == "vary":
		cf.what = "vary"
	case len(f.Annotations[valuesAnnotation]) > 0:
		cf.what, cf.values = "enum", f.Annotations[valuesAnnotation]
	case f.Name == "format" || f.Name == "task":
		// "output format: table, json or csv", as checkFormat allows;
		// "the task: mnb, snb, …, dynamic", as collective takes them.
		_, list, _ := strings.Cut(f.Usage, ": ")
		cf.what, cf.values = "enum", strings.Fields(strings.NewReplacer(",", " ", " or ", " ").Replace(list))
	case f.Name == "scheme":
		cf.what, cf.values = "enum", strings.Fields(strings.ReplaceAll(header.SchemeNames(), ",", " "))
	default:
		_, name := pflag.UnquoteUsage(f)
		if strings.Contains(name, "FILE") || strings.Contains(name, "DIR") || f.Name == "config" {
			cf.what = "file"
		}
	}
	return cf
}

// layoutKindNames are the topology kinds flitsim layout lays out, taken
// from the list its error message gives (layoutKinds, less the notes in
// parentheses).
func layoutKindNames() []string {
	var out []string
	for _, k := range strings.Split(regexp.MustCompile(` \([^)]*\)`).ReplaceAllString(layoutKinds, ""), ", ") {
		out = append(out, strings.TrimSpace(k))
	}
	return out
}
