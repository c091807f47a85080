package httpapi

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/klauspost/compress/gzhttp"
)

// HTTPServer returns the http.Server to serve s with: its timeouts bound
// every request, so a client that trickles its headers or body, or reads
// its answer slowly, is cut off instead of holding a connection forever.
// WebSockets, once upgraded, are freed from them and pinged instead.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: min(10*time.Second, s.opts.ReadTimeout),
		ReadTimeout:       s.opts.ReadTimeout,
		WriteTimeout:      s.opts.WriteTimeout,
		IdleTimeout:       s.opts.KeepAlive,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// compressed compresses h's answers (the API's JSON and the page's
// assets) with gzip or zstd as the client accepts (Content-Encoding
// negotiated, Vary: Accept-Encoding), except WebSocket upgrades, answers
// too small to gain, and content that is compressed already.
func compressed(h http.Handler) http.Handler {
	wrap, err := gzhttp.NewWrapper(gzhttp.ContentTypeFilter(compressible))
	if err != nil {
		panic(err) // the options are constant
	}
	gz := wrap(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
			h.ServeHTTP(w, r)
			return
		}
		gz.ServeHTTP(w, r)
	})
}

// compressible reports whether content of the type gains from
// compression: not images other than SVG, fonts, audio, video or
// archives, which are compressed already.
func compressible(ct string) bool {
	ct = strings.ToLower(strings.TrimSpace(ct))
	if strings.HasPrefix(ct, "image/") && !strings.HasPrefix(ct, "image/svg") || strings.HasPrefix(ct, "font/woff") {
		return false
	}
	return gzhttp.DefaultContentTypeFilter(ct)
}
