//go:build !unix

package main

import (
	"os"

	tea "charm.land/bubbletea/v2"
)

// A suspender does nothing where processes are not suspended to a shell.
type suspender struct{ tstp chan os.Signal }

func newSuspender() *suspender                               { return &suspender{} }
func (s *suspender) stop()                                   {}
func (s *suspender) filter(_ tea.Model, msg tea.Msg) tea.Msg { return msg }
func (s *suspender) caught(*tea.Program)                     {}
