package table

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is one screen: a function of the table, the match, the
// Go client, the terminal or the command longer than that is split into
// parts named for what they do.
const maxFuncLines = 65

// TestFunctionsFitAScreen: no function of internal/table,
// internal/match, internal/client, internal/tui or cmd/razzia (tests
// aside) is longer than maxFuncLines.
func TestFunctionsFitAScreen(t *testing.T) {
	for _, dir := range []string{".", "../match", "../client", "../tui", "../../cmd/razzia"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
				if n := end.Line - start.Line + 1; n > maxFuncLines {
					t.Errorf("%s:%d: %s is %d lines, more than a screen (%d)", name, start.Line, fn.Name.Name, n, maxFuncLines)
				}
			}
		}
	}
}
