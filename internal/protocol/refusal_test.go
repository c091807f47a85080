package protocol_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/protocol"
)

// refusingPackages are the packages whose sentinel errors are refusals
// answered to clients, relative to this one.
var refusingPackages = []string{"../table", "../match", "../chat", "../account"}

// TestSentinelsInCatalogue: every exported Err* variable of the packages
// that refuse requests is declared with protocol.NewRefusal, so that it
// has its code, and through it its status and retry, and a server passes
// it to another with its code. A sentinel declared otherwise (errors.New)
// would reach a client as internal.
func TestSentinelsInCatalogue(t *testing.T) {
	for _, dir := range refusingPackages {
		found := 0
		for _, s := range sentinels(t, dir) {
			found++
			if s.alias != "" {
				s.refusal = aliased(t, s.alias)
			}
			if s.refusal == "" {
				t.Errorf("%s: %s is not declared with protocol.NewRefusal(code, text): give it its code", s.pos, s.name)
			}
		}
		if found == 0 {
			t.Errorf("%s declares no sentinel: is the directory right?", dir)
		}
	}
}

// TestSentinelsFindsErrorsNew: the check of TestSentinelsInCatalogue finds
// a sentinel declared without its code, alone or in a group.
func TestSentinelsFindsErrorsNew(t *testing.T) {
	src := `package p
var ErrA = protocol.NewRefusal(protocol.NotFound, "a")
var (
	ErrB = errors.New("b")
	ErrC, errD = protocol.NewRefusal(protocol.Stale, "c"), errors.New("d")
	NotAnErr = 1
	ErrE = store.ErrNotFound
)
`
	got := map[string]string{}
	for _, s := range sentinelsOf(t, token.NewFileSet(), "p.go", src) {
		got[s.name] = s.refusal + s.alias
	}
	want := map[string]string{"ErrA": "protocol.NewRefusal", "ErrB": "", "ErrC": "protocol.NewRefusal", "ErrE": "store.ErrNotFound"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("found %v, want %v", got, want)
	}
}

// A sentinel is an exported Err* variable and how it is made.
type sentinel struct {
	name, pos string
	refusal   string // "protocol.NewRefusal" if made by it, else ""
	alias     string // "pkg.ErrX" if it is another package's sentinel
}

// aliased returns how the sentinel alias ("store.ErrNotFound"), of
// another internal package, is made.
func aliased(t *testing.T, alias string) string {
	t.Helper()
	pkg, name, _ := strings.Cut(alias, ".")
	for _, s := range sentinels(t, filepath.Join("..", pkg)) {
		if s.name == name {
			return s.refusal
		}
	}
	return ""
}

// sentinels returns the sentinels of the package in dir, tests aside.
func sentinels(t *testing.T, dir string) []sentinel {
	t.Helper()
	fset := token.NewFileSet()
	var out []sentinel
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != dir:
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		out = append(out, sentinelsOf(t, fset, path, nil)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sentinelsOf returns the sentinels of one file: src, or read from path.
func sentinelsOf(t *testing.T, fset *token.FileSet, path string, src any) []sentinel {
	t.Helper()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []sentinel
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if !name.IsExported() || !strings.HasPrefix(name.Name, "Err") {
					continue
				}
				s := sentinel{name: name.Name, pos: fset.Position(name.Pos()).String()}
				if i < len(vs.Values) && isNewRefusal(vs.Values[i]) {
					s.refusal = "protocol.NewRefusal"
				}
				if i < len(vs.Values) {
					s.alias = sentinelAlias(vs.Values[i])
				}
				out = append(out, s)
			}
		}
	}
	return out
}

// sentinelAlias returns "pkg.ErrX" if e names another package's
// sentinel, else "".
func sentinelAlias(e ast.Expr) string {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || !strings.HasPrefix(sel.Sel.Name, "Err") {
		return ""
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	return pkg.Name + "." + sel.Sel.Name
}

// isNewRefusal reports whether e is a call protocol.NewRefusal(...).
func isNewRefusal(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "protocol" && sel.Sel.Name == "NewRefusal"
}

// TestNewRefusal: a refusal carries its code, matches it with errors.Is,
// is found by its text, and refuses an unknown code or a text taken.
func TestNewRefusal(t *testing.T) {
	r := protocol.NewRefusal(protocol.SeatTaken, "a test's seat is taken")
	wrapped := fmt.Errorf("joining: %w", r)
	if !errors.Is(wrapped, protocol.SeatTaken) || errors.Is(wrapped, protocol.TableFull) {
		t.Errorf("errors.Is of a wrapped refusal by its code: wrong")
	}
	if code, ok := protocol.CodeOf(wrapped); !ok || code != protocol.SeatTaken {
		t.Errorf("CodeOf = %q, %v; want %q", code, ok, protocol.SeatTaken)
	}
	if code, ok := protocol.CodeOf(fmt.Errorf("sending: %w", protocol.Stale)); !ok || code != protocol.Stale {
		t.Errorf("CodeOf of a code = %q, %v", code, ok)
	}
	if _, ok := protocol.CodeOf(errors.New("the disk is on fire")); ok {
		t.Error("CodeOf found a code in a failure")
	}
	if protocol.RefusalNamed("a test's seat is taken") != r {
		t.Error("RefusalNamed does not find the refusal")
	}
	tests := []struct {
		name       string
		code       protocol.Code
		text, want string
	}{
		{"unknown code", "no_such_code", "a test's refusal", `unknown code "no_such_code"`},
		{"text taken", protocol.TableFull, "a test's seat is taken", `two refusals are named`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if p := fmt.Sprint(recover()); !strings.Contains(p, tt.want) {
					t.Errorf("NewRefusal panicked with %q, want %q", p, tt.want)
				}
			}()
			protocol.NewRefusal(tt.code, tt.text)
		})
	}
}

// TestCodesRetry: the codes a client may retry unchanged.
func TestCodesRetry(t *testing.T) {
	var got []string
	for _, c := range protocol.Codes() {
		if c.Code.Temporary() != c.Retry {
			t.Errorf("%s: Temporary %v, Retry %v", c.Code, c.Code.Temporary(), c.Retry)
		}
		if c.Retry {
			got = append(got, string(c.Code))
		}
	}
	want := "rate_limited too_many_games too_many_connections chat_too_fast too_many_reports internal unavailable unsupported"
	if strings.Join(got, " ") != want {
		t.Errorf("codes to retry: %s, want %s", strings.Join(got, " "), want)
	}
	if protocol.Code("no_such_code").Temporary() || protocol.Code("no_such_code").Known() {
		t.Error("an unknown code is known or temporary")
	}
}

// errSeatTaken is a sentinel as a package declares it: once, with its code.
var errSeatTaken = protocol.NewRefusal(protocol.SeatTaken, "an example's seat is taken")

func ExampleCodeOf() {
	err := fmt.Errorf("joining seat 2: %w", errSeatTaken)
	code, _ := protocol.CodeOf(err)
	fmt.Println(code, code.Status(), code.Temporary(), errors.Is(err, protocol.SeatTaken), errors.Is(err, errSeatTaken))
	// Output: seat_taken 409 false true true
}
