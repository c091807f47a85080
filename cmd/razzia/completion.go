package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

const completionSynopsis = `
usage: razzia completion bash|zsh|fish

Completion prints a script that completes razzia's commands and each
command's flags in a shell. Load it in the shell's start-up file:

  bash:  source <(razzia completion bash)          in ~/.bashrc
  zsh:   source <(razzia completion zsh)           in ~/.zshrc
  fish:  razzia completion fish | source           in config.fish
`

// runCompletion is the completion command.
func runCompletion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("completion")
	rest, status, done := parseFlags(fs, completionSynopsis, args, stdout, stderr)
	if done {
		return status
	}
	if len(rest) != 1 {
		return usageError(stderr, fs, completionSynopsis, "want one shell: bash, zsh or fish")
	}
	specs := completionSpecs()
	switch rest[0] {
	case "bash":
		writeBash(stdout, specs)
	case "zsh":
		writeZsh(stdout, specs)
	case "fish":
		writeFish(stdout, specs)
	default:
		return usageError(stderr, fs, completionSynopsis, "unknown shell %q: want bash, zsh or fish", rest[0])
	}
	return 0
}

// A completionSpec is what a shell completes after a command: its flags
// and, for help and completion, the words it takes.
type completionSpec struct {
	command
	flags []string // without dashes
	words []string
}

// completionSpecs reads each command's flags from its own help, so that
// the completion knows every flag a command has and no other.
func completionSpecs() []completionSpec {
	var specs []completionSpec
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	for _, c := range commands {
		s := completionSpec{command: c}
		var out bytes.Buffer
		c.run([]string{"--help"}, strings.NewReader(""), &out, io.Discard)
		s.flags = append(helpFlags(out.String()), "help")
		switch c.name {
		case "help":
			s.words = names
		case "completion":
			s.words = []string{"bash", "zsh", "fish"}
		}
		specs = append(specs, s)
	}
	return specs
}

// helpFlags returns the names of the flags a command's help lists under
// "Flags:", as printFlags writes them.
func helpFlags(help string) []string {
	_, list, _ := strings.Cut(help, "\nFlags:\n")
	var names []string
	for line := range strings.SplitSeq(list, "\n") {
		if rest, ok := strings.CutPrefix(line, "  --"); ok {
			names = append(names, strings.Fields(rest)[0])
		}
	}
	return names
}

// flagValues are the values the shells complete after a flag, by the
// flag's name, whichever command has it: the lists razzia checks them
// against.
func flagValues() map[string]string {
	return map[string]string{
		"lang":       strings.ReplaceAll(langTags(), ",", ""),
		"pace":       strings.ReplaceAll(paceIDs(), ",", ""),
		"log-format": "text json",
	}
}

// sortedValues returns flagValues' flags in a fixed order, for scripts
// that read the same every time.
func sortedValues() []string {
	return slices.Sorted(maps.Keys(flagValues()))
}

func commandNames(specs []completionSpec) string {
	var names []string
	for _, s := range specs {
		names = append(names, s.name)
	}
	return strings.Join(names, " ")
}

func dashed(flags []string) string {
	var out []string
	for _, f := range flags {
		out = append(out, "--"+f)
	}
	return strings.Join(out, " ")
}

func writeBash(w io.Writer, specs []completionSpec) {
	fmt.Fprintf(w, `# bash completion for razzia; load with: source <(razzia completion bash)
_razzia() {
    local cur=${COMP_WORDS[COMP_CWORD]} words=""
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "%s --help --version" -- "$cur"))
        return
    fi
    case ${COMP_WORDS[COMP_CWORD-1]} in
`, commandNames(specs))
	for _, f := range sortedValues() {
		fmt.Fprintf(w, "        --%s) COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return ;;\n", f, flagValues()[f])
	}
	fmt.Fprint(w, `    esac
    case ${COMP_WORDS[1]} in
`)
	for _, s := range specs {
		fmt.Fprintf(w, "    %s) words=\"%s\" ;;\n", s.name, strings.TrimSpace(dashed(s.flags)+" "+strings.Join(s.words, " ")))
	}
	fmt.Fprint(w, `    esac
    if [[ $cur == -* || ${COMP_WORDS[1]} == help || ${COMP_WORDS[1]} == completion ]]; then
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o default -F _razzia razzia
`)
}

func writeZsh(w io.Writer, specs []completionSpec) {
	fmt.Fprint(w, `#compdef razzia
# zsh completion for razzia; load with: source <(razzia completion zsh)
_razzia() {
    local -a cmds
    cmds=(
`)
	for _, s := range specs {
		fmt.Fprintf(w, "        %s\n", zshQuote(s.name+":"+s.summary))
	}
	fmt.Fprint(w, `    )
    if (( CURRENT == 2 )); then
        _describe -t commands 'razzia command' cmds
        return
    fi
    case $words[CURRENT-1] in
`)
	for _, f := range sortedValues() {
		fmt.Fprintf(w, "    --%s) compadd -- %s; return ;;\n", f, flagValues()[f])
	}
	fmt.Fprint(w, `    esac
    case $words[2] in
`)
	for _, s := range specs {
		fmt.Fprintf(w, "    %s) compadd -- %s", s.name, dashed(s.flags))
		if len(s.words) > 0 {
			fmt.Fprintf(w, " %s", strings.Join(s.words, " "))
		} else {
			fmt.Fprint(w, "; _files")
		}
		fmt.Fprint(w, " ;;\n")
	}
	fmt.Fprint(w, `    esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _razzia "$@"
else
    compdef _razzia razzia
fi
`)
}

// zshQuote quotes s for zsh in single quotes.
func zshQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func writeFish(w io.Writer, specs []completionSpec) {
	fmt.Fprintln(w, "# fish completion for razzia; load with: razzia completion fish | source")
	fmt.Fprintln(w, "complete -c razzia -f")
	fmt.Fprintln(w, "complete -c razzia -n __fish_use_subcommand -l help -d 'show the commands'")
	fmt.Fprintln(w, "complete -c razzia -n __fish_use_subcommand -l version -d 'print the version'")
	for _, s := range specs {
		fmt.Fprintf(w, "complete -c razzia -n __fish_use_subcommand -a %s -d %s\n", s.name, zshQuote(s.summary))
	}
	for _, s := range specs {
		cond := zshQuote("__fish_seen_subcommand_from " + s.name)
		for _, f := range s.flags {
			if v, ok := flagValues()[f]; ok {
				fmt.Fprintf(w, "complete -c razzia -n %s -l %s -xa %s\n", cond, f, zshQuote(v))
				continue
			}
			fmt.Fprintf(w, "complete -c razzia -n %s -l %s\n", cond, f)
		}
		if len(s.words) > 0 {
			fmt.Fprintf(w, "complete -c razzia -n %s -a %s\n", cond, zshQuote(strings.Join(s.words, " ")))
		} else if !slices.Contains([]string{"version"}, s.name) {
			fmt.Fprintf(w, "complete -c razzia -n %s -F\n", cond)
		}
	}
}
