package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/notify"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

// meetWS opens the browser's live socket as a lobby, with its cookies.
func (b *browser) meetWS() *websocket.Conn {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.srv.URL, nil)
	h := http.Header{}
	for _, c := range b.hc.Jar.Cookies(req.URL) {
		h.Add("Cookie", c.String())
	}
	ws := "ws" + strings.TrimPrefix(b.srv.URL, "http") + "/api/live?seeks=1"
	conn, _, err := websocket.Dial(servertest.Context(b.t), ws, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		b.t.Fatal(err)
	}
	b.t.Cleanup(func() { conn.CloseNow() })
	return conn
}

// nextMeet reads the WebSocket until a message of the type.
func nextMeet(t *testing.T, conn *websocket.Conn, typ string) protocol.MeetMessage {
	t.Helper()
	for {
		_, data, err := conn.Read(servertest.Context(t))
		if err != nil {
			t.Fatalf("reading the live socket: %v", err)
		}
		var m protocol.MeetMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == typ {
			return m
		}
	}
}

// TestPlayNowHTTP: two guests' requests pair; the first hears it on its
// lobby WebSocket and takes its seat's cookie; the table knows its token.
func TestPlayNowHTTP(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ann, bob := newBrowser(t, srv), newBrowser(t, srv)
	var list protocol.SeeksAnswer
	ann.must(http.MethodGet, "/api/seeks", nil, &list)
	if ann.cookie("razzia_guest") == nil || len(list.Seeks) != 0 {
		t.Fatalf("a guest's first look: %+v, cookie %v", list, ann.cookie("razzia_guest"))
	}
	ws := ann.meetWS()
	var a protocol.SeekAnswer
	ann.must(http.MethodPost, "/api/seeks", protocol.SeekRequest{Min: 2, Pace: "rapid", Name: "Ann"}, &a)
	if a.Seek.Status != protocol.SeekOpen || !a.Seek.Mine || a.Seek.Name != "Ann" || a.Seek.Max != 2 {
		t.Fatalf("Ann's request: %+v", a.Seek)
	}
	if m := nextMeet(t, ws, protocol.TypeSeeks); m.Seek == nil || m.Seek.ID != a.Seek.ID || m.Seek.Mine || m.Seek.Status != protocol.SeekOpen {
		t.Errorf("the lobby's change carries %+v", m.Seek)
	}
	bob.must(http.MethodGet, "/api/seeks", nil, &list)
	if len(list.Seeks) != 1 || list.Seeks[0].Mine || list.Seeks[0].Name != "Ann" || len(list.Mine) != 0 {
		t.Fatalf("Bob sees %+v", list)
	}
	var b protocol.SeekAnswer
	bob.must(http.MethodPost, "/api/seeks/"+a.Seek.ID+"/join", protocol.SeekJoinRequest{Name: "Bob"}, &b)
	if b.Seek.Status != protocol.SeekPaired || b.Seek.Game == "" {
		t.Fatalf("Bob's click: %+v", b.Seek)
	}
	m := nextMeet(t, ws, protocol.TypeSeek)
	if m.Seek.ID != a.Seek.ID || m.Seek.Game != b.Seek.Game || m.Seek.Seat == nil {
		t.Fatalf("Ann told %+v", m.Seek)
	}
	var seat protocol.SeekSeatAnswer
	if status, code := bob.call(http.MethodPost, "/api/seeks/"+a.Seek.ID+"/seat", nil, &seat); code != protocol.NotFound {
		t.Errorf("Bob takes Ann's seat: %d %s", status, code)
	}
	ann.must(http.MethodPost, "/api/seeks/"+a.Seek.ID+"/seat", nil, &seat)
	if seat.Seat != *m.Seek.Seat || seat.Game.ID != b.Seek.Game || ann.cookie("razzia_"+b.Seek.Game) == nil {
		t.Fatalf("Ann's seat: %+v", seat)
	}
	var g protocol.SeatAnswer
	ann.must(http.MethodGet, "/api/games/"+b.Seek.Game, nil, &g)
	if g.You != seat.Seat || g.Game.Status != protocol.StatusPlaying {
		t.Errorf("the table for Ann: you %d, %s", g.You, g.Game.Status)
	}
	// The WebSocket tells; it takes pings and nothing else.
	if err := ws.Write(servertest.Context(t), websocket.MessageText, []byte(`{"type":"move","move":"draw"}`)); err != nil {
		t.Fatal(err)
	}
	if m := nextMeet(t, ws, "error"); m.Type != "error" {
		t.Errorf("a move on the live socket: %+v", m)
	}
}

// TestPlayNowHTTPRefused: malformed requests, settings no table can
// meet, a guest's rated request, one too many and a flood: each has its
// code, and nothing is stored.
func TestPlayNowHTTPRefused(t *testing.T) {
	srv := servertest.New(t, servertest.Options{API: httpapi.Options{CreateRate: 1e-3, CreateBurst: 12}})
	ann := newBrowser(t, srv)
	for _, bad := range []struct {
		name string
		body any
		code protocol.Code
	}{
		{"unknown field", map[string]any{"min": 2, "seats": 3}, protocol.BadRequest},
		{"a string for a number", map[string]any{"min": "two"}, protocol.BadRequest},
		{"one player", protocol.SeekRequest{Min: 1, Name: "Ann"}, protocol.UnmetSettings},
		{"upside down", protocol.SeekRequest{Min: 4, Max: 2, Name: "Ann"}, protocol.UnmetSettings},
		{"a rating range upside down", protocol.SeekRequest{Min: 2, RatingMin: 1900, RatingMax: 1100, Name: "Ann"}, protocol.UnmetSettings},
		{"rated guest", protocol.SeekRequest{Min: 2, Rated: true, Pace: "blitz", Name: "Ann"}, protocol.AccountRequired},
		{"no name", protocol.SeekRequest{Min: 2}, protocol.BadName},
	} {
		if status, code := ann.call(http.MethodPost, "/api/seeks", bad.body, nil); code != bad.code {
			t.Errorf("%s: %d %s, want %s", bad.name, status, code, bad.code)
		}
	}
	for range 3 {
		ann.must(http.MethodPost, "/api/seeks", protocol.SeekRequest{Min: 5, Name: "Ann"}, nil)
	}
	if status, code := ann.call(http.MethodPost, "/api/seeks", protocol.SeekRequest{Min: 5, Name: "Ann"}, nil); code != protocol.TooManySeeks || status != http.StatusConflict {
		t.Errorf("a fourth request: %d %s", status, code)
	}
	var list protocol.SeeksAnswer
	ann.must(http.MethodGet, "/api/seeks", nil, &list)
	if len(list.Seeks) != 3 || len(list.Mine) != 3 {
		t.Fatalf("after the refusals: %d open, %d mine", len(list.Seeks), len(list.Mine))
	}
	if status, code := newBrowser(t, srv).call(http.MethodDelete, "/api/seeks/"+list.Mine[0].ID, nil, nil); code != protocol.NotFound {
		t.Errorf("another's cancel: %d %s", status, code)
	}
	var cancelled protocol.SeekAnswer
	if status, _ := ann.call(http.MethodDelete, "/api/seeks/"+list.Mine[0].ID, nil, &cancelled); status != http.StatusOK || cancelled.Seek.Status != protocol.SeekCancelled {
		t.Errorf("a cancel: %d %+v", status, cancelled.Seek)
	}
	if _, code := ann.call(http.MethodDelete, "/api/seeks/"+list.Mine[0].ID, nil, nil); code != protocol.SeekGone {
		t.Errorf("a cancel twice: %s", code)
	}
	// A flood: requests count as tables created for the address.
	var code protocol.Code
	for range 12 {
		if _, code = ann.call(http.MethodPost, "/api/seeks", protocol.SeekRequest{Min: 1}, nil); code == protocol.RateLimited {
			break
		}
	}
	if code != protocol.RateLimited {
		t.Errorf("a flood of requests: %s, want rate_limited", code)
	}
}

// TestChallengeHTTP: a challenge reaches the person challenged at once,
// on the live socket and by Web Push; accepted, both sit at the
// table. Declines and refusals have their codes.
func TestChallengeHTTP(t *testing.T) {
	srv, svc := pushServer(t, notify.Options{})
	ann, bob := newBrowser(t, srv), newBrowser(t, srv)
	ann.register("Ann")
	bob.register("Bob")
	bob.subscribe(svc, "nl")
	ws := bob.meetWS()
	var c protocol.ChallengeAnswer
	ann.must(http.MethodPost, "/api/challenges", protocol.ChallengeRequest{To: []string{"bob"}, Pace: "blitz"}, &c)
	if c.Challenge.Status != protocol.ChallengeOpen || !c.Challenge.Mine || c.Challenge.To[0].Name != "Bob" {
		t.Fatalf("the challenge: %+v", c.Challenge)
	}
	m := nextMeet(t, ws, protocol.TypeChallenge)
	if m.Challenge.ID != c.Challenge.ID || m.Challenge.From != "Ann" || m.Challenge.Mine {
		t.Fatalf("Bob told %+v", m.Challenge)
	}
	n := delivery(t, svc).Notification
	if n.Title != "Ann daagt je uit" || n.URL != notify.ChallengePath(c.Challenge.ID) || !strings.Contains(n.Body, "Blitz") {
		t.Errorf("pushed %+v", n)
	}
	for _, bad := range []struct {
		name string
		b    *browser
		body protocol.AnswerRequest
		code protocol.Code
	}{
		{"the challenger", ann, protocol.AnswerRequest{Accept: true}, protocol.NotFound},
		{"a reason not listed", bob, protocol.AnswerRequest{Reason: "busy"}, protocol.BadRequest},
		{"a guest", newBrowser(t, srv), protocol.AnswerRequest{Accept: true}, protocol.AccountRequired},
	} {
		if _, code := bad.b.call(http.MethodPost, "/api/challenges/"+c.Challenge.ID+"/answer", bad.body, nil); code != bad.code {
			t.Errorf("%s: %s, want %s", bad.name, code, bad.code)
		}
	}
	var got protocol.ChallengeAnswer
	bob.must(http.MethodPost, "/api/challenges/"+c.Challenge.ID+"/answer", protocol.AnswerRequest{Accept: true}, &got)
	if got.Challenge.Status != protocol.ChallengeAccepted || got.Challenge.Game == "" {
		t.Fatalf("accepted: %+v", got.Challenge)
	}
	var g protocol.SeatAnswer
	ann.must(http.MethodGet, "/api/games/"+got.Challenge.Game, nil, &g)
	if g.You != 0 || g.Game.Status != protocol.StatusPlaying || g.Game.Pace.ID != "blitz" {
		t.Errorf("the table for Ann: you %d, %+v", g.You, g.Game)
	}
	var seat protocol.SeekSeatAnswer
	bob.must(http.MethodPost, "/api/challenges/"+c.Challenge.ID+"/seat", nil, &seat)
	if seat.Seat != 1 || seat.Game.ID != got.Challenge.Game || seat.Token == "" {
		t.Errorf("Bob's seat: %+v", seat)
	}
	if _, code := newBrowser(t, srv).call(http.MethodPost, "/api/challenges/"+c.Challenge.ID+"/seat", nil, nil); code != protocol.NotFound {
		t.Errorf("a stranger's seat: %s", code)
	}
	var list protocol.ChallengesAnswer
	ann.must(http.MethodGet, "/api/challenges", nil, &list)
	if len(list.Challenges) != 1 || list.Challenges[0].Game != got.Challenge.Game {
		t.Errorf("Ann's challenges: %+v", list)
	}
	for _, bad := range []struct {
		name string
		b    *browser
		body any
		code protocol.Code
	}{
		{"a guest", newBrowser(t, srv), protocol.ChallengeRequest{To: []string{"Bob"}}, protocol.AccountRequired},
		{"oneself", ann, protocol.ChallengeRequest{To: []string{"ann"}}, protocol.ChallengeSelf},
		{"nobody known", ann, protocol.ChallengeRequest{To: []string{"Zed"}}, protocol.NotFound},
		{"too many", ann, protocol.ChallengeRequest{To: []string{"a", "b", "c", "d", "e"}}, protocol.UnmetSettings},
		{"untimed rated", ann, protocol.ChallengeRequest{To: []string{"Bob"}, Pace: "untimed", Rated: true}, protocol.UnmetSettings},
		{"malformed", ann, map[string]any{"to": "Bob"}, protocol.BadRequest},
	} {
		if _, code := bad.b.call(http.MethodPost, "/api/challenges", bad.body, nil); code != bad.code {
			t.Errorf("%s: %s, want %s", bad.name, code, bad.code)
		}
	}
	// Declined with a reason: the challenger hears it.
	wsAnn := ann.meetWS()
	ann.must(http.MethodPost, "/api/challenges", protocol.ChallengeRequest{To: []string{"Bob"}}, &c)
	bob.must(http.MethodPost, "/api/challenges/"+c.Challenge.ID+"/answer", protocol.AnswerRequest{Reason: "later"}, &got)
	for {
		m := nextMeet(t, wsAnn, protocol.TypeChallenge)
		if m.Challenge.Status == protocol.ChallengeDeclined {
			if m.Challenge.To[0].Reason != "later" {
				t.Errorf("Ann told %+v", m.Challenge)
			}
			break
		}
	}
}

// TestBlockedHTTP: a block, either way, refuses a challenge and joining
// a request with blocked, and keeps the two apart in Play now.
func TestBlockedHTTP(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ann, bob, cy := newBrowser(t, srv), newBrowser(t, srv), newBrowser(t, srv)
	ann.register("Ann")
	bob.register("Bob")
	cy.register("Cy")
	// Ann blocks Bob, as the profile's button does.
	ann.must(http.MethodPut, "/api/players/Bob/block", nil, nil)
	for _, c := range []struct {
		name string
		b    *browser
		to   string
	}{{"to one blocked", ann, "Bob"}, {"from one blocked", bob, "Ann"}} {
		if _, code := c.b.call(http.MethodPost, "/api/challenges", protocol.ChallengeRequest{To: []string{c.to}}, nil); code != protocol.Blocked {
			t.Errorf("%s: %s, want blocked", c.name, code)
		}
	}
	var a protocol.SeekAnswer
	ann.must(http.MethodPost, "/api/seeks", protocol.SeekRequest{Min: 2, Pace: "blitz"}, &a)
	if _, code := bob.call(http.MethodPost, "/api/seeks/"+a.Seek.ID+"/join", protocol.SeekJoinRequest{}, nil); code != protocol.Blocked {
		t.Errorf("Bob joins Ann's request: %s, want blocked", code)
	}
	var b protocol.SeekAnswer
	bob.must(http.MethodPost, "/api/seeks", protocol.SeekRequest{Min: 2, Pace: "blitz"}, &b)
	if b.Seek.Status != protocol.SeekOpen {
		t.Fatalf("Bob paired with Ann, who blocks him: %+v", b.Seek)
	}
	var c protocol.SeekAnswer
	cy.must(http.MethodPost, "/api/seeks", protocol.SeekRequest{Min: 2, Pace: "blitz"}, &c)
	if c.Seek.Status != protocol.SeekPaired {
		t.Errorf("Cy not paired with the longest waiting: %+v", c.Seek)
	}
	var list protocol.SeeksAnswer
	bob.must(http.MethodGet, "/api/seeks", nil, &list)
	if len(list.Seeks) != 1 || list.Seeks[0].Name != "Bob" {
		t.Errorf("open after Cy's request: %+v, want Bob's alone", list.Seeks)
	}
}
