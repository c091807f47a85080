// Razzia's service worker: it shows the Web Push notifications the server
// sends ("your turn at table X", "game over", a reminder) and, on a click,
// focuses the table's tab or opens it. Serve it at /sw.js so that its
// scope is the whole site ("/"); the page registers it with
// navigator.serviceWorker.register("/sw.js").
//
// A payload is JSON {"title", "body", "url", "tag"} (Go: push.Notification).
// Its text is plain: a notification never renders markup.
"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// sameOrigin returns url as an absolute URL on this site, or the site's
// root: a notification only ever leads to Razzia's own pages.
function sameOrigin(url) {
  try {
    const u = new URL(typeof url === "string" ? url : "/", self.location.origin);
    if (u.origin === self.location.origin) return u.href;
  } catch (e) {
    // not a URL: the root below
  }
  return new URL("/", self.location.origin).href;
}

function text(v) {
  return typeof v === "string" ? v : "";
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = (event.data && event.data.json()) || {};
  } catch (e) {
    data = {}; // not JSON: still show something, as every push must
  }
  const tag = text(data.tag);
  const options = {
    body: text(data.body),
    data: { url: sameOrigin(data.url) },
  };
  if (tag) {
    // One notification per table: a newer one replaces it, and alerts again.
    options.tag = tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(text(data.title) || "Razzia", options));
});

// samePage reports whether a window shows the page url leads to, whatever
// its query or fragment (such as ?lang=de).
function samePage(windowURL, url) {
  const a = new URL(windowURL);
  const b = new URL(url);
  return a.origin === b.origin && a.pathname === b.pathname;
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameOrigin(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const w of windows) {
        if (samePage(w.url, url) && "focus" in w) return w.focus();
      }
      // Another tab may be at another table: open a new one rather than
      // take that one away.
      return self.clients.openWindow ? self.clients.openWindow(url) : undefined;
    }),
  );
});
