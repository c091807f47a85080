package web

import (
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// get serves one request and returns the response.
func get(t *testing.T, h http.Handler, method, target string, header http.Header) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	req.Host = "razzia.example:8080"
	for k, v := range header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRoutes(t *testing.T) {
	h := Handler()
	tests := []struct {
		name, method, path string
		status             int
		contentType        string
		contains           string // a marker of the page or file expected
	}{
		{"lobby", "GET", "/", 200, "text/html; charset=utf-8", `id="create-form"`},
		{"lobby index.html", "GET", "/index.html", 200, "text/html; charset=utf-8", `id="create-form"`},
		{"table page", "GET", "/g/k3x7q2m5ab", 200, "text/html; charset=utf-8", `id="join-form"`},
		{"table page with query", "GET", "/g/k3x7q2m5ab?x=1", 200, "text/html; charset=utf-8", `/js/table.js"></script>`},
		{"table page, no id", "GET", "/g/", 404, "text/html; charset=utf-8", "Page not found"},
		{"table page, nested", "GET", "/g/k3x7q2m5ab/x", 404, "text/html; charset=utf-8", "Page not found"},
		{"table page, upper case id", "GET", "/g/K3X9Q2M7AB", 404, "text/html; charset=utf-8", "Page not found"},
		{"table page, long id", "GET", "/g/" + strings.Repeat("a", 33), 404, "text/html; charset=utf-8", "Page not found"},
		{"script", "GET", "/static/js/table.js", 200, "text/javascript; charset=utf-8", "new Connection("},
		{"style", "GET", "/static/css/razzia.css", 200, "text/css; charset=utf-8", ":root"},
		{"icon", "GET", "/static/favicon.svg", 200, "image/svg+xml", "<svg"},
		{"favicon.ico", "GET", "/favicon.ico", 200, "image/svg+xml", "<svg"},
		{"unknown asset", "GET", "/static/js/nope.js", 404, "text/html; charset=utf-8", "Page not found"},
		{"static directory", "GET", "/static/js/", 404, "text/html; charset=utf-8", "Page not found"},
		{"pages are not assets", "GET", "/static/table.html", 404, "text/html; charset=utf-8", "Page not found"},
		{"path escape", "GET", "/static/../web.go", 404, "text/html; charset=utf-8", "Page not found"},
		{"unknown page", "GET", "/nope", 404, "text/html; charset=utf-8", "Page not found"},
		{"post", "POST", "/", 405, "text/plain; charset=utf-8", "method not allowed"},
		{"head lobby", "HEAD", "/", 200, "text/html; charset=utf-8", ""},
		{"push settings", "GET", "/account/push", 200, "text/html; charset=utf-8", `id="push-enable"`},
		{"replay viewer", "GET", "/g/k3x7q2m5ab/replay", 200, "text/html; charset=utf-8", `/js/replay.js"></script>`},
		{"replay viewer, bad id", "GET", "/g/K3X/replay", 404, "text/html; charset=utf-8", "Page not found"},
		{"replay viewer, nested", "GET", "/g/k3x7q2m5ab/replay/x", 404, "text/html; charset=utf-8", "Page not found"},
		{"catalogue", "GET", "/static/i18n/en.json", 200, "application/json; charset=utf-8", `"card.police":"police"`},
		{"Dutch catalogue", "GET", "/static/i18n/nl.json", 200, "application/json; charset=utf-8", `"web.lobby.create":`},
		{"unknown language", "GET", "/static/i18n/xx.json", 404, "text/html; charset=utf-8", "Page not found"},
		{"catalogue without .json", "GET", "/static/i18n/en", 404, "text/html; charset=utf-8", "Page not found"},
		{"catalogue by region", "GET", "/static/i18n/en-GB.json", 404, "text/html; charset=utf-8", "Page not found"},
		{"new scripts", "GET", "/static/js/render.js", 200, "text/javascript; charset=utf-8", "export function renderTable(root, snapshot, events, catalogue, options"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := get(t, h, tt.method, tt.path, nil)
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if ct := resp.Header.Get("Content-Type"); ct != tt.contentType {
				t.Errorf("Content-Type %q, want %q", ct, tt.contentType)
			}
			b := body(t, resp)
			if !strings.Contains(b, tt.contains) {
				t.Errorf("body does not contain %q:\n%.300s", tt.contains, b)
			}
			if tt.method == "HEAD" && b != "" {
				t.Errorf("HEAD has a body of %d bytes", len(b))
			}
			if tt.status == 405 && resp.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("Allow %q", resp.Header.Get("Allow"))
			}
		})
	}
}

func TestCacheHeaders(t *testing.T) {
	h := Handler()
	t.Run("pages are revalidated", func(t *testing.T) {
		for _, p := range []string{"/", "/g/k3x7q2m5ab", "/g/k3x7q2m5ab/replay"} {
			resp := get(t, h, "GET", p, nil)
			if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
				t.Errorf("%s: Cache-Control %q, want no-cache", p, cc)
			}
			etag := resp.Header.Get("ETag")
			if again := get(t, h, "GET", p, http.Header{"If-None-Match": {etag}}); etag == "" || again.StatusCode != http.StatusNotModified {
				t.Errorf("%s: ETag %q, then status %d, want 304", p, etag, again.StatusCode)
			}
		}
		if cc := get(t, h, "GET", "/nope", nil).Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("the 404 page: Cache-Control %q, want no-store", cc)
		}
	})
	t.Run("a page in another language has its own ETag", func(t *testing.T) {
		en := get(t, h, "GET", "/", nil).Header.Get("ETag")
		nl := get(t, h, "GET", "/", http.Header{"Accept-Language": {"nl"}}).Header.Get("ETag")
		if en == nl {
			t.Errorf("both ETags are %s", en)
		}
	})
	v := h.(*handler).version
	t.Run("versioned assets are immutable", func(t *testing.T) {
		for _, p := range []string{"/static/v/" + v + "/js/table.js", "/static/v/" + v + "/css/razzia.css", "/static/v/" + v + "/i18n/nl.json"} {
			resp := get(t, h, "GET", p, nil)
			if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
				t.Errorf("%s: status %d, Cache-Control %q", p, resp.StatusCode, resp.Header.Get("Cache-Control"))
			}
		}
	})
	t.Run("another version is not cached for good", func(t *testing.T) {
		resp := get(t, h, "GET", "/static/v/0123456789ab/js/table.js", nil)
		if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("status %d, Cache-Control %q", resp.StatusCode, resp.Header.Get("Cache-Control"))
		}
		for _, p := range []string{"/static/v/" + v, "/static/v/" + v + "/lobby.html", "/static/v/" + v + "/i18n/xx.json", "/static/v/" + v + "/js/nope.js"} {
			if resp := get(t, h, "GET", p, nil); resp.StatusCode != 404 {
				t.Errorf("%s: status %d, want 404", p, resp.StatusCode)
			}
		}
	})
	t.Run("unversioned assets revalidate by ETag", func(t *testing.T) {
		resp := get(t, h, "GET", "/static/js/api.js", nil)
		etag := resp.Header.Get("ETag")
		if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("Cache-Control %q, want no-cache", cc)
		}
		if !strings.HasPrefix(etag, `"`) || len(etag) < 10 {
			t.Fatalf("ETag %q", etag)
		}
		again := get(t, h, "GET", "/static/js/api.js", http.Header{"If-None-Match": {etag}})
		if again.StatusCode != http.StatusNotModified {
			t.Errorf("with If-None-Match: status %d, want 304", again.StatusCode)
		}
		other := get(t, h, "GET", "/static/js/dom.js", nil).Header.Get("ETag")
		if other == etag {
			t.Errorf("two files share the ETag %s", etag)
		}
		stale := get(t, h, "GET", "/static/js/api.js", http.Header{"If-None-Match": {`"old"`}})
		if stale.StatusCode != 200 {
			t.Errorf("with a stale ETag: status %d, want 200", stale.StatusCode)
		}
	})
}

// TestVersion: the version is a hash of the embedded files, and every
// page refers to its files at the version's addresses, with its script's
// imports listed for the browser to fetch at once.
func TestVersion(t *testing.T) {
	h := Handler().(*handler)
	if len(h.version) != 12 || h.version != Handler().(*handler).version {
		t.Fatalf("version %q is not a stable hash", h.version)
	}
	for name := range pages {
		page := body(t, get(t, h, "GET", pages[name], nil))
		if strings.Contains(page, `"/static/js/`) || strings.Contains(page, `"/static/css/`) {
			t.Errorf("%s refers to an unversioned file:\n%s", name, page)
		}
		if !strings.Contains(page, `src="/static/v/`+h.version+`/js/`) {
			t.Errorf("%s loads no versioned script", name)
		}
	}
	table := body(t, get(t, h, "GET", "/g/k3x7q2m5ab", nil))
	for _, m := range []string{"render.js", "cards.js", "i18n.js", "conn.js", "dom.js"} {
		if !strings.Contains(table, `<link rel="modulepreload" href="/static/v/`+h.version+`/js/`+m+`">`) {
			t.Errorf("the table page does not preload %s", m)
		}
	}
	if strings.Contains(table, `modulepreload" href="/static/v/`+h.version+`/js/table.js"`) {
		t.Error("the table page preloads its own script")
	}
}

func TestSecurityHeaders(t *testing.T) {
	h := Handler()
	for _, p := range []string{"/", "/g/k3x7q2m5ab", "/static/js/table.js", "/nope"} {
		resp := get(t, h, "GET", p, nil)
		csp := resp.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "frame-ancestors 'none'",
			"connect-src 'self' ws://razzia.example:8080 wss://razzia.example:8080"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", p, csp, want)
			}
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no nosniff", p)
		}
	}
	t.Run("bad host is not copied", func(t *testing.T) {
		req := httptest.NewRequest("GET", "/", nil)
		req.Host = "evil; script-src *"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if csp := rec.Header().Get("Content-Security-Policy"); strings.Contains(csp, "evil") {
			t.Errorf("CSP %q copies a malformed Host", csp)
		}
	})
}

var (
	htmlRef   = regexp.MustCompile(`(?:src|href)="([^"#]+)"`)
	importRef = regexp.MustCompile(`(?m)^\s*import\b[^"']*["']([^"']+)["']`)
	// lazyRef is a module loaded when first needed: import("./x.js").
	lazyRef   = regexp.MustCompile(`\bimport\(\s*["']([^"']+)["']\s*\)`)
	elementID = regexp.MustCompile(`\$\("([^"]+)"\)`)
)

// pageLinks are the addresses other than pages' files that pages link to.
var pageLinks = []string{"/account", "/account?back=/", "/leaderboard", "/puzzles", "/api/account/export", "/account/push", "/account?back=/account/push",
	"/tournaments", "/account?back=/tournaments"}

// pages are the HTML pages and the address each is served at.
var pages = map[string]string{"lobby.html": "/", "table.html": "/g/k3x7q2m5ab", "404.html": "/nope",
	"replay.html": "/g/k3x7q2m5ab/replay", "account.html": "/account", "profile.html": "/p/Ann%20Lee",
	"leaderboard.html": "/leaderboard", "push.html": "/account/push", "puzzles.html": "/puzzles", "operator.html": "/operator",
	"tournaments.html": "/tournaments", "tournament.html": "/t/k3x7q2m5ab"}

// modules returns the script modules a page loads, following imports,
// those loaded when first needed (import()) too.
func modules(t *testing.T, h http.Handler, page string) map[string]string {
	t.Helper()
	src := map[string]string{}
	var visit func(url string)
	visit = func(url string) {
		if _, ok := src[url]; ok {
			return
		}
		resp := get(t, h, "GET", url, nil)
		if resp.StatusCode != 200 {
			t.Errorf("module %s: status %d", url, resp.StatusCode)
			return
		}
		src[url] = body(t, resp)
		for _, m := range append(importRef.FindAllStringSubmatch(src[url], -1), lazyRef.FindAllStringSubmatch(src[url], -1)...) {
			visit(path.Join(path.Dir(url), m[1]))
		}
	}
	for _, m := range regexp.MustCompile(`<script type="module" src="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		visit(m[1])
	}
	return src
}

// TestReferencedFilesExist fetches every file a page refers to, and every
// module those scripts import, and checks each is served with its type;
// and that no embedded file is dead weight.
func TestReferencedFilesExist(t *testing.T) {
	h := Handler()
	used := map[string]bool{}
	for name, url := range pages {
		t.Run(name, func(t *testing.T) {
			resp := get(t, h, "GET", url, nil)
			page := body(t, resp)
			refs := htmlRef.FindAllStringSubmatch(page, -1)
			if len(refs) == 0 {
				t.Fatal("no references found: the pattern is broken")
			}
			for _, m := range refs {
				ref := m[1]
				if !strings.HasPrefix(ref, "/static/") {
					if ref != "/" && !strings.HasPrefix(ref, "/g/") && !slices.Contains(pageLinks, ref) {
						t.Errorf("reference %q is outside /static/ (no CDN, no other hosts)", ref)
					}
					continue
				}
				resp := get(t, h, "GET", ref, nil)
				if resp.StatusCode != 200 {
					t.Errorf("%s: status %d", ref, resp.StatusCode)
				}
				want := contentTypes[path.Ext(ref)]
				if ct := resp.Header.Get("Content-Type"); ct != want {
					t.Errorf("%s: Content-Type %q, want %q", ref, ct, want)
				}
				used[unversioned(ref)] = true
			}
			for url := range modules(t, h, page) {
				used[unversioned(url)] = true
			}
		})
	}
	err := fs.WalkDir(files, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := strings.TrimPrefix(p, "static/")
		if _, isPage := pages[name]; !isPage && !used[name] {
			t.Errorf("%s is embedded but no page uses it", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// unversioned returns a static file's name below static/.
func unversioned(url string) string {
	name := strings.TrimPrefix(url, "/static/")
	if rest, ok := strings.CutPrefix(name, "v/"); ok {
		_, name, _ = strings.Cut(rest, "/")
	}
	return name
}

// TestElementIDs checks that every element a page's scripts look up with
// $("id") exists on that page, so a renamed id fails here, not in a browser.
func TestElementIDs(t *testing.T) {
	h := Handler()
	for name, url := range pages {
		t.Run(name, func(t *testing.T) {
			page := body(t, get(t, h, "GET", url, nil))
			n := 0
			for mod, src := range modules(t, h, page) {
				for _, m := range elementID.FindAllStringSubmatch(src, -1) {
					n++
					if !strings.Contains(page, `id="`+m[1]+`"`) {
						t.Errorf("%s looks up #%s, which %s lacks", mod, m[1], name)
					}
				}
			}
			if n == 0 && name != "404.html" {
				t.Error("no $(id) look-ups found: the pattern is broken")
			}
		})
	}
}

// TestPagesAccessible checks the basics a screen reader or keyboard user needs.
func TestPagesAccessible(t *testing.T) {
	h := Handler()
	for name, url := range pages {
		t.Run(name, func(t *testing.T) {
			page := body(t, get(t, h, "GET", url, nil))
			for _, want := range []string{`<html lang="en">`, `<meta name="viewport" content="width=device-width, initial-scale=1">`, "<main", "<h1", "<title>"} {
				if !strings.Contains(page, want) {
					t.Errorf("lacks %s", want)
				}
			}
			// Every form control has a label naming it.
			for _, m := range regexp.MustCompile(`<(?:input|select)[^>]*\bid="([^"]+)"`).FindAllStringSubmatch(page, -1) {
				if !strings.Contains(page, `<label for="`+m[1]+`"`) {
					t.Errorf("control #%s has no label", m[1])
				}
			}
		})
	}
	page := body(t, get(t, h, "GET", "/g/k3x7q2m5ab", nil))
	if !strings.Contains(page, `aria-live="polite"`) || !strings.Contains(page, `role="alert"`) {
		t.Error("the table page lacks a live region or an alert for errors")
	}
}

// TestJavaScriptSyntax runs "node --check" on every script, as a module.
func TestJavaScriptSyntax(t *testing.T) {
	t.Parallel() // mostly node starting: on both cores
	node := needNode(t)
	dir := t.TempDir()
	var scripts []string
	err := fs.WalkDir(files, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".js" {
			return err
		}
		b, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		f := filepath.Join(dir, strings.ReplaceAll(p, "/", "_"))
		scripts = append(scripts, f)
		return os.WriteFile(f, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(scripts) == 0 {
		t.Fatal("no scripts found")
	}
	// One node for every script: each is parsed as a module (the page
	// loads them so) and nothing is run. A node per script took seconds.
	check := filepath.Join(dir, "check.mjs")
	if err := os.WriteFile(check, []byte(syntaxCheck), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, append([]string{"--experimental-vm-modules", "--no-warnings", check}, scripts...)...).CombinedOutput()
	if err == nil {
		return
	}
	t.Logf("one node for every script: %v\n%s", err, out)
	// node --check says where, a script at a time; it reads .mjs as a module.
	for _, f := range scripts {
		m := strings.TrimSuffix(f, ".js") + ".mjs"
		if err := os.Rename(f, m); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(node, "--check", m).CombinedOutput(); err != nil {
			t.Errorf("node --check %s: %v\n%s", filepath.Base(f), err, out)
		}
	}
}

// syntaxCheck parses each file named on its command line as a module and
// prints where each one that does not parse fails.
const syntaxCheck = `
import vm from "node:vm";
import { readFileSync } from "node:fs";
let bad = 0;
for (const f of process.argv.slice(2)) {
  try {
    new vm.SourceTextModule(readFileSync(f, "utf8"), { identifier: f });
  } catch (e) {
    bad++;
    console.log(f + ": " + e.message);
  }
}
process.exit(bad ? 1 : 0);
`

// TestPageLanguage checks that a page comes in the language the browser
// asks for, before any script runs, and that a language Razzia does not
// speak gets English.
func TestPageLanguage(t *testing.T) {
	h := Handler()
	for _, tt := range []struct{ accept, lang string }{
		{"", "en"}, {"nl-BE,nl;q=0.9,en;q=0.5", "nl"}, {"hu", "hu"}, {"fr-FR,de;q=0.8", "de"}, {"ja", "en"},
	} {
		for _, p := range []string{"/", "/g/k3x7q2m5ab"} {
			resp := get(t, h, "GET", p, http.Header{"Accept-Language": {tt.accept}})
			b := body(t, resp)
			if !strings.Contains(b, `<html lang="`+tt.lang+`">`) {
				t.Errorf("%s with Accept-Language %q: want <html lang=%q>:\n%.120s", p, tt.accept, tt.lang, b)
			}
			if v := resp.Header.Get("Vary"); !strings.Contains(v, "Accept-Language") {
				t.Errorf("%s: Vary %q lacks Accept-Language", p, v)
			}
		}
	}
}

// TestCatalogueServed checks that every language's catalogue is served as
// i18n.JSON gives it, with the web domain's keys in it.
func TestCatalogueServed(t *testing.T) {
	h := Handler()
	for _, tag := range []string{"en", "nl", "it", "hu", "es", "de"} {
		resp := get(t, h, "GET", "/static/i18n/"+tag+".json", nil)
		var m map[string]string
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		for _, key := range []string{"card.police", "event.win", "rules.title", "web.lobby.create", "web.auction.by"} {
			if m[key] == "" {
				t.Errorf("%s: no text for %s", tag, key)
			}
		}
	}
}
