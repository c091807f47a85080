package web

import "testing"

// TestLanguageScript checks i18n.js: the language picked from the
// browser's list, placeholders, and the fallbacks that keep a missing text
// from showing as a blank.
func TestLanguageScript(t *testing.T) {
	t.Parallel() // mostly node starting: on both cores
	check := `import { match, fill, translator } from "./i18n.mjs";
const cases = [
  [match(["nl-BE", "en"]), "nl"],
  [match(["fr-FR", "de-AT"]), "de"],
  [match(["HU"]), "hu"],
  [match(["pt", "ja"]), "en"],
  [match([]), "en"],
  [match(undefined), "en"],
  [fill("{player} bids {cheque}.", { player: "Ann", cheque: 9 }), "Ann bids 9."],
  [fill("{player} and {other}", { player: "Ann" }), "Ann and {other}"],
  [fill("no args", null), "no args"],
];
const t = translator({ "a": "nl {x}" }, { "a": "en {x}", "b": "en only" });
cases.push([t("a", { x: 1 }), "nl 1"], [t("b"), "en only"], [t("c.d"), "c.d"], [String(t.has("b")), "true"], [String(t.has("c")), "false"]);
`
	runCases(t, "i18n.js", check)
}
