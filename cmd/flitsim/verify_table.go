package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/flitsim/flitsim/verify"
)

// verifyWidth is the terminal width the verify table fits.
const verifyWidth = 120

// verifyCols are the table's columns and widths; the last one takes what is
// left of verifyWidth. The claim itself (and a deviation's reason) is too
// long for a column: it follows each row on full-width lines.
var verifyCols = []struct {
	name  string
	width int
}{{"ID", 24}, {"STATUS", 9}, {"TIME", 6}, {"PUBLISHED", 18}, {"TOLERANCE", 22}, {"MEASURED", 0}}

const verifyGap = "  "

// writeVerifyTable writes one block per row: the wrapped columns, then the
// source and claim (and a deviation's reason) indented below, then a total.
func writeVerifyTable(w io.Writer, rows []verify.Row) error {
	bw := bufio.NewWriter(w)
	if len(rows) == 0 {
		fmt.Fprintln(bw, "no claims registered")
		return bw.Flush()
	}
	widths := make([]int, len(verifyCols))
	names := make([]string, len(verifyCols))
	rest := verifyWidth
	for i, c := range verifyCols {
		widths[i], names[i] = c.width, c.name
		rest -= c.width + len(verifyGap)
	}
	widths[len(widths)-1] = rest + len(verifyGap)
	writeCells(bw, widths, names)
	fmt.Fprintln(bw, strings.Repeat("─", verifyWidth))
	count := map[string]int{}
	total := 0.0
	for _, r := range rows {
		count[r.Status]++
		total += r.Seconds
		writeCells(bw, widths, []string{r.ID, r.Status, fmt.Sprintf("%.1fs", r.Seconds), r.Published, r.Tolerance, r.Measured})
		writeIndented(bw, r.Source+": "+r.Claim)
		if r.Reason != "" {
			writeIndented(bw, "why a deviation: "+r.Reason)
		}
		fmt.Fprintln(bw)
	}
	cut := ""
	if n := count[verify.Interrupted]; n > 0 {
		cut = fmt.Sprintf(", %d interrupted", n)
	}
	fmt.Fprintf(bw, "%d claims: %d pass, %d deviation, %d fail, %d error%s; %.1fs of measurement\n",
		len(rows), count[verify.Pass], count[verify.Deviation], count[verify.Fail], count[verify.Error], cut, total)
	return bw.Flush()
}

// writeCells writes one table row, each cell wrapped to its column.
func writeCells(w io.Writer, widths []int, cells []string) {
	cols := make([][]string, len(cells))
	lines := 0
	for i, c := range cells {
		cols[i] = wrapText(c, widths[i])
		lines = max(lines, len(cols[i]))
	}
	for l := range lines {
		var b strings.Builder
		for i, col := range cols {
			s := ""
			if l < len(col) {
				s = col[l]
			}
			if i == len(cols)-1 {
				b.WriteString(s)
				break
			}
			b.WriteString(s + strings.Repeat(" ", widths[i]-utf8.RuneCountInString(s)) + verifyGap)
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// writeIndented writes text wrapped to the full width, indented by two.
func writeIndented(w io.Writer, text string) {
	for _, l := range wrapText(text, verifyWidth-2) {
		fmt.Fprintln(w, "  "+l)
	}
}

// wrapText breaks s into lines of at most width runes at spaces (and inside
// longer words after a hyphen, or anywhere as a last resort). Newlines in s
// become spaces.
func wrapText(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		for utf8.RuneCountInString(word) > width {
			if line != "" {
				lines, line = append(lines, line), ""
			}
			head, tail := splitWord(word, width)
			lines, word = append(lines, head), tail
		}
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= width:
			line += " " + word
		default:
			lines, line = append(lines, line), word
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// splitWord cuts a word longer than width after its last hyphen that fits,
// or at width runes.
func splitWord(word string, width int) (string, string) {
	r := []rune(word)
	cut := width
	for i := width - 1; i > 0; i-- {
		if r[i] == '-' {
			cut = i + 1
			break
		}
	}
	return string(r[:cut]), string(r[cut:])
}
