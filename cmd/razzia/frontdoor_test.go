package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoFile reads a file of the repository.
func repoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var mdLink = regexp.MustCompile(`\]\(([^)#\s]*)(#[^)\s]*)?\)`)

// TestFrontDoor: the README says what Razzia is, how to run it and what
// to open within a screen, before its first link; the licence and the
// notice are there; and the links of the front door's documents lead to
// files that exist.
func TestFrontDoor(t *testing.T) {
	readme := repoFile(t, "README.md")
	lines := strings.Split(readme, "\n")
	first := len(lines)
	for i, l := range lines {
		if mdLink.MatchString(l) {
			first = i
			break
		}
	}
	top := strings.Join(lines[:first], "\n")
	if first > 30 {
		t.Errorf("the README's first link is on line %d: the first screen must say it all before", first+1)
	}
	for _, want := range []string{"Reiner Knizia", "go run ./cmd/razzia", "go test ./...", "http://localhost:8080/", "unofficial", "not affiliated"} {
		if !strings.Contains(top, want) {
			t.Errorf("the README's first screen lacks %q", want)
		}
	}
	for _, link := range []string{"docs/players.md", "docs/deploy.md", "docs/architecture.md", "CONTRIBUTING.md", "SECURITY.md", "LICENSE"} {
		if !strings.Contains(readme, "]("+link+")") {
			t.Errorf("the README does not link %s", link)
		}
	}
	if l := repoFile(t, "LICENSE"); !strings.HasPrefix(l, "MIT License") || !strings.Contains(l, "Copyright (c) The Razzia authors") {
		t.Error("LICENSE is not the MIT licence of the Razzia authors")
	}
	if n := repoFile(t, "NOTICE"); !strings.Contains(n, "unofficial") || !strings.Contains(n, "not affiliated") {
		t.Error("NOTICE does not say that Razzia is unofficial and not affiliated")
	}

	for _, doc := range []string{"README.md", "CONTRIBUTING.md", "SECURITY.md", "docs/players.md", "docs/deploy.md"} {
		t.Run(doc, func(t *testing.T) {
			for _, m := range mdLink.FindAllStringSubmatch(repoFile(t, doc), -1) {
				target := m[1]
				if target == "" || strings.Contains(target, "://") {
					continue
				}
				path := filepath.Join(filepath.Dir(doc), target)
				if filepath.ToSlash(path) == "docs/architecture.md" {
					continue // the contributors' guide, written apart
				}
				if _, err := os.Stat(filepath.Join("..", "..", path)); err != nil {
					t.Errorf("link to %s: %v", target, err)
				}
			}
		})
	}
}
