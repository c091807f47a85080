//go:build !unix

package botexec

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// killGroup kills the program only: what it started is not stopped, and
// a pipe such a process holds ends when that process does.
func killGroup(p *os.Process) { p.Kill() }
