// Package e2e holds the browser tests of the Razzia server: a whole server
// (memory store, table hub, HTTP API and web page) runs in the test, and
// Debian's headless Chromium, driven by chromedp, plays at it through the
// page's own buttons as a person would.
//
// The tests need /usr/bin/chromium. Without it they skip, loudly, except
// under CI=true, where a missing browser fails them. Screenshots are saved
// to testdata/artifacts, or to the directory $RAZZIA_ARTIFACTS names.
//
// The package has no code outside its tests.
package e2e
