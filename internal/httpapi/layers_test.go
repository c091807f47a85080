package httpapi_test

import (
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// storage is the import path of the store; its adapters are below it.
const storage = "github.com/razziagame/razzia/internal/store"

func isStorage(path string) bool { return path == storage || strings.HasPrefix(path, storage+"/") }

// TestNoStorageImports: the HTTP layer speaks the vocabulary of the
// services it serves (account, notify, table), never the store's: none
// of its files but its tests' fixtures imports the store or an adapter.
func TestNoStorageImports(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkg.Imports) == 0 {
		t.Fatal("no imports found: is this the package's directory?")
	}
	for _, path := range pkg.Imports {
		if isStorage(path) {
			var files []string
			for _, pos := range pkg.ImportPos[path] {
				files = append(files, pos.Filename)
			}
			t.Errorf("httpapi imports %s (in %s)", path, strings.Join(files, ", "))
		}
	}
}

// stillLeaking are the store's types the services still hand the HTTP
// layer: none. Adding one is a step back.
var stillLeaking = []string{}

// TestNoStorageTypes: no value the HTTP layer handles has a type of the
// store, even one it never names (a result it only passes on or reads a
// field of), but those of stillLeaking. A type of the store's that is
// an alias of another package's (store.Status is protocol.Status) is
// that package's.
func TestNoStorageTypes(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to find the export data of the imports:", err)
	}
	out, err := exec.Command(goTool, "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	exports := map[string]string{}
	for line := range strings.Lines(string(out)) {
		path, file, _ := strings.Cut(strings.TrimSpace(line), "=")
		exports[path] = file
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) })
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(pkg.Dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	if _, err := (&types.Config{Importer: imp}).Check(pkg.ImportPath, fset, files, info); err != nil {
		t.Fatal(err)
	}
	if len(info.Types) == 0 {
		t.Fatal("no expressions checked")
	}
	found := map[string][]string{} // type: where
	for e, tv := range info.Types {
		for _, name := range storageTypes(tv.Type, nil) {
			if !slices.Contains(stillLeaking, name) {
				found[name] = append(found[name], fset.Position(e.Pos()).String())
			}
		}
	}
	for name, at := range found {
		slices.Sort(at)
		t.Errorf("httpapi handles a %s (%d places; first %s)", name, len(at), at[0])
	}
}

// storageTypes appends to names the store's named types that t is made
// of, seen through pointers, containers, functions and aliases but not
// into other packages' named types (their fields are their business).
func storageTypes(t types.Type, names []string) []string {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if obj := t.Obj(); obj.Pkg() != nil && isStorage(obj.Pkg().Path()) {
			names = append(names, obj.Pkg().Path()+"."+obj.Name())
		}
		for a := range t.TypeArgs().Types() {
			names = storageTypes(a, names)
		}
	case *types.Pointer:
		names = storageTypes(t.Elem(), names)
	case *types.Slice:
		names = storageTypes(t.Elem(), names)
	case *types.Array:
		names = storageTypes(t.Elem(), names)
	case *types.Chan:
		names = storageTypes(t.Elem(), names)
	case *types.Map:
		names = storageTypes(t.Elem(), storageTypes(t.Key(), names))
	case *types.Tuple:
		for v := range t.Variables() {
			names = storageTypes(v.Type(), names)
		}
	case *types.Signature:
		names = storageTypes(t.Results(), storageTypes(t.Params(), names))
	case *types.Struct:
		for f := range t.Fields() {
			names = storageTypes(f.Type(), names)
		}
	}
	return names
}
