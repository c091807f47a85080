package protocol

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/razziagame/razzia"
)

// AppendJSON appends the state message to b exactly as json.Marshal
// encodes it, for a fraction of its cost: a server encodes one for every
// seat at every move. encoding/json walks the types by reflection and
// re-validates what every MarshalJSON returns (each event, score and
// raid risk), about as costly again. Here the game, the view, the events
// and the simple values are appended by hand, and the rest (the clock,
// the take-overs, the pace, a rematch offer: rare or small) by
// json.Marshal. A test compares the two over every state of many games,
// and a fuzz test over any strings.
func (m *StateMessage) AppendJSON(b []byte) ([]byte, error) { return m.appendJSON(b, false, nil) }

// appendJSON appends the message whole, or lean: in version 2's shape,
// without what a client derives (lean.go).
func (m *StateMessage) appendJSON(b []byte, lean bool, l *memberLog) ([]byte, error) {
	b = l.member(b, '{', "type", false)
	b = appendString(b, m.Type)
	b = l.member(b, ',', "game", false)
	b, err := m.Game.appendJSON(b, lean, m.View)
	if err != nil {
		return nil, err
	}
	b = l.member(b, ',', "seat", false)
	b = strconv.AppendInt(b, int64(m.Seat), 10)
	b = l.member(b, ',', "view", false)
	if b, err = m.View.appendJSON(b, lean, l); err != nil {
		return nil, err
	}
	b = l.member(b, ',', "events", false)
	if b, err = appendEvents(b, m.Events); err != nil {
		return nil, err
	}
	if m.Clock != nil {
		b = l.member(b, ',', "clock", false)
		b = m.Clock.appendJSON(b)
	}
	if len(m.TakeOvers) > 0 {
		b = l.member(b, ',', "takeOvers", false)
		if b, err = appendMarshal(b, m.TakeOvers); err != nil {
			return nil, err
		}
	}
	if m.PreMove != "" {
		b = l.member(b, ',', "preMove", false)
		b = appendString(b, m.PreMove)
	}
	if m.PreMoveDropped != "" {
		b = l.member(b, ',', "preMoveDropped", false)
		b = appendString(b, m.PreMoveDropped)
	}
	if m.Version != 0 {
		b = l.member(b, ',', "version", false)
		b = strconv.AppendInt(b, m.Version, 10)
	}
	l.close(len(b), false)
	return append(b, '}'), nil
}

// appendEvents appends the events as json.Marshal encodes them: null for
// nil.
func appendEvents(b []byte, events []Event) ([]byte, error) {
	if events == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, e := range events {
		if i > 0 {
			b = append(b, ',')
		}
		if plainEvent(e.Event) {
			b = appendEvent(b, e)
			continue
		}
		var err error
		if b, err = appendMarshaler(b, e); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// plainEvent reports whether appendEvent encodes the event: one of a
// known kind, card and auction.
func plainEvent(e razzia.Event) bool {
	valid := func(k razzia.Kind) bool { return k > razzia.NoKind && int(k) <= len(razzia.Kinds) }
	ok := e.Kind >= razzia.EventDraw && e.Kind <= razzia.EventGameOver && (e.Card == razzia.NoKind || valid(e.Card)) &&
		e.Auction >= razzia.AuctionNone && e.Auction <= razzia.AuctionForced
	for _, k := range e.Cards {
		ok = ok && valid(k)
	}
	return ok
}

// appendEvent appends the event as its MarshalJSON encodes it (the
// engine's form, then its text), without json.Marshal: every message
// carries some.
func appendEvent(b []byte, e Event) []byte {
	ev := e.Event
	b = append(b, `{"kind":"`...)
	b = append(b, ev.Kind.String()...)
	b = append(b, '"')
	switch ev.Kind {
	case razzia.EventDraw, razzia.EventThieves, razzia.EventAuction, razzia.EventBid, razzia.EventPass, razzia.EventWin:
		b = appendField(b, "seat", ev.Seat)
	}
	if ev.Card != razzia.NoKind {
		b = append(b, `,"card":"`...)
		b = append(b, ev.Card.String()...)
		b = append(b, '"')
	}
	if len(ev.Cards) > 0 || ev.Kind == razzia.EventWin || ev.Kind == razzia.EventNoWinner || ev.Kind == razzia.EventAuction {
		b = append(b, `,"cards":[`...)
		for i, k := range ev.Cards {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = append(b, k.String()...)
			b = append(b, '"')
		}
		b = append(b, ']')
	}
	b = appendNonZero(appendNonZero(b, "cheque", ev.Cheque), "centre", ev.Centre)
	if ev.Auction != razzia.AuctionNone {
		b = append(b, `,"auction":"`...)
		b = append(b, ev.Auction.String()...)
		b = append(b, '"')
	}
	b = appendNonZero(appendNonZero(b, "police", ev.Police), "round", ev.Round)
	if ev.PoliceLimit {
		b = append(b, `,"policeLimit":true`...)
	}
	if len(ev.Scores) > 0 {
		b = append(b, `,"scores":`...)
		b = appendList(b, ev.Scores, appendScore)
	}
	if len(ev.Winners) > 0 {
		b = append(b, `,"winners":`...)
		b = appendInts(b, ev.Winners)
	}
	if e.Text != "" {
		b = append(b, `,"text":`...)
		b = appendString(b, e.Text)
	}
	return append(b, '}')
}

// AppendJSON appends the patch message to b as json.Marshal encodes it
// (the patch, valid JSON, as it is), but for a base of Version-1, which
// it leaves out (ParsePatch reads it so).
func (m *PatchMessage) AppendJSON(b []byte) ([]byte, error) {
	b = m.appendHead(b)
	b, err := appendEvents(b, m.Events)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"patch":`...)
	if m.Patch == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, m.Patch...)
	}
	return append(b, '}'), nil
}

// appendHead appends the patch message's members before its events'
// value.
func (m *PatchMessage) appendHead(b []byte) []byte {
	b = append(b, `{"type":`...)
	b = appendString(b, m.Type)
	if m.Base != m.Version-1 {
		b = append(b, `,"base":`...)
		b = strconv.AppendInt(b, m.Base, 10)
	}
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, m.Version, 10)
	return append(b, `,"events":`...)
}

// AppendPatchHead appends what AppendJSON appends of a patch message of
// the version from base before its patch's value, with its events
// encoded already (AppendEvents): a server encodes a change's events
// once for every seat's patch. The patch's value and a closing brace
// make the message.
func AppendPatchHead(b []byte, base, version int64, events []byte) []byte {
	m := PatchMessage{Type: TypePatch, Base: base, Version: version}
	b = append(m.appendHead(b), events...)
	return append(b, `,"patch":`...)
}

// AppendEvents appends events as a message's member's value encodes
// them.
func AppendEvents(b []byte, events []Event) ([]byte, error) { return appendEvents(b, events) }

// appendJSON appends the game's information as json.Marshal encodes it:
// its rare parts (the pace, the rematch offer) by json.Marshal. Lean, it
// leaves out what the view says and, while the game is played, when it
// changed (lean.go).
func (g *GameInfo) appendJSON(b []byte, lean bool, view *View) ([]byte, error) {
	b = append(b, `{"id":`...)
	b = appendString(b, g.ID)
	b = append(b, `,"status":`...)
	b = appendString(b, string(g.Status))
	b = appendField(b, "players", g.Players)
	b = append(b, `,"seats":`...)
	b = appendList(b, g.Seats, func(b []byte, s SeatInfo) []byte {
		b = append(b, `{"name":`...)
		b = appendString(b, s.Name)
		b = append(b, `,"bot":`...)
		b = appendString(b, s.Bot)
		b = append(b, `,"open":`...)
		b = strconv.AppendBool(b, s.Open)
		if s.StandIn != "" {
			b = append(b, `,"standIn":`...)
			b = appendString(b, s.StandIn)
		}
		if s.Account {
			b = append(b, `,"account":true`...)
		}
		return append(b, '}')
	})
	if !lean || view == nil || g.Moves != view.Moves {
		b = appendField(b, "moves", g.Moves)
	}
	b = append(b, `,"created":`...)
	b, err := appendTime(b, g.Created)
	if err != nil {
		return nil, err
	}
	if !lean || g.Status != StatusPlaying {
		b = append(b, `,"updated":`...)
		if b, err = appendTime(b, g.Updated); err != nil {
			return nil, err
		}
	}
	if len(g.Winners) > 0 {
		b = append(b, `,"winners":`...)
		b = appendInts(b, g.Winners)
	}
	b = append(b, `,"invite":`...)
	b = appendString(b, g.Invite)
	if g.Expires != nil {
		b = append(b, `,"expires":`...)
		if b, err = appendTime(b, *g.Expires); err != nil {
			return nil, err
		}
	}
	if g.Rated {
		b = append(b, `,"rated":true`...)
	}
	if g.Pace != nil {
		b = append(b, `,"pace":`...)
		b = g.Pace.appendJSON(b)
	}
	switch toMove, derived := g.ToMove, leanToMove(view); {
	case lean && toMove == nil && derived != nil:
		b = appendField(b, "toMove", -1)
	case lean && toMove != nil && derived != nil && *toMove == *derived:
	case toMove != nil:
		b = appendField(b, "toMove", *toMove)
	}
	if g.RematchOf != "" {
		b = append(b, `,"rematchOf":`...)
		b = appendString(b, g.RematchOf)
	}
	if g.Rematch != "" {
		b = append(b, `,"rematch":`...)
		b = appendString(b, g.Rematch)
	}
	if g.RematchOffer != nil {
		b = append(b, `,"rematchOffer":`...)
		if b, err = appendMarshal(b, g.RematchOffer); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendJSON appends the view as json.Marshal encodes it; null for nil.
// Lean, it leaves out what a client derives (lean.go).
func (v *View) appendJSON(b []byte, lean bool, l *memberLog) ([]byte, error) {
	if v == nil {
		return append(b, "null"...), nil
	}
	b = l.member(b, '{', "players", true)
	b = appendStrings(b, v.Players)
	b = l.field(b, "seat", v.Seat)
	b = l.field(b, "moves", v.Moves)
	b = l.field(b, "round", v.Round)
	if !lean || v.Phase != v.leanPhase() {
		b = l.member(b, ',', "phase", true)
		b = appendString(b, v.Phase)
	}
	b = l.field(b, "toMove", v.ToMove)
	b = l.field(b, "police", v.Police)
	b = l.field(b, "policeLimit", v.PoliceLimit)
	b = l.field(b, "centre", v.Centre)
	b = l.member(b, ',', "row", true)
	b = appendStrings(b, v.Row)
	b = l.field(b, "deckLeft", v.DeckLeft)
	b = l.member(b, ',', "remaining", true)
	b = appendCounts(b, v.Remaining)
	b = l.member(b, ',', "auction", true)
	b = v.Auction.appendJSON(b, lean)
	if !lean || v.Raid != v.leanRaid() {
		b = l.member(b, ',', "raid", true)
		b = appendRaid(b, v.Raid)
	}
	b = l.member(b, ',', "stakes", true)
	b = appendList(b, v.Stakes, func(b []byte, s razzia.Stake) []byte {
		b = append(b, `{"seat":`...)
		b = strconv.AppendInt(b, int64(s.Seat), 10)
		if !lean || s.Bid != v.leanBid(s.Seat) {
			b = appendField(b, "bid", s.Bid)
		}
		b = append(b, `,"gain":`...)
		b = appendGain(b, s.Gain, lean)
		return append(b, '}')
	})
	b = l.member(b, ',', "seats", true)
	b = appendList(b, v.Seats, func(b []byte, s SeatView) []byte { return appendSeat(b, s, lean) })
	b = l.member(b, ',', "winners", true)
	b = appendInts(b, v.Winners)
	b = l.member(b, ',', "legal", true)
	b = appendStrings(b, v.Legal)
	if lean {
		b = l.member(b, ',', "gains", true)
		b = v.appendGains(b)
	} else {
		b = l.member(b, ',', "legalMoves", true)
		b = appendList(b, v.LegalMoves, appendMove)
	}
	l.close(len(b), true)
	return append(b, '}'), nil
}

func (a *AuctionView) appendJSON(b []byte, lean bool) []byte {
	if a == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"kind":`...)
	b = appendString(b, a.Kind)
	b = appendField(b, "initiator", a.Initiator)
	if high, bidder, ok := leanHighBid(a.Bids); !lean || !ok || high != a.HighBid || bidder != a.HighBidder {
		b = appendField(b, "highBid", a.HighBid)
		b = appendField(b, "highBidder", a.HighBidder)
	}
	if !lean || a.MustBid {
		b = append(b, `,"mustBid":`...)
		b = strconv.AppendBool(b, a.MustBid)
	}
	b = append(b, `,"bids":`...)
	b = appendStrings(b, a.Bids)
	if lean && isLeanBidding(a.Bidding, a.Bids) {
		return append(b, '}')
	}
	b = append(b, `,"bidding":`...)
	b = appendList(b, a.Bidding, func(b []byte, bid Bid) []byte {
		b = append(b, `{"state":`...)
		b = appendString(b, bid.State)
		if bid.Cheque != 0 {
			b = appendField(b, "cheque", bid.Cheque)
		}
		return append(b, '}')
	})
	return append(b, '}')
}

func appendSeat(b []byte, s SeatView, lean bool) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, s.Name)
	b = append(b, `,"faceUp":`...)
	b = appendInts(b, s.FaceUp)
	b = append(b, `,"faceDown":`...)
	b = appendInts(b, s.FaceDown)
	b = append(b, `,"holdings":`...)
	b = appendCounts(b, s.Holdings)
	b = append(b, `,"scores":`...)
	b = appendList(b, s.Scores, func(b []byte, sc razzia.Score) []byte { return appendGain(b, sc, lean) })
	b = appendField(b, "total", s.Total)
	return append(b, '}')
}

func appendMove(b []byte, m Move) []byte {
	b = append(b, `{"token":`...)
	b = appendString(b, m.Token)
	b = append(b, `,"action":`...)
	b = appendString(b, m.Action)
	if m.Card != "" {
		b = append(b, `,"card":`...)
		b = appendString(b, m.Card)
	}
	if m.Cheque != 0 {
		b = appendField(b, "cheque", m.Cheque)
	}
	if len(m.Cards) > 0 {
		b = append(b, `,"cards":`...)
		b = appendStrings(b, m.Cards)
	}
	if m.Gain != nil {
		b = append(b, `,"gain":`...)
		b = appendScore(b, *m.Gain)
	}
	return append(b, '}')
}

// appendScore appends the score as its MarshalJSON does (one field per
// category, then the total), which json.Marshal leaves as it is.
func appendScore(b []byte, s razzia.Score) []byte { return appendGain(b, s, false) }

// appendCategories appends the score's categories, its object left open.
func appendCategories(b []byte, s razzia.Score) []byte {
	b = append(b, '{')
	for c := range razzia.NumCategories {
		if c > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, razzia.Category(c).String()...)
		b = append(b, '"', ':')
		b = strconv.AppendInt(b, int64(s[c]), 10)
	}
	return b
}

// appendRaid appends the raid risk as its MarshalJSON (json.Marshal of
// the four numbers, toRaid and chance) encodes it.
func appendRaid(b []byte, r razzia.RaidRisk) []byte {
	b = append(b, `{"police":`...)
	b = strconv.AppendInt(b, int64(r.Police), 10)
	b = appendField(b, "limit", r.Limit)
	b = appendField(b, "policeLeft", r.PoliceLeft)
	b = appendField(b, "cardsLeft", r.CardsLeft)
	b = appendField(b, "toRaid", r.ToRaid())
	b = append(b, `,"chance":`...)
	b = appendFloat(b, r.Chance())
	return append(b, '}')
}

// appendFloat appends a finite float64 as encoding/json does: the
// shortest form, in exponent form only below 1e-6 or from 1e21, with the
// exponent's leading zero dropped.
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendNonZero appends ,"key":n unless n is 0 (omitempty).
func appendNonZero(b []byte, key string, n int) []byte {
	if n == 0 {
		return b
	}
	return appendField(b, key, n)
}

// appendField appends ,"key":n.
func appendField(b []byte, key string, n int) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, int64(n), 10)
}

// appendList appends a list as encoding/json does (null for nil), each
// element by each.
func appendList[T any](b []byte, list []T, each func([]byte, T) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, x)
	}
	return append(b, ']')
}

func appendInts(b []byte, ns []int) []byte {
	return appendList(b, ns, func(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) })
}

func appendStrings(b []byte, ss []string) []byte { return appendList(b, ss, appendString) }

// kindNames are the names of the kinds of cards in order: the keys of
// the views' maps of counts.
var kindNames = func() []string {
	names := make([]string, len(razzia.Kinds))
	for i, k := range razzia.Kinds {
		names[i] = k.String()
	}
	slices.Sort(names)
	return names
}()

// appendCounts appends a map of counts as encoding/json does: its keys
// in order. The keys are kinds' names, whose order is known; a map with
// any other key is sorted here.
func appendCounts(b []byte, m map[string]int) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	start := len(b)
	if b, found := appendCountsOf(b, m, kindNames); found == len(m) {
		return b
	}
	b, _ = appendCountsOf(b[:start], m, slices.Sorted(maps.Keys(m)))
	return b
}

// appendCountsOf appends the object of m's counts of keys, in their
// order, and says how many it found: each key is looked up once.
func appendCountsOf(b []byte, m map[string]int, keys []string) ([]byte, int) {
	b = append(b, '{')
	found := 0
	for _, k := range keys {
		n, ok := m[k]
		if !ok {
			continue
		}
		if found > 0 {
			b = append(b, ',')
		}
		found++
		b = appendString(b, k)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, '}'), found
}

// appendString appends s as a JSON string as encoding/json does. Most
// names and tokens of a state are plain ASCII, appended as they are; any
// other string (a byte to escape, to replace, or beyond ASCII) is
// escaped by appendEscaped (FuzzAppendString compares it with
// json.Marshal).
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return appendEscaped(b, s, i)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendEscaped appends s quoted and escaped as encoding/json escapes it
// (HTML's characters, U+2028 and U+2029 too; invalid UTF-8 as U+FFFD),
// s[:plain] needing no escape: names with accents are common, and
// json.Marshal would cost a string's allocations and reflection.
func appendEscaped(b []byte, s string, plain int) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	b = append(b, s[:plain]...)
	start := plain
	for i := plain; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendTime appends t as its MarshalJSON does, without the allocation
// of its bytes: quoted RFC 3339 with nanoseconds, and the same error for
// a year of other than four digits.
func appendTime(b []byte, t time.Time) ([]byte, error) {
	if y := t.Year(); y < 0 || y > 9999 {
		return appendMarshaler(b, t)
	}
	if _, off := t.Zone(); off%60 != 0 || off <= -24*3600 || off >= 24*3600 {
		return appendMarshaler(b, t) // zones RFC 3339 cannot write: MarshalJSON's way
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), nil
}

// appendJSON appends the pace as json.Marshal encodes it: every state
// carries one, and reflection would cost its allocations and the deepest
// stack of the state's encoding.
func (p *PaceInfo) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, p.ID)
	b = append(b, `,"kind":`...)
	b = appendString(b, p.Kind)
	b = append(b, `,"decisionMs":`...)
	b = strconv.AppendInt(b, p.DecisionMs, 10)
	b = append(b, `,"reserveMs":`...)
	b = strconv.AppendInt(b, p.ReserveMs, 10)
	if p.GraceMs != 0 {
		b = append(b, `,"graceMs":`...)
		b = strconv.AppendInt(b, p.GraceMs, 10)
	}
	if p.Name != "" {
		b = append(b, `,"name":`...)
		b = appendString(b, p.Name)
	}
	if p.Describe != "" {
		b = append(b, `,"describe":`...)
		b = appendString(b, p.Describe)
	}
	return append(b, '}')
}

// appendJSON appends the clocks as json.Marshal encodes them: a timed
// table's every state carries them.
func (c *ClockView) appendJSON(b []byte) []byte {
	b = append(b, `{"reserveMs":`...)
	b = appendList(b, c.ReserveMs, func(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) })
	b = append(b, `,"running":`...)
	b = strconv.AppendInt(b, int64(c.Running), 10)
	b = append(b, `,"decisionEnds":`...)
	b = strconv.AppendInt(b, c.DecisionEnds, 10)
	b = append(b, `,"deadline":`...)
	b = strconv.AppendInt(b, c.Deadline, 10)
	b = append(b, `,"serverTime":`...)
	b = strconv.AppendInt(b, c.ServerTime, 10)
	if c.HeldUntil != 0 {
		b = append(b, `,"heldUntil":`...)
		b = strconv.AppendInt(b, c.HeldUntil, 10)
	}
	if len(c.Continued) > 0 {
		b = append(b, `,"continued":`...)
		b = appendInts(b, c.Continued)
	}
	return append(b, '}')
}

// appendMarshal appends v as json.Marshal encodes it.
func appendMarshal(b []byte, v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, j...), nil
}

// appendMarshaler appends what v.MarshalJSON returns, as encoding/json
// does when that is compact and escaped already: the events' MarshalJSON
// are json.Marshal's output, and a time's a quoted RFC 3339 time.
func appendMarshaler(b []byte, v json.Marshaler) ([]byte, error) {
	j, err := v.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return append(b, j...), nil
}
