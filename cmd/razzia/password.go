package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/razziagame/razzia/internal/i18n"
)

// readPassword returns the password of an account: $RAZZIA_PASSWORD when
// set, else a line typed at the terminal without echo, else a line of
// stdin.
func readPassword(cat *i18n.Catalogue, account string, stdin io.Reader, stdout io.Writer) (string, error) {
	if p, ok := os.LookupEnv("RAZZIA_PASSWORD"); ok {
		return p, nil
	}
	fmt.Fprint(stdout, cat.T("tui.password", "name", account))
	defer fmt.Fprintln(stdout)
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		b, err := term.ReadPassword(int(f.Fd()))
		return string(b), err
	}
	// A byte at a time: what follows the line is the game's input.
	var line []byte
	b := make([]byte, 1)
	for {
		n, err := stdin.Read(b)
		if n == 1 {
			if b[0] == '\n' {
				break
			}
			line = append(line, b[0])
		}
		if errors.Is(err, io.EOF) && len(line) > 0 {
			break
		}
		if err != nil {
			return "", err
		}
	}
	return strings.TrimSuffix(string(line), "\r"), nil
}
