package i18n

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/razziagame/razzia/internal/protocol"
)

// readDomain decodes one catalogue file, failing on anything but a flat
// object of strings and on a key given twice (encoding/json would silently
// keep the last).
func readDomain(b []byte) (map[string]string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object (%v, %v)", t, err)
	}
	d := map[string]string{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := t.(string) // object keys are always strings
		var text string
		if err := dec.Decode(&text); err != nil {
			return nil, fmt.Errorf("key %q: %w", key, err)
		}
		if _, dup := d[key]; dup {
			return nil, fmt.Errorf("key %q given twice", key)
		}
		d[key] = text
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the object")
	}
	return d, nil
}

// readAll reads every catalogue file: lang -> domain -> key -> text.
func readAll(t *testing.T) map[string]map[string]map[string]string {
	t.Helper()
	all := map[string]map[string]map[string]string{}
	dirs, err := fs.ReadDir(locales, "locales")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		if !dir.IsDir() {
			continue
		}
		if !known(dir.Name()) {
			t.Errorf("locales/%s: not one of the languages", dir.Name())
			continue
		}
		all[dir.Name()] = map[string]map[string]string{}
		files, _ := fs.Glob(locales, path.Join("locales", dir.Name(), "*"))
		for _, f := range files {
			if path.Ext(f) != ".json" {
				t.Errorf("%s: not a .json catalogue", f)
				continue
			}
			b, _ := locales.ReadFile(f)
			d, err := readDomain(b)
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			all[dir.Name()][strings.TrimSuffix(path.Base(f), ".json")] = d
		}
	}
	return all
}

var placeholder = regexp.MustCompile(`\{[^{}]*\}`)

func placeholders(s string) []string {
	p := placeholder.FindAllString(s, -1)
	slices.Sort(p)
	return slices.Compact(p)
}

// TestCatalogues checks the contract every helper writes to: each language
// has exactly the keys of English in every domain, with the same
// placeholders, and no empty text.
func TestCatalogues(t *testing.T) {
	load()
	for _, err := range loadErrs {
		t.Errorf("load: %v", err)
	}
	all := readAll(t)
	en := all[Fallback]
	if en["common"] == nil {
		t.Fatal("no locales/en/common.json")
	}
	for _, l := range languages {
		t.Run(l.Tag, func(t *testing.T) {
			doms := all[l.Tag]
			for _, domain := range slices.Sorted(maps.Keys(en)) {
				d, ok := doms[domain]
				if !ok {
					t.Errorf("%s/%s.json is missing", l.Tag, domain)
					continue
				}
				for _, key := range slices.Sorted(maps.Keys(en[domain])) {
					text, ok := d[key]
					if !ok {
						t.Errorf("%s/%s.json: missing key %q", l.Tag, domain, key)
						continue
					}
					if got, want := placeholders(text), placeholders(en[domain][key]); !slices.Equal(got, want) {
						t.Errorf("%s/%s.json: %q has placeholders %v, English has %v", l.Tag, domain, key, got, want)
					}
				}
				for _, key := range slices.Sorted(maps.Keys(d)) {
					if _, ok := en[domain][key]; !ok {
						t.Errorf("%s/%s.json: key %q is not in English", l.Tag, domain, key)
					}
					if strings.TrimSpace(d[key]) == "" {
						t.Errorf("%s/%s.json: %q is empty", l.Tag, domain, key)
					}
				}
			}
			for domain := range doms {
				if _, ok := en[domain]; !ok {
					t.Errorf("%s/%s.json: English has no such domain", l.Tag, domain)
				}
			}
			// Domains are merged into one catalogue: a key in two would lose one text.
			seen := map[string]string{}
			for _, domain := range slices.Sorted(maps.Keys(doms)) {
				for key := range doms[domain] {
					if other, ok := seen[key]; ok {
						t.Errorf("%s: key %q is in both %s and %s", l.Tag, key, other, domain)
					}
					seen[key] = domain
				}
			}
		})
	}
}

// TestCommonKeys checks that the common domain names everything the UIs
// look up by computed key: every card, event, category, phase, status
// and language (the error codes: TestErrorTexts).
func TestCommonKeys(t *testing.T) {
	en := Default()
	var want []string
	for _, k := range cardTokens {
		want = append(want, "card."+k, "card."+k+".plural", "card."+k+".a", "card."+k+".count")
	}
	for _, k := range []string{"police", "seventh", "forced"} {
		want = append(want, "auction."+k, "event.auction."+k)
	}
	for _, k := range []string{"thieves", "bodyguards", "cars", "jewels", "gold", "businesses", "cheques", "total"} {
		want = append(want, "cat."+k)
	}
	for _, k := range []string{"turn", "auction", "over"} {
		want = append(want, "phase."+k)
	}
	// The texts of the error codes: TestErrorTexts.
	for _, st := range []protocol.Status{protocol.StatusOpen, protocol.StatusPlaying, protocol.StatusFinished,
		protocol.StatusArchived, protocol.StatusExpired} {
		want = append(want, "status."+string(st))
	}
	for _, l := range languages {
		want = append(want, "lang."+l.Tag)
	}
	for _, key := range want {
		if _, ok := en.texts[key]; !ok {
			t.Errorf("en/common.json lacks %q", key)
		}
	}
}

// TestLanguageNames checks each language is named in itself, everywhere.
func TestLanguageNames(t *testing.T) {
	for _, l := range Languages() {
		for _, in := range Languages() {
			c, _ := Lookup(in.Tag)
			if got := c.T("lang." + l.Tag); got != l.Name {
				t.Errorf("%s: lang.%s = %q, want %q", in.Tag, l.Tag, got, l.Name)
			}
		}
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		name, header, want string
	}{
		{"Dutch browser", "nl-NL,nl;q=0.9,en;q=0.8", "nl"},
		{"Austrian German", "de-AT", "de"},
		{"any", "*", "en"},
		{"empty", "", "en"},
		{"garbage", ";;,,q=x;=,\x00\xff", "en"},
		{"unknown only", "fr-FR,fr;q=0.9", "en"},
		{"unknown first", "fr-FR,fr;q=0.9,it;q=0.5,en;q=0.3", "it"},
		{"weights win over order", "en;q=0.5,hu;q=0.8", "hu"},
		{"ties keep order", "es,de", "es"},
		{"q=0 is refused", "de;q=0,es;q=0.1", "es"},
		{"bad weight is refused", "de;q=abc,nl;q=0.2", "nl"},
		{"weight above one is refused", "de;q=7,nl;q=0.2", "nl"},
		{"case and spaces", "  HU-hu ; Q=0.7 , EN;q=0.1", "hu"},
		{"star after a language", "it, *;q=0.1", "it"},
		{"locale name", "de_DE.UTF-8", "de"},
		{"plain tag", "es", "es"},
		{"region only", "-NL", "en"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Match(tt.header); got != tt.want {
				t.Errorf("Match(%q) = %q, want %q", tt.header, got, tt.want)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	for _, tag := range []string{"en", "nl", "it", "hu", "es", "de", "nl-BE", "DE", "hu_HU.UTF-8"} {
		c, ok := Lookup(tag)
		if !ok || c == nil || c.Tag() != primary(tag) {
			t.Errorf("Lookup(%q) = %v, %v", tag, c, ok)
		}
	}
	for _, tag := range []string{"", "fr", "*", "english"} {
		if c, ok := Lookup(tag); ok || c != nil {
			t.Errorf("Lookup(%q) = %v, %v; want nil, false", tag, c, ok)
		}
	}
	if got := Languages(); len(got) != 6 || got[0].Tag != "en" {
		t.Errorf("Languages() = %v", got)
	}
	Languages()[0].Tag = "xx" // a copy: callers cannot change the list
	if Languages()[0].Tag != "en" {
		t.Error("Languages returned the package's own slice")
	}
}

func TestT(t *testing.T) {
	en := Default()
	nl, _ := Lookup("nl")
	// A catalogue lacking keys, to see the fallbacks.
	half := &Catalogue{tag: "xx", texts: map[string]string{
		"greeting": "Hallo {name}, {name}!",
		"braces":   "{a} {unclosed",
		"literal":  "a {b} c",
	}, fallback: en}
	tests := []struct {
		name string
		c    *Catalogue
		key  string
		args []any
		want string
	}{
		{"spec example", en, "event.bid", []any{"player", "Felix", "cheque", 9}, "Felix bids 9."},
		{"Dutch", nl, "event.bid", []any{"player", "Felix", "cheque", 9}, "Felix biedt 9."},
		{"no placeholders", en, "action.pass", nil, "Pass"},
		{"args not needed", en, "action.pass", []any{"player", "Ann"}, "Pass"},
		{"repeated placeholder", half, "greeting", []any{"name", "Ann"}, "Hallo Ann, Ann!"},
		{"missing value stays visible", en, "event.bid", []any{"player", "Felix"}, "Felix bids {cheque}."},
		{"no args leaves the text", en, "event.bid", nil, "{player} bids {cheque}."},
		{"odd args: last name ignored", en, "event.bid", []any{"player", "Felix", "cheque"}, "Felix bids {cheque}."},
		{"non-string name ignored", en, "event.bid", []any{1, "x", "player", "Ann", "cheque", 3}, "Ann bids 3."},
		{"unclosed brace", half, "braces", []any{"a", "A"}, "A {unclosed"},
		{"unknown placeholder", half, "literal", []any{"c", "C"}, "a {b} c"},
		{"value formats", half, "literal", []any{"b", 2.5}, "a 2.5 c"},
		{"value with braces is not expanded", half, "greeting", []any{"name", "{name}"}, "Hallo {name}, {name}!"},
		{"falls back to English", half, "action.pass", nil, "Pass"},
		{"falls back to the key", half, "no.such.key", nil, "no.such.key"},
		{"English falls back to the key", en, "no.such.key", []any{"a", 1}, "no.such.key"},
		{"nil catalogue gives the key", nil, "action.pass", nil, "action.pass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.T(tt.key, tt.args...); got != tt.want {
				t.Errorf("T(%q, %v) = %q, want %q", tt.key, tt.args, got, tt.want)
			}
		})
	}
	if !half.Has("action.pass") || half.Has("no.such.key") {
		t.Error("Has does not follow the fallback")
	}
}

// TestTPlaceholdersFilled fills every text's placeholders in every language
// and checks none is left: the placeholder syntax is consistent.
func TestTPlaceholdersFilled(t *testing.T) {
	for _, l := range languages {
		c, _ := Lookup(l.Tag)
		for key, text := range c.texts {
			var args []any
			for _, p := range placeholders(text) {
				args = append(args, p[1:len(p)-1], "X")
			}
			if got := c.T(key, args...); strings.ContainsAny(got, "{}") {
				t.Errorf("%s %q: %q", l.Tag, key, got)
			}
		}
	}
}

func TestTConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			c, _ := Lookup(languages[i%len(languages)].Tag)
			for range 200 {
				if c.T("event.bid", "player", "P", "cheque", i) == "" {
					t.Error("empty text")
				}
			}
		})
	}
	wg.Wait()
}

func TestJSON(t *testing.T) {
	all := readAll(t)
	for _, l := range languages {
		t.Run(l.Tag, func(t *testing.T) {
			b, err := JSON(l.Tag)
			if err != nil {
				t.Fatal(err)
			}
			got, err := readDomain(b)
			if err != nil {
				t.Fatalf("JSON(%q) is not a flat object: %v", l.Tag, err)
			}
			want := map[string]string{}
			for _, d := range all[Fallback] {
				maps.Copy(want, d) // English fills the gaps
			}
			for _, d := range all[l.Tag] {
				maps.Copy(want, d) // every domain of the language
			}
			if !maps.Equal(got, want) {
				for k, v := range want {
					if got[k] != v {
						t.Errorf("key %q = %q, want %q", k, got[k], v)
					}
				}
				t.Errorf("JSON(%q) has %d keys, want %d", l.Tag, len(got), len(want))
			}
			if l.Tag != Fallback && got["action.pass"] == all[Fallback]["common"]["action.pass"] {
				t.Errorf("JSON(%q) is English", l.Tag)
			}
		})
	}
	b, _ := JSON("nl-NL")
	if !bytes.Contains(b, []byte(`"Passen"`)) {
		t.Error(`JSON("nl-NL") is not Dutch`)
	}
	b[0] = 'X' // a copy: the next caller gets valid JSON
	if b, _ := JSON("nl"); !json.Valid(b) {
		t.Error("JSON returned the package's own bytes")
	}
	for _, tag := range []string{"", "fr", "../en"} {
		if b, err := JSON(tag); err == nil || b != nil {
			t.Errorf("JSON(%q) = %d bytes, %v; want an error", tag, len(b), err)
		}
	}
}

// TestRulesStructure checks the rules summary is complete and numbered
// without gaps in every language, and that no rules key falls outside the
// sections RulesSections lists (the browser reads it the same way).
func TestRulesStructure(t *testing.T) {
	for _, l := range languages {
		c, _ := Lookup(l.Tag)
		used := map[string]bool{"rules.title": true}
		rs := c.Rules()
		if len(rs) != len(RulesSections) {
			t.Fatalf("%s: %d sections", l.Tag, len(rs))
		}
		for i, s := range RulesSections {
			used["rules."+s+".title"] = true
			if len(rs[i].Items) == 0 {
				t.Errorf("%s: section %s has no items", l.Tag, s)
			}
			for n := range rs[i].Items {
				used[fmt.Sprintf("rules.%s.%d", s, n+1)] = true
			}
		}
		for key := range c.texts {
			if strings.HasPrefix(key, "rules.") && !used[key] {
				t.Errorf("%s: %q is not reachable from RulesSections", l.Tag, key)
			}
		}
	}
	en := Default()
	var text strings.Builder
	for _, s := range en.Rules() {
		text.WriteString(strings.Join(s.Items, " "))
	}
	// The summary states the numbers a player needs (R1, R7, R16, R17).
	for _, fact := range []string{"120 cards", "21 police", "7th police", "5th with 2 players", "+5", "−2", "−5", "15", "all 7 kinds 10", "shared win"} {
		if !strings.Contains(text.String(), fact) {
			t.Errorf("English rules summary does not mention %q", fact)
		}
	}
}

func BenchmarkT(b *testing.B) {
	c, _ := Lookup("de")
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c.T("action.pass")
		}
	})
	b.Run("args", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c.T("event.win", "player", "Felix", "cheque", 9, "cards", "2 Autos", "centre", 1)
		}
	})
	b.Run("fallback", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c.T("no.such.key")
		}
	})
}
