package web

import (
	"regexp"
	"strings"
	"testing"
)

// errorTextDef is a definition of a function named errorText, however
// written; computedErrorKey a lookup of the text of a code.
var (
	errorTextDef     = regexp.MustCompile(`function\s+errorText\b|\berrorText\s*[:=]\s*(\(|function|async|[a-z]+\s*=>)`)
	computedErrorKey = regexp.MustCompile("[`\"']error\\.(\\$\\{|[\"'`]\\s*\\+)")
)

// TestOneErrorText: the pages explain the server's refusals with the one
// errorText of errors.js, which the others import; no page looks up the
// text of a code itself, so that each code's text is the one the server's
// catalogue checks in every language.
func TestOneErrorText(t *testing.T) {
	var defs, lookups []string
	eachScript(t, func(name string, b []byte) error {
		for _, m := range errorTextDef.FindAll(b, -1) {
			defs = append(defs, name+": "+string(m))
		}
		if computedErrorKey.Match(b) {
			lookups = append(lookups, name)
		}
		return nil
	})
	if len(defs) != 1 || !strings.HasPrefix(defs[0], "errors.js: ") {
		t.Errorf("errorText is defined in %q, want once, in errors.js", defs)
	}
	if len(lookups) != 1 || lookups[0] != "errors.js" {
		t.Errorf("the text of a code is looked up in %q, want only errors.js", lookups)
	}
}

// TestOneErrorTextFinds: the checks of TestOneErrorText find the ways a
// page could write its own.
func TestOneErrorTextFinds(t *testing.T) {
	for _, src := range []string{
		"function errorText(code) {",
		"const errorText = (code) => t(code);",
		"const errorText = code => t(code);",
		"let errorText = function (code) {",
		"errorText: (code) => x,",
	} {
		if !errorTextDef.MatchString(src) {
			t.Errorf("not found: %s", src)
		}
	}
	if errorTextDef.MatchString(`import { errorText } from "./errors.js"; errorText(t, err);`) {
		t.Error("an import and a call were taken for a definition")
	}
	for _, src := range []string{"t(`error.${code}`)", `t("error." + code)`} {
		if !computedErrorKey.MatchString(src) {
			t.Errorf("not found: %s", src)
		}
	}
	if computedErrorKey.MatchString(`t("error.too_large")`) {
		t.Error("a fixed key was taken for a computed one")
	}
}

// TestErrorTextScript runs errorText: a code's text, a bad record's move,
// an unknown code named, a lost network, a translator that lacks has.
func TestErrorTextScript(t *testing.T) {
	t.Parallel() // mostly node starting
	check := `import { errorText } from "./errors.mjs";
import { translator } from "./i18n.mjs";
const t = translator({}, { "error.stale": "Moved on.", "error.bad_record": "Bad record.", "error.unknown": "Wrong ({code}).",
  "web.error.network": "No network.", "web.lobby.badmove": "Move {n}: {token}." });
const cases = [
  [errorText(t, "stale"), "Moved on."],
  [errorText(t, { code: "stale", message: "English" }), "Moved on."],
  [errorText(t, { code: "bad_record", detail: { move: 3, token: "bid 9" } }), "Bad record. Move 3: bid 9."],
  [errorText(t, { code: "bad_record", detail: { move: 0, token: "" } }), "Bad record."],
  [errorText(t, { code: "teleported" }), "Wrong (teleported)."],
  [errorText(t, { code: "network" }), "No network."],
  [errorText((k) => k, "stale"), "error.unknown"],
];
`
	runCases(t, "errors.js", check)
}
