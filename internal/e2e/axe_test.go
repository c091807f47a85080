package e2e

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axe-core checks the pages for accessibility. It is a test tool, never
// served by the product: the test takes it from the npm registry with npm
// once, into the user's cache directory, and checks it against its pinned
// hash. $RAZZIA_AXE may name an axe.min.js to use instead (offline).
const (
	axeVersion = "4.11.0"
	axeSHA256  = "e9e5863c33a874f09bc01acd9234b7e3c871479f5eef8802fa582544465e6d01" // package/axe.min.js
)

var axe struct {
	once sync.Once
	src  string
	err  error
}

// axeSource returns axe.min.js, skipping the test when it cannot be had
// (failing it under CI=true).
func axeSource(t *testing.T) string {
	t.Helper()
	axe.once.Do(func() { axe.src, axe.err = loadAxe() })
	if axe.err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and axe-core %s cannot be had: %v", axeVersion, axe.err)
		}
		t.Skipf("SKIPPED: axe-core %s cannot be had (%v): the accessibility checks did not run", axeVersion, axe.err)
	}
	return axe.src
}

func loadAxe() (string, error) {
	if p := os.Getenv("RAZZIA_AXE"); p != "" {
		return readAxe(p)
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	cached := filepath.Join(dir, "razzia-tests", "axe-core-"+axeVersion, "axe.min.js")
	if src, err := readAxe(cached); err == nil {
		return src, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("npm is not installed (apt-get install npm), and %s is not cached", cached)
	}
	tmp, err := os.MkdirTemp("", "razzia-axe-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "pack", "axe-core@"+axeVersion, "--pack-destination", tmp, "--silent")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm pack axe-core@%s: %v\n%s", axeVersion, err, out)
	}
	src, err := untar(filepath.Join(tmp, "axe-core-"+axeVersion+".tgz"), "package/axe.min.js")
	if err != nil {
		return "", err
	}
	if err := checkAxe(src); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(cached), 0o755); err == nil {
		os.WriteFile(cached, src, 0o644) // a cache: the next run downloads again if this fails
	}
	return string(src), nil
}

func readAxe(path string) (string, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return string(src), checkAxe(src)
}

func checkAxe(src []byte) error {
	sum := sha256.Sum256(src)
	if got := hex.EncodeToString(sum[:]); got != axeSHA256 {
		return fmt.Errorf("axe.min.js has SHA-256 %s, want %s (axe-core %s)", got, axeSHA256, axeVersion)
	}
	return nil
}

// untar returns one file of a .tgz.
func untar(path, name string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(z)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s has no %s", path, name)
		}
		if err != nil {
			return nil, err
		}
		if h.Name == name {
			return io.ReadAll(io.LimitReader(tr, 8<<20))
		}
	}
}

// axeJS runs axe-core on the document with its default rules and the
// experimental label-content-name-mismatch (a button whose visible text is
// not in its name), and lists the serious and critical violations.
const axeJS = `axe.run(document, {
  resultTypes: ["violations"],
  rules: { "label-content-name-mismatch": { enabled: true } },
}).then((r) => r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) =>
  v.id + " (" + v.impact + "): " + v.help + ": " + v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(" | ")))`

// accessible fails the test with every serious or critical violation axe
// finds on the page as it is.
func (p *page) accessible(what string) {
	p.t.Helper()
	src := axeSource(p.t)
	if !eval[bool](p, `typeof window.axe === "object"`) {
		if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](src+";true")); err != nil {
			p.fail("loading axe-core: %v", err)
		}
	}
	found, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]string](axeJS, chromedp.EvalAwaitPromise))
	if err != nil {
		p.fail("axe on %s: %v", what, err)
	}
	if len(found) > 0 {
		p.t.Errorf("axe on %s:\n  %s", what, strings.Join(found, "\n  "))
	}
}
