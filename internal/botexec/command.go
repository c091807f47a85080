package botexec

import (
	"errors"
	"strings"
)

// splitCommand splits a command line into words as a POSIX shell would for
// plain words, 'single' and "double" quotes and backslashes; nothing else
// is special.
func splitCommand(s string) ([]string, error) {
	var (
		words []string
		word  strings.Builder
		in    bool // inside a word
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, word.String())
				word.Reset()
				in = false
			}
		case c == '\\':
			in = true
			if i+1 < len(s) {
				i++
				word.WriteByte(s[i])
			}
		case c == '\'':
			in = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated ' quote")
			}
			word.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			in = true
			for i++; ; i++ {
				if i >= len(s) {
					return nil, errors.New(`unterminated " quote`)
				}
				if s[i] == '"' {
					break
				}
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`", s[i+1]) >= 0 {
					i++
				}
				word.WriteByte(s[i])
			}
		default:
			in = true
			word.WriteByte(c)
		}
	}
	if in {
		words = append(words, word.String())
	}
	return words, nil
}
