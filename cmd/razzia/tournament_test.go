package main

import (
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/servertest"
)

// TestTournamentRun runs razzia tournament against a server: each format
// played to its end by the accounts it registers, the standings printed;
// a second run signs the same accounts in again.
func TestTournamentRun(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	for _, args := range [][]string{
		{"--format", "swiss", "--players", "5", "--size", "3", "--rounds", "2", "--bot", "random"},
		{"--format", "duplicate", "--players", "4", "--size", "2", "--rounds", "1"},
	} {
		out, errOut, status := runCmd(t, nil, append([]string{"tournament", "--server", srv.URL}, args...)...)
		if status != 0 {
			t.Fatalf("razzia tournament %v: status %d\n%s\n%s", args, status, out, errOut)
		}
		if !strings.Contains(out, "(finished)") || !strings.Contains(out, "/t/") || strings.Count(out, " games\n") < 4 {
			t.Errorf("razzia tournament %v printed:\n%s", args, out)
		}
	}
	if _, errOut, status := runCmd(t, nil, "tournament", "--players", "3"); status != 2 || !strings.Contains(errOut, "--server") {
		t.Errorf("without --server: status %d, %q", status, errOut)
	}
	if _, errOut, status := runCmd(t, nil, "tournament", "--server", srv.URL, "--bot", "grandmaster"); status != 2 || !strings.Contains(errOut, "--bot") {
		t.Errorf("an unknown bot: status %d, %q", status, errOut)
	}
	if _, errOut, status := runCmd(t, nil, "play", "--server", srv.URL, "--tournaments", "--lobby"); status != 2 || !strings.Contains(errOut, "--lobby") {
		t.Errorf("--tournaments with --lobby: status %d, %q", status, errOut)
	}
	out, _, status := runCmd(t, nil, "play", "--server", srv.URL, "--tournaments")
	if status != 0 || !strings.Contains(out, "Swiss run") || !strings.Contains(out, "Finished:") {
		t.Errorf("razzia play --tournaments: %d\n%s", status, out)
	}
	if _, errOut, status := runCmd(t, nil, "play", "--server", srv.URL, "--tournament", "abcdefghij"); status != 2 || !strings.Contains(errOut, "--account") {
		t.Errorf("--tournament without --account: %d %q", status, errOut)
	}
}
