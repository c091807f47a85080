package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// helpWidth is the width the help of every command fits in: a terminal's
// narrowest common width.
const helpWidth = 80

// newFlags returns a flag set for a subcommand that prints nothing itself:
// parseFlags reports its errors and help.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("razzia "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses a subcommand's arguments, accepting flags before and
// after the positional arguments (razzia replay game.json --json); "--" ends
// the flags. It returns the positional arguments and, when parsing is over,
// the exit status: 0 after printing help to stdout for --help, 2 after
// printing the error in one line to stderr. Otherwise done is false.
func parseFlags(fs *flag.FlagSet, synopsis string, args []string, stdout, stderr io.Writer) (positional []string, status int, done bool) {
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			commandUsage(stdout, fs, synopsis)
			return nil, 0, true
		}
		if err != nil {
			return nil, usageError(stderr, fs, synopsis, "%s", flagError(fs, err)), true
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, 0, false
		}
		// The flag package stops at the first positional argument or
		// after "--"; only in the first case can more flags follow.
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), 0, false
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// flagError rewords the flag package's errors as the help writes flags
// (--name), suggesting the nearest flag for an unknown one.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "flag provided but not defined: ")
	if !ok {
		return strings.Replace(msg, "flag -", "flag --", 1)
	}
	name = strings.TrimLeft(name, "-")
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	msg = "unknown flag --" + name
	if near, ok := nearest(name, names); ok {
		msg += fmt.Sprintf(`; did you mean --%s?`, near)
	}
	return msg
}

// usageError reports a usage error of a subcommand in one line, with
// where to read its help, and returns its status, 2. The help itself is
// not printed: it would scroll the error away.
func usageError(stderr io.Writer, fs *flag.FlagSet, _ string, format string, args ...any) int {
	fmt.Fprintf(stderr, "%s: %s (see %q)\n", fs.Name(), fmt.Sprintf(format, args...), fs.Name()+" --help")
	return 2
}

// commandUsage prints a subcommand's synopsis (its first line the usage
// line, the rest a description) and its flags, within helpWidth columns.
func commandUsage(w io.Writer, fs *flag.FlagSet, synopsis string) {
	for i, para := range strings.Split(strings.TrimSpace(synopsis), "\n\n") {
		if i > 0 {
			fmt.Fprintln(w)
		}
		for _, l := range wrapParagraph(para, helpWidth) {
			fmt.Fprintln(w, l)
		}
	}
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Flags:")
		printFlags(w, fs)
	}
}

// printFlags prints the flags as flag.PrintDefaults does, with two dashes
// as the help writes them, each description wrapped within helpWidth.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	const indent = "        "
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		head := "  --" + f.Name
		if name != "" {
			head += " " + name
		}
		fmt.Fprintln(w, head)
		if def := defaultOf(f); def != "" {
			usage += " (default " + def + ")"
		}
		for _, l := range wrapWords(strings.Fields(usage), indent, indent, helpWidth) {
			fmt.Fprintln(w, l)
		}
	})
}

// defaultOf returns a flag's default as the help shows it, or "" when it
// is the zero value of its type, which goes without saying.
func defaultOf(f *flag.Flag) string {
	switch f.DefValue {
	case "", "0", "false", "0s", "[]":
		return ""
	}
	if g, ok := f.Value.(flag.Getter); ok {
		if _, ok := g.Get().(string); ok {
			return fmt.Sprintf("%q", f.DefValue)
		}
	}
	return f.DefValue
}

// wrapParagraph wraps a paragraph of a synopsis within width columns. A
// paragraph of prose (its lines at one indentation, none a command) with a
// line too wide is filled again as a whole, so that it stays even; any
// other is wrapped line by line.
func wrapParagraph(para string, width int) []string {
	lines := strings.Split(para, "\n")
	wide, prose := false, true
	lead := lines[0][:len(lines[0])-len(strings.TrimLeft(lines[0], " "))]
	for _, l := range lines {
		wide = wide || utf8.RuneCountInString(l) > width
		words := strings.Fields(l)
		prose = prose && len(words) > 0 && strings.HasPrefix(l, lead) && l[len(lead)] != ' ' &&
			words[0] != "usage:" && words[0] != "razzia" && words[0] != "nice"
	}
	switch {
	case !wide:
		return lines
	case prose:
		return wrapWords(strings.Fields(para), lead, lead, width)
	}
	var out []string
	for _, l := range lines {
		out = append(out, wrapLine(l, width)...)
	}
	return out
}

// wrapLine wraps one line of a synopsis within width columns: a usage
// line continues under its first argument, an example (a line that runs
// razzia) continues after a backslash, so that it can still be pasted
// into a shell, and prose continues at its own indentation.
func wrapLine(line string, width int) []string {
	if utf8.RuneCountInString(line) <= width {
		return []string{line}
	}
	lead := line[:len(line)-len(strings.TrimLeft(line, " "))]
	words := shellWords(strings.TrimLeft(line, " "))
	switch {
	case len(words) > 2 && (words[0] == "usage:" || words[0] == "razzia" && lead != "  "):
		// usage: razzia CMD ... or its second form, aligned under it.
		n := 2
		if words[0] == "usage:" {
			n = 3
		}
		first := lead + strings.Join(words[:n], " ")
		cont := strings.Repeat(" ", utf8.RuneCountInString(first)+1)
		return wrapWords(words[n:], first+" ", cont, width)
	case len(words) > 0 && (words[0] == "razzia" || words[0] == "nice"):
		lines := wrapWords(words, lead, lead+"    ", width-2)
		for i := range len(lines) - 1 {
			lines[i] += " \\"
		}
		return lines
	}
	return wrapWords(strings.Fields(line), lead, lead, width)
}

// wrapWords fills lines of at most width columns with words, the first
// line starting with first and the others with cont. A word longer than
// a line has one to itself.
func wrapWords(words []string, first, cont string, width int) []string {
	var lines []string
	cur, empty := first, true
	for _, w := range words {
		if !empty && utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) > width {
			lines = append(lines, cur)
			cur, empty = cont, true
		}
		if !empty {
			cur += " "
		}
		cur += w
		empty = false
	}
	return append(lines, cur)
}

// shellWords splits a command line at spaces outside quotes, keeping the
// quotes: a quoted argument is never cut.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == ' ':
			if cur.Len() > 0 {
				words = append(words, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteRune(r)
	}
	if cur.Len() > 0 {
		words = append(words, cur.String())
	}
	return words
}

// nearest returns the name closest to a mistyped one, if one is close
// enough to be what was meant: an edit or two away (one for names of
// five letters or fewer), or the only name it begins.
func nearest(typed string, names []string) (string, bool) {
	best, bestDist := "", -1
	for _, n := range names {
		d := editDistance(typed, n)
		if bestDist < 0 || d < bestDist {
			best, bestDist = n, d
		}
	}
	limit := 2
	if len(typed) <= 5 {
		limit = 1
	}
	if bestDist >= 0 && bestDist <= limit {
		return best, true
	}
	var prefixed []string
	for _, n := range names {
		if typed != "" && strings.HasPrefix(n, typed) {
			prefixed = append(prefixed, n)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0], true
	}
	return "", false
}

// editDistance is the Damerau–Levenshtein distance (optimal string
// alignment) between a and b: swapped neighbours, the commonest typo,
// count one.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}
