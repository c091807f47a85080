package protocol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneGoroutine keeps what lets the package's tests skip under the
// race detector (race_test.go): no go statement in the package, its tests
// or the engine it links, and no test that runs in parallel.
func TestOneGoroutine(t *testing.T) {
	for _, glob := range []string{"*.go", filepath.Join("..", "..", "*.go")} {
		files, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			engineTest := strings.HasPrefix(glob, "..") && strings.HasSuffix(name, "_test.go")
			if engineTest || name == "goroutine_test.go" {
				continue // the engine's tests are not linked here
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.GoStmt:
					t.Errorf("%s starts a goroutine: internal/protocol's tests must run under -race again (race_test.go)", name)
				case *ast.SelectorExpr:
					if n.Sel.Name == "Parallel" {
						t.Errorf("%s runs a test in parallel: internal/protocol's tests must run under -race again (race_test.go)", name)
					}
				}
				return true
			})
		}
	}
}
