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
	"fmt"
	"io/fs"
	"net/http"
	"path"
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
	assets map[string]*asset // by path below static/, such as "js/table.js"
	i18n   map[string]*asset // the merged catalogue of each language, by tag
}

// Handler returns the handler for everything the server does not serve
// itself: "/" (the lobby), "/g/{id}" (the table page), "/g/{id}/replay"
// (the replay viewer), "/static/i18n/{lang}.json" (a language's catalogue
// of every domain, from i18n.JSON), "/static/..." and a 404 page for any
// other path. It answers GET and HEAD only.
func Handler() http.Handler {
	h := &handler{assets: map[string]*asset{}, i18n: map[string]*asset{}}
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
		h.i18n[l.Tag] = newAsset(body, contentTypes[".json"])
	}
	return h
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
	case strings.HasPrefix(p, "/static/i18n/"):
		a := h.i18n[strings.TrimSuffix(strings.TrimPrefix(p, "/static/i18n/"), ".json")]
		if a == nil || !strings.HasSuffix(p, ".json") {
			h.notFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		h.serve(w, r, a)
	case strings.HasPrefix(p, "/static/"):
		a := h.assets[strings.TrimPrefix(p, "/static/")]
		if a == nil || strings.HasSuffix(p, ".html") {
			h.notFound(w, r)
			return
		}
		// The names carry no version, so the browser revalidates every
		// time; the ETag makes an unchanged file a cheap 304.
		w.Header().Set("Cache-Control", "no-cache")
		h.serve(w, r, a)
	case p == "/favicon.ico":
		w.Header().Set("Cache-Control", "public, max-age=86400")
		h.serve(w, r, h.assets["favicon.svg"])
	default:
		h.notFound(w, r)
	}
}

// page serves one of the HTML pages, never cached: they are tiny and a
// new release must show at once. The page comes in the language the
// browser asks for (Accept-Language): its scripts then load that catalogue,
// or the reader's remembered choice.
func (h *handler) page(w http.ResponseWriter, r *http.Request, name string) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Add("Vary", "Accept-Language")
	a := h.assets[name]
	if lang := i18n.Match(r.Header.Get("Accept-Language")); lang != i18n.Fallback {
		body := bytes.Replace(a.body, []byte(`<html lang="en">`), []byte(`<html lang="`+lang+`">`), 1)
		a = newAsset(body, a.contentType)
	}
	h.serve(w, r, a)
}

func (h *handler) notFound(w http.ResponseWriter, r *http.Request) {
	a := h.assets["404.html"]
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
