package protocol

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

// module is this repository's module path.
const module = "github.com/razziagame/razzia"

// TestImportsOnlyEngine checks what the package doc promises: the
// protocol links only the rules engine and the standard library, so that
// its clients (the terminal, the web page's tests, bots over the wire)
// never link the bots' search or the server through it.
func TestImportsOnlyEngine(t *testing.T) {
	for pkg, by := range moduleDeps(t, "internal/protocol") {
		if pkg != "internal/protocol" && pkg != "" {
			t.Errorf("the protocol links %s (imported by %q); want only the engine and the standard library", pkg, by)
		}
	}
}

// moduleDeps returns the packages outside the standard library that the
// package in dir (relative to the module's root, "" for the root) depends
// on, itself included, each with a package that imports it: this module's
// relative to its root, another module's by its import path (not
// followed). Test files are not read.
func moduleDeps(t *testing.T, dir string) map[string]string {
	t.Helper()
	root := filepath.Join("..", "..")
	deps := map[string]string{dir: ""}
	queue := []string{dir}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if strings.Contains(strings.Split(d, "/")[0], ".") {
			continue
		}
		p, err := build.ImportDir(filepath.Join(root, filepath.FromSlash(d)), 0)
		if err != nil {
			t.Fatalf("reading %s: %v", d, err)
		}
		for _, imp := range p.Imports {
			rel, ok := strings.CutPrefix(imp, module)
			switch {
			case ok && (rel == "" || rel[0] == '/'):
				rel = strings.TrimPrefix(rel, "/")
			case !strings.Contains(strings.Split(imp, "/")[0], "."):
				continue // the standard library
			default:
				rel = imp // another module's: reported as is
			}
			if _, seen := deps[rel]; !seen {
				deps[rel] = d
				queue = append(queue, rel)
			}
		}
	}
	return deps
}
