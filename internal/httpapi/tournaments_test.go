package httpapi_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

// tournamentFeed reads a tournament's WebSocket.
type tournamentFeed struct {
	t *testing.T
	c *websocket.Conn
}

func dialTournament(t *testing.T, srv *servertest.Server, id string) *tournamentFeed {
	t.Helper()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/tournaments/" + id + "/ws"
	c, _, err := websocket.Dial(servertest.Context(t), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return &tournamentFeed{t: t, c: c}
}

// until reads the feed's messages until cond holds of one.
func (f *tournamentFeed) until(what string, cond func(protocol.Tournament) bool) protocol.Tournament {
	f.t.Helper()
	for {
		_, data, err := f.c.Read(servertest.Context(f.t))
		if err != nil {
			f.t.Fatalf("waiting for %s: %v", what, err)
		}
		var m protocol.TournamentMessage
		if err := json.Unmarshal(data, &m); err != nil || m.Type != protocol.TypeTournament {
			f.t.Fatalf("a message %q: %v", data, err)
		}
		if cond(m.Tournament) {
			return m.Tournament
		}
	}
}

// seatToken returns the seat token of the browser's account at game.
func (b *browser) seatToken(game string) string {
	b.t.Helper()
	se, err := b.srv.Accounts.Session(context.Background(), b.cookie("razzia_session").Value)
	if err != nil {
		b.t.Fatal(err)
	}
	return account.SeatToken(se.Account, game)
}

// TestTournamentAPI runs a duplicate tournament through the API: its
// refusals, its live page, its tables hidden while the round is played,
// and its downloads.
func TestTournamentAPI(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	names := []string{"Ann", "Bea", "Cy", "=Dan"}
	bs := map[string]*browser{}
	for _, n := range names {
		bs[n] = newBrowser(t, srv)
		bs[n].register(n)
	}
	ann, bea := bs["Ann"], bs["Bea"]
	guest := newBrowser(t, srv)
	set := protocol.TournamentSettings{Name: "Duplicate night", Format: "duplicate", TableSize: 2, Rounds: 1, BreakSeconds: new(int), Rated: true}
	if _, code := guest.call(http.MethodPost, "/api/tournaments", set, nil); code != protocol.Unauthorized {
		t.Errorf("a guest creates: %s, want unauthorized", code)
	}
	bad := set
	bad.TableSize = 7
	if status, code := ann.call(http.MethodPost, "/api/tournaments", bad, nil); status != http.StatusBadRequest || code != protocol.TournamentBadSettings {
		t.Errorf("a table of 7: %d %s", status, code)
	}
	var v protocol.Tournament
	ann.must(http.MethodPost, "/api/tournaments", set, &v)
	id := v.ID
	base := "/api/tournaments/" + id
	for _, n := range names {
		bs[n].must(http.MethodPost, base+"/join", nil, &v)
		if v.You == nil || !v.You.Joined {
			t.Errorf("%s joined: you %+v", n, v.You)
		}
	}
	if status, code := bea.call(http.MethodPost, base+"/join", nil, nil); status != http.StatusConflict || code != protocol.TournamentJoined {
		t.Errorf("a second join: %d %s", status, code)
	}
	if status, code := bea.call(http.MethodPost, base+"/organise/start", nil, nil); status != http.StatusForbidden || code != protocol.TournamentNotOrganiser {
		t.Errorf("Bea starts: %d %s", status, code)
	}
	if _, code := bea.call(http.MethodPost, base+"/explode", nil, nil); code != protocol.NotFound {
		t.Errorf("an unknown action: %s", code)
	}
	feed := dialTournament(t, srv, id)
	feed.until("the waiting tournament", func(v protocol.Tournament) bool { return v.Status == protocol.TournamentWaiting && len(v.People) == 4 })
	ann.must(http.MethodPost, base+"/organise/start", nil, nil)
	v = feed.until("the round's tables", func(v protocol.Tournament) bool {
		return len(v.RoundsPlayed) == 1 && v.RoundsPlayed[0].Tables[0].Ready && v.RoundsPlayed[0].Tables[1].Ready
	})
	tables := v.RoundsPlayed[0].Tables
	seatedAt := map[string]string{}
	for _, tb := range tables {
		for _, s := range tb.Seats {
			seatedAt[s.Name] = tb.Game
		}
	}
	other := tables[0].Game
	if seatedAt["Bea"] == other {
		other = tables[1].Game
	}
	if status, code := guest.call(http.MethodGet, "/api/games/"+other, nil, nil); status != http.StatusForbidden || code != protocol.TournamentHidden {
		t.Errorf("a spectator of a duplicate table under way: %d %s", status, code)
	}
	if _, code := bea.call(http.MethodGet, "/api/games/"+other+"/record", nil, nil); code != protocol.TournamentHidden {
		t.Errorf("Bea reads the record of the other table: %s", code)
	}
	bea.must(http.MethodGet, "/api/games/"+seatedAt["Bea"], nil, nil)
	ws := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/games/" + other + "/ws"
	if c, _, err := websocket.Dial(servertest.Context(t), ws, nil); err == nil {
		_, data, _ := c.Read(servertest.Context(t))
		if !strings.Contains(string(data), string(protocol.TournamentHidden)) {
			t.Errorf("a spectator's WebSocket of a hidden table said %q", data)
		}
		c.CloseNow()
	}
	// Which tournament a table is of: told even of the hidden one; nothing
	// of a game of none.
	var of protocol.GameTournament
	guest.must(http.MethodGet, "/api/games/"+other+"/tournament", nil, &of)
	if of.Tournament == nil || of.Tournament.ID != id {
		t.Errorf("the hidden table's tournament: %+v", of.Tournament)
	}
	plain := srv.Create("", "easy").ID
	of = protocol.GameTournament{}
	guest.must(http.MethodGet, "/api/games/"+plain+"/tournament", nil, &of)
	if of.Tournament != nil {
		t.Errorf("a game of no tournament is of %+v", of.Tournament)
	}
	var wg sync.WaitGroup
	for name, game := range seatedAt {
		token := bs[name].seatToken(game)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := servertest.PlaySeat(servertest.Context(t), srv.Hub, game, token); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}()
	}
	wg.Wait()
	v = feed.until("the end", func(v protocol.Tournament) bool { return v.Status == protocol.TournamentFinished })
	if len(v.RoundsPlayed[0].Deals) != 1 || len(v.Ranking) != 4 {
		t.Errorf("at the end: deals %+v, standings %+v", v.RoundsPlayed[0].Deals, v.Ranking)
	}
	guest.must(http.MethodGet, "/api/games/"+other, nil, nil)

	resp, err := http.Get(srv.URL + base + "/results.csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(resp.Body).ReadAll()
	resp.Body.Close()
	if err != nil || len(rows) != 5 || rows[0][3] != "percent" || !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("the CSV: %v, %v", rows, err)
	}
	for _, r := range rows[1:] {
		if strings.HasPrefix(r[1], "=") {
			t.Errorf("a name a spreadsheet reads as a formula: %q", r[1])
		}
	}
	resp, err = http.Get(srv.URL + base + "/results.json")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var got protocol.Tournament
	if err := json.Unmarshal(data, &got); err != nil || got.ID != id || len(got.Ranking) != 4 {
		t.Errorf("the JSON: %v, %s", err, data)
	}
	var entries protocol.TournamentEntries
	guest.must(http.MethodGet, "/api/players/Cy/tournaments", nil, &entries)
	if len(entries.Tournaments) != 1 || entries.Tournaments[0].Rank == 0 {
		t.Errorf("Cy's tournaments: %+v", entries)
	}
	// The games were rated: each player's rating counts one game.
	for _, n := range names {
		var p protocol.ProfileAnswer
		guest.must(http.MethodGet, "/api/players/"+url.PathEscape(n), nil, &p)
		if p.Profile.Rating.Games != 1 {
			t.Errorf("%s's rating counts %d games, want the tournament's 1", n, p.Profile.Rating.Games)
		}
	}
	var list protocol.TournamentList
	guest.must(http.MethodGet, "/api/tournaments", nil, &list)
	if len(list.Finished) != 1 || list.Finished[0].ID != id || len(list.Coming)+len(list.Running) != 0 {
		t.Errorf("the list: %+v", list)
	}
	if _, code := guest.call(http.MethodGet, "/api/tournaments/nosuchtour", nil, nil); code != protocol.NotFound {
		t.Errorf("no such tournament: %s", code)
	}
}

// TestTournamentSocketChangeWhileOpening: a tournament that changes while
// its socket opens (started between the socket's first reading and its
// following the changes) is sent as changed, not as it was: a runner
// shown the tournament still waiting would wait for a change that may
// never come, its seat's clock running. Not parallel: it sets a hook of
// the package.
func TestTournamentSocketChangeWhileOpening(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ann, bea := newBrowser(t, srv), newBrowser(t, srv)
	ann.register("Ann")
	bea.register("Bea")
	var v protocol.Tournament
	ann.must(http.MethodPost, "/api/tournaments", protocol.TournamentSettings{Name: "Late start", Format: protocol.FormatSwiss,
		TableSize: 2, Rounds: 1, BreakSeconds: new(int)}, &v)
	base := "/api/tournaments/" + v.ID
	ann.must(http.MethodPost, base+"/join", nil, nil)
	bea.must(http.MethodPost, base+"/join", nil, nil)
	// The hook starts the tournament and waits, on a socket opened
	// before, until the round is seated: every change is made by then.
	before := dialTournament(t, srv, v.ID)
	before.until("the waiting tournament", func(protocol.Tournament) bool { return true }) // past the hook
	started := make(chan error, 1)
	var once sync.Once
	httpapi.SetTournamentSocketOpen(func(id string) {
		once.Do(func() { started <- startAndSeat(ann, id, before.c) })
	})
	t.Cleanup(func() { httpapi.SetTournamentSocketOpen(nil) })
	feed := dialTournament(t, srv, v.ID)
	if err := <-started; err != nil {
		t.Fatal(err)
	}
	// Without the change, the socket stays silent: the read gives up.
	if err := readSeated(feed.c); err != nil {
		t.Errorf("the socket never sent the seated round: %v", err)
	}
}

// startAndSeat starts tournament id as its organiser, and reads c, a
// socket of the tournament, until the first round is seated.
func startAndSeat(organiser *browser, id string, c *websocket.Conn) error {
	if status, code := organiser.call(http.MethodPost, "/api/tournaments/"+id+"/organise/start", nil, nil); status != http.StatusOK {
		return fmt.Errorf("starting: %d %s", status, code)
	}
	return readSeated(c)
}

// readSeated reads c, a tournament's socket, until the first round is
// seated, for at most 10 seconds.
func readSeated(c *websocket.Conn) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return err
		}
		var m protocol.TournamentMessage
		if err := json.Unmarshal(data, &m); err != nil {
			return err
		}
		if r := m.Tournament.RoundsPlayed; len(r) == 1 && len(r[0].Tables) > 0 && r[0].Tables[0].Game != "" {
			return nil
		}
	}
}

// TestTournamentSocketsLimited: one address (a club's room) holds at most
// MaxConns tournament sockets, refused beyond with too_many_connections,
// and as many table sockets beside them: each person there has the
// tournament's page and their table open.
func TestTournamentSocketsLimited(t *testing.T) {
	srv := servertest.New(t, servertest.Options{API: httpapi.Options{MaxConns: 2}})
	ann := newBrowser(t, srv)
	ann.register("Ann")
	var v protocol.Tournament
	ann.must(http.MethodPost, "/api/tournaments", protocol.TournamentSettings{Name: "Club night", Format: "swiss", TableSize: 2}, &v)
	id := srv.Create("", "easy").ID
	for range 2 {
		var st protocol.StateMessage
		readType(t, ann.tableSocket(id), protocol.TypeState, &st)
	}
	for range 2 {
		dialTournament(t, srv, v.ID).until("the tournament", func(protocol.Tournament) bool { return true })
	}
	u := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/tournaments/" + v.ID + "/ws"
	c, _, err := websocket.Dial(t.Context(), u, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	var m protocol.ErrorMessage
	readType(t, c, protocol.TypeError, &m)
	if m.Code != protocol.TooManyConnections {
		t.Errorf("the third tournament socket: %+v", m)
	}
}
