package httpapi_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	protoclient "github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

// member returns a protocol client signed in as name (registered by a
// browser), which reads the chat.
func member(t *testing.T, srv *servertest.Server, name string) *protoclient.Client {
	t.Helper()
	c := srv.Client()
	c.Chat = true
	if _, err := c.SignIn(servertest.Context(t), name, goodPassword); err != nil {
		t.Fatalf("sign in %s: %v", name, err)
	}
	return c
}

// codeOf returns the protocol code of a client's error.
func codeOf(err error) protocol.Code {
	var e *protoclient.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// readUntil reads conn until f holds for a state; it fails the test on
// an error, unless want is its code, which it returns.
func readUntil(t *testing.T, conn *protoclient.Conn, want protocol.Code, f func(*protoclient.State) bool) *protoclient.State {
	t.Helper()
	for {
		st, err := conn.Read(servertest.Context(t))
		if err != nil {
			if want != "" && codeOf(err) == want {
				return nil
			}
			t.Fatalf("read: %v", err)
		}
		if f(st) {
			return st
		}
	}
}

// playOn plays the first legal move at every turn of the seat whose
// token is given until the game is over, then closes done.
func playOn(t *testing.T, c *protoclient.Client, id, token string, done chan<- struct{}) {
	defer close(done)
	ctx := servertest.Context(t)
	s := c.Session(id, token)
	defer s.Close()
	for {
		st, err := s.Next(ctx)
		if err != nil {
			if codeOf(err) != "" {
				continue // a move the game outran
			}
			t.Errorf("game %s: %v", id, err)
			return
		}
		if st.Over() {
			return
		}
		if st.MyTurn() {
			if err := s.Move(ctx, st.View.Legal[0], st.View.Moves); err != nil && !errors.Is(err, protoclient.ErrNotConnected) {
				t.Logf("move: %v", err)
			}
		}
	}
}

// TestModeration: the first account is an operator; a player reports
// another's chat line; refused reports and actions (each with its code)
// change nothing; the operator reads the report with the line, removes
// the line (the other player sees it go), and bans the person: a bot
// plays their seat to the end of the game, and they can no longer move,
// chat, create a table or play as a guest under their name; their open
// page is told of each action on them at once, and they read who banned
// them, why, and at which game (the report's). The banned name never
// comes back: no account, no guest's seat, no guest in the online list,
// where the banned person is not listed either.
func TestModeration(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ctx := servertest.Context(t)
	ann, bob, cy := newBrowser(t, srv), newBrowser(t, srv), newBrowser(t, srv)
	ann.register("Ann")
	bob.register("Bob")
	cy.register("Cy")
	record := func(b *browser) (me protocol.ModerationAnswer) {
		t.Helper()
		b.must("GET", "/api/moderation/me", nil, &me)
		return me
	}
	if !record(ann).Operator {
		t.Error("the first account is no operator")
	}
	if record(bob).Operator {
		t.Error("the second account is an operator")
	}

	id := srv.Create("", "").ID
	bobC, cyC := member(t, srv, "Bob"), member(t, srv, "Cy")
	_, bobTok, err := bobC.Join(ctx, id, "", -1)
	if err != nil {
		t.Fatal(err)
	}
	cySeat, cyTok, err := cyC.Join(ctx, id, "", -1)
	if err != nil {
		t.Fatal(err)
	}
	bobConn, err := bobC.Dial(ctx, id, bobTok)
	if err != nil {
		t.Fatal(err)
	}
	cyConn, err := cyC.Dial(ctx, id, cyTok)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bobConn.Close(); cyConn.Close() })
	if err := cyConn.Send(ctx, protocol.ChatSend{Type: protocol.TypeChat, Text: "you play like a fool"}); err != nil {
		t.Fatal(err)
	}
	said := func(st *protoclient.State) bool { return st.Chat != nil && len(st.Chat.Lines) > 0 }
	if line := readUntil(t, bobConn, "", said).Chat.Lines[0]; line.Seq != 0 || line.Text == "" {
		t.Fatalf("Bob read %+v", line)
	}

	report := protocol.ReportRequest{Player: "Cy", Game: id, Kind: protocol.ReportChat, Reason: "insults", Lines: []int{0}}
	refusedReports := []struct {
		name string
		b    *browser
		req  func(r *protocol.ReportRequest)
		code protocol.Code
	}{
		{"oneself", cy, func(r *protocol.ReportRequest) {}, protocol.ReportSelf},
		{"nobody", bob, func(r *protocol.ReportRequest) { r.Player = "Zed" }, protocol.UnknownPlayer},
		{"no reason", bob, func(r *protocol.ReportRequest) { r.Reason = "  " }, protocol.BadReason},
		{"an unknown kind", bob, func(r *protocol.ReportRequest) { r.Kind = "rudeness" }, protocol.BadRequest},
		{"not at the game", bob, func(r *protocol.ReportRequest) { r.Player, r.Lines = "Ann", nil }, protocol.NotAtGame},
		{"a line not theirs", cy, func(r *protocol.ReportRequest) { r.Player = "Bob" }, protocol.NotAtGame},
		{"no such game", bob, func(r *protocol.ReportRequest) { r.Game = "nosuchgame" }, protocol.NotFound},
	}
	for _, c := range refusedReports {
		req := report
		c.req(&req)
		if status, code := c.b.call("POST", "/api/reports", req, nil); code != c.code {
			t.Errorf("a report of %s: %d %s, want %s", c.name, status, code, c.code)
		}
	}
	if status, code := newBrowser(t, srv).call("POST", "/api/reports", report, nil); code != protocol.Unauthorized {
		t.Errorf("a guest's report: %d %s, want unauthorized", status, code)
	}
	var filed protocol.ReportAnswer
	bob.must("POST", "/api/reports", report, &filed)
	if _, code := bob.call("POST", "/api/reports", report, nil); code != protocol.AlreadyReported {
		t.Errorf("the same report again: %s, want already_reported", code)
	}

	ban := protocol.ActionRequest{Kind: protocol.ActionBan, Player: "Cy", Reason: "insults in the chat", Report: filed.ID}
	refusedActions := []struct {
		name string
		b    *browser
		req  func(r *protocol.ActionRequest)
		code protocol.Code
	}{
		{"without the role", bob, func(r *protocol.ActionRequest) {}, protocol.NotOperator},
		{"without a reason", ann, func(r *protocol.ActionRequest) { r.Reason = "" }, protocol.BadReason},
		{"on nobody", ann, func(r *protocol.ActionRequest) { r.Player = "Zed" }, protocol.UnknownPlayer},
		{"on an operator", ann, func(r *protocol.ActionRequest) { r.Player = "Ann" }, protocol.OperatorTarget},
		{"of an unknown kind", ann, func(r *protocol.ActionRequest) { r.Kind = "scold" }, protocol.BadRequest},
		{"a ban for a time", ann, func(r *protocol.ActionRequest) { r.Hours = 5 }, protocol.BadRequest},
	}
	for _, c := range refusedActions {
		req := ban
		c.req(&req)
		if status, code := c.b.call("POST", "/api/moderation/actions", req, nil); code != c.code {
			t.Errorf("an action %s: %d %s, want %s", c.name, status, code, c.code)
		}
	}
	if _, code := bob.call("GET", "/api/moderation/reports", nil, nil); code != protocol.NotOperator {
		t.Errorf("the reports read without the role: %s", code)
	}
	var open protocol.ReportsAnswer
	ann.must("GET", "/api/moderation/reports", nil, &open)
	if len(open.Reports) != 1 || len(open.Actions) != 0 {
		t.Fatalf("after refused actions: %d reports, %d actions; want 1 and none", len(open.Reports), len(open.Actions))
	}
	r := open.Reports[0]
	if r.Player != "Cy" || r.Reporter != "Bob" || r.Game.URL != "/g/"+id || len(r.Lines) != 1 || r.Lines[0].Text != "you play like a fool" {
		t.Errorf("the report as the operator reads it: %+v", r)
	}
	if me := record(cy); me.Standing != (protocol.Standing{}) || len(me.Actions) != 0 {
		t.Errorf("Cy after refused actions: %+v", me)
	}

	cyPage := cy.live("") // told of each action on her at once
	line := 0
	ann.must("POST", "/api/moderation/actions", protocol.ActionRequest{Kind: protocol.ActionStrike, Game: id, Line: &line, Reason: "an insult"}, nil)
	gone := readUntil(t, bobConn, "", func(st *protoclient.State) bool { return said(st) && st.Chat.Lines[0].Removed }).Chat.Lines[0]
	if gone.Seq != 0 || gone.Text != "" {
		t.Errorf("the removed line as Bob reads it: %+v", gone)
	}

	listed := func(name string) bool {
		t.Helper()
		var online protocol.OnlineAnswer
		ann.must("GET", "/api/online", nil, &online)
		return slices.ContainsFunc(online.People, func(p protocol.PersonOnline) bool { return strings.EqualFold(p.Name, name) })
	}
	if !listed("Cy") {
		t.Error("Cy, at her table, is not in the online list")
	}
	var banned protocol.ActionAnswer
	ann.must("POST", "/api/moderation/actions", ban, &banned)
	if !banned.Standing.Banned || !slices.Equal(banned.Removed, []string{id}) || banned.Action.Operator != "Ann" {
		t.Errorf("the ban: %+v", banned)
	}
	for _, kind := range []string{protocol.ActionStrike, protocol.ActionBan} {
		var told protocol.ModerationMessage
		readType(t, cyPage, protocol.TypeModeration, &told)
		if told.Action.Kind != kind || told.Action.Operator != "Ann" || told.Standing.Banned != (kind == protocol.ActionBan) {
			t.Errorf("Cy's page is told %+v, want her %s by Ann", told, kind)
		}
	}
	removed := func(st *protoclient.State) bool {
		return slices.ContainsFunc(st.TakeOvers, func(to protocol.TakeOver) bool {
			return to.Seat == cySeat && to.Reason == protocol.ReasonRemoved && to.BackMove == nil
		})
	}
	readUntil(t, bobConn, "", removed)
	if err := cyConn.Move(ctx, "draw", 0); err != nil {
		t.Fatal(err)
	}
	readUntil(t, cyConn, protocol.SeatRemoved, func(*protoclient.State) bool { return false })
	if err := cyConn.Send(ctx, protocol.ChatSend{Type: protocol.TypeChat, Phrase: "gg"}); err != nil {
		t.Fatal(err)
	}
	readUntil(t, cyConn, protocol.ChatMuted, func(*protoclient.State) bool { return false })
	if listed("Cy") {
		t.Error("Cy banned, at her table still, is in the online list")
	}
	if _, code := cy.call("POST", "/api/games", protocol.CreateRequest{Seats: []protocol.SeatRequest{{}, {Bot: "easy"}}}, nil); code != protocol.Banned {
		t.Errorf("a banned person creates a table: %s", code)
	}
	other := srv.Create("", "easy").ID
	if _, code := newBrowser(t, srv).call("POST", "/api/games/"+other+"/join", protocol.JoinRequest{Name: "CY"}, nil); code != protocol.Banned {
		t.Errorf("a guest under a banned name joins: %s", code)
	}
	if _, code := newBrowser(t, srv).call("POST", "/api/games", protocol.CreateRequest{Seats: []protocol.SeatRequest{{}, {Bot: "easy"}}, Name: "CY"}, nil); code != protocol.Banned {
		t.Errorf("a guest creates a table to join under a banned name: %s", code)
	}
	if me := record(cy); !me.Standing.Banned || len(me.Actions) != 2 ||
		me.Actions[0].Kind != protocol.ActionBan || me.Actions[0].Operator != "Ann" || me.Actions[0].Reason != "insults in the chat" ||
		me.Actions[0].Game != id {
		t.Errorf("Cy reads %+v", me)
	}

	// Bob plays on; the bot plays Cy's seat to the end.
	bobConn.Close()
	done := make(chan struct{})
	go playOn(t, bobC, id, bobTok, done)
	last := srv.WaitOver(id)
	<-done
	if !removed(last) {
		t.Errorf("the finished game's take-overs %+v: Cy's seat taken back", last.TakeOvers)
	}
	var replay protocol.ReplayAnswer
	if bob.must("GET", "/api/games/"+id+"/replay", nil, &replay); len(replay.Chat) != 1 || !replay.Chat[0].Removed || replay.Chat[0].Text != "" {
		t.Errorf("the replay's chat: %+v, want the line removed, without its words", replay.Chat)
	}
	if ann.must("GET", "/api/moderation/reports", nil, &open); len(open.Reports) != 0 || len(open.Actions) != 2 {
		t.Errorf("after the ban: %d open reports, %d actions; want none and 2", len(open.Reports), len(open.Actions))
	}
	// The banned name outlives the account.
	cy.must("DELETE", "/api/account", nil, nil)
	if _, code := newBrowser(t, srv).call("POST", "/api/account", protocol.RegisterRequest{Name: "cy", Password: goodPassword}, nil); code != protocol.Banned {
		t.Errorf("a new account under the banned name: %s, want banned", code)
	}
	// Nor in the online list, where a guest may go by any other free name.
	newBrowser(t, srv).live("?name=cy")
	newBrowser(t, srv).live("?name=Dee")
	if listed("Cy") || !listed("Dee") {
		t.Error("the online list names no guest as Dee, or one as Cy")
	}
}

// TestSanctionedCannotMeet: a suspension ends the person's open Play-now
// requests and challenges at once (theirs cancelled, those to them
// declined); suspended, they cannot ask for a game, join a request,
// challenge or accept a challenge, make or join a tournament, nor can a
// guest under their name; nobody can challenge them; nothing is made.
func TestSanctionedCannotMeet(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ann, bob, cy := newBrowser(t, srv), newBrowser(t, srv), newBrowser(t, srv)
	ann.register("Ann")
	bob.register("Bob")
	cy.register("Cy")
	bob.live("") // online: a request of someone offline lapses
	cy.live("")
	var mine protocol.SeekAnswer
	cy.must("POST", "/api/seeks", protocol.SeekRequest{Min: 3, Pace: "blitz"}, &mine)
	var bobs protocol.SeekAnswer
	bob.must("POST", "/api/seeks", protocol.SeekRequest{Min: 4, Pace: "rapid"}, &bobs)
	var cup protocol.Tournament
	ann.must("POST", "/api/tournaments", protocol.TournamentSettings{Name: "Cup", Format: "duplicate", TableSize: 2, Rounds: 1,
		BreakSeconds: new(int)}, &cup)
	var toCy, fromCy protocol.ChallengeAnswer
	bob.must("POST", "/api/challenges", protocol.ChallengeRequest{To: []string{"Cy"}}, &toCy)
	cy.must("POST", "/api/challenges", protocol.ChallengeRequest{To: []string{"Bob"}}, &fromCy)

	ann.must("POST", "/api/moderation/actions", protocol.ActionRequest{Kind: protocol.ActionSuspend, Player: "Cy", Reason: "stalling", Hours: 24}, nil)
	var seeks protocol.SeeksAnswer
	cy.must("GET", "/api/seeks", nil, &seeks)
	if len(seeks.Mine) != 1 || seeks.Mine[0].ID != mine.Seek.ID || seeks.Mine[0].Status != protocol.SeekCancelled {
		t.Errorf("Cy's requests after the suspension: %+v, want hers cancelled", seeks.Mine)
	}
	var challenges protocol.ChallengesAnswer
	bob.must("GET", "/api/challenges", nil, &challenges)
	for _, c := range challenges.Challenges {
		if want := map[string]string{toCy.Challenge.ID: protocol.ChallengeDeclined, fromCy.Challenge.ID: protocol.ChallengeCancelled}[c.ID]; c.Status != want {
			t.Errorf("challenge %s from %s after the suspension: %s, want %s", c.ID, c.From, c.Status, want)
		}
	}
	for _, c := range []struct {
		name string
		b    *browser
		path string
		body any
	}{
		{"a request", cy, "/api/seeks", protocol.SeekRequest{Min: 2, Pace: "blitz"}},
		{"a guest's request under the name", newBrowser(t, srv), "/api/seeks", protocol.SeekRequest{Min: 2, Pace: "blitz", Name: "cy"}},
		{"joining a request", cy, "/api/seeks/" + bobs.Seek.ID + "/join", protocol.SeekJoinRequest{}},
		{"a challenge", cy, "/api/challenges", protocol.ChallengeRequest{To: []string{"Bob"}}},
		{"accepting a challenge", cy, "/api/challenges/" + toCy.Challenge.ID + "/answer", protocol.AnswerRequest{Accept: true}},
		{"a tournament", cy, "/api/tournaments", protocol.TournamentSettings{Name: "Mine", Format: "duplicate", TableSize: 2, Rounds: 1,
			BreakSeconds: new(int)}},
		{"joining a tournament", cy, "/api/tournaments/" + cup.ID + "/join", protocol.TournamentRequest{}},
	} {
		if status, code := c.b.call("POST", c.path, c.body, nil); code != protocol.Suspended {
			t.Errorf("%s while suspended: %d %s, want suspended", c.name, status, code)
		}
	}
	// Nor may anyone challenge them meanwhile, alone or with another.
	for _, to := range [][]string{{"Cy"}, {"Ann", "cy"}} {
		if status, code := bob.call("POST", "/api/challenges", protocol.ChallengeRequest{To: to}, nil); code != protocol.PlayerUnavailable {
			t.Errorf("a challenge to %q while Cy is suspended: %d %s, want player_unavailable", to, status, code)
		}
	}
	bob.must("GET", "/api/challenges", nil, &challenges)
	if len(challenges.Challenges) != 2 {
		t.Errorf("Bob's challenges after the refusals: %+v, want the two ended ones", challenges.Challenges)
	}
	var list protocol.SeeksAnswer
	bob.must("GET", "/api/seeks", nil, &list)
	if len(list.Seeks) != 1 || list.Seeks[0].ID != bobs.Seek.ID || list.Seeks[0].Status != protocol.SeekOpen {
		t.Errorf("the requests listed after the refusals: %+v, want Bob's, open", list.Seeks)
	}
}

// TestBannedUnannounced: a banned person coming online is not announced
// to their followers, who are told of others as before, and nobody can
// challenge them.
func TestBannedUnannounced(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ann, bob, cy := newBrowser(t, srv), newBrowser(t, srv), newBrowser(t, srv)
	ann.register("Ann")
	bob.register("Bob")
	cy.register("Cy")
	for _, name := range []string{"Cy", "Bob"} {
		ann.must("PUT", "/api/players/"+name+"/follow", nil, nil)
	}
	ann.must("POST", "/api/moderation/actions", protocol.ActionRequest{Kind: protocol.ActionBan, Player: "Cy", Reason: "cheating"}, nil)
	annLive := ann.live("")
	cy.live("") // first: her notice, if any, comes before Bob's
	bob.live("")
	var n protocol.NoticeMessage
	readType(t, annLive, protocol.TypeNotice, &n)
	if n.Kind != protocol.NoticeOnline || n.Name != "Bob" {
		t.Errorf("Ann's first notice = %+v, want Bob online (Cy is banned)", n)
	}
	if status, code := bob.call("POST", "/api/challenges", protocol.ChallengeRequest{To: []string{"Cy"}}, nil); code != protocol.PlayerUnavailable {
		t.Errorf("a challenge to a banned person: %d %s, want player_unavailable", status, code)
	}
}

// TestSanctionedHidden: a person an operator suspended or banned is shown
// online nowhere, as they were before: not on their profile (nor when
// last seen, which would tell it, nor in the answer to a follow), not in
// the lobby's list (GET and live) whose lines carry the challenge
// buttons, nor in its count, not to their followers when they come; and nobody can
// challenge them.
func TestSanctionedHidden(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ann, bob, cy, dee := newBrowser(t, srv), newBrowser(t, srv), newBrowser(t, srv), newBrowser(t, srv)
	ann.register("Ann") // the first account: an operator
	bob.register("Bob")
	cy.register("Cy")
	dee.register("Dee")
	for _, name := range []string{"Cy", "Dee", "Bob"} {
		ann.must("PUT", "/api/players/"+name+"/follow", nil, nil)
	}
	annLive := ann.live("?list=1")
	cy.live("")
	if n, _ := readNoticeAndList(t, annLive, "Cy"); n.Name != "Cy" {
		t.Errorf("Ann's first notice = %+v, want Cy online", n)
	}
	var p protocol.PlayerPresence
	if bob.must("GET", "/api/players/Cy/presence", nil, &p); !p.Online || p.Activity != "lobby" {
		t.Errorf("Cy, online and in good standing: %+v", p)
	}

	ann.must("POST", "/api/moderation/actions", protocol.ActionRequest{Kind: protocol.ActionBan, Player: "Cy", Reason: "cheating"}, nil)
	ann.must("POST", "/api/moderation/actions", protocol.ActionRequest{Kind: protocol.ActionSuspend, Player: "Dee", Reason: "stalling", Hours: 24}, nil)
	dee.live("") // after the suspension: her coming is not told
	bob.live("")
	n, m := readNoticeAndList(t, annLive, "Bob")
	if n.Name != "Bob" {
		t.Errorf("Ann's next notice = %+v, want Bob online (Dee is suspended)", n)
	}
	var got protocol.OnlineAnswer
	bob.must("GET", "/api/online", nil, &got)
	// The count agrees with the list: everyone here is signed in, so a
	// count above those listed ("and 2 more") would tell the hidden are on.
	if m.Online != len(m.People) || m.More != 0 || got.Online != len(got.People) || got.More != 0 {
		t.Errorf("the counts: live %d online, %d listed, %d more; GET %d online, %d listed, %d more: the sanctioned are counted",
			m.Online, len(m.People), m.More, got.Online, len(got.People), got.More)
	}
	for _, name := range []string{"Cy", "Dee"} {
		if named(m, name) != nil || named(protocol.OnlineMessage{People: got.People}, name) != nil {
			t.Errorf("%s, sanctioned, is in the online list: live %+v, GET %+v", name, m.People, got.People)
		}
		var p, follow protocol.PlayerPresence
		bob.must("GET", "/api/players/"+name+"/presence", nil, &p)
		bob.must("PUT", "/api/players/"+name+"/follow", nil, &follow)
		for _, p := range []protocol.PlayerPresence{p, follow} {
			if p.Online || p.Activity != "" || p.Game != "" || p.LastSeen != nil {
				t.Errorf("%s, sanctioned and connected, is shown %+v, want offline and never seen", name, p)
			}
		}
		if status, code := bob.call("POST", "/api/challenges", protocol.ChallengeRequest{To: []string{name}}, nil); code != protocol.PlayerUnavailable {
			t.Errorf("a challenge to %s: %d %s, want player_unavailable", name, status, code)
		}
	}
}
