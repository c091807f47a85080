package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/razziagame/razzia/internal/i18n"
)

var t0 = time.Date(2026, 6, 1, 20, 0, 0, 0, time.UTC)

func TestPhrases(t *testing.T) {
	want := []string{"gl", "thinking", "thanks", "sorry", "oops", "wp", "gg"} // what the issue names and players expect
	for _, id := range want {
		if !IsPhrase(id) {
			t.Errorf("%q is not a quick phrase", id)
		}
	}
	for _, l := range i18n.Languages() {
		c, _ := i18n.Lookup(l.Tag)
		seen := map[string]string{}
		for _, id := range Phrases() {
			text := c.T("chat.phrase." + id)
			if text == "chat.phrase."+id {
				t.Errorf("%s: no text for the phrase %q", l.Tag, id)
			}
			if other, dup := seen[text]; dup {
				t.Errorf("%s: phrases %q and %q read the same, %q", l.Tag, other, id, text)
			}
			seen[text] = id
		}
	}
	if en := i18n.Default(); en.T("chat.phrase.thinking") != "Thinking…" || en.T("chat.phrase.wp") != "Well played" {
		t.Error("the English phrases are not the issue's")
	}
	p := Phrases()
	p[0] = "changed"
	if Phrases()[0] == "changed" {
		t.Error("Phrases returns the list itself")
	}
}

func TestCheckText(t *testing.T) {
	long := strings.Repeat("é", MaxRunes)
	tests := []struct {
		name string
		in   string
		want string // the text kept
		err  error
	}{
		{"plain text", "good move", "good move", nil},
		{"white space around is removed", "  \t hi there \n", "hi there", nil},
		{"accents of the six languages", "Jó játék! Ça va? Größe, ñ, è", "Jó játék! Ça va? Größe, ñ, è", nil},
		{"a decomposed accent", "e\u0301", "e\u0301", nil},
		{"an emoji", "👍", "👍", nil},
		{"an emoji with its presentation selector", "❤️", "❤️", nil},
		{"an emoji joined by a zero width joiner", "👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧", nil},
		{"a joiner after a skin tone", "🧑🏽\u200d🚀", "🧑🏽\u200d🚀", nil},
		{"a flag", "🇳🇱", "🇳🇱", nil},
		{"a link stays plain text", "see https://example.org/x?a=1", "see https://example.org/x?a=1", nil},
		{"markup stays plain text", "<b>bold</b> &amp;", "<b>bold</b> &amp;", nil},
		{"exactly the longest", long, long, nil},
		{"empty", "", "", ErrEmpty},
		{"only white space", " \u00a0\u3000 ", "", ErrEmpty},
		{"one character too long", long + "x", "", ErrTooLong},
		{"a line break inside", "two\nlines", "", ErrBadChar},
		{"a tab inside", "a\tb", "", ErrBadChar},
		{"a NUL", "a\x00b", "", ErrBadChar},
		{"an escape sequence", "\x1b[31mred", "", ErrBadChar},
		{"a right-to-left override", "abc\u202edcba", "", ErrBadChar},
		{"a right-to-left isolate", "\u2067abc", "", ErrBadChar},
		{"a left-to-right mark", "a\u200eb", "", ErrBadChar},
		{"an Arabic letter mark", "a\u061cb", "", ErrBadChar},
		{"a zero width space", "a\u200bb", "", ErrBadChar},
		{"a zero width joiner between letters", "a\u200db", "", ErrBadChar},
		{"a zero width joiner at the end of an emoji", "👍\u200d", "", ErrBadChar},
		{"a soft hyphen", "in\u00advisible", "", ErrBadChar},
		{"a byte order mark", "\ufeffhi", "", ErrBadChar},
		{"a Hangul filler, a blank letter", "\u3164", "", ErrBadChar},
		{"a blank Braille pattern", "hi \u2800", "", ErrBadChar},
		{"a private use character", "\ue000", "", ErrBadChar},
		{"an unassigned code point", "\U000E0080x", "", ErrBadChar},
		{"a tag character", "🏴\U000E0067\U000E0062\U000E007F", "", ErrBadChar},
		{"a line separator", "a\u2028b", "", ErrBadChar},
		{"invalid UTF-8", "a\xffb", "", ErrBadChar},
		{"a character smeared with marks", "Z\u0351\u0352\u0353\u0354\u0355", "", ErrBadChar},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CheckText(tt.in)
			if !errors.Is(err, tt.err) {
				t.Fatalf("CheckText(%q) error = %v, want %v", tt.in, err, tt.err)
			}
			if got != tt.want {
				t.Errorf("CheckText(%q) = %q, want %q", tt.in, got, tt.want)
			}
			var e *Error
			if err != nil && (!errors.As(err, &e) || e.Code == "" || !i18n.Default().Has("chat.error."+e.Code)) {
				t.Errorf("%v is not an *Error with a catalogue code", err)
			}
		})
	}
}

func TestCheckTextTooLongSays(t *testing.T) {
	_, err := CheckText(strings.Repeat("a", 250))
	var e *Error
	if !errors.As(err, &e) || e.Code != "too_long" || e.Max != MaxRunes || !strings.Contains(err.Error(), "250") {
		t.Errorf("error %v does not say how long and the limit", err)
	}
}

func FuzzCheckText(f *testing.F) {
	for _, s := range []string{"gg", "👨\u200d👩\u200d👧", "a\u202eb", " x ", "e\u0301\u0301", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := CheckText(s)
		if err != nil {
			return
		}
		if !utf8.ValidString(out) || out == "" || utf8.RuneCountInString(out) > MaxRunes {
			t.Fatalf("accepted %q as %q", s, out)
		}
		for _, r := range out {
			if unicode.IsControl(r) || (unicode.Is(unicode.Cf, r) && r != zwj) || unicode.Is(unicode.Co, r) || r == '\u2028' {
				t.Fatalf("accepted %q with %U", s, r)
			}
		}
		if again, err := CheckText(out); err != nil || again != out {
			t.Fatalf("checking %q again gives %q, %v", out, again, err)
		}
	})
}

var (
	anna  = Person{ID: "anna", SignedIn: true}
	guest = Person{ID: "guest-7"}
	kibi  = Person{ID: "kibi", Spectator: true, SignedIn: true}
	spec  = Person{ID: "spec", Spectator: true}
)

func TestPost(t *testing.T) {
	tests := []struct {
		name         string
		from         Person
		ch           Channel
		phrase, text string
		err          error
	}{
		{"a player's phrase", guest, Players, "gl", "", nil},
		{"a signed-in player's text", anna, Players, "", "have fun", nil},
		{"a spectator's phrase", spec, Spectators, "wow", "", nil},
		{"a signed-in spectator's text", kibi, Spectators, "", "nice auction", nil},
		{"a guest's free text", guest, Players, "", "hello", ErrSignIn},
		{"a spectator in the players' channel", kibi, Players, "gl", "", ErrChannel},
		{"a player in the spectators' channel", anna, Spectators, "gl", "", ErrChannel},
		{"an unknown phrase", anna, Players, "bid9", "", ErrUnknownPhrase},
		{"a phrase and text at once", anna, Players, "gl", "hi", ErrBadChar},
		{"neither phrase nor text", anna, Players, "", "", ErrEmpty},
		{"a control character", anna, Players, "", "\x07", ErrBadChar},
		{"too long", anna, Players, "", strings.Repeat("x", MaxRunes+1), ErrTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRoom(DefaultLimits)
			m, err := r.Post(tt.from, tt.ch, tt.phrase, tt.text, t0)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Post error = %v, want %v", err, tt.err)
			}
			if err != nil {
				if m != (Message{}) {
					t.Errorf("a refused post returned %+v", m)
				}
				if len(r.limiters) != 0 {
					t.Error("a refused post cost a token")
				}
				return
			}
			want := Message{Channel: tt.ch, From: tt.from.ID, Phrase: tt.phrase, Text: strings.TrimSpace(tt.text), At: t0}
			if m != want {
				t.Errorf("Post = %+v, want %+v", m, want)
			}
		})
	}
}

func TestRateLimit(t *testing.T) {
	r := NewRoom(Limits{Every: 3 * time.Second, Burst: 5})
	for i := range 5 {
		if _, err := r.Post(anna, Players, "gg", "", t0); err != nil {
			t.Fatalf("message %d of the burst: %v", i+1, err)
		}
	}
	_, err := r.Post(anna, Players, "gg", "", t0.Add(time.Second))
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrTooFast) || e.Code != "too_fast" || e.RetryAfter != 2*time.Second {
		t.Fatalf("the sixth message: %v (%+v), want too fast, retry after 2s", err, e)
	}
	if _, err := r.Post(anna, Players, "", "\x00", t0.Add(3*time.Second)); !errors.Is(err, ErrBadChar) {
		t.Fatalf("bad text: %v", err)
	}
	if _, err := r.Post(anna, Players, "gg", "", t0.Add(3*time.Second)); err != nil {
		t.Errorf("after the wait (a refused message cost nothing): %v", err)
	}
	if _, err := r.Post(anna, Players, "gg", "", t0.Add(3*time.Second)); !errors.Is(err, ErrTooFast) {
		t.Errorf("a second message in the same instant: %v", err)
	}
	if _, err := r.Post(guest, Players, "gg", "", t0.Add(3*time.Second)); err != nil {
		t.Errorf("another sender is limited by anna's rate: %v", err)
	}
	if _, err := r.Post(anna, Players, "gg", "", t0.Add(time.Hour)); err != nil {
		t.Errorf("after an hour: %v", err)
	}
}

// A room visited by many spectators forgets those who have been quiet long
// enough, so its memory stays bounded.
func TestRateLimitersPruned(t *testing.T) {
	r := NewRoom(DefaultLimits)
	for i := range 1000 {
		p := Person{ID: fmt.Sprint("spectator-", i), Spectator: true}
		if _, err := r.Post(p, Spectators, "wow", "", t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if len(r.limiters) > pruneAt {
		t.Errorf("%d rate limiters kept, at most %d wanted", len(r.limiters), pruneAt)
	}
}

func TestMute(t *testing.T) {
	r := NewRoom(DefaultLimits)
	if err := r.Mute("anna", "anna"); !errors.Is(err, ErrMuteSelf) {
		t.Errorf("muting oneself: %v", err)
	}
	for _, id := range []string{"bert", "cleo", "bert"} {
		if err := r.Mute("anna", id); err != nil {
			t.Fatal(err)
		}
	}
	if got := r.Muted("anna"); fmt.Sprint(got) != "[bert cleo]" {
		t.Errorf("anna muted %v", got)
	}
	r.Unmute("anna", "cleo")
	r.Unmute("anna", "nobody")
	if got := r.Muted("anna"); fmt.Sprint(got) != "[bert]" {
		t.Errorf("after unmuting cleo anna muted %v", got)
	}
	if got := r.Muted("bert"); len(got) != 0 {
		t.Errorf("a mute goes one way, but bert muted %v", got)
	}
}

func TestView(t *testing.T) {
	r := NewRoom(DefaultLimits)
	bert := Person{ID: "bert", SignedIn: true}
	if err := r.Mute("anna", "bert"); err != nil {
		t.Fatal(err)
	}
	if err := r.Mute("spec", "kibi"); err != nil {
		t.Fatal(err)
	}
	fromBert := Message{Channel: Players, From: "bert", Text: "my turn", At: t0}
	fromKibi := Message{Channel: Spectators, From: "kibi", Text: "bid the 9!", At: t0}
	muted := func(m Message) Message { return Message{Channel: m.Channel, From: m.From, At: m.At, Muted: true} }
	tests := []struct {
		name   string
		reader Person
		m      Message
		over   bool
		want   Message
		seen   bool
	}{
		{"players read the players' channel", guest, fromBert, false, fromBert, true},
		{"spectators read the players' channel", kibi, fromBert, false, fromBert, true},
		{"spectators read their channel", spec.withID("other"), fromKibi, false, fromKibi, true},
		{"players never read the spectators' channel during the game", bert, fromKibi, false, Message{}, false},
		{"players read it once the game is over", bert, fromKibi, true, fromKibi, true},
		{"a muter sees a muted copy without the content", anna, fromBert, false, muted(fromBert), true},
		{"a muting spectator too", spec, fromKibi, false, muted(fromKibi), true},
		{"a mute is the muter's only", guest, fromBert, false, fromBert, true},
		{"one's own message", bert, fromBert, false, fromBert, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, seen := r.View(tt.reader, tt.m, tt.over)
			if got != tt.want || seen != tt.seen {
				t.Errorf("View = %+v, %v; want %+v, %v", got, seen, tt.want, tt.seen)
			}
		})
	}
}

func (p Person) withID(id string) Person { p.ID = id; return p }

func TestMessageJSON(t *testing.T) {
	m := Message{Channel: Spectators, From: "kibi", Phrase: "wow", At: t0}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"channel":"spectators","from":"kibi","phrase":"wow","at":"2026-06-01T20:00:00Z"}`; got != want {
		t.Errorf("JSON %s, want %s", got, want)
	}
	var back Message
	if err := json.Unmarshal(b, &back); err != nil || back != m {
		t.Errorf("read back %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"channel":"everyone"}`), &back); !errors.Is(err, ErrChannel) {
		t.Errorf("an unknown channel: %v", err)
	}
}

func ExampleRoom_Post() {
	room := NewRoom(DefaultLimits)
	now := time.Date(2026, 6, 1, 20, 0, 0, 0, time.UTC)
	felix := Person{ID: "felix", SignedIn: true}

	m, _ := room.Post(felix, Players, "", "  gl hf, see https://example.org ", now)
	fmt.Printf("%q\n", m.Text)
	_, err := room.Post(felix, Players, "", "evil\u202etxt.exe", now)
	fmt.Println(err)
	m, _ = room.Post(Person{ID: "guest"}, Players, "thinking", "", now)
	de, _ := i18n.Lookup("de")
	fmt.Println(de.T("chat.phrase." + m.Phrase))
	// Output:
	// "gl hf, see https://example.org"
	// chat: a control or invisible character (U+202E) at character 5
	// Ich überlege…
}

func TestCheckOpen(t *testing.T) {
	ended := time.Date(2026, 3, 14, 19, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name  string
		after time.Duration
		open  bool
	}{
		{"at the end", 0, true},
		{"an hour later", time.Hour, true},
		{"at the bound", AfterGame, true},
		{"just after the bound", AfterGame + time.Nanosecond, false},
		{"a week later", 7 * 24 * time.Hour, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckOpen(ended, ended.Add(c.after))
			var e *Error
			switch {
			case c.open && err != nil:
				t.Errorf("CheckOpen = %v, want open", err)
			case !c.open && (!errors.Is(err, ErrClosed) || !errors.As(err, &e) || e.Code != "closed" || !strings.Contains(err.Error(), "24 hours")):
				t.Errorf("CheckOpen = %v, want ErrClosed (code closed) saying how long the chat stays open", err)
			}
		})
	}
}

// TestCheckTakesNothing: Check judges a message within the rate limit
// without spending it; Take spends it.
func TestCheckTakesNothing(t *testing.T) {
	r := NewRoom(Limits{Every: 3 * time.Second, Burst: 2})
	for i := range 5 {
		if _, err := r.Check(anna, Players, "gg", "", t0); err != nil {
			t.Fatalf("check %d, nothing taken: %v", i+1, err)
		}
	}
	r.Take(anna.ID, t0)
	r.Take(anna.ID, t0)
	if _, err := r.Check(anna, Players, "gg", "", t0); !errors.Is(err, ErrTooFast) {
		t.Fatalf("after two taken of a burst of two: %v, want too fast", err)
	}
	if _, err := r.Check(guest, Players, "gg", "", t0); err != nil {
		t.Errorf("another sender: %v", err)
	}
}
