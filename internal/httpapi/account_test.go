package httpapi_test

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/cookiejar"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/botrating"
	rclient "github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/rating"
	"github.com/razziagame/razzia/internal/servertest"
)

// A browser keeps cookies, as a person's browser does, and sends what
// the page sends.
type browser struct {
	t    *testing.T
	srv  *servertest.Server
	hc   *http.Client
	host string // the Host asked for, when not the server's address
}

func newBrowser(t *testing.T, srv *servertest.Server) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &browser{t: t, srv: srv, hc: &http.Client{Jar: jar}}
}

// call sends a JSON request and decodes the answer into out (unless nil);
// it returns the status and the error code, if any.
func (b *browser) call(method, path string, body any, out any, header ...string) (int, protocol.Code) {
	b.t.Helper()
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			b.t.Fatal(err)
		}
		r = strings.NewReader(string(data))
	}
	req, err := http.NewRequestWithContext(servertest.Context(b.t), method, b.srv.URL+path, r)
	if err != nil {
		b.t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	if b.host != "" {
		req.Host = b.host
	}
	resp, err := b.hc.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		var e protocol.ErrorBody
		if json.Unmarshal(data, &e) != nil || e.Error == nil {
			b.t.Fatalf("%s %s: %d %q", method, path, resp.StatusCode, data)
		}
		return resp.StatusCode, e.Error.Code
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			b.t.Fatalf("%s %s: %q: %v", method, path, data, err)
		}
	}
	return resp.StatusCode, ""
}

// must is call that fails the test on an error answer.
func (b *browser) must(method, path string, body, out any) {
	b.t.Helper()
	if status, code := b.call(method, path, body, out); code != "" {
		b.t.Fatalf("%s %s: %d %s", method, path, status, code)
	}
}

func (b *browser) cookie(name string) *http.Cookie {
	req, _ := http.NewRequest(http.MethodGet, b.srv.URL, nil)
	for _, c := range b.hc.Jar.Cookies(req.URL) {
		if c.Name == name {
			return c
		}
	}
	return nil
}

const goodPassword = "correct horse battery staple"

func (b *browser) register(name string) protocol.SessionAnswer {
	b.t.Helper()
	var a protocol.SessionAnswer
	b.must(http.MethodPost, "/api/account", protocol.RegisterRequest{Name: name, Password: goodPassword}, &a)
	return a
}

func (b *browser) signIn(name string) protocol.SessionAnswer {
	b.t.Helper()
	var a protocol.SessionAnswer
	b.must(http.MethodPost, "/api/session", protocol.RegisterRequest{Name: name, Password: goodPassword}, &a)
	return a
}

func TestRegisterAndSession(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	b := newBrowser(t, srv)
	var raw *http.Response
	{
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/account", strings.NewReader(`{"name":"Ann","password":"`+goodPassword+`"}`))
		resp, err := b.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		raw = resp
	}
	if raw.StatusCode != http.StatusCreated {
		t.Fatalf("register: %d", raw.StatusCode)
	}
	var c *http.Cookie
	for _, k := range raw.Cookies() {
		if k.Name == "razzia_session" {
			c = k
		}
	}
	if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.MaxAge <= 0 {
		t.Fatalf("the session cookie is %+v; want HttpOnly, SameSite=Strict, Path=/, a lifetime", c)
	}
	var got protocol.AccountAnswer
	b.must(http.MethodGet, "/api/account", nil, &got)
	if got.Account.Name != "Ann" || !got.Account.Password || got.Account.Rating.Games != 0 || !got.Account.Rating.Provisional ||
		got.Account.Profile != "/p/Ann" {
		t.Errorf("account = %+v", got.Account)
	}
	// The name is taken whatever its case or compatibility form.
	other := newBrowser(t, srv)
	for _, n := range []string{"ann", "ＡＮＮ"} {
		if _, code := other.call(http.MethodPost, "/api/account", protocol.RegisterRequest{Name: n, Password: goodPassword}, nil); code != protocol.NameTaken {
			t.Errorf("registering %q: %s, want name_taken", n, code)
		}
	}
	// Name rules: invisible, direction-changing, bot-like, reserved.
	for _, n := range []string{"A\u200bnn", "\u202eAnn", "Bot 2 (hard)", playername.Former(1), ""} {
		if _, code := other.call(http.MethodPost, "/api/account", protocol.RegisterRequest{Name: n, Password: goodPassword}, nil); code != protocol.BadName {
			t.Errorf("registering %q: %s, want bad_name", n, code)
		}
	}
	// Weak passwords.
	for _, pw := range []string{"short", "password", "12345678", "Qwertyuiop", strings.Repeat("x", 300)} {
		if _, code := other.call(http.MethodPost, "/api/account", protocol.RegisterRequest{Name: "Bo", Password: pw}, nil); code != protocol.WeakPassword {
			t.Errorf("password %q: %s, want weak_password", pw, code)
		}
	}
	// Sign out: the cookie dies, the session too.
	b.must(http.MethodDelete, "/api/session", nil, nil)
	if _, code := b.call(http.MethodGet, "/api/account", nil, nil); code != protocol.Unauthorized {
		t.Errorf("after sign-out: %s, want unauthorized", code)
	}
	// The old cookie replayed (stolen) is refused too.
	replay := newBrowser(t, srv)
	replay.hc.Jar.SetCookies(mustURL(t, srv.URL), []*http.Cookie{{Name: "razzia_session", Value: c.Value}})
	if _, code := replay.call(http.MethodGet, "/api/account", nil, nil); code != protocol.Unauthorized {
		t.Errorf("a signed-out session's cookie: %s, want unauthorized", code)
	}
}

// TestCrossSite: every state-changing account request from another
// site's page is refused (http.CrossOriginProtection).
func TestCrossSite(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	b := newBrowser(t, srv)
	b.register("Ann")
	game := srv.Create("", "", "easy").ID
	for _, r := range []struct{ method, path string }{
		{http.MethodPost, "/api/account"}, {http.MethodDelete, "/api/account"}, {http.MethodPost, "/api/account/password"},
		{http.MethodPost, "/api/session"}, {http.MethodDelete, "/api/session"}, {http.MethodDelete, "/api/sessions"},
		{http.MethodPost, "/api/passkeys/register"}, {http.MethodPost, "/api/passkeys/register/finish"},
		{http.MethodPost, "/api/passkeys/signin"}, {http.MethodPost, "/api/passkeys/signin/finish"}, {http.MethodDelete, "/api/passkeys/AAAA"},
		{http.MethodPost, "/api/games"}, {http.MethodPost, "/api/games/" + game + "/join"},
		{http.MethodDelete, "/api/games/" + game + "/seats/1"}, {http.MethodPut, "/api/games/" + game + "/seats/1/level"},
		{http.MethodPost, "/api/records"},
		{http.MethodPost, "/api/tournaments"}, {http.MethodPost, "/api/tournaments/abcdefghij/join"},
		{http.MethodPost, "/api/tournaments/abcdefghij/withdraw"}, {http.MethodPost, "/api/tournaments/abcdefghij/organise/start"},
		{http.MethodPost, "/api/seeks"}, {http.MethodPost, "/api/seeks/x/join"}, {http.MethodPost, "/api/seeks/x/seat"},
		{http.MethodDelete, "/api/seeks/x"}, {http.MethodPost, "/api/challenges"}, {http.MethodPost, "/api/challenges/x/answer"},
		{http.MethodDelete, "/api/challenges/x"}, {http.MethodPost, "/api/challenges/x/seat"},
		{http.MethodPost, "/api/records"}, {http.MethodPost, "/api/puzzles/" + game + "-1/answer"},
	} {
		status, code := b.call(r.method, r.path, map[string]string{}, nil, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
		if status != http.StatusForbidden || code != protocol.Forbidden {
			t.Errorf("cross-site %s %s: %d %s, want 403 forbidden", r.method, r.path, status, code)
		}
	}
	var got protocol.AccountAnswer
	b.must(http.MethodGet, "/api/account", nil, &got) // still signed in, account still there
	// Another site's page cannot open the WebSocket of a signed-in player.
	b.must(http.MethodPost, "/api/games/"+game+"/join", protocol.JoinRequest{}, nil)
	session := b.cookie("razzia_session")
	ws := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/games/" + game + "/ws"
	for origin, want := range map[string]bool{srv.URL: true, "https://evil.example": false} {
		h := http.Header{"Origin": {origin}, "Cookie": {session.String()}}
		conn, _, err := websocket.Dial(servertest.Context(t), ws, &websocket.DialOptions{HTTPHeader: h})
		if err == nil {
			conn.CloseNow()
		}
		if (err == nil) != want {
			t.Errorf("the WebSocket from %s with the session: accepted %t, want %t (%v)", origin, err == nil, want, err)
		}
	}
}

// TestSignInErrorsAlike: a wrong password and an unknown name get the
// same answer, after the same delay.
func TestSignInErrorsAlike(t *testing.T) {
	var delays []time.Duration
	srv := servertest.New(t, servertest.Options{Accounts: account.Options{FailDelay: 750 * time.Millisecond,
		Sleep: func(_ context.Context, d time.Duration) { delays = append(delays, d) }}})
	newBrowser(t, srv).register("Ann")
	var bodies []string
	for _, req := range []protocol.RegisterRequest{{Name: "Ann", Password: "wrong password"}, {Name: "Nobody", Password: "wrong password"}} {
		resp, err := http.Post(srv.URL+"/api/session", "application/json", strings.NewReader(`{"name":"`+req.Name+`","password":"`+req.Password+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: %d", req.Name, resp.StatusCode)
		}
		bodies = append(bodies, string(data))
	}
	if bodies[0] != bodies[1] || !strings.Contains(bodies[0], `"sign_in_failed"`) {
		t.Errorf("a wrong password says %s, an unknown name %s: want the same sign_in_failed", bodies[0], bodies[1])
	}
	if len(delays) != 2 || delays[0] != 750*time.Millisecond || delays[1] != delays[0] {
		t.Errorf("the failures waited %v; want 750ms each", delays)
	}
}

// TestSignInLimits: failed sign-ins are limited per address and per
// account, with rate_limited and a retry time; a stranger's failures
// never keep the owner out from an address they signed in from before.
func TestSignInLimits(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	srv := servertest.New(t, servertest.Options{
		API: httpapiTrustLoopback(),
		Accounts: account.Options{Now: func() time.Time { return now },
			Limits: account.Limits{AddressBurst: 3, AddressRate: 1.0 / 60, AccountBurst: 4, AccountRate: 1.0 / 60}}})
	from := func(addr string) *browser {
		b := newBrowser(t, srv)
		b.hc.Transport = forwardedFor(addr)
		return b
	}
	home := from("192.0.2.1")
	home.register("Ann")
	home.signIn("Ann") // home is an address Ann signed in from
	signIn := func(b *browser, pw string) (int, protocol.Code) {
		return b.call(http.MethodPost, "/api/session", protocol.RegisterRequest{Name: "Ann", Password: pw}, nil)
	}

	// One address: three failures, then even the right password waits.
	mallory := from("198.51.100.7")
	for i := range 3 {
		if _, code := signIn(mallory, "guess "+string(rune('a'+i))); code != protocol.SignInFailed {
			t.Fatalf("failure %d: %s", i, code)
		}
	}
	status, code := signIn(mallory, goodPassword)
	if status != http.StatusTooManyRequests || code != protocol.RateLimited {
		t.Fatalf("the 4th try from one address: %d %s, want 429 rate_limited", status, code)
	}
	resp, err := mallory.hc.Post(srv.URL+"/api/session", "application/json", strings.NewReader(`{"name":"Ann","password":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ra := resp.Header.Get("Retry-After"); ra == "" || ra == "0" {
		t.Errorf("rate_limited without a Retry-After (%q)", ra)
	}

	// Many addresses: the account's bucket (4) runs dry for new addresses...
	for i := range 2 {
		signIn(from("203.0.113."+string(rune('1'+i))), "guess")
	}
	if _, code := signIn(from("203.0.113.9"), goodPassword); code != protocol.RateLimited {
		t.Errorf("a new address after the account's failures: %s, want rate_limited", code)
	}
	// ...but Ann at home is not locked out.
	if _, code := signIn(home, goodPassword); code != "" {
		t.Errorf("Ann from her own address: %s; a stranger locked her out", code)
	}
	// Time heals: a minute later a new address may try again.
	now = now.Add(2 * time.Minute)
	if _, code := signIn(from("203.0.113.10"), goodPassword); code != "" {
		t.Errorf("two minutes later: %s", code)
	}
}

// TestSessionExpires: a session past its time is refused, and its
// cookie removed.
func TestSessionExpires(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	srv := servertest.New(t, servertest.Options{Accounts: account.Options{Now: func() time.Time { return now }, SessionTTL: time.Hour}})
	b := newBrowser(t, srv)
	b.register("Ann")
	b.must(http.MethodGet, "/api/account", nil, nil)
	now = now.Add(time.Hour)
	if _, code := b.call(http.MethodGet, "/api/account", nil, nil); code != protocol.Unauthorized {
		t.Errorf("an expired session: %s, want unauthorized", code)
	}
	if c := b.cookie("razzia_session"); c != nil {
		t.Errorf("the expired session's cookie stayed: %+v", c)
	}
	// Back within its time, the session is still gone: nothing revives it.
	now = now.Add(-2 * time.Hour)
	if _, code := b.call(http.MethodGet, "/api/account", nil, nil); code != protocol.Unauthorized {
		t.Errorf("a session whose cookie was removed: %s, want unauthorized", code)
	}
}

func TestSignOutEverywhereAndPassword(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	phone, laptop, tablet := newBrowser(t, srv), newBrowser(t, srv), newBrowser(t, srv)
	phone.register("Ann")
	laptop.signIn("Ann")
	tablet.signIn("Ann")
	// Changing the password keeps this session and ends the others.
	if _, code := laptop.call(http.MethodPost, "/api/account/password", protocol.PasswordRequest{Old: "wrong one", New: "another good secret"}, nil); code != protocol.SignInFailed {
		t.Errorf("a wrong current password: %s", code)
	}
	if _, code := laptop.call(http.MethodPost, "/api/account/password", protocol.PasswordRequest{Old: goodPassword, New: "password"}, nil); code != protocol.WeakPassword {
		t.Errorf("a common new password: %s", code)
	}
	laptop.must(http.MethodPost, "/api/account/password", protocol.PasswordRequest{Old: goodPassword, New: "another good secret"}, nil)
	laptop.must(http.MethodGet, "/api/account", nil, nil)
	if _, code := phone.call(http.MethodGet, "/api/account", nil, nil); code != protocol.Unauthorized {
		t.Errorf("another session after a password change: %s", code)
	}
	if _, code := phone.call(http.MethodPost, "/api/session", protocol.RegisterRequest{Name: "Ann", Password: goodPassword}, nil); code != protocol.SignInFailed {
		t.Errorf("the old password: %s", code)
	}
	phone.must(http.MethodPost, "/api/session", protocol.RegisterRequest{Name: "Ann", Password: "another good secret"}, nil)
	// Sign out everywhere ends every session, this one included.
	laptop.must(http.MethodDelete, "/api/sessions", nil, nil)
	for name, b := range map[string]*browser{"phone": phone, "laptop": laptop, "tablet": tablet} {
		if _, code := b.call(http.MethodGet, "/api/account", nil, nil); code != protocol.Unauthorized {
			t.Errorf("%s after signing out everywhere: %s", name, code)
		}
	}
}

// TestSeatFollowsAccount: a signed-in player's seat opens on every
// device they sign in on; a guest who registers keeps their seats; a
// seat cookie of another game gives nothing.
func TestSeatFollowsAccount(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	laptop := newBrowser(t, srv)
	// As a guest first: a seat by cookie.
	guestGame := srv.Create("", "", "easy").ID
	var j protocol.JoinAnswer
	laptop.must(http.MethodPost, "/api/games/"+guestGame+"/join", protocol.JoinRequest{Name: "Annie"}, &j)
	if laptop.cookie("razzia_"+guestGame) == nil {
		t.Fatal("no seat cookie for the guest")
	}
	reg := laptop.register("Ann")
	if len(reg.Claimed) != 1 || reg.Claimed[0] != guestGame {
		t.Errorf("registering claimed %v, want [%s]", reg.Claimed, guestGame)
	}
	// The same account on a phone holds the same seat.
	phone := newBrowser(t, srv)
	phone.signIn("Ann")
	var seat protocol.SeatAnswer
	phone.must(http.MethodGet, "/api/games/"+guestGame, nil, &seat)
	if seat.You != j.Seat || !seat.Game.Seats[j.Seat].Account {
		t.Errorf("the phone sees seat %d (account %t), want %d", seat.You, seat.Game.Seats[j.Seat].Account, j.Seat)
	}
	// Joining as the account: under its name, one seat per account.
	game := srv.Create("", "", "medium").ID
	laptop.must(http.MethodPost, "/api/games/"+game+"/join", protocol.JoinRequest{Name: "ignored"}, &j)
	if _, code := phone.call(http.MethodPost, "/api/games/"+game+"/join", protocol.JoinRequest{Name: "Ann2"}, nil); code != protocol.AlreadySeated {
		t.Errorf("the same account in a second seat from another device: %s, want already_seated", code)
	}
	phone.must(http.MethodGet, "/api/games/"+game, nil, &seat)
	if seat.You != j.Seat || seat.Game.Seats[j.Seat].Name != "Ann" {
		t.Errorf("phone: seat %d named %q, want %d Ann", seat.You, seat.Game.Seats[j.Seat].Name, j.Seat)
	}
	// The phone plays on the WebSocket with the session alone.
	c := srv.Client()
	if _, err := c.SignIn(servertest.Context(t), "Ann", goodPassword); err != nil {
		t.Fatal(err)
	}
	conn, err := c.Dial(servertest.Context(t), game, "")
	if err != nil {
		t.Fatal(err)
	}
	st, err := conn.Read(servertest.Context(t))
	conn.Close()
	if err != nil || st.Seat != j.Seat {
		t.Errorf("the WebSocket of a signed-in client: seat %v, %v; want %d", st, err, j.Seat)
	}
	// A seat cookie of another game is nothing here.
	thief := newBrowser(t, srv)
	thief.hc.Jar.SetCookies(mustURL(t, srv.URL), []*http.Cookie{{Name: "razzia_" + game, Value: j.Token + "x"}})
	thief.must(http.MethodGet, "/api/games/"+game, nil, &seat)
	if seat.You != -1 {
		t.Errorf("a forged seat cookie holds seat %d", seat.You)
	}
	other := srv.Create("", "easy").ID
	var oj protocol.JoinAnswer
	g := newBrowser(t, srv)
	g.must(http.MethodPost, "/api/games/"+other+"/join", protocol.JoinRequest{Name: "Cy"}, &oj)
	thief.hc.Jar.SetCookies(mustURL(t, srv.URL), []*http.Cookie{{Name: "razzia_" + game, Value: oj.Token}})
	thief.must(http.MethodGet, "/api/games/"+game, nil, &seat)
	if seat.You != -1 {
		t.Errorf("the seat cookie of another game holds seat %d here", seat.You)
	}
	// The account's token of one game is nothing at another.
	thief.hc.Jar.SetCookies(mustURL(t, srv.URL), []*http.Cookie{{Name: "razzia_" + other, Value: j.Token}})
	thief.must(http.MethodGet, "/api/games/"+other, nil, &seat)
	if seat.You != -1 {
		t.Errorf("Ann's token of %s holds seat %d of %s", game, seat.You, other)
	}
}

// TestRatedTable: guests cannot sit at a rated table; one account per
// seat; bots alone are never rated.
func TestRatedTable(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	var info protocol.CreateAnswer
	ann := newBrowser(t, srv)
	ann.register("Ann")
	ann.must(http.MethodPost, "/api/games", protocol.CreateRequest{Seats: []protocol.SeatRequest{{}, {}, {Bot: "easy"}}, Rated: true}, &info)
	if !info.Game.Rated {
		t.Fatal("the table is not rated")
	}
	guest := newBrowser(t, srv)
	if status, code := guest.call(http.MethodPost, "/api/games/"+info.Game.ID+"/join", protocol.JoinRequest{Name: "Guest"}, nil); code != protocol.AccountRequired || status != http.StatusForbidden {
		t.Errorf("a guest at a rated table: %d %s, want 403 account_required", status, code)
	}
	ann.must(http.MethodPost, "/api/games/"+info.Game.ID+"/join", protocol.JoinRequest{}, nil)
	second := newBrowser(t, srv)
	second.signIn("Ann") // the same account in another browser
	if _, code := second.call(http.MethodPost, "/api/games/"+info.Game.ID+"/join", protocol.JoinRequest{}, nil); code != protocol.AlreadySeated {
		t.Errorf("one account in two seats of a rated table: %s, want already_seated", code)
	}
	if _, code := ann.call(http.MethodPost, "/api/games", protocol.CreateRequest{Seats: []protocol.SeatRequest{{Bot: "easy"}, {Bot: "hard"}}, Rated: true}, nil); code != protocol.BadRequest {
		t.Errorf("a rated table of bots: %s, want bad_request", code)
	}
}

// TestRatedTableUncalibratedBot: a level without a calibrated rating
// (one added since the last calibration: here expert, left out of an
// injected calibration) cannot sit at a rated table, where it would count
// as a new player; it may at a casual one. With the embedded calibration
// (as razzia serve has it), which rates every level, expert may.
func TestRatedTableUncalibratedBot(t *testing.T) {
	bots := map[string]rating.Rating{"easy": {Mu: 20, Sigma: 2}}
	srv := servertest.New(t, servertest.Options{Accounts: account.Options{Bots: bots}})
	ann := newBrowser(t, srv)
	ann.register("Ann")
	status, code := ann.call(http.MethodPost, "/api/games", protocol.CreateRequest{Seats: []protocol.SeatRequest{{}, {Bot: "expert"}}, Rated: true}, nil)
	if status != http.StatusBadRequest || code != protocol.BadRequest {
		t.Errorf("expert at a rated table: %d %s, want 400 bad_request", status, code)
	}
	if games, err := srv.Hub.List(servertest.Context(t), ""); err != nil || len(games) != 0 {
		t.Errorf("the refusal left %d tables (%v)", len(games), err)
	}
	var info protocol.CreateAnswer
	ann.must(http.MethodPost, "/api/games", protocol.CreateRequest{Seats: []protocol.SeatRequest{{}, {Bot: "easy"}}, Rated: true}, &info)
	// Nor may its creator change a bot to it there.
	level := "/api/games/" + info.Game.ID + "/seats/1/level"
	if status, code := ann.call(http.MethodPut, level, protocol.LevelRequest{Level: "expert"}, nil); status != http.StatusBadRequest || code != protocol.BadRequest {
		t.Errorf("expert put at a rated table: %d %s, want 400 bad_request", status, code)
	}
	ann.must(http.MethodPut, level, protocol.LevelRequest{Level: "easy"}, nil)
	ann.must(http.MethodPost, "/api/games", protocol.CreateRequest{Seats: []protocol.SeatRequest{{}, {Bot: "expert"}}}, &info)
	ann.must(http.MethodPut, "/api/games/"+info.Game.ID+"/seats/1/level", protocol.LevelRequest{Level: "expert"}, nil)

	embedded := servertest.New(t, servertest.Options{})
	bea := newBrowser(t, embedded)
	bea.register("Bea")
	// The embedded calibration: the levels it knows well enough are
	// taken, the others refused.
	sure := botrating.Levels()
	for _, l := range bot.LevelNames() {
		req := protocol.CreateRequest{Seats: []protocol.SeatRequest{{}, {Bot: l}}, Rated: true}
		if _, ok := sure[l]; !ok {
			if status, code := bea.call(http.MethodPost, "/api/games", req, nil); status != http.StatusBadRequest || code != protocol.BadRequest {
				t.Errorf("%s, not rated surely, at a rated table: %d %s, want 400 bad_request", l, status, code)
			}
			continue
		}
		bea.must(http.MethodPost, "/api/games", req, &info)
		if !info.Game.Rated {
			t.Errorf("a rated table with %s is not rated", l)
		}
	}
}

// twoPlayer is the Weng–Lin Plackett–Luce update of player a after a
// two-player game against b, worked out by hand for two players: with
// c² = σa² + σb² + 2β² (Tau added to each σ² first) and pa the chance a
// finishes ahead, e^(μa/c) / (e^(μa/c) + e^(μb/c)),
//
//	μa' = μa + σa²/c · (s − pa), s = 1 for a win, ½ for a tie, 0 for a loss
//	σa' = σa · √max(1 − σa²/c² · σa/c · pa(1 − pa), κ)
func twoPlayer(m rating.Model, a, b rating.Rating, s float64) rating.Rating {
	va := a.Sigma*a.Sigma + m.Tau*m.Tau
	vb := b.Sigma*b.Sigma + m.Tau*m.Tau
	c := math.Sqrt(va + vb + 2*m.Beta*m.Beta)
	pa := 1 / (1 + math.Exp((b.Mu-a.Mu)/c))
	mu := a.Mu + va/c*(s-pa)
	sigma := math.Sqrt(va * math.Max(1-va/(c*c)*math.Sqrt(va)/c*pa*(1-pa), m.Kappa))
	return rating.Rating{Mu: mu, Sigma: sigma}
}

// TestRatedGameAgainstBot: a rated game against a bot, played through
// the API, changes the player's rating exactly as the model says, and
// never the bot's; a casual game and an unfinished one change nothing.
func TestRatedGameAgainstBot(t *testing.T) {
	botRating := rating.Rating{Mu: 27, Sigma: 1.5}
	srv := servertest.New(t, servertest.Options{Accounts: account.Options{Bots: map[string]rating.Rating{"medium": botRating}}})
	ctx := servertest.Context(t)
	c := srv.Client()
	if _, err := c.Register(ctx, "Ann", goodPassword); err != nil {
		t.Fatal(err)
	}
	// A casual game and an abandoned rated one first: no change.
	casual, _, err := c.Create(ctx, []string{"", "medium"})
	if err != nil {
		t.Fatal(err)
	}
	servertest.PlayAll(t, c, casual.ID)
	abandoned, _, err := c.CreateTable(ctx, rclient.Table{Seats: []string{"", "medium", "medium"}, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Join(ctx, abandoned.ID, "", -1); err != nil {
		t.Fatal(err)
	}
	a, err := c.Account(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m := rating.Default()
	if a.Rating.Games != 0 || a.Rating.Mu != m.Mu || a.Rating.Sigma != m.Sigma {
		t.Fatalf("after a casual and an unfinished game: %+v, want the new player's rating", a.Rating)
	}

	rated, _, err := c.CreateTable(ctx, rclient.Table{Seats: []string{"", "medium"}, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	seat := servertest.PlayAll(t, c, rated.ID)
	rec, err := c.Record(ctx, rated.ID)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rec.Game()
	if err != nil {
		t.Fatal(err)
	}
	st := g.State()
	totals := st.Totals()
	mine, theirs := totals[seat], totals[1-seat]
	s := 0.5
	switch {
	case mine > theirs:
		s = 1
	case mine < theirs:
		s = 0
	}
	want := twoPlayer(m, m.New(), botRating, s)
	a, err = c.Account(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a.Rating.Games != 1 || math.Abs(a.Rating.Mu-want.Mu) > 1e-9 || math.Abs(a.Rating.Sigma-want.Sigma) > 1e-9 {
		t.Errorf("after the rated game (%d to %d): %+v, want mu %.10f sigma %.10f", mine, theirs, a.Rating, want.Mu, want.Sigma)
	}
	if a.Rating.Ordinal != want.Ordinal() {
		t.Errorf("ordinal %v, want %v", a.Rating.Ordinal, want.Ordinal())
	}
	if got := srv.Accounts.BotRating("medium"); got != botRating {
		t.Errorf("the bot's rating changed to %+v", got)
	}
	p, err := c.Profile(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.History) != 1 || len(p.Recent) != 2 || len(p.Bots) != 1 || p.Bots[0].Games != 2 || p.Recent[0].Game != rated.ID ||
		p.Recent[0].Replay != "/g/"+rated.ID+"/replay" || p.Recent[0].Change == nil || p.Recent[1].Change != nil {
		t.Errorf("profile = %+v", p)
	}
	// The server draws the rating history: the start and one game.
	resp, err := http.Get(srv.URL + "/api/players/ANN/rating.svg")
	if err != nil {
		t.Fatal(err)
	}
	svg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("the rating chart: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if err := xml.Unmarshal(svg, new(struct{})); err != nil {
		t.Errorf("the rating chart is not XML: %v\n%s", err, svg)
	}
	if n := strings.Count(string(svg), "<circle"); n != 2 {
		t.Errorf("the rating chart marks %d points, want 2 (the start and one game)", n)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// httpapiTrustLoopback trusts the test's own address as a proxy, so that
// a test names the client's address with X-Forwarded-For.
func httpapiTrustLoopback() httpapi.Options {
	return httpapi.Options{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}}
}

// forwardedFor sends requests as if from addr, through a trusted proxy.
type forwardedFor string

func (f forwardedFor) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Forwarded-For", string(f))
	return http.DefaultTransport.RoundTrip(r)
}

// TestDeleteAccount: deleting an account ends its sessions and frees its
// name; its games and their results stay, its seats under a neutral
// name, and its profile is gone.
func TestDeleteAccount(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ctx := servertest.Context(t)
	c := srv.Client()
	if _, err := c.Register(ctx, "Ann", goodPassword); err != nil {
		t.Fatal(err)
	}
	rated, _, err := c.CreateTable(ctx, rclient.Table{Seats: []string{"", "medium"}, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	seat := servertest.PlayAll(t, c, rated.ID)
	live, _, err := c.Create(ctx, []string{"", "", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Join(ctx, live.ID, "", -1); err != nil {
		t.Fatal(err)
	}
	phone := newBrowser(t, srv)
	phone.signIn("Ann")

	b := newBrowser(t, srv)
	b.signIn("Ann")
	b.must(http.MethodDelete, "/api/account", nil, nil)
	if _, code := phone.call(http.MethodGet, "/api/account", nil, nil); code != protocol.Unauthorized {
		t.Errorf("another session of the deleted account: %s, want unauthorized", code)
	}
	if _, code := b.call(http.MethodGet, "/api/players/Ann", nil, nil); code != protocol.NotFound {
		t.Errorf("the deleted account's profile: %s, want not_found", code)
	}
	for _, id := range []string{rated.ID, live.ID} {
		var g protocol.SeatAnswer
		b.must(http.MethodGet, "/api/games/"+id, nil, &g)
		s := g.Game.Seats[seat]
		if id == live.ID {
			s = g.Game.Seats[0]
		}
		if !strings.HasPrefix(s.Name, "Former player ") || s.Account {
			t.Errorf("game %s: the deleted account's seat is %+v, want a former player's", id, s)
		}
	}
	rec, err := c.Record(ctx, rated.ID)
	if err != nil {
		t.Fatalf("the record of the deleted account's game: %v", err)
	}
	if got := rec.Players[seat]; got != playername.Former(seat) {
		t.Errorf("the record names the seat %q, want %q", got, playername.Former(seat))
	}
	// The name is free again, for a new player with no past.
	n := newBrowser(t, srv)
	n.register("ann")
	var p protocol.ProfileAnswer
	n.must(http.MethodGet, "/api/players/Ann", nil, &p)
	if p.Profile.Rating.Games != 0 || len(p.Profile.Recent) != 0 {
		t.Errorf("the new ann inherits the deleted Ann's games: %+v", p.Profile)
	}
}

// TestMyGames: the signed-in player's games list those where it is
// their turn first, then the other live ones, then the finished ones;
// the export holds the account, its games and its rating.
func TestMyGames(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ctx := servertest.Context(t)
	ann, bo := srv.Client(), srv.Client()
	for name, c := range map[string]*rclient.Client{"Ann": ann, "Bo": bo} {
		if _, err := c.Register(ctx, name, goodPassword); err != nil {
			t.Fatal(err)
		}
	}
	finished, _, err := ann.Create(ctx, []string{"", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	servertest.PlayAll(t, ann, finished.ID)
	// Ann's turn: she sits first at a table where the first seat starts.
	mine, _, err := ann.Create(ctx, []string{"", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ann.Join(ctx, mine.ID, "", 0); err != nil {
		t.Fatal(err)
	}
	// Bo's turn, the latest game of all.
	theirs, _, err := ann.Create(ctx, []string{"", "", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := bo.Join(ctx, theirs.ID, "", 0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ann.Join(ctx, theirs.ID, "", 1); err != nil {
		t.Fatal(err)
	}
	games, err := ann.MyGames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range games {
		got = append(got, fmt.Sprintf("%s turn=%t", g.Game.ID, g.YourTurn))
	}
	want := []string{mine.ID + " turn=true", theirs.ID + " turn=false", finished.ID + " turn=false"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("Ann's games: %v, want %v", got, want)
	}

	b := newBrowser(t, srv)
	b.signIn("Ann")
	var e account.Export
	b.must(http.MethodGet, "/api/account/export", nil, &e)
	if e.Account.Name != "Ann" || len(e.Seats) != 3 || len(e.Games) != 1 || e.Games[0].Game != finished.ID || e.Profile.Name != "Ann" {
		t.Errorf("the export: %+v", e)
	}
}

// TestAccountRequestLimits: registrations and passkey ceremonies are
// limited per client address, with rate_limited and a retry time.
func TestAccountRequestLimits(t *testing.T) {
	api := httpapiTrustLoopback()
	api.RegisterRate, api.RegisterBurst = 1.0/3600, 2
	api.CeremonyRate, api.CeremonyBurst = 1.0/3600, 3
	srv := servertest.New(t, servertest.Options{API: api})
	from := func(addr string) *browser {
		b := newBrowser(t, srv)
		b.hc.Transport = forwardedFor(addr)
		return b
	}
	a := from("192.0.2.1")
	a.register("Ann")
	from("192.0.2.1").register("Bo")
	if status, code := from("192.0.2.1").call(http.MethodPost, "/api/account", protocol.RegisterRequest{Name: "Cy", Password: goodPassword}, nil); status != http.StatusTooManyRequests || code != protocol.RateLimited {
		t.Errorf("a third registration from one address: %d %s, want 429 rate_limited", status, code)
	}
	from("198.51.100.7").register("Cy")                                                           // another address is not held back
	a.host = strings.Replace(strings.TrimPrefix(srv.URL, "http://"), "127.0.0.1", "localhost", 1) // passkeys take no IP address
	for i := range 4 {
		_, code := a.call(http.MethodPost, "/api/passkeys/signin", struct{}{}, nil)
		if want := protocol.Code(""); i == 3 {
			if code != protocol.RateLimited {
				t.Errorf("ceremony %d: %s, want rate_limited", i+1, code)
			}
		} else if code != want {
			t.Errorf("ceremony %d: %s", i+1, code)
		}
	}
}

// TestWho asks GET /api/session as a guest, signed in, and signed out:
// always 200, the account only while signed in, so that a guest's page
// logs no refusal.
func TestWho(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	b := newBrowser(t, srv)
	ask := func(when string, want string) {
		t.Helper()
		var who protocol.WhoAnswer
		if code, errCode := b.call("GET", "/api/session", nil, &who); code != http.StatusOK {
			t.Fatalf("%s: GET /api/session = %d %s, want 200", when, code, errCode)
		}
		got := ""
		if who.Account != nil {
			got = who.Account.Name
		}
		if !who.Accounts || got != want {
			t.Errorf("%s: %+v, want accounts and the account %q", when, who, want)
		}
	}
	ask("a guest", "")
	b.register("Ann")
	ask("signed in", "Ann")
	b.must("DELETE", "/api/session", nil, nil)
	ask("signed out", "")
}
