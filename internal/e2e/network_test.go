package e2e

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// cutNetwork cuts the tab's network (every request and socket fails, the
// open WebSocket goes silent) or gives it back. The browser itself is not
// told (navigator.onLine stays true): a drop the page must notice alone.
//
// The DevTools command has changed shape between Chromium versions, and
// a browser that ignores a field it does not know would leave the network
// as it was without a word. So the cut is checked from the page (a fetch
// must fail, or succeed once the network is back), and a browser that
// refuses every shape, or takes one and cuts nothing, fails the test with
// its version and what it answered.
func cutNetwork(offline bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		var refused []string
		for _, shape := range byRuleShapes {
			err := shape.emulate(ctx, offline)
			if err == nil {
				return checkNetwork(ctx, tg, offline, shape.name)
			}
			var perr *cdproto.Error
			if !errors.As(err, &perr) || perr.Code != invalidParams {
				return fmt.Errorf("%s: %w", shape.name, err)
			}
			refused = append(refused, shape.name+": "+err.Error())
		}
		return fmt.Errorf("%s refuses every shape of %s this harness knows (%s): teach cutNetwork the one it takes (/json/protocol of chromium --remote-debugging-port=N lists it)",
			browserVersion(ctx), network.CommandEmulateNetworkConditionsByRule, strings.Join(refused, "; "))
	})
}

// invalidParams is the DevTools protocol's answer to parameters a command
// does not take.
const invalidParams = -32602

// A byRuleShape is one shape of Network.emulateNetworkConditionsByRule.
type byRuleShape struct {
	name    string
	emulate func(ctx context.Context, offline bool) error
}

// byRuleShapes are tried in order. Chromium 148 (Debian's in November
// 2026) wants "offline" beside the rules and refuses the call without it;
// later versions, and cdproto, put it in each rule instead.
var byRuleShapes = []byRuleShape{
	{"offline beside and in each rule", func(ctx context.Context, offline bool) error {
		_, err := chromedp.Call(ctx, byRuleBoth, byRuleBothParams{Offline: offline, Matched: rules(offline)})
		return err
	}},
	{"offline in each rule", func(ctx context.Context, offline bool) error {
		var matched []*network.Conditions
		for _, r := range rules(offline) {
			matched = append(matched, &network.Conditions{Offline: r.Offline, DownloadThroughput: -1, UploadThroughput: -1})
		}
		_, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule,
			network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: matched})
		return err
	}},
}

// byRuleBoth is the command with both shapes' fields.
var byRuleBoth = cdp.Command[byRuleBothParams, network.EmulateNetworkConditionsByRuleResult]{
	Method: network.CommandEmulateNetworkConditionsByRule,
}

type byRuleBothParams struct {
	Offline bool     `json:"offline"`
	Matched []byRule `json:"matchedNetworkConditions"`
}

type byRule struct {
	URLPattern         string  `json:"urlPattern"` // empty: every request
	Latency            float64 `json:"latency"`
	DownloadThroughput float64 `json:"downloadThroughput"`
	UploadThroughput   float64 `json:"uploadThroughput"`
	Offline            bool    `json:"offline"`
}

// rules returns one rule for every request when offline, none otherwise.
func rules(offline bool) []byRule {
	if !offline {
		return []byRule{}
	}
	return []byRule{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}}
}

// checkNetwork checks from the page that its requests fail when offline,
// and reach the server otherwise. The browser hands the conditions to its
// network service on its own time, so a request just after the command
// may still see the old ones: it asks again, for up to networkSettles.
func checkNetwork(ctx context.Context, tg *chromedp.Target, offline bool, shape string) error {
	deadline := time.Now().Add(networkSettles)
	for {
		got, err := chromedp.Evaluate[string](`fetch("/healthz", {cache: "no-store"}).then(r => "reached", e => "failed: " + e.message)`,
			chromedp.EvalAwaitPromise)(ctx, tg)
		if err != nil {
			return fmt.Errorf("checking the network from the page: %w", err)
		}
		if (got == "reached") != offline {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s took %s with %s but %v later a request from the page %s: the network is not %s",
				browserVersion(ctx), network.CommandEmulateNetworkConditionsByRule, shape, networkSettles, got,
				map[bool]string{true: "cut", false: "back"}[offline])
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// networkSettles bounds how long the browser may take to apply new
// network conditions.
const networkSettles = 5 * time.Second

// browserVersion names the browser for a message.
func browserVersion(ctx context.Context) string {
	v, err := chromedp.CallBrowser(ctx, browser.GetVersion, cdp.Empty{})
	if err != nil {
		return "the browser (version unknown: " + err.Error() + ")"
	}
	return v.Product
}
