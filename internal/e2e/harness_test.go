package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia/internal/servertest"
)

// chromium is the browser the tests drive: Debian's package.
const chromium = "/usr/bin/chromium"

// The shared browser: one Chromium process for the package, started by the
// first test that needs it and stopped by TestMain. Each test gets its own
// browser context (cookies, storage), which is as separate as another
// browser.
var shared struct {
	once    sync.Once
	err     error
	ctx     context.Context // the browser's first tab: it owns the process
	cancel  func()
	dataDir string
}

func TestMain(m *testing.M) {
	if _, err := os.Stat(chromium); err != nil {
		fmt.Fprintf(os.Stderr, "\n!!! %s is missing: the browser tests will %s. Install it: apt-get install chromium\n\n",
			chromium, map[bool]string{true: "FAIL (CI=true)", false: "SKIP"}[os.Getenv("CI") == "true"])
	}
	code := m.Run()
	stopBrowser()
	os.Exit(code)
}

// needBrowser returns the shared browser's context, skipping the test when
// there is no Chromium (failing it under CI=true).
func needBrowser(t *testing.T) context.Context {
	t.Helper()
	skipPageOnly(t)
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and %s is missing (%v): the browser tests must run in CI; .ci/run installs chromium", chromium, err)
		}
		t.Skipf("SKIPPED: %s is missing (%v): the browser tests did not run. apt-get install chromium to run them", chromium, err)
	}
	shared.once.Do(startBrowser)
	if shared.err != nil {
		t.Fatalf("starting %s: %v", chromium, shared.err)
	}
	return shared.ctx
}

func startBrowser() {
	dir, err := os.MkdirTemp("", "razzia-e2e-chromium-")
	if err != nil {
		shared.err = err
		return
	}
	shared.dataDir = dir
	// The flags of the spec; chromedp's defaults add only switches that
	// keep a headless browser quiet and steady.
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.UserDataDir(dir),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun,
		chromedp.WindowSize(1280, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	shared.ctx = ctx
	shared.cancel = func() {
		cancelCtx()
		cancelAlloc() // waits for the process to end
	}
	// The first Do starts the process, bound to ctx: a timeout here would
	// end the browser with it (chromedp's docs/API.md, example 21).
	shared.err = chromedp.Do(ctx)
}

func stopBrowser() {
	if shared.cancel != nil {
		if err := chromedp.Cancel(shared.ctx); err != nil {
			fmt.Fprintf(os.Stderr, "closing chromium: %v\n", err)
		}
		shared.cancel()
	}
	if shared.dataDir != "" {
		os.RemoveAll(shared.dataDir)
	}
}

// parallel lets a test that makes its own server run beside the others
// of its kind, -test.parallel at a time (GOMAXPROCS by default): it shares
// nothing with them but the browser, in a browser context of its own, and
// most of its time is spent waiting for the page and the server. A test
// that makes two servers asks once.
func parallel(t *testing.T) {
	if _, asked := parallelAsked.LoadOrStore(t, true); !asked {
		t.Parallel()
	}
}

var parallelAsked sync.Map // of *testing.T

// A server is a whole Razzia server in the test, wired as razzia serve
// wires it (the page included), whose bots move at once.
type server struct{ *servertest.Server }

func newServer(t *testing.T) *server {
	t.Helper()
	skipPageOnly(t)
	parallel(t)
	return &server{servertest.New(t, servertest.Options{Page: true, LevelBots: true})}
}

// api calls the server's HTTP API and decodes the JSON answer into v.
func (s *server) api(t *testing.T, method, path, body string, v any) int {
	t.Helper()
	status, data := s.fetch(t, method, path, body)
	if v != nil {
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	return status
}

// fetch sends a request to the server and returns the answer's status and
// body.
func (s *server) fetch(t *testing.T, method, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, s.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, data
}

// catalogue returns the page's catalogue of a language, as the server
// serves it.
func (s *server) catalogue(t *testing.T, lang string) map[string]string {
	t.Helper()
	var cat map[string]string
	if code := s.api(t, "GET", "/static/i18n/"+lang+".json", "", &cat); code != http.StatusOK {
		t.Fatalf("the %s catalogue: status %d", lang, code)
	}
	return cat
}

// The bounds of the browser tests are on progress, not on a test's whole
// time, which grows with the machine's load and the race detector: a step
// (an action, a wait for the next move) fails after stall, a tab after
// pageTimeout, a guard against a test that hangs between steps.
const (
	stall       = 90 * time.Second
	pageTimeout = 8 * time.Minute
)

// A page is one browser tab in its own browser context: its own cookies
// and storage, as if another person opened it.
type page struct {
	t    *testing.T
	ctx  context.Context
	srv  *server
	name string

	mu      sync.Mutex
	console []string // what the page logged, shown when the test fails
}

// sockets is run in every document before the page's scripts: it keeps
// the page's WebSockets in window.__sockets, so a test can send what a
// person could type into the console. window.__tableSocket() is the
// newest of the table's own (/api/games/ID/ws), not the page's live
// socket (presence, notices) nor a tournament's.
const sockets = `(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.__sockets.push(this); }
  };
  window.__tableSocket = () => window.__sockets.filter((s) => /\/api\/games\/[^/]+\/ws/.test(s.url)).pop();
})();`

// aim is run in every document before the page's scripts: a click of
// the harness names its target in window.__aim first, and a mouse event
// that lands elsewhere (the page moved under the mouse between finding
// the target and pressing: a list that came above it) is swallowed before
// the page sees it and told in __aim.missed, so that the click is tried
// again instead of being lost on, or done to, something else.
const aim = `(() => {
  const guard = (ev) => {
    const a = window.__aim;
    if (!a || a.done || !ev.isTrusted) return;
    if (ev.target instanceof Element && ev.target.closest(a.selector)) {
      // What the click then does (a label's click of its control) is the page's.
      if (ev.type === "click") a.done = true;
      return;
    }
    const e = ev.target instanceof Element ? ev.target : null;
    a.missed = ev.type + " on " + (e ? e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") : "the document");
    ev.preventDefault();
    ev.stopImmediatePropagation();
  };
  for (const type of ["pointerdown", "mousedown", "pointerup", "mouseup", "click"]) window.addEventListener(type, guard, true);
})();`

// formsReady is true when the page's own forms and buttons have their
// handlers (forms.js): until then they wait with data-unwired. A button
// never wired keeps every test that opens its page waiting here.
const formsReady = `!document.querySelector("[data-unwired]")`

// newPage opens a tab for the test, with a viewport of width×height.
func newPage(t *testing.T, srv *server, name string, width, height int64) *page {
	t.Helper()
	root := needBrowser(t)
	tctx, cancelTimeout := context.WithTimeout(root, pageTimeout)
	ctx, cancel := chromedp.NewContext(tctx, chromedp.WithNewBrowserContext())
	p := &page{t: t, ctx: ctx, srv: srv, name: name}
	messages := chromedp.Console(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			p.mu.Lock()
			p.console = append(p.console, fmt.Sprintf("%s %s:%d %s", m.Type, m.URL, m.Line+1, m.Text))
			p.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		cancel()
		cancelTimeout()
		<-done
		if t.Failed() {
			p.mu.Lock()
			for _, line := range p.console {
				t.Logf("%s console: %s", name, line)
			}
			p.mu.Unlock()
		}
	})
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(width, height),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			// Moves are not animated, so a click lands where the button is.
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
			})
			if err != nil {
				return err
			}
			_, err = chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: sockets + aim})
			return err
		}),
	)
	if err != nil {
		t.Fatalf("%s: opening a tab: %v", name, err)
	}
	return p
}

// do runs actions, failing the test on an error or after stall.
func (p *page) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stall)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.fail("%s: %v", what, err)
	}
}

// fail ends the test with what the page shows.
func (p *page) fail(format string, args ...any) {
	p.t.Helper()
	msg := fmt.Sprintf(format, args...)
	ctx, cancel := context.WithTimeout(p.ctx, 3*time.Second)
	defer cancel()
	if text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + "\n" + (document.body ? document.body.innerText.slice(0, 1500) : "(no body)")`)); err == nil {
		msg += "\n--- the page " + p.name + " shows:\n" + text
	}
	p.t.Fatalf("%s: %s", p.name, msg)
}

// open navigates to a path of the server and waits for the page's forms
// to be ready.
func (p *page) open(path string) {
	p.t.Helper()
	p.do("open "+path, chromedp.Navigate(p.srv.URL+path))
	waitFor[bool](p, "the forms of "+path+" ready", formsReady, stall)
}

// eval evaluates a JavaScript expression and decodes its value into T.
func eval[T any](p *page, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		p.fail("evaluate %s: %v", js, err)
	}
	return v
}

// waitFor waits until the JavaScript expression is truthy and returns its
// value decoded into T. A navigation meanwhile (a page that moves on to
// the next page) starts the wait again in the new document.
func waitFor[T any](p *page, what, js string, timeout time.Duration) T {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		// An interval, not animation frames: a tab in the background gets
		// no frames.
		v, err := chromedp.Run(p.ctx, chromedp.Poll[T](js,
			chromedp.WithPollingInterval(15*time.Millisecond), chromedp.WithPollingTimeout(time.Until(deadline))))
		if err == nil {
			return v
		}
		if !navigated(err) || time.Now().After(deadline) {
			p.fail("waiting for %s: %v", what, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// navigated reports whether err says the document went away under a
// script: the page navigated.
func navigated(err error) bool {
	msg := err.Error()
	for _, s := range []string{"navigated or closed", "context was destroyed", "Cannot find context", "No frame"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// text returns the visible text of the first element the selector finds,
// or "" when there is none.
func (p *page) text(selector string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e.innerText : ""; })()`, selector))
}

// click clicks the first element the selector finds, with the mouse.
//
// The page draws its table again on every state message: a button found
// may be replaced by its twin before the mouse reaches it, which a person
// would not notice. The click then finds the selector again and goes on,
// within the step's bound; nothing was clicked before the node was lost.
//
// A submit button whose form has no handler yet (forms.js) is waited for,
// and a click the page moved away from is swallowed and tried again (see
// aim).
func (p *page) click(selector string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stall)
	defer cancel()
	take := fmt.Sprintf(`(() => {
  const e = document.querySelector(%[1]q);
  if (e && e.closest("[data-unwired]")) return false;
  window.__aim = { selector: %[1]q, missed: "" };
  return true;
})()`, selector)
	missed := ""
	for {
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](take, chromedp.WithPollingInterval(15*time.Millisecond)))
		if err == nil {
			err = chromedp.Do(ctx, chromedp.Click(chromedp.CSS(selector), chromedp.NodeVisible))
		}
		if err == nil {
			missed, err = chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const a = window.__aim; window.__aim = null; return a ? a.missed : ""; })()`))
			if err == nil && missed == "" || err != nil && navigated(err) {
				return // done, or the click led to another page
			}
			if err == nil {
				p.t.Logf("%s: a click of %s missed (%s): again", p.name, selector, missed)
			}
		}
		if err != nil && !nodeReplaced(err) && !navigated(err) || ctx.Err() != nil {
			p.fail("click %s: %v (the last click missed: %s)", selector, err, missed)
		}
	}
}

// nodeReplaced reports whether err says that the node an action had found
// left the document before the action was done with it.
func nodeReplaced(err error) bool {
	msg := err.Error()
	for _, s := range []string{"Could not find node with given id", "No node with given id found", "Node is detached from document"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// setSelect chooses a value in a select (or sets an input) and tells the
// page, as a person's choice would.
func (p *page) setSelect(selector, value string) {
	p.t.Helper()
	ok := eval[bool](p, fmt.Sprintf(`(() => {
  const e = document.querySelector(%q);
  if (!e) return false;
  e.value = %q;
  e.dispatchEvent(new Event("input", {bubbles: true}));
  e.dispatchEvent(new Event("change", {bubbles: true}));
  return e.value === %[2]q;
})()`, selector, value))
	if !ok {
		p.fail("cannot set %s to %q: no such element or option", selector, value)
	}
}

// screenshot saves a PNG of the whole page as an artefact (see
// screenshots).
func (p *page) screenshot(name string) {
	p.t.Helper()
	if !screenshots() {
		return
	}
	buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.fail("screenshot %s: %v", name, err)
	}
	p.save(name, buf)
}

// save writes an artefact: to $RAZZIA_ARTIFACTS, or testdata/artifacts.
func (p *page) save(name string, png []byte) {
	p.t.Helper()
	dir := os.Getenv("RAZZIA_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("testdata", "artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", path)
}
