package web

import (
	"regexp"
	"strings"
	"testing"
)

var (
	formTag    = regexp.MustCompile(`(?s)<form\b([^>]*)>(.*?)</form>`)
	buttonTag  = regexp.MustCompile(`<button\b([^>]*)>`)
	inputTag   = regexp.MustCompile(`<input\b([^>]*)>`)
	attribute  = regexp.MustCompile(`([\w:-]+)(?:="([^"]*)")?`)
	onSubmitJS = regexp.MustCompile(`\bonSubmit\("([^"]+)"`)
)

// attributes parses a tag's attributes (the text between its name and >).
func attributes(tag string) map[string]string {
	out := map[string]string{}
	for _, m := range attribute.FindAllStringSubmatch(tag, -1) {
		out[m[1]] = m[2]
	}
	return out
}

// TestFormsWaitForScript keeps the rule of forms.js: every form of a page's
// HTML that its script handles (all but method="dialog") comes with
// data-unwired and every submit button disabled and autocomplete="off",
// so that until onSubmit has given it its handler it can be neither
// submitted natively (a GET with what was typed, passwords included, in
// the address) nor taken for ready; and the page's scripts do call
// onSubmit for it.
func TestFormsWaitForScript(t *testing.T) {
	h := Handler()
	n := 0
	for name, url := range pages {
		t.Run(name, func(t *testing.T) {
			page := body(t, get(t, h, "GET", url, nil))
			wired := map[string]bool{}
			for _, src := range modules(t, h, page) {
				for _, m := range onSubmitJS.FindAllStringSubmatch(src, -1) {
					wired[m[1]] = true
				}
			}
			for _, f := range formTag.FindAllStringSubmatch(page, -1) {
				form := attributes(f[1])
				if form["method"] == "dialog" {
					continue
				}
				n++
				id := form["id"]
				if _, ok := form["data-unwired"]; !ok {
					t.Errorf("form #%s lacks data-unwired", id)
				}
				if !wired[id] {
					t.Errorf("form #%s: no script of the page calls onSubmit(%q, …)", id, id)
				}
				if _, ok := form["action"]; ok {
					t.Errorf("form #%s has an action: its script sends it", id)
				}
				submits := 0
				for _, b := range buttonTag.FindAllStringSubmatch(f[2], -1) {
					attrs := attributes(b[1])
					switch attrs["type"] {
					case "button":
						continue
					case "submit":
					default:
						t.Errorf("form #%s: button #%s has no type: say submit or button", id, attrs["id"])
						continue
					}
					submits++
					if _, ok := attrs["disabled"]; !ok {
						t.Errorf("form #%s: submit button #%s is not disabled until its script comes", id, attrs["id"])
					}
					if attrs["autocomplete"] != "off" {
						t.Errorf(`form #%s: submit button #%s lacks autocomplete="off" (a browser would restore it enabled)`, id, attrs["id"])
					}
				}
				// Without a submit button, Enter submits a form natively.
				if submits == 0 {
					t.Errorf("form #%s has no submit button: Enter would submit it natively", id)
				}
				for _, in := range inputTag.FindAllStringSubmatch(f[2], -1) {
					if typ := attributes(in[1])["type"]; typ == "submit" || typ == "image" {
						t.Errorf("form #%s: <input type=%s>: use a <button type=submit disabled>", id, typ)
					}
				}
			}
			if strings.Contains(page, " form=\"") {
				t.Error("a control names its form with form=: the rule above does not see it")
			}
		})
	}
	if n == 0 {
		t.Fatal("no form found: the pattern is broken")
	}
}

// TestButtonsWaitForScript keeps forms.js' rule for a page's own
// <button type="button">: it does nothing until its script has come, so it
// comes with data-unwired and aria-disabled="true" (dimmed, as a waiting
// form's button is), and the page's scripts wire it with onClick, which
// takes both away (the browser tests wait for no data-unwired left).
func TestButtonsWaitForScript(t *testing.T) {
	h := Handler()
	n := 0
	for name, url := range pages {
		t.Run(name, func(t *testing.T) {
			page := body(t, get(t, h, "GET", url, nil))
			uses := false
			for _, src := range modules(t, h, page) {
				uses = uses || strings.Contains(src, "onClick(")
			}
			for _, b := range buttonTag.FindAllStringSubmatch(page, -1) {
				attrs := attributes(b[1])
				if attrs["type"] != "button" {
					continue
				}
				n++
				if _, ok := attrs["data-unwired"]; !ok || attrs["aria-disabled"] != "true" {
					t.Errorf(`button #%s does nothing until its script comes: give it data-unwired and aria-disabled="true", and wire it with onClick`, attrs["id"])
				}
				if attrs["id"] == "" {
					t.Errorf("a button %s has no id for onClick", b[0])
				}
				if !uses {
					t.Errorf("button #%s: no script of the page calls onClick", attrs["id"])
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("no button found: the pattern is broken")
	}
}
