package httpapi_test

import (
	"go/build"
	"strings"
	"testing"
)

// storage is the import path of the store and its adapters.
const storage = "github.com/razziagame/razzia/internal/store"

// TestNoStorageImports: the HTTP layer speaks the vocabulary of the
// services it serves (account, notify, table), never the store's: none
// of its files, but its tests' fixtures, imports the store or an adapter
// of it.
func TestNoStorageImports(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkg.Imports) == 0 {
		t.Fatal("no imports found: is this the package's directory?")
	}
	for _, path := range pkg.Imports {
		if path == storage || strings.HasPrefix(path, storage+"/") {
			t.Errorf("httpapi imports %s (in %s)", path, strings.Join(filesImporting(t, pkg, path), ", "))
		}
	}
}

// filesImporting names the package's files that import path.
func filesImporting(t *testing.T, pkg *build.Package, path string) []string {
	t.Helper()
	var files []string
	for _, pos := range pkg.ImportPos[path] {
		files = append(files, pos.Filename)
	}
	return files
}
