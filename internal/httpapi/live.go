package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/time/rate"

	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/presence"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/social"
)

// The live socket of every page (GET /api/live): the page's presence,
// the online list, notices about the players one follows, and what other
// features tell the person (their challenges and requests) or every lobby
// (the requests of Play now).
const (
	guestCookie = "razzia_guest"
	guestAge    = 365 * 24 * time.Hour
	// listGap is the least time between two online lists sent to one
	// socket: a list follows the changes, a few at once.
	listGap = 2 * time.Second
	// maxListed is the most people an online list names.
	maxListed = 100
	// playingFor is how long a count of the games in play is kept.
	playingFor = 3 * time.Second
)

func (s *Server) routeLive(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/live", s.live)
	mux.HandleFunc("GET /api/online", s.online)
	if s.opts.Metrics != nil && s.opts.Presence != nil {
		s.opts.Metrics.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "razzia_people_online",
			Help: "People online, on any node (signed in and guests, lingering included), as this node knows them."},
			func() float64 { return float64(s.opts.Presence.Count()) }))
	}
}

// guestKey returns the presence key of the request's guest cookie, ""
// without one: a hash, so that the cookie itself never leaves the node.
func guestKey(r *http.Request) string {
	c, err := r.Cookie(guestCookie)
	if err != nil || len(c.Value) < 16 || len(c.Value) > 128 {
		return ""
	}
	sum := sha256.Sum256([]byte(c.Value))
	return "g:" + hex.EncodeToString(sum[:12])
}

// personOf returns who the request comes from: the signed-in account,
// else the guest of the guest cookie going by name (nameless when the
// name is not one a guest may take, or an account's), else nobody.
func (s *Server) personOf(r *http.Request, name string) presence.Person {
	if se, err := s.sessionOf(r); err == nil {
		return presence.Person{Key: presence.AccountKey(se.Account.ID), Account: se.Account.ID, Name: se.Account.Name}
	}
	key := guestKey(r)
	if key == "" {
		return presence.Person{}
	}
	return presence.Person{Key: key, Name: s.guestName(r.Context(), name)}
}

// guestName returns name if a guest may go by it in the online list: a
// name a seat may take, no account's, and no banned account's; else "".
func (s *Server) guestName(ctx context.Context, name string) string {
	if name == "" || playername.Check(name) != nil {
		return ""
	}
	if m := s.opts.Moderation; m != nil && m.NameBarred(name) != nil {
		return ""
	}
	if s.opts.Social != nil {
		taken, err := s.opts.Social.NameTaken(ctx, name)
		if err != nil || taken {
			return "" // unknown: not shown rather than shown wrongly
		}
	}
	return name
}

// giveGuestCookie gives a browser without a session or guest cookie its
// guest cookie, on the answer and on r (for personOf).
func (s *Server) giveGuestCookie(w http.ResponseWriter, r *http.Request) {
	if guestKey(r) != "" {
		return
	}
	if _, err := s.sessionOf(r); err == nil {
		return
	}
	c := &http.Cookie{Name: guestCookie, Value: rand.Text(), Path: "/", MaxAge: int(guestAge / time.Second), HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: s.peerOf(r).tls}
	http.SetCookie(w, c)
	r.AddCookie(c)
}

// live serves a page's live socket: the page is online while it is open.
func (s *Server) live(w http.ResponseWriter, r *http.Request) {
	if s.opts.Presence == nil {
		s.fail(w, r, newError(protocol.NotFound, "this server keeps no presence"))
		return
	}
	client := s.peerOf(r).key()
	if !s.liveClients.add(client, s.opts.MaxConns) {
		s.refuse(w, r, newError(protocol.TooManyConnections,
			"your address has %d pages open on this server, the most it takes: close one (another tab?) and try again", s.opts.MaxConns))
		return
	}
	defer s.liveClients.done(client)
	if !s.track() {
		s.fail(w, r, newError(protocol.Unavailable, "the server is shutting down"))
		return
	}
	defer s.conns.Done()
	s.giveGuestCookie(w, r)
	q := r.URL.Query()
	p := s.personOf(r, q.Get("name"))
	pc, err := s.opts.Presence.Connect(r.Context(), p, "", -1)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer pc.Close()
	// The feeds come first: what happens once the page is connected
	// reaches it.
	l := &liveConn{wsConn: &wsConn{s: s, client: client, account: p.Account, name: p.Name,
		limit: rate.NewLimiter(rate.Limit(s.opts.MessageRate), s.opts.MessageBurst)},
		pc: pc, me: p, list: q.Get("list") == "1", playing: map[string]string{}}
	// A page without the list hears only of the players it follows.
	l.feed = s.opts.Presence.FeedOf(func(e presence.Event) bool {
		return l.list || (e.Kind == presence.Online || e.Kind == presence.Changed) && l.follows(e.Status.Account)
	})
	defer l.feed.Close()
	if s.opts.Social != nil {
		var stop func()
		l.relations, stop = s.opts.Social.Watch()
		defer stop()
	}
	if p.Key != "" {
		// seeks=1: a lobby, told of every Play-now request as it changes.
		var stop func()
		l.inbox, stop = s.opts.Presence.Inbox(p.Key, q.Get("seeks") == "1")
		defer stop()
	}
	l.loadFollowing(r.Context())
	if !l.upgrade(w, r) {
		return
	}
	defer l.c.CloseNow()
	l.serve()
}

// A liveConn is one page's live socket.
type liveConn struct {
	*wsConn
	pc        *presence.Conn
	me        presence.Person
	list      bool                     // the page shows the online list
	following atomic.Pointer[[]string] // the accounts followed, sorted
	playing   map[string]string        // the game last told of each followed account
	sent      []byte                   // the online list sent last
	feed      *presence.Feed
	relations <-chan string // the accounts whose follows changed
	inbox     <-chan []byte // what other features tell the person or the lobbies (presence.Service.Tell)
}

func (l *liveConn) serve() { l.run(l.read, l.pump) }

// pump writes the online list, notices, what other features tell the
// account and the server's going away to the page until the connection
// ends.
func (l *liveConn) pump(ctx context.Context, done <-chan struct{}) {
	feed, relations := l.feed, l.relations
	dirty := l.list
	var next <-chan time.Time
	last := time.Time{}
	// The counts change without anyone coming or going: a list that
	// changed goes out now and then too.
	var refresh <-chan time.Time
	if l.list {
		t := time.NewTicker(playingFor)
		defer t.Stop()
		refresh = t.C
	}
	for {
		if dirty && next == nil {
			next = time.After(max(0, listGap-time.Since(last)))
		}
		var err error
		select {
		case <-next:
			next, dirty, last = nil, false, time.Now()
			err = l.sendList(ctx)
		case m := <-l.inbox:
			err = l.write(ctx, m)
		case e := <-feed.Events():
			dirty = dirty || l.list
			err = l.notice(ctx, e)
		case <-feed.Lost():
			dirty = l.list
		case <-refresh:
			dirty = true
		case who := <-relations:
			if who == "" || who == l.me.Account {
				l.loadFollowing(ctx)
				dirty = l.list
			}
		case <-done:
			l.ended()
			return
		}
		if err != nil {
			return
		}
	}
}

// loadFollowing reads whom the reader follows.
func (l *liveConn) loadFollowing(ctx context.Context) {
	if l.s.opts.Social == nil || l.me.Account == "" {
		return
	}
	ids, err := l.s.opts.Social.Following(ctx, l.me.Account)
	if err != nil {
		l.s.log.Warn("cannot read whom a player follows", "err", err)
		return
	}
	l.following.Store(&ids)
}

// follows reports whether the reader follows the account; it is safe
// for concurrent use (the feed's filter calls it).
func (l *liveConn) follows(account string) bool {
	ids := l.following.Load()
	if ids == nil || account == "" {
		return false
	}
	_, ok := slices.BinarySearch(*ids, account)
	return ok
}

// notice tells the reader that a player they follow came online or sat
// down at a table, unless an operator suspended or banned them.
func (l *liveConn) notice(ctx context.Context, e presence.Event) error {
	st := e.Status
	if e.Kind != presence.Online && e.Kind != presence.Changed || !l.follows(st.Account) || !l.s.shownEvent(e) {
		return nil
	}
	var kind string
	switch {
	case st.Activity == presence.Playing && l.playing[st.Account] != st.Game:
		l.playing[st.Account] = st.Game
		kind = protocol.NoticePlaying
		if e.Kind == presence.Online {
			kind = protocol.NoticeOnline // online at a table: one notice says both
		}
	case e.Kind == presence.Online:
		kind = protocol.NoticeOnline
	default:
		return nil
	}
	m := protocol.NoticeMessage{Type: protocol.TypeNotice, Kind: kind, Name: st.Name}
	if st.Activity == presence.Playing {
		m.Game = st.Game
	}
	return l.send(ctx, "a notice", func() ([]byte, error) { return json.Marshal(m) })
}

// sendList sends the online list, unless it is the one sent last.
func (l *liveConn) sendList(ctx context.Context) error {
	var following []string
	if ids := l.following.Load(); ids != nil {
		following = *ids
	}
	a, err := l.s.onlineList(ctx, l.me.Key, following)
	if err != nil {
		l.s.log.Warn("cannot make the online list", "err", err)
		return nil
	}
	m := protocol.OnlineMessage{Type: protocol.TypeOnline, People: a.People, Online: a.Online, Playing: a.Playing, More: a.More}
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if bytes.Equal(data, l.sent) {
		return nil
	}
	l.sent = data
	return l.write(ctx, data)
}

// read handles the page's messages: pings and whether it is hidden.
func (l *liveConn) read(ctx context.Context) {
	for {
		typ, r, err := l.c.Reader(unwatched)
		if err != nil {
			return
		}
		data, err := io.ReadAll(io.LimitReader(r, maxMessage+1))
		if err != nil {
			return
		}
		if len(data) > maxMessage {
			l.error(ctx, protocol.TooLarge, 0, "the message is larger than %d bytes", maxMessage)
			l.c.Close(websocket.StatusMessageTooBig, "message too large")
			return
		}
		if !l.limit.Allow() {
			if l.error(ctx, protocol.RateLimited, 1, "too many messages: at most %d at once and %g a second; this one was dropped",
				l.s.opts.MessageBurst, l.s.opts.MessageRate) != nil {
				return
			}
			continue
		}
		if typ == websocket.MessageText && string(data) == string(pingMessage) {
			if l.pong(ctx) != nil {
				return
			}
			continue
		}
		l.touch()
		if err := l.away(ctx, typ, data, l.pc); err != nil {
			return
		}
	}
}

// away handles a TypeAway message on a live or table socket whose
// presence is pc: the page is hidden or shown. Any other message is
// refused as bad_message.
func (w *wsConn) away(ctx context.Context, typ websocket.MessageType, data []byte, pc *presence.Conn) error {
	var msg protocol.AwayMessage
	if typ != websocket.MessageText {
		return w.error(ctx, protocol.BadMessage, 0, "send JSON text messages, not binary ones")
	}
	if t := messageType(data); t != protocol.TypeAway {
		return w.error(ctx, protocol.BadMessage, 0, "this socket takes %q and %q messages, not %q", protocol.TypeAway, protocol.TypePing, t)
	}
	if err := decodeChecked(data, &msg); err != nil {
		return w.error(ctx, protocol.BadMessage, 0, "%s", err)
	}
	return w.setAway(ctx, *msg.Away, pc)
}

// setAway stores that the page of presence pc (nil for none) is hidden
// or shown.
func (w *wsConn) setAway(ctx context.Context, away bool, pc *presence.Conn) error {
	if pc == nil {
		return nil
	}
	return w.awayStored(ctx, pc.SetAway(ctx, away))
}

// awayStored answers a page's away that could not be stored (err not
// nil) with an internal error.
func (w *wsConn) awayStored(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	w.s.log.Warn("cannot store that a page is hidden", "err", err)
	return w.error(ctx, protocol.Internal, 0, "internal error: please try again")
}

// online answers GET /api/online: the online list, as a signed-in
// reader's live socket gets it.
func (s *Server) online(w http.ResponseWriter, r *http.Request) {
	if s.opts.Presence == nil {
		s.fail(w, r, newError(protocol.NotFound, "this server keeps no presence"))
		return
	}
	var following []string
	me := s.personOf(r, "")
	if me.Account != "" && s.opts.Social != nil {
		var err error
		if following, err = s.opts.Social.Following(r.Context(), me.Account); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	a, err := s.onlineList(r.Context(), me.Key, following)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, a)
}

// onlineList makes the online list for the reader (their person's key,
// "" for nobody) who follows following (sorted): those first, then the
// signed-in, then guests, each by name; at most maxListed. Every reader's
// list is cut from one list of everyone, made once for each change.
func (s *Server) onlineList(ctx context.Context, reader string, following []string) (protocol.OnlineAnswer, error) {
	all, err := s.everyone(ctx)
	if err != nil {
		return protocol.OnlineAnswer{}, err
	}
	a := protocol.OnlineAnswer{People: []protocol.PersonOnline{}, Online: all.online, Playing: s.playingCount(ctx)}
	var first []int // the followed, in the list's order
	for _, id := range following {
		if i, ok := all.byAccount[id]; ok {
			first = append(first, i)
		}
	}
	slices.Sort(first)
	add := func(i int, followed bool) {
		p := all.people[i]
		p.Followed, p.You = followed, reader != "" && all.keys[i] == reader
		a.People = append(a.People, p)
	}
	for _, i := range first {
		if len(a.People) < maxListed {
			add(i, true)
		}
	}
	for i := range all.people {
		if len(a.People) >= maxListed {
			break
		}
		if _, ok := slices.BinarySearch(first, i); !ok {
			add(i, false)
		}
	}
	a.More = a.Online - len(a.People)
	return a, nil
}

// everyoneList is everyone online with a name, as every reader's list
// shows them (followed and you not marked), and how many are online.
type everyoneList struct {
	version   int64     // presence's, when it was made
	sanctions int64     // the moderation's (the suspended and banned are neither listed nor counted)
	made      time.Time // when: ratings and finish rates change too
	people    []protocol.PersonOnline
	keys      []string       // the person of each
	byAccount map[string]int // the index of each signed-in person
	online    int            // shown online: listed, guests without a name, those past the list
}

// everyone returns the list of everyone online, made again when
// presence changed since, or a few seconds passed (a rating changes
// without anyone coming or going).
func (s *Server) everyone(ctx context.Context) (*everyoneList, error) {
	s.everyoneMu.Lock()
	defer s.everyoneMu.Unlock()
	v, mv := s.opts.Presence.Version(), s.sanctionsVersion()
	if l := s.everyoneLast; l != nil && l.version == v && l.sanctions == mv && time.Since(l.made) < playingFor {
		return l, nil
	}
	// Everyone shown online counts, guests without a name too.
	people, online := s.shownPeople()
	l := &everyoneList{version: v, sanctions: mv, made: time.Now(), byAccount: map[string]int{}, online: online}
	for _, st := range people {
		p := protocol.PersonOnline{Name: st.Name, Guest: st.Account == "", Activity: st.Activity.String(), Away: st.Away,
			Since: st.Since.UTC()}
		if st.Activity != presence.Lobby {
			p.Game = st.Game
		}
		if st.Account != "" && s.opts.Social != nil {
			card, err := s.opts.Social.Card(ctx, st.Account)
			if errors.Is(err, social.ErrNoPlayer) {
				l.online-- // deleted while a socket of theirs is open: gone for others
				continue
			}
			if err != nil {
				return nil, err
			}
			p.Name, p.Profile = card.Name, protocol.ProfilePath(card.Name)
			ri := card.Rating
			p.Rating = &ri
			fr := finishRate(card.Rate)
			p.Finish = &fr
			l.byAccount[st.Account] = len(l.people)
		}
		l.people = append(l.people, p)
		l.keys = append(l.keys, st.Key)
	}
	s.everyoneLast = l
	return l, nil
}

// playing counts the games in play, kept for playingFor.
type playing struct {
	mu sync.Mutex
	n  int
	at time.Time
}

// playingCount returns the number of games being played, counted at most
// playingFor ago.
func (s *Server) playingCount(ctx context.Context) int {
	p := &s.playingGames
	p.mu.Lock()
	defer p.mu.Unlock()
	if now := time.Now(); now.Sub(p.at) >= playingFor {
		games, err := s.hub.List(ctx, protocol.StatusPlaying)
		if err == nil {
			p.n, p.at = len(games), now
		}
	}
	return p.n
}
