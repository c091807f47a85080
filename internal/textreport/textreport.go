// Package textreport writes the plain-text reports of the command line
// (arena, ladder, analyze): aligned columns and counted English nouns.
package textreport

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Columns prints rows as columns, the first left-aligned and the others
// right-aligned, two spaces apart.
func Columns(w io.Writer, rows [][]string) {
	var width []int
	for _, row := range rows {
		for i, cell := range row {
			if i == len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for i, cell := range row {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell))
			if i == 0 {
				b.WriteString(cell + pad)
			} else {
				b.WriteString("  " + pad + cell)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// Plural writes n with the English noun of its number, "1 game" or "2
// games": the command-line reports are in English.
func Plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
