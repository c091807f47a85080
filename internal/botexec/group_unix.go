//go:build unix

package botexec

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup makes the program the leader of a process group of its own,
// which its children join unless they leave it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the program's process group: the program and whatever
// it started that still holds its pipes. The group outlives a program that
// has exited while one of its members lives, so its id is not reused then.
func killGroup(p *os.Process) {
	syscall.Kill(-p.Pid, syscall.SIGKILL)
	p.Kill()
}
