package style

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// tracking names an issue or a commit: where a thing came from, which a
// comment never says (the history has it).
var tracking = regexp.MustCompile(`(?i)\bissue\s*#?\d+|\bcommit\s+[0-9a-f]{7,40}\b`)

// named are the commits a name holds, which comments may spell: the
// frozen yardstick bots are specs named after their version
// (medium@b971414).
var named = regexp.MustCompile(`\bcommit\s+b971414\b`)

// TestCommentsNameNoIssue: no comment of a Go or JavaScript file names an
// issue or a commit.
func TestCommentsNameNoIssue(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository's root is not at %s: %v", root, err)
	}
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		var comments []comment
		switch filepath.Ext(path) {
		case ".go":
			comments, err = goComments(path)
		case ".js":
			comments, err = jsComments(path)
		default:
			return nil
		}
		if err != nil {
			return err
		}
		checked++
		for _, c := range comments {
			if m := tracking.FindString(c.text); m != "" && !named.MatchString(c.text) {
				t.Errorf("%s:%d: a comment names %q: say why, not where it came from", path, c.line, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d files checked: is the walk wrong?", checked)
	}
}

type comment struct {
	line int
	text string
}

func goComments(path string) ([]comment, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	var out []comment
	for _, g := range f.Comments {
		out = append(out, comment{fset.Position(g.Pos()).Line, g.Text()})
	}
	return out, nil
}

// jsComments returns the line comments of a script: enough for the
// page's, which use no block comments.
func jsComments(path string) ([]comment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []comment
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if _, c, ok := strings.Cut(sc.Text(), "// "); ok {
			out = append(out, comment{n, c})
		}
	}
	return out, sc.Err()
}
