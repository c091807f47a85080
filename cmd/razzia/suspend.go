//go:build unix

package main

import (
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// A suspender suspends the program on the terminal to the shell, whether
// ctrl+z was typed (the model answers tea.Suspend) or SIGTSTP came from
// outside (kill -TSTP): the screen is given back before the process stops
// and drawn again when it continues. A SIGTSTP left to its default would
// stop the process with the table still on the screen and the terminal in
// the program's mode, and nothing would redraw it after fg.
type suspender struct {
	tstp       chan os.Signal
	stopping   atomic.Bool // the program has given the screen back to stop
	jobControl func() bool // whether a shell can take the terminal back
}

func newSuspender() *suspender {
	s := &suspender{tstp: make(chan os.Signal, 1), jobControl: jobControl}
	signal.Notify(s.tstp, syscall.SIGTSTP)
	return s
}

// stop releases SIGTSTP.
func (s *suspender) stop() { signal.Stop(s.tstp) }

// filter is the program's message filter. Where no shell can take the
// terminal back (a program that leads its own session, as "ssh -t host
// razzia play" starts it) the kernel drops the stop, and the program
// would wait for a SIGCONT that never comes with the screen given up:
// ctrl+z does nothing there.
func (s *suspender) filter(_ tea.Model, msg tea.Msg) tea.Msg {
	switch msg.(type) {
	case tea.SuspendMsg:
		if !s.jobControl() {
			return nil
		}
		s.stopping.Store(true)
	case tea.ResumeMsg:
		s.stopping.Store(false)
	}
	return msg
}

// caught handles a SIGTSTP: from outside, it asks the program to give the
// screen back and stop; sent by the program itself once it has, it stops
// the process group. Go cannot give SIGTSTP its default action back once
// a program has asked for it, so the stop is SIGSTOP's, which a shell
// treats alike (bash says "Stopped (signal)"); SIGCONT, as fg sends it,
// continues the program, which draws the screen again.
func (s *suspender) caught(p *tea.Program) {
	if s.stopping.Load() {
		_ = syscall.Kill(0, syscall.SIGSTOP)
		return
	}
	go p.Send(tea.SuspendMsg{})
}
