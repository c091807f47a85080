// Package web serves Razzia's pages: the lobby, the table page that an
// invite link opens, the replay viewer, their static assets and the
// language catalogues, all embedded in the binary. The pages know nothing of
// the server's internals: their scripts talk to the server only through the
// HTTP API and the WebSocket of docs/protocol.md.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
)

//go:embed static
var files embed.FS

// contentTypes maps the extensions of the embedded files to their types.
// The table is explicit so that the answer does not depend on the host's
// mime.types (a module script must come as JavaScript).
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".svg":  "image/svg+xml",
	".ico":  "image/x-icon",
	".png":  "image/png",
	".txt":  "text/plain; charset=utf-8",
	".json": "application/json; charset=utf-8",
}

// An asset is one embedded file, ready to serve.
type asset struct {
	body        []byte
	contentType string
	etag        string
}

// A handler serves the embedded files.
type handler struct {
	// version names this build's assets: a hash of every embedded file
	// and catalogue, so that a file's versioned address
	// (/static/v/{version}/...) never changes its content.
	version string
	assets  map[string]*asset            // by path below static/, such as "js/table.js"
	i18n    map[string]*asset            // the merged catalogue of each language, by tag
	pages   map[string]map[string]*asset // each HTML page by name, in each language (html[lang])
	// signedIn holds, for a page that shows a signed-in person other
	// parts than a guest (data-member, data-guest), its signed-in layout,
	// by name and language as pages.
	signedIn map[string]map[string]*asset
}

// Handler returns the handler for everything the server does not serve
// itself: "/" (the lobby), "/g/{id}" (the table page), "/g/{id}/replay"
// (the replay viewer), "/account" (sign in, register, settings), "/p/{name}"
// (a player's profile), "/leaderboard", "/operator" (the operators'
// page), "/puzzles" and "/puzzles/{id}" (the puzzles), "/tournaments"
// (the tournaments and organising one), "/t/{id}" (a tournament's page),
// "/static/i18n/{lang}.json" (a language's catalogue of every domain,
// from i18n.JSON), "/static/..." and a 404 page for any other path. It
// answers GET and HEAD only.
//
// The pages refer to their scripts, styles and catalogues under
// /static/v/{version}/, where version is a hash of all of them computed at
// start: those answers are cached for good (immutable), the pages are
// revalidated every time, so a new release shows at once and an unchanged
// one costs a 304. The pages also list the modules their script imports
// (modulepreload), so the browser fetches them at once, not one import
// after another. A request carrying the session cookie
// (protocol.SessionCookie) gets a page laid out for a signed-in person
// (signedInLayout), so that nothing moves when its script learns who reads.
func Handler() http.Handler {
	h := &handler{assets: map[string]*asset{}, i18n: map[string]*asset{}, pages: map[string]map[string]*asset{},
		signedIn: map[string]map[string]*asset{}}
	sum := sha256.New()
	err := fs.WalkDir(files, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		ct, ok := contentTypes[path.Ext(p)]
		if !ok {
			return fmt.Errorf("web: no content type for %s", p)
		}
		fmt.Fprintf(sum, "%s %d\n", p, len(body))
		sum.Write(body)
		h.assets[strings.TrimPrefix(p, "static/")] = newAsset(body, ct)
		return nil
	})
	if err != nil {
		// The files are compiled in: this is a build defect, not bad input.
		panic(err)
	}
	for _, l := range i18n.Languages() {
		body, err := i18n.JSON(l.Tag)
		if err != nil {
			panic(err) // compiled in as well
		}
		fmt.Fprintf(sum, "i18n %s %d\n", l.Tag, len(body))
		sum.Write(body)
		h.i18n[l.Tag] = newAsset(body, contentTypes[".json"])
	}
	h.version = hex.EncodeToString(sum.Sum(nil)[:6])
	for name, a := range h.assets {
		if path.Ext(name) != ".html" {
			continue
		}
		body := h.versioned(a.body)
		h.pages[name] = inLanguages(body, a.contentType)
		if member := signedInLayout(body); !bytes.Equal(member, body) {
			h.signedIn[name] = inLanguages(member, a.contentType)
		}
	}
	return h
}

// inLanguages makes a page's asset for each language: the same page, its
// html element naming the language.
func inLanguages(body []byte, contentType string) map[string]*asset {
	out := map[string]*asset{i18n.Fallback: newAsset(body, contentType)}
	for _, l := range i18n.Languages() {
		if l.Tag != i18n.Fallback {
			out[l.Tag] = newAsset(bytes.Replace(body, []byte(`<html lang="en">`), []byte(`<html lang="`+l.Tag+`">`), 1), contentType)
		}
	}
	return out
}

// signedInLayout lays a page out for a signed-in person before its script
// has asked who reads it, so that nothing moves when the answer comes: an
// element only such a person sees comes "hidden data-member" in the page
// and is shown; one only a guest sees comes "data-guest" and is hidden.
// The script then shows or hides each as the answer says (a session that
// expired meanwhile makes a guest again).
func signedInLayout(page []byte) []byte {
	page = bytes.ReplaceAll(page, []byte(" hidden data-member"), []byte(" data-member"))
	return bytes.ReplaceAll(page, []byte(" data-guest"), []byte(" hidden data-guest"))
}

// scriptRef finds a page's module script; moduleImport a module's imports of
// its neighbours.
var (
	scriptRef    = regexp.MustCompile(`<script type="module" src="/static/([^"]+)"></script>`)
	moduleImport = regexp.MustCompile(`(?m)^import [^"]*"\./([a-z0-9]+\.js)";`)
)

// versioned points a page's references to the static files at this
// version's addresses and lists the modules its script imports, all the
// way down, for the browser to fetch at once.
func (h *handler) versioned(page []byte) []byte {
	prefix := "/static/v/" + h.version + "/"
	var preload []string
	for _, m := range scriptRef.FindAllSubmatch(page, -1) {
		seen := map[string]bool{string(m[1]): true}
		queue := []string{string(m[1])}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			a := h.assets[p]
			if a == nil {
				continue
			}
			for _, im := range moduleImport.FindAllSubmatch(a.body, -1) {
				dep := path.Join(path.Dir(p), string(im[1]))
				if !seen[dep] {
					seen[dep] = true
					queue = append(queue, dep)
					preload = append(preload, `<link rel="modulepreload" href="`+prefix+dep+`">`)
				}
			}
		}
	}
	out := bytes.ReplaceAll(page, []byte(`"/static/`), []byte(`"`+prefix))
	if len(preload) > 0 {
		out = bytes.Replace(out, []byte("</head>"), []byte(strings.Join(preload, "\n")+"\n</head>"), 1)
	}
	return out
}

func newAsset(body []byte, contentType string) *asset {
	sum := sha256.Sum256(body)
	return &asset{body: body, contentType: contentType,
		etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`}
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	setSecurityHeaders(w, r)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	switch {
	case p == "/" || p == "/index.html":
		h.page(w, r, "lobby.html")
	case strings.HasPrefix(p, "/g/") && protocol.ValidID(strings.TrimPrefix(p, "/g/")):
		h.page(w, r, "table.html")
	case strings.HasPrefix(p, "/g/") && strings.HasSuffix(p, "/replay") &&
		protocol.ValidID(strings.TrimSuffix(strings.TrimPrefix(p, "/g/"), "/replay")) && h.assets["replay.html"] != nil:
		h.page(w, r, "replay.html")
	case p == "/account":
		h.page(w, r, "account.html")
	case p == "/account/push":
		h.page(w, r, "push.html")
	case p == "/leaderboard":
		h.page(w, r, "leaderboard.html")
	case p == "/operator":
		h.page(w, r, "operator.html")
	case p == "/tournaments":
		h.page(w, r, "tournaments.html")
	case strings.HasPrefix(p, "/t/") && protocol.ValidID(strings.TrimPrefix(p, "/t/")):
		h.page(w, r, "tournament.html")
	case p == "/puzzles" || strings.HasPrefix(p, "/puzzles/") && len(p) > len("/puzzles/") && !strings.Contains(p[len("/puzzles/"):], "/"):
		h.page(w, r, "puzzles.html")
	case strings.HasPrefix(p, "/p/") && len(p) > len("/p/") && !strings.Contains(p[len("/p/"):], "/"):
		h.page(w, r, "profile.html")
	case strings.HasPrefix(p, "/static/v/"):
		version, rest, ok := strings.Cut(strings.TrimPrefix(p, "/static/v/"), "/")
		if !ok {
			h.notFound(w, r)
			return
		}
		// Another version's address (a page from before a restart, or
		// from another node of a newer or older release) gets this
		// version's file, but not for good.
		h.static(w, r, rest, version == h.version)
	case strings.HasPrefix(p, "/static/"):
		h.static(w, r, strings.TrimPrefix(p, "/static/"), false)
	case p == "/favicon.ico":
		w.Header().Set("Cache-Control", "public, max-age=86400")
		h.serve(w, r, h.assets["favicon.svg"])
	default:
		h.notFound(w, r)
	}
}

// static serves a file below static/ or a catalogue (i18n/{lang}.json):
// for good when its address names this version, else to be revalidated
// by its ETag every time.
func (h *handler) static(w http.ResponseWriter, r *http.Request, name string, forGood bool) {
	var a *asset
	if lang, ok := strings.CutPrefix(name, "i18n/"); ok {
		if tag, ok := strings.CutSuffix(lang, ".json"); ok {
			a = h.i18n[tag]
		}
	} else if !strings.HasSuffix(name, ".html") {
		a = h.assets[name]
	}
	if a == nil {
		h.notFound(w, r)
		return
	}
	if forGood {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	h.serve(w, r, a)
}

// page serves one of the HTML pages, revalidated every time: a new release
// must show at once. The page comes in the language the browser asks for
// (Accept-Language): its scripts then load that catalogue, or the reader's
// remembered choice. A request with a session cookie gets the page's
// signed-in layout (signedInLayout), if it has one.
func (h *handler) page(w http.ResponseWriter, r *http.Request, name string) {
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Add("Vary", "Accept-Language")
	pages := h.pages[name]
	if member := h.signedIn[name]; member != nil {
		w.Header().Add("Vary", "Cookie")
		if _, err := r.Cookie(protocol.SessionCookie); err == nil {
			pages = member
		}
	}
	h.serve(w, r, pages[i18n.Match(r.Header.Get("Accept-Language"))])
}

func (h *handler) notFound(w http.ResponseWriter, r *http.Request) {
	a := h.pages["404.html"][i18n.Fallback]
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", a.contentType)
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		w.Write(a.body)
	}
}

func (h *handler) serve(w http.ResponseWriter, r *http.Request, a *asset) {
	w.Header().Set("Content-Type", a.contentType)
	w.Header().Set("ETag", a.etag)
	// ServeContent answers If-None-Match and Range from the ETag; the
	// embedded files have no modification time.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
}

// setSecurityHeaders confines the page to its own origin: no script,
// style, font or frame from anywhere else, and WebSockets only back to the
// host that served it.
func setSecurityHeaders(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	csp := "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; " +
		"form-action 'self'; frame-ancestors 'none'"
	if validHost(host) {
		// Older browsers do not count ws: to the same host as 'self'.
		csp += "; connect-src 'self' ws://" + host + " wss://" + host
	}
	hd := w.Header()
	hd.Set("Content-Security-Policy", csp)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "same-origin")
	hd.Set("X-Frame-Options", "DENY")
}

// validHost reports whether a Host header is safe to copy into the
// Content-Security-Policy header.
func validHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for _, c := range []byte(h) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '.' || c == '-' || c == ':' || c == '[' || c == ']') {
			return false
		}
	}
	return true
}
