// Package i18n holds Razzia's texts in six languages and looks them up.
//
// Catalogues are flat JSON objects {"key": "text"} embedded from
// locales/<lang>/<domain>.json: the domain common (cards, actions, events,
// errors, the rules summary), online (paces, turn notifications and table
// chat, for every interface) and one domain per user interface (web, tui).
// Texts name their arguments in braces, "{player} bids {cheque}.", in the
// same syntax for Go (Catalogue.T) and for the browser, which loads the
// merged catalogue of a language from JSON.
//
// A key missing in a language falls back to English, then to the key itself,
// so a half-translated catalogue never shows a blank.
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

//go:embed locales
var locales embed.FS

// A Language is one of the languages Razzia speaks.
type Language struct {
	Tag  string // the BCP 47 primary language subtag, such as "nl"
	Name string // the language's name in that language, such as "Nederlands"
}

// languages lists every language, English (the fallback) first.
var languages = []Language{
	{"en", "English"},
	{"nl", "Nederlands"},
	{"it", "Italiano"},
	{"hu", "Magyar"},
	{"es", "Español"},
	{"de", "Deutsch"},
}

// Fallback is the tag of the language used when no other matches, and whose
// texts stand in for keys missing in another language.
const Fallback = "en"

// Languages returns the languages Razzia speaks, English first.
func Languages() []Language { return slices.Clone(languages) }

// A Catalogue is the texts of one language. It is read-only and safe for
// concurrent use.
type Catalogue struct {
	tag      string
	texts    map[string]string
	fallback *Catalogue // English; nil for English itself
}

// Tag returns the catalogue's language tag, such as "de".
func (c *Catalogue) Tag() string { return c.tag }

// T returns the text of key with its {name} placeholders replaced by args,
// given as name/value pairs: T("event.bid", "player", "Felix", "cheque", 9).
// Values are formatted with fmt's %v. A key the language lacks is taken from
// English, and a key English lacks is returned as it is; a placeholder
// without a value is left as it is, so a mistake shows instead of hiding.
//
// A count named n chooses the plural form: when the language's rule puts
// n in the form "one" (golang.org/x/text's CLDR rules: 1 in every
// language here) and key+".one" exists, that text is used.
func (c *Catalogue) T(key string, args ...any) string {
	s, ok := c.text(key)
	if !ok {
		return key
	}
	if one, ok := c.text(key + ".one"); ok && c.pluralOne(args) {
		s = one
	}
	if len(args) == 0 || strings.IndexByte(s, '{') < 0 {
		return s
	}
	return substitute(s, args)
}

// pluralOne reports whether the argument n is a count in the language's
// plural form "one".
func (c *Catalogue) pluralOne(args []any) bool {
	v, ok := arg(args, "n")
	if !ok {
		return false
	}
	n, ok := v.(int)
	if !ok || n < 0 {
		return false
	}
	tag, err := language.Parse(c.tag)
	if err != nil {
		return n == 1
	}
	return plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0) == plural.One
}

// Has reports whether the catalogue, or English as its fallback, has key.
func (c *Catalogue) Has(key string) bool {
	_, ok := c.text(key)
	return ok
}

func (c *Catalogue) text(key string) (string, bool) {
	if c == nil {
		return "", false
	}
	if s, ok := c.texts[key]; ok {
		return s, true
	}
	return c.fallback.text(key)
}

// substitute replaces each {name} in s with the value paired with name in args.
func substitute(s string, args []any) string {
	n := len(s)
	for i := 1; i < len(args); i += 2 {
		if v, ok := args[i].(string); ok {
			n += len(v)
		} else {
			n += 8
		}
	}
	var b strings.Builder
	b.Grow(n) // one allocation: the result
	for {
		open := strings.IndexByte(s, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(s[open:], '}')
		if end < 0 {
			break
		}
		end += open
		v, ok := arg(args, s[open+1:end])
		if !ok {
			b.WriteString(s[:end+1])
			s = s[end+1:]
			continue
		}
		b.WriteString(s[:open])
		switch v := v.(type) {
		case string:
			b.WriteString(v)
		case int:
			b.WriteString(strconv.Itoa(v))
		default:
			b.WriteString(fmt.Sprint(v)) // not Fprint(&b): b would escape to the heap
		}
		s = s[end+1:]
	}
	b.WriteString(s)
	return b.String()
}

func arg(args []any, name string) (any, bool) {
	for i := 0; i+1 < len(args); i += 2 {
		if n, ok := args[i].(string); ok && n == name {
			return args[i+1], true
		}
	}
	return nil, false
}

// Lookup returns the catalogue of the language tagged tag ("nl"; case and
// region are ignored: "nl-BE" is "nl"), and whether Razzia speaks it.
func Lookup(tag string) (*Catalogue, bool) {
	load()
	c, ok := catalogues[primary(tag)]
	return c, ok
}

// Default returns the English catalogue.
func Default() *Catalogue {
	load()
	return catalogues[Fallback]
}

// JSON returns the merged catalogue of all domains of the language tagged
// tag as one JSON object, with English texts for keys the language lacks:
// what the browser loads from /static/i18n/<tag>.json.
func JSON(tag string) ([]byte, error) {
	load()
	b, ok := merged[primary(tag)]
	if !ok {
		return nil, fmt.Errorf("i18n: unknown language %q", tag)
	}
	return slices.Clone(b), nil
}

var (
	loadOnce   sync.Once
	catalogues map[string]*Catalogue
	merged     map[string][]byte
	domains    map[string]map[string]map[string]string // lang -> domain -> key -> text
	loadErrs   []error                                 // malformed files, skipped; reported by the tests
)

// load reads the embedded catalogues once. A malformed file is skipped (and
// fails the package's tests) rather than crashing every program that speaks.
func load() {
	loadOnce.Do(func() {
		catalogues = map[string]*Catalogue{}
		merged = map[string][]byte{}
		domains = map[string]map[string]map[string]string{}
		for _, l := range languages {
			texts := map[string]string{}
			domains[l.Tag] = map[string]map[string]string{}
			files, err := fs.Glob(locales, path.Join("locales", l.Tag, "*.json"))
			if err != nil {
				loadErrs = append(loadErrs, err)
			}
			for _, f := range files {
				b, err := locales.ReadFile(f)
				if err != nil {
					loadErrs = append(loadErrs, err)
					continue
				}
				var d map[string]string
				if err := json.Unmarshal(b, &d); err != nil {
					loadErrs = append(loadErrs, fmt.Errorf("%s: %w", f, err))
					continue
				}
				domains[l.Tag][strings.TrimSuffix(path.Base(f), ".json")] = d
				for k, v := range d {
					texts[k] = v
				}
			}
			catalogues[l.Tag] = &Catalogue{tag: l.Tag, texts: texts}
		}
		en := catalogues[Fallback]
		for _, l := range languages {
			c := catalogues[l.Tag]
			if c != en {
				c.fallback = en
			}
			all := make(map[string]string, len(en.texts))
			for k, v := range en.texts {
				all[k] = v
			}
			for k, v := range c.texts {
				all[k] = v
			}
			b, err := json.Marshal(all)
			if err != nil {
				loadErrs = append(loadErrs, err)
				continue
			}
			merged[l.Tag] = b
		}
	})
}

// primary returns the lower-case primary subtag of a language tag or locale
// name: "nl" for "nl-BE", "NL" and "nl_NL.UTF-8".
func primary(tag string) string {
	tag = strings.TrimSpace(tag)
	if i := strings.IndexAny(tag, "-_.@"); i >= 0 {
		tag = tag[:i]
	}
	return strings.ToLower(tag)
}

// Match returns the tag of the language Razzia speaks that the HTTP
// Accept-Language header acceptLanguage prefers ("nl-NL,nl;q=0.9,en;q=0.8"
// gives "nl"), or "en" when it names none of them or cannot be read. It also
// accepts a plain tag or a locale name such as "de_AT.UTF-8".
func Match(acceptLanguage string) string {
	best, bestQ := Fallback, 0.0
	for part := range strings.SplitSeq(acceptLanguage, ",") {
		tag, params, _ := strings.Cut(part, ";")
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			name, value, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(name), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
				if err != nil || f < 0 || f > 1 {
					f = 0 // an unreadable weight: not acceptable
				}
				q = f
			}
		}
		t := primary(tag)
		if q <= bestQ || !known(t) {
			continue // ties keep the earlier entry, as listed first means preferred
		}
		best, bestQ = t, q
	}
	return best
}

func known(tag string) bool {
	for _, l := range languages {
		if l.Tag == tag {
			return true
		}
	}
	return false
}
