package push

import (
	_ "embed"
	"net/http"
)

//go:embed sw.js
var serviceWorker []byte

// ServiceWorker returns the handler of the service worker script that
// shows the notifications. Serve it at /sw.js: a service worker's scope is
// at most its own folder, and the root makes it the whole site's ("/").
// It is served with no-cache, so that browsers check for a new version on
// every visit, as they do for service workers anyway.
func ServiceWorker() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Write(serviceWorker)
	})
}
