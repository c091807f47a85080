package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/recordview"
)

// update regenerates the engine-generated golden files, testdata/game-*.
// The hand-scored records (hand-*) and the error records (err-*) have wants
// written and checked by people, so -update never touches them.
var update = flag.Bool("update", false, "regenerate testdata/game-* (records and wants) with the engine")

// generated lists the complete games the engine plays for the golden tests:
// random legal moves (see playRandom), cards drawn from the seed.
var generated = []struct {
	name    string
	players []string
	seed    uint64
	deal    bool // deal the cheque sets by lot, so the record has "cheques"
}{
	{"game-2p", []string{"Ann", "Bob"}, 2, false},
	{"game-3p", []string{"Ann", "Bob", "Cleo"}, 3, true},
	{"game-4p", []string{"Miriam", "Felix", "Elke", "Dennis"}, 4, false},
	{"game-5p", []string{"Miriam", "Felix", "Elke", "Dennis", "Xaver & Co"}, 5, true},
}

// playRandom plays a complete game with random legal moves.
func playRandom(t *testing.T, players []string, seed uint64, deal bool) *razzia.Record {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	setup := razzia.Setup{Players: players, Seed: fmt.Appendf(nil, "golden %d", seed)}
	if deal {
		setup.Cheques = razzia.DealCheques(len(players), r)
	}
	g, err := razzia.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	for s := g.State(); !s.Over(); s = g.State() {
		legal := g.LegalMoves()
		m := legal[r.IntN(len(legal))]
		// Uniform choices call empty auctions and bid wildly; favouring
		// draws and passes gives games that score every category.
		if first := legal[0].Action; (first == razzia.ActionDraw || first == razzia.ActionPass) && r.IntN(4) != 0 {
			m = legal[0]
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g.Record()
}

func TestUpdateGenerated(t *testing.T) {
	if !*update {
		t.Skip("run with -update to regenerate testdata/game-*")
	}
	for _, gen := range generated {
		rec := playRandom(t, gen.players, gen.seed, gen.deal)
		var b bytes.Buffer
		if _, err := rec.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join("testdata", gen.name+".json")
		write(t, file, b.Bytes())
		stdout, _, _ := runCmd(t, nil, "replay", "--json", file)
		write(t, filepath.Join("testdata", gen.name+".want.json"), []byte(stdout))
		stdout, _, _ = runCmd(t, nil, "replay", file)
		write(t, filepath.Join("testdata", gen.name+".want.txt"), []byte(stdout))
	}
}

func write(t *testing.T, file string, data []byte) {
	t.Helper()
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// runCmd runs the razzia command line in-process.
func runCmd(t *testing.T, stdin []byte, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = run(args, bytes.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), status
}

// records returns the records in testdata: every *.json but the wants.
func records(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	files = slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, ".want.json") })
	if len(files) < 10 {
		t.Fatalf("found only %d records in testdata", len(files))
	}
	return files
}

// TestReplayGolden replays every record in testdata with --json and compares
// standard output with its .want.json byte for byte. A want with an error
// object expects exit status 1, others 0.
func TestReplayGolden(t *testing.T) {
	for _, file := range records(t) {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(strings.TrimSuffix(file, ".json") + ".want.json")
			if err != nil {
				t.Fatal(err)
			}
			wantStatus := 0
			if bytes.Contains(want, []byte(`{"error":`)) {
				wantStatus = 1
			}
			stdout, stderr, status := runCmd(t, nil, "replay", "--json", file)
			if status != wantStatus {
				t.Errorf("exit status %d, want %d", status, wantStatus)
			}
			if stderr != "" {
				t.Errorf("--json wrote to stderr: %q", stderr)
			}
			if stdout != string(want) {
				t.Errorf("stdout differs from %s.want.json\ngot:\n%s\nwant:\n%s", name, stdout, want)
			}
			if !json.Valid([]byte(stdout)) {
				t.Errorf("stdout is not valid JSON:\n%s", stdout)
			}
		})
	}
}

// TestReplayGoldenText compares the account of the records that have a
// .want.txt.
func TestReplayGoldenText(t *testing.T) {
	for _, gen := range generated {
		t.Run(gen.name, func(t *testing.T) {
			file := filepath.Join("testdata", gen.name+".json")
			want, err := os.ReadFile(filepath.Join("testdata", gen.name+".want.txt"))
			if err != nil {
				t.Fatal(err)
			}
			stdout, stderr, status := runCmd(t, nil, "replay", file)
			if status != 0 || stderr != "" {
				t.Errorf("exit status %d, stderr %q; want 0 and nothing", status, stderr)
			}
			if stdout != string(want) {
				t.Errorf("stdout differs from %s.want.txt\ngot:\n%s", gen.name, stdout)
			}
		})
	}
}

// TestGeneratedConsistent checks the generated wants against the rules,
// independently of the golden bytes: three rounds, totals the sums of the
// rounds (R16, R17), winners the highest totals (R18), businesses and
// cheques scored in round 3 only (R17).
func TestGeneratedConsistent(t *testing.T) {
	for _, gen := range generated {
		t.Run(gen.name, func(t *testing.T) {
			stdout, _, status := runCmd(t, nil, "replay", "--json", filepath.Join("testdata", gen.name+".json"))
			if status != 0 {
				t.Fatalf("exit status %d", status)
			}
			var res recordview.Result
			if err := json.Unmarshal([]byte(stdout), &res); err != nil {
				t.Fatal(err)
			}
			n := len(gen.players)
			if !res.Finished || res.Round != 3 || len(res.Scores) != 3 || len(res.Totals) != n {
				t.Fatalf("finished %v, round %d, %d scored rounds, %d totals; want a finished game of %d players",
					res.Finished, res.Round, len(res.Scores), len(res.Totals), n)
			}
			best := slices.Max(res.Totals)
			var winners []int
			for seat := range n {
				sum := 0
				for r, round := range res.Scores {
					sum += round[seat].Total()
					if r < 2 && (round[seat][razzia.CategoryBusinesses] != 0 || round[seat][razzia.CategoryCheques] != 0) {
						t.Errorf("round %d, seat %d: businesses or cheques scored before round 3", r+1, seat)
					}
				}
				if sum != res.Totals[seat] {
					t.Errorf("seat %d: total %d, but the rounds sum to %d", seat, res.Totals[seat], sum)
				}
				if res.Totals[seat] == best {
					winners = append(winners, seat)
				}
			}
			if !slices.Equal(res.Winners, winners) {
				t.Errorf("winners %v, want %v (totals %v)", res.Winners, winners, res.Totals)
			}
		})
	}
}

// TestHandScored checks the hand-scored games through the decoded result
// too, so that a golden file edited by mistake cannot hide a wrong score.
// The arithmetic is in testdata/hand-*.md.
func TestHandScored(t *testing.T) {
	tests := []struct {
		name     string
		finished bool
		round    int
		rounds   []int // each scored round's totals, seat by seat
		totals   []int
		winners  []int
	}{
		// R7 (5th police with 2 players), R8 (thief takes thief), R9, R10, R16, R17, R18.
		{"hand-2p", true, 3, []int{2, -2, 2, 3, 2, 0}, []int{6, 1}, []int{0}},
		// R13, R14 (every cheque spent), R16 ties (E5-like bodyguards).
		{"hand-4p-unfinished", false, 2, []int{2, -3, 0, 6}, []int{2, -3, 0, 6}, []int{}},
		// No moves: nothing scored, totals zero, no winners yet.
		{"hand-empty", false, 1, nil, []int{0, 0, 0}, []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, _, status := runCmd(t, nil, "replay", "--json", filepath.Join("testdata", tt.name+".json"))
			if status != 0 {
				t.Fatalf("exit status %d, want 0", status)
			}
			var res recordview.Result
			if err := json.Unmarshal([]byte(stdout), &res); err != nil {
				t.Fatal(err)
			}
			var rounds []int
			for _, round := range res.Scores {
				for _, sc := range round {
					rounds = append(rounds, sc.Total())
				}
			}
			if res.Finished != tt.finished || res.Round != tt.round || !slices.Equal(rounds, tt.rounds) ||
				!slices.Equal(res.Totals, tt.totals) || !slices.Equal(res.Winners, tt.winners) {
				t.Errorf("got finished %v round %d rounds %v totals %v winners %v\nwant finished %v round %d rounds %v totals %v winners %v",
					res.Finished, res.Round, rounds, res.Totals, res.Winners,
					tt.finished, tt.round, tt.rounds, tt.totals, tt.winners)
			}
		})
	}
}

func TestReplayText(t *testing.T) {
	stdout, stderr, status := runCmd(t, nil, "replay", filepath.Join("testdata", "hand-2p.json"))
	if status != 0 || stderr != "" {
		t.Fatalf("exit status %d, stderr %q; want 0 and nothing", status, stderr)
	}
	for _, want := range []string{
		"Players (cheques): Ann (2 5 6 9), Bob (3 4 7 8)\n",
		"\nRound 1\n", "\nRound 2\n", "\nRound 3\n",
		"  Police auction. Row: bodyguard, car, driver.\n    Ann bids 5. Bob passes.\n    Ann wins with 5:",
		"  Raid! Round 1 ends with the last police card.\n",
		// The round 3 table, categories of R16 and R17, aligned.
		"  Round 3       Ann   Bob\n" +
			"  thieves         0     0\n" +
			"  bodyguards      5    -2\n" +
			"  cars            0     2\n" +
			"  jewels         -5    -5\n" +
			"  gold            0     0\n" +
			"  businesses      7     0\n" +
			"  cheques        -5     5\n" +
			"  round total     2     0\n" +
			"  game total      6     1\n",
		"\nFinal totals\n  Ann     6\n  Bob     1\nAnn wins the game.\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the account lacks %q", want)
		}
	}
	// Rounds 1 and 2 score neither businesses nor cheques (R17): their
	// tables leave those lines out.
	if n := strings.Count(stdout, "  businesses "); n != 1 {
		t.Errorf("%d businesses lines, want 1 (round 3 only)", n)
	}

	stdout, _, status = runCmd(t, nil, "replay", filepath.Join("testdata", "hand-4p-unfinished.json"))
	if status != 0 {
		t.Errorf("unfinished game: exit status %d, want 0", status)
	}
	for _, want := range []string{
		"  Round 1 ends: every cheque is spent.\n",
		"  Round 1      Miriam  Felix  Elke  Dennis\n",
		"  game total        2     -3     0       6\n",
		"\nRound 2\n  Elke draws police (1 on the track).\n",
		"\nThe game is unfinished: round 2, Elke to move in the auction.\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("unfinished game: the account lacks %q", want)
		}
	}
	if strings.Contains(stdout, "Final totals") {
		t.Error("unfinished game: the account has final totals")
	}
}

// TestReplayTextError checks that without --json an illegal move prints the
// account up to it on stdout, and the message on stderr, with status 1.
func TestReplayTextError(t *testing.T) {
	tests := []struct {
		name       string
		file       string
		stderr     string
		stdoutEnds string // "" for no account at all
	}{
		{"illegal move 10", "err-not-held.json",
			"razzia replay: testdata/err-not-held.json: move 10 (bid 5): Bob cannot bid 5: their face-up cheques are 3, 4, 7 and 8\n",
			"  Police auction. Row: thief.\n    Ann passes.\n"},
		{"after the end", "err-game-over.json",
			"razzia replay: testdata/err-game-over.json: move 60 (draw car): cannot draw car: the game is over\n",
			"Ann wins the game.\n"},
		{"malformed JSON", "err-malformed.json",
			"razzia replay: testdata/err-malformed.json: line 1, column 79: malformed record: the record is not a valid JSON object: unexpected EOF\n", ""},
		{"missing file", "no-such-file.json", "razzia replay: testdata/no-such-file.json: " + missingFile(t, false) + "\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, status := runCmd(t, nil, "replay", filepath.Join("testdata", tt.file))
			if status != 1 {
				t.Errorf("exit status %d, want 1", status)
			}
			if stderr != tt.stderr {
				t.Errorf("stderr %q, want %q", stderr, tt.stderr)
			}
			if tt.stdoutEnds == "" && stdout != "" || !strings.HasSuffix(stdout, tt.stdoutEnds) {
				t.Errorf("stdout should end with %q, got:\n%s", tt.stdoutEnds, stdout)
			}
		})
	}
}

// missingFile returns the system's message for opening
// testdata/no-such-file.json: with the operation and the name, or alone.
func missingFile(t *testing.T, named bool) string {
	t.Helper()
	_, err := os.Open(filepath.Join("testdata", "no-such-file.json"))
	pe, ok := err.(*os.PathError)
	if !ok {
		t.Fatalf("opening testdata/no-such-file.json: %v", err)
	}
	if named {
		return pe.Error()
	}
	return pe.Err.Error()
}

func TestReplayMissingFileJSON(t *testing.T) {
	stdout, stderr, status := runCmd(t, nil, "replay", "--json", filepath.Join("testdata", "no-such-file.json"))
	var e recordview.Failure
	e.Error.Reason = missingFile(t, true)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as replay prints it
	enc.Encode(e)
	want := b.String()
	if status != 1 || stdout != want || stderr != "" {
		t.Errorf("got status %d, stdout %q, stderr %q; want 1, %q, nothing", status, stdout, stderr, want)
	}
}

// TestReplayArgs checks that flags go before or after FILE, in either
// spelling, and that "-" reads standard input.
func TestReplayArgs(t *testing.T) {
	file := filepath.Join("testdata", "hand-2p.json")
	record, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "hand-2p.want.json"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		stdin []byte
		args  []string
	}{
		{"--json FILE", nil, []string{"replay", "--json", file}},
		{"-json FILE", nil, []string{"replay", "-json", file}},
		{"FILE --json", nil, []string{"replay", file, "--json"}},
		{"--json=true FILE", nil, []string{"replay", "--json=true", file}},
		{"stdin", record, []string{"replay", "--json", "-"}},
		{"stdin after --", record, []string{"replay", "--json", "--", "-"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, status := runCmd(t, tt.stdin, tt.args...)
			if status != 0 || stdout != string(want) || stderr != "" {
				t.Errorf("got status %d, stderr %q, stdout:\n%s", status, stderr, stdout)
			}
		})
	}
	t.Run("stdin text", func(t *testing.T) {
		stdout, _, status := runCmd(t, record, "replay", "-")
		if status != 0 || !strings.Contains(stdout, "Ann wins the game.") {
			t.Errorf("got status %d, stdout:\n%s", status, stdout)
		}
	})
}

// TestUsage checks the exit statuses and where usage goes: stdout and 0 when
// asked for, stderr and 2 for a usage error.
func TestUsage(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		status int
		stdout string // a substring of stdout, or "" for empty
		stderr string // a substring of stderr, or "" for empty
	}{
		{"no command", nil, 2, "", "Commands:\n  replay"},
		{"unknown command", []string{"frobnicate"}, 2, "", `razzia: unknown command "frobnicate"`},
		{"help", []string{"help"}, 0, "Commands:\n  replay", ""},
		{"--help", []string{"--help"}, 0, "Commands:\n  replay", ""},
		{"-h", []string{"-h"}, 0, "Commands:\n  replay", ""},
		{"help replay", []string{"help", "replay"}, 0, "usage: razzia replay [--json] FILE", ""},
		{"help unknown", []string{"help", "frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{"replay --help", []string{"replay", "--help"}, 0, "usage: razzia replay [--json] FILE", ""},
		{"replay -h", []string{"replay", "-h"}, 0, "--json", ""},
		{"replay no file", []string{"replay"}, 2, "", "want one FILE or LINK, got 0 arguments"},
		{"replay two files", []string{"replay", "a.json", "b.json"}, 2, "", "want one FILE or LINK, got 2 arguments"},
		{"replay unknown flag", []string{"replay", "--frob", "a.json"}, 2, "", `razzia replay: unknown flag --frob (see "razzia replay --help")`},
		{"replay unknown flag after FILE", []string{"replay", "a.json", "--frob"}, 2, "", "unknown flag --frob"},
		{"replay bad bool", []string{"replay", "--json=maybe", "a.json"}, 2, "", "invalid boolean value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, status := runCmd(t, nil, tt.args...)
			if status != tt.status {
				t.Errorf("exit status %d, want %d", status, tt.status)
			}
			for _, c := range []struct{ name, got, want string }{{"stdout", stdout, tt.stdout}, {"stderr", stderr, tt.stderr}} {
				if c.want == "" && c.got != "" || !strings.Contains(c.got, c.want) {
					t.Errorf("%s %q, want it to contain %q", c.name, c.got, c.want)
				}
			}
		})
	}
}

// TestEveryCommandHelp checks that every command in the table answers
// --help on stdout with status 0 and is listed by usage.
func TestEveryCommandHelp(t *testing.T) {
	_, list, _ := runCmd(t, nil)
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, status := runCmd(t, nil, c.name, "--help")
			if status != 0 || stdout == "" || stderr != "" {
				t.Errorf("exit status %d, stdout %q, stderr %q; want 0, help, nothing", status, stdout, stderr)
			}
			if !strings.Contains(list, "  "+c.name+" ") || !strings.Contains(list, c.summary) {
				t.Errorf("usage does not list %s: %q", c.name, list)
			}
		})
	}
}

// TestReplayNames: a record whose player's name would hide or reorder the
// text printed after it is refused, by the server's rule for names; the
// server's own names (a bot's) are right in a record.
func TestReplayNames(t *testing.T) {
	for _, tt := range []struct {
		name, player, stderr string
	}{
		{"a direction override", "Ann\u202e", `player 1: the name "Ann\u202e" holds the invisible or direction-changing character U+202E`},
		{"a zero-width space", "A\u200bnn", `player 1: the name "A\u200bnn" holds the invisible or direction-changing character U+200B`},
		{"a bot's name", "Bot 1 (hard)", ""},
		{"an arena's bot spec", "mcts:iters=4000,workers=2", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "game.json")
			rec := fmt.Sprintf(`{"format":"razzia-record/1","players":[%q,"Bob"],"seed":"x","moves":[]}`, tt.player)
			if err := os.WriteFile(file, []byte(rec), 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, status := runCmd(t, nil, "replay", file)
			if tt.stderr == "" {
				if strings.Contains(stderr, "player 1") {
					t.Errorf("status %d, stderr %q: the name should be accepted", status, stderr)
				}
				return
			}
			if status != 1 || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("status %d, stderr %q; want 1 and %q", status, stderr, tt.stderr)
			}
		})
	}
}

// TestReplayLink: replay and analyze take a game's link on a server and
// read its record from there, as they read a file; a game the server does
// not have and a server that cannot be reached are said in words.
func TestReplayLink(t *testing.T) {
	t.Parallel()
	srv, c := testServer(t, 0)
	rec := readRecordFile(t, filepath.Join("testdata", "game-3p.json"))
	info, err := c.Upload(t.Context(), rec)
	if err != nil {
		t.Fatal(err)
	}
	link := srv.URL + "/g/" + info.ID
	for _, format := range []string{"json", "txt"} {
		args := []string{"replay", link}
		if format == "json" {
			args = []string{"replay", "--json", link}
		}
		want, err := os.ReadFile(filepath.Join("testdata", "game-3p.want."+format))
		if err != nil {
			t.Fatal(err)
		}
		if stdout, stderr, status := runCmd(t, nil, args...); status != 0 || stdout != string(want) {
			t.Errorf("%v: status %d, stderr %q; stdout:\n%s\nwant:\n%s", args, status, stderr, stdout, want)
		}
	}
	if stdout, stderr, status := runCmd(t, nil, "analyze", "--json", "--iterations", "2", link); status != 0 || !strings.Contains(stdout, `"summary"`) {
		t.Errorf("analyze %s: status %d, stderr %q, stdout %.200s", link, status, stderr, stdout)
	}
	for _, tc := range []struct{ link, want string }{
		{srv.URL + "/g/zzzzzzzzzz", `razzia replay: ` + srv.URL + `/g/zzzzzzzzzz: there is no game "zzzzzzzzzz" (not_found)`},
		{"http://127.0.0.1:1/g/zzzzzzzzzz", "razzia replay: http://127.0.0.1:1/g/zzzzzzzzzz: nothing answers at 127.0.0.1:1"},
	} {
		if _, stderr, status := runCmd(t, nil, "replay", tc.link); status != 1 || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("replay %s: status %d, stderr %q; want 1 and %q", tc.link, status, stderr, tc.want)
		}
	}
}
