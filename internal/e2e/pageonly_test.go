package e2e

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// pageOnly names the browser tests that check what the page shows and
// does for one person (layout, words, languages, the tutorial, the
// replay): under the race detector they are skipped, since they ran in
// full without it and the race detector watches the server, which they
// drive no differently from the tests that stay. The tests that stay
// under -race are those where the server's goroutines meet: several people
// at one table, a spectator, reconnection and a cut network, the server's
// timers (clocks, the round-end hold), its background workers (analysis,
// hints, puzzles) and a move the table does not offer. A test not named
// here runs under -race: a new test costs time there until it is named,
// never goes unchecked.
var pageOnly = map[string]bool{
	"TestAccessibility":          true,
	"TestAccountPagesTranslated": true,
	"TestAuctionLayout":          true,
	"TestCancelAsksFirst":        true,
	"TestDutch":                  true,
	"TestFirstLoad":              true,
	"TestLobbyLevels":            true,
	"TestLogFollows":             true,
	"TestLongNameFits":           true,
	"TestPasskeyAccount":         true,
	"TestPasswordAccount":        true,
	"TestPhoneHeader":            true,
	"TestPlayWithBots":           true,
	"TestPoliceTrackWidths":      true,
	"TestProfileKinds":           true,
	"TestPushSettingsPage":       true,
	"TestPuzzleSolved":           true,
	"TestRatedTableSignIn":       true,
	"TestRematchPage":            true,
	"TestReplayErrors":           true,
	"TestReplayReview":           true,
	"TestReplayViewer":           true,
	"TestRoundEndStepsAside":     true,
	"TestSetLevelOnWaitingPage":  true,
	"TestStatePatches":           true,
	"TestTableDetails":           true,
	"TestTableFits":              true,
	"TestTutorial":               true,
	"TestTutorialOffScript":      true,
	"TestUnknownInvite":          true,
}

// skipPageOnly skips a test named in pageOnly under the race detector.
// With RAZZIA_E2E_RACE_FOLLOWS=1 (set by .ci/run, whose -race run of the
// same tree follows) it skips the others without it: they run there with
// the same checks and the race detector's besides, so each browser test
// runs once.
func skipPageOnly(t *testing.T) {
	t.Helper()
	top, _, _ := strings.Cut(t.Name(), "/")
	if raceEnabled && pageOnly[top] {
		t.Skipf("SKIPPED under -race: %s checks the page for one person and ran in full without -race; the race detector watches the server, which the tests kept under -race drive (see pageOnly)", top)
	}
	if !raceEnabled && !pageOnly[top] && raceFollows() {
		t.Skipf("SKIPPED: RAZZIA_E2E_RACE_FOLLOWS=1 says a -race run follows, and %s runs there in full (see pageOnly)", top)
	}
}

// raceFollows reports whether RAZZIA_E2E_RACE_FOLLOWS=1 says that the
// browser tests run again under -race after this run.
func raceFollows() bool { return os.Getenv("RAZZIA_E2E_RACE_FOLLOWS") == "1" }

// TestPageOnlyNamesTests keeps pageOnly to tests that exist: a renamed
// test would otherwise run under -race again without a word.
func TestPageOnlyNamesTests(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
				tests[fn.Name.Name] = true
			}
		}
	}
	var stale []string
	for name := range pageOnly {
		if !tests[name] {
			stale = append(stale, name)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("pageOnly names tests that do not exist: %s", strings.Join(stale, ", "))
	}
}

// screenshots reports whether the tests save screenshots: always, except
// under CI=true without RAZZIA_ARTIFACTS, where nobody looks at them and
// taking them cost the tutorial about a third of the browser's CPU.
func screenshots() bool {
	return os.Getenv("CI") != "true" || os.Getenv("RAZZIA_ARTIFACTS") != ""
}
