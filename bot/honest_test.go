package bot

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoPeeking checks, from the source, that the bots cannot read the
// order of the undrawn cards: no file of the package (tests aside) names
// the engine's Game, which holds the deck's seed, or anything that makes
// or replays one. A bot sees a View, whose State holds the composition of
// the undrawn cards and never their order; TestHiddenOrder checks the same
// from the bots' behaviour.
func TestNoPeeking(t *testing.T) {
	forbidden := map[string]bool{"Game": true, "NewGame": true, "Setup": true, "Record": true, "ReadRecord": true}
	var files []string
	for _, dir := range []string{".", "internal/frozen"} {
		matches, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, matches...)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		engine := ""
		for _, imp := range f.Imports {
			if imp.Path.Value == `"github.com/razziagame/razzia"` {
				engine = "razzia"
				if imp.Name != nil {
					engine = imp.Name.Name
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == engine && forbidden[sel.Sel.Name] {
					t.Errorf("%s names razzia.%s: a bot may read a View, never a Game", name, sel.Sel.Name)
				}
			}
			return true
		})
	}
	if checked < 5 {
		t.Errorf("checked %d files: the test looks in the wrong place", checked)
	}
}
