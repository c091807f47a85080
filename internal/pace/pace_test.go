package pace

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/i18n"
)

func TestChoose(t *testing.T) {
	tests := []struct {
		name  string
		id    string
		rated bool
		want  string // the id chosen
		err   error
	}{
		{"a live preset", "rapid", false, "rapid", nil},
		{"a live preset at a rated table", "standard", true, "standard", nil},
		{"a correspondence preset at a rated table", "day2", true, "day2", nil},
		{"untimed at a casual table", "untimed", false, "untimed", nil},
		{"untimed at a rated table is refused", "untimed", true, "", ErrUntimedRated},
		{"none given at a casual table: untimed", "", false, "untimed", nil},
		{"none given at a rated table: standard", "", true, "standard", nil},
		{"an unknown preset", "bullet", false, "", ErrUnknown},
		{"ids are exact", "Rapid", false, "", ErrUnknown},
		{"a duration is not an id", "20s+3m", true, "", ErrUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Choose(tt.id, tt.rated)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Choose(%q, %v) error = %v, want %v", tt.id, tt.rated, err, tt.err)
			}
			if err != nil {
				var ce *ChoiceError
				if !errors.As(err, &ce) || ce.ID != tt.id {
					t.Errorf("error %#v is not a *ChoiceError naming %q", err, tt.id)
				}
				if p != (Pace{}) {
					t.Errorf("Choose returned %v with an error", p)
				}
				return
			}
			if p.ID != tt.want {
				t.Errorf("Choose(%q, %v) = %q, want %q", tt.id, tt.rated, p.ID, tt.want)
			}
		})
	}
}

// An unknown preset's error tells the client what it can choose.
func TestChooseUnknownListsPresets(t *testing.T) {
	_, err := Choose("bullet", false)
	for _, p := range Presets() {
		if !strings.Contains(err.Error(), p.ID) {
			t.Errorf("%q does not name the preset %q", err, p.ID)
		}
	}
}

// The issue's two live examples and its correspondence paces are presets.
func TestPresets(t *testing.T) {
	want := map[string]Pace{
		"rapid":    {ID: "rapid", Kind: Live, Decision: 20 * time.Second, Reserve: 3 * time.Minute, Grace: DefaultGrace},
		"standard": {ID: "standard", Kind: Live, Decision: time.Minute, Reserve: 10 * time.Minute, Grace: DefaultGrace},
		"day1":     {ID: "day1", Kind: Correspondence, Decision: Day, Reserve: 7 * Day, Grace: DefaultGrace},
		"day2":     {ID: "day2", Kind: Correspondence, Decision: 2 * Day, Reserve: 14 * Day, Grace: DefaultGrace},
		"day3":     {ID: "day3", Kind: Correspondence, Decision: 3 * Day, Reserve: 21 * Day, Grace: DefaultGrace},
		"untimed":  {ID: "untimed", Kind: Untimed},
	}
	for id, w := range want {
		if p, ok := Lookup(id); !ok || p != w {
			t.Errorf("Lookup(%q) = %v, %v; want %v", id, p, ok, w)
		}
	}
	seen := map[string]bool{}
	en := i18n.Default()
	for _, p := range Presets() {
		if seen[p.ID] {
			t.Errorf("preset %q listed twice", p.ID)
		}
		seen[p.ID] = true
		if err := p.check(); err != nil {
			t.Errorf("preset %q: %v", p.ID, err)
		}
		for _, key := range []string{"pace." + p.ID, "pace." + p.Kind.String() + ".desc", "pace.kind." + p.Kind.String()} {
			if !en.Has(key) {
				t.Errorf("preset %q: the catalogue lacks %q", p.ID, key)
			}
		}
	}
	ps := Presets()
	ps[0].Decision = time.Hour
	if Presets()[0].Decision == time.Hour {
		t.Error("Presets returns the list itself, not a copy")
	}
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		lang, id, name, desc string
	}{
		{"en", "rapid", "Rapid", "20 s per decision + 3 min reserve"},
		{"en", "standard", "Standard", "1 min per decision + 10 min reserve"},
		{"en", "day1", "Correspondence, 1 day", "1 day per decision, 7 days of vacation"},
		{"en", "untimed", "Untimed", "No clock; casual tables only"},
		{"de", "day3", "Fernpartie, 3 Tage", "3 Tage pro Entscheidung, 21 Tage Urlaub"},
		{"hu", "blitz", "Villám", "döntésenként 10 mp + 1 perc tartalék"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.id, func(t *testing.T) {
			c, _ := i18n.Lookup(tt.lang)
			p, _ := Lookup(tt.id)
			if got := p.Name(c); got != tt.name {
				t.Errorf("Name = %q, want %q", got, tt.name)
			}
			if got := p.Describe(c); got != tt.desc {
				t.Errorf("Describe = %q, want %q", got, tt.desc)
			}
		})
	}
}

func TestDuration(t *testing.T) {
	en := i18n.Default()
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0 s"},
		{1500 * time.Millisecond, "1 s"},
		{90 * time.Second, "90 s"},
		{3 * time.Minute, "3 min"},
		{2 * time.Hour, "2 h"},
		{36 * time.Hour, "36 h"},
		{Day, "1 day"},
		{14 * Day, "14 days"},
	}
	for _, tt := range tests {
		if got := Duration(en, tt.d); got != tt.want {
			t.Errorf("Duration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestPaceJSON(t *testing.T) {
	for _, p := range Presets() {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var back Pace
		if err := json.Unmarshal(b, &back); err != nil || back != p {
			t.Errorf("%s: round trip gave %v, %v", b, back, err)
		}
	}
	b, _ := json.Marshal(presets[1])
	if got, want := string(b), `{"id":"rapid","kind":"live","decisionMs":20000,"reserveMs":180000,"graceMs":15000}`; got != want {
		t.Errorf("rapid = %s, want %s", got, want)
	}
}

// A pace stored before graces reads back with the default grace, and an
// untimed one with none.
func TestPaceJSONBeforeGraces(t *testing.T) {
	tests := []struct {
		name, json string
		want       time.Duration
	}{
		{"live", `{"id":"rapid","kind":"live","decisionMs":20000,"reserveMs":180000}`, DefaultGrace},
		{"correspondence", `{"id":"day1","kind":"correspondence","decisionMs":86400000,"reserveMs":604800000}`, DefaultGrace},
		{"untimed", `{"id":"untimed","kind":"untimed","decisionMs":0,"reserveMs":0}`, 0},
		{"no grace chosen", `{"id":"x","kind":"live","decisionMs":20000,"reserveMs":0,"graceMs":0}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Pace
			if err := json.Unmarshal([]byte(tt.json), &p); err != nil || p.Grace != tt.want {
				t.Errorf("%s read as %v (grace %v), %v; want grace %v", tt.json, p, p.Grace, err, tt.want)
			}
		})
	}
}

func TestPaceJSONRefused(t *testing.T) {
	tests := []struct{ name, json string }{
		{"not an object", `"rapid"`},
		{"unknown kind", `{"id":"x","kind":"bullet","decisionMs":1000,"reserveMs":0}`},
		{"no id", `{"id":"","kind":"live","decisionMs":1000,"reserveMs":0}`},
		{"live without decision time", `{"id":"x","kind":"live","decisionMs":0,"reserveMs":1000}`},
		{"negative reserve", `{"id":"x","kind":"live","decisionMs":1000,"reserveMs":-1}`},
		{"untimed with a clock", `{"id":"x","kind":"untimed","decisionMs":1000,"reserveMs":0}`},
		{"vacation not in whole days", `{"id":"x","kind":"correspondence","decisionMs":86400000,"reserveMs":3600000}`},
		{"huge", `{"id":"x","kind":"live","decisionMs":9223372036854775807,"reserveMs":0}`},
		{"untimed with a grace", `{"id":"x","kind":"untimed","decisionMs":0,"reserveMs":0,"graceMs":15000}`},
		{"negative grace", `{"id":"x","kind":"live","decisionMs":1000,"reserveMs":0,"graceMs":-1}`},
		{"grace beyond the most", `{"id":"x","kind":"live","decisionMs":1000,"reserveMs":0,"graceMs":300001}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := presets[0]
			if err := json.Unmarshal([]byte(tt.json), &p); err == nil {
				t.Errorf("accepted %s as %v", tt.json, p)
			}
			if p != presets[0] {
				t.Errorf("a refused pace changed the value to %v", p)
			}
		})
	}
}

func ExampleChoose() {
	p, err := Choose("rapid", true)
	fmt.Println(p.Describe(i18n.Default()), err)
	_, err = Choose("untimed", true)
	fmt.Println(err)
	// Output:
	// 20 s per decision + 3 min reserve <nil>
	// pace "untimed": an untimed game cannot be rated; choose a live or correspondence pace
}
