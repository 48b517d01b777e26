package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"golang.org/x/term"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// The widths flitsim list's tables can be fitted in: below 72 columns the
// five-column table of topology parameters has no room left for words.
const (
	minListWidth     = 72
	maxListWidth     = 1000
	defaultListWidth = 100 // stdout is a file or a pipe
)

// listWidth is the width flitsim list fits its tables in without --width:
// the terminal's ($COLUMNS first, as the shell sets it after a resize) when
// stdout is one, else defaultListWidth.
func listWidth(stdout io.Writer) int {
	if c, ok := stdout.(*checkedWriter); ok {
		stdout = c.w // the terminal is behind main's write check
	}
	if !isTerminal(stdout) {
		return defaultListWidth
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return min(max(n, minListWidth), maxListWidth)
	}
	if f, ok := stdout.(*os.File); ok {
		if n, _, err := term.GetSize(int(f.Fd())); err == nil && n > 0 {
			return min(max(n, minListWidth), maxListWidth)
		}
	}
	return defaultListWidth
}

// filterSections keeps the sections word names (flitsim list routing), or
// else, from every section, the rows whose first cell contains word or
// whose cells list word as an item (flitsim list mesh). Case is ignored.
func filterSections(sections []listSection, word string) ([]listSection, error) {
	w := strings.ToLower(word)
	var named, rowsOf []listSection
	for _, s := range sections {
		if s.name == w || slices.Contains(s.words, w) {
			named = append(named, s)
			continue
		}
		var rows [][]string
		for _, r := range s.rows {
			if rowNames(r, w) {
				rows = append(rows, r)
			}
		}
		if len(rows) > 0 {
			s.rows = rows
			rowsOf = append(rowsOf, s)
		}
	}
	if len(named) > 0 {
		return named, nil
	}
	if len(rowsOf) > 0 {
		return rowsOf, nil
	}
	var names []string
	for _, s := range sections {
		names = append(names, s.name)
	}
	return nil, inputerr.New("list", strconv.Quote(word), "a section (%s) or a word in an entry's name", strings.Join(names, ", "))
}

// rowNames: the row's first cell contains w, or a later cell lists w as
// one of its comma-separated items.
func rowNames(row []string, w string) bool {
	if strings.Contains(strings.ToLower(row[0]), w) {
		return true
	}
	for _, c := range row[1:] {
		for item := range strings.SplitSeq(c, ",") {
			if strings.ToLower(strings.TrimSpace(item)) == w {
				return true
			}
		}
	}
	return false
}

// writeListSections prints each section's title and table, fitted in width
// columns (cells wrap at spaces), a blank line between sections.
func writeListSections(stdout io.Writer, sections []listSection, width int) error {
	for i, s := range sections {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintln(stdout, wrapCell(s.title, width))
		if len(s.rows) == 0 {
			fmt.Fprintln(stdout, "  (none registered)")
			continue
		}
		widths := fitColumns(s, width)
		m := tw.NewMapper[int, int]()
		rows := make([][]string, len(s.rows))
		for i, r := range s.rows {
			rows[i] = make([]string, len(r))
			for j, c := range r {
				rows[i][j] = wrapCell(c, widths[j])
			}
		}
		for j, w := range widths {
			m.Set(j, w+2) // tablewriter counts the padding in
		}
		t := tablewriter.NewTable(stdout, tablewriter.WithRowAutoWrap(tw.WrapNone), tablewriter.WithColumnWidths(m))
		t.Header(s.header)
		if err := t.Bulk(rows); err != nil {
			return err
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	return nil
}

// fitColumns gives each column of s its widest cell (or header) and, while
// the table is wider than width (a table of n columns spends 3n+1 columns
// on borders and padding), takes a column from the widest one that is still
// wider than its floor: its header, and its longest word up to minCellWidth
// (longer words are broken); the first column, the names, is never cut.
func fitColumns(s listSection, width int) []int {
	const minCellWidth = 8
	w := make([]int, len(s.header))
	floor := make([]int, len(s.header))
	note := func(i int, c string) {
		for line := range strings.SplitSeq(c, "\n") {
			w[i] = max(w[i], runewidth.StringWidth(line))
		}
		for _, f := range strings.Fields(c) {
			floor[i] = max(floor[i], min(runewidth.StringWidth(f), minCellWidth))
		}
	}
	for i, h := range s.header {
		note(i, h)
		floor[i] = max(floor[i], runewidth.StringWidth(h))
	}
	for _, r := range s.rows {
		for i, c := range r {
			note(i, c)
		}
	}
	floor[0] = w[0]
	for excess := sum(w) + 3*len(w) + 1 - width; excess > 0; excess-- {
		widest := -1
		for i := range w {
			if w[i] > floor[i] && (widest < 0 || w[i] > w[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break // every column at its floor: wider than asked
		}
		w[widest]--
	}
	return w
}

// wrapCell breaks c into lines of at most width columns at spaces, and
// inside a word longer than width.
func wrapCell(c string, width int) string {
	var lines []string
	line, lineW := "", 0
	for _, word := range strings.Fields(c) {
		ww := runewidth.StringWidth(word)
		if lineW > 0 && lineW+1+ww <= width {
			line, lineW = line+" "+word, lineW+1+ww
			continue
		}
		if lineW > 0 {
			lines = append(lines, line)
		}
		for ww > width { // a word longer than the column
			head := runewidth.Truncate(word, width, "")
			lines = append(lines, head)
			word = word[len(head):]
			ww = runewidth.StringWidth(word)
		}
		line, lineW = word, ww
	}
	if lineW > 0 || len(lines) == 0 {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// listJSON is flitsim list --format json: each section's rows as objects
// keyed by the column names.
type listJSON struct {
	Sections []listJSONSection `json:"sections"`
}

type listJSONSection struct {
	Name    string              `json:"name"`
	Title   string              `json:"title"`
	Columns []string            `json:"columns"`
	Rows    []map[string]string `json:"rows"`
}

func writeListJSON(stdout io.Writer, sections []listSection) error {
	out := listJSON{Sections: []listJSONSection{}}
	for _, s := range sections {
		js := listJSONSection{Name: s.name, Title: s.title, Columns: s.header, Rows: []map[string]string{}}
		for _, r := range s.rows {
			row := map[string]string{}
			for i, c := range r {
				row[s.header[i]] = c
			}
			js.Rows = append(js.Rows, row)
		}
		out.Sections = append(out.Sections, js)
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// referenceHeader opens docs/reference.md, the output of flitsim list
// --format markdown.
const referenceHeader = `# Reference

Generated from flitsim's registries by ` + "`flitsim list --format markdown > docs/reference.md`" + `;
do not edit it by hand (a test fails when it differs from the command's output). What the keys
mean is explained in [Configuration files](configuration.md); ` + "`flitsim list WORD`" + ` prints a part of
this page in the terminal.
`

func writeListMarkdown(stdout io.Writer, sections []listSection) error {
	var b strings.Builder
	b.WriteString(referenceHeader)
	for _, s := range sections {
		fmt.Fprintf(&b, "\n## %s\n\n", s.title)
		b.WriteString("| " + strings.Join(s.header, " | ") + " |\n")
		b.WriteString(strings.Repeat("|---", len(s.header)) + "|\n")
		for _, r := range s.rows {
			cells := make([]string, len(r))
			for i, c := range r {
				cells[i] = markdownCell(c, i == 0)
			}
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		}
	}
	_, err := io.WriteString(stdout, b.String())
	return err
}

// markdownCell escapes a cell for a markdown table; the first column (a
// name to type) is code.
func markdownCell(c string, code bool) string {
	c = strings.ReplaceAll(strings.ReplaceAll(c, "\n", " "), "|", `\|`)
	if code && c != "" {
		return "`" + c + "`"
	}
	return c
}
