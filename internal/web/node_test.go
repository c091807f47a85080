package web

import (
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// needNode returns the path of Node.js, or skips the test loudly; under
// CI=true, where the page's scripts must be run, it fails it instead.
func needNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not installed, and CI=true: the page's scripts must be checked")
		}
		t.Skip("SKIPPED LOUDLY: node is not installed, so the page's scripts are not run (apt-get install nodejs)")
	}
	return node
}

// fakeDOM is just enough of the browser's document for render.js and
// cards.js: a tree of elements whose text and attributes the checks read.
const fakeDOM = `
class FakeNode {
  constructor() { this.childNodes = []; this.parent = null; }
  appendChild(c) { return this.insertBefore(c, null); }
  replaceChildren(...c) { for (const n of c) n.parent = this; this.childNodes = c; }
  insertBefore(c, ref) {
    if (c.parent) c.parent.removeChild(c);
    c.parent = this;
    const i = ref ? this.childNodes.indexOf(ref) : -1;
    if (i < 0) this.childNodes.push(c); else this.childNodes.splice(i, 0, c);
    return c;
  }
  removeChild(c) { this.childNodes = this.childNodes.filter((n) => n !== c); c.parent = null; return c; }
  get parentNode() { return this.parent; }
  get firstChild() { return this.childNodes[0] || null; }
  get nextSibling() { const s = this.parent ? this.parent.childNodes : []; return s[s.indexOf(this) + 1] || null; }
  get textContent() { return this.childNodes.map((c) => c.textContent).join(" "); }
  set textContent(s) { this.childNodes = [new FakeText(s)]; }
  find(pred, out = []) {
    if (pred(this)) out.push(this);
    for (const c of this.childNodes) c.find(pred, out);
    return out;
  }
}
class FakeText extends FakeNode {
  constructor(t) { super(); this.data = t; }
  get textContent() { return this.data; }
  get nodeType() { return 3; }
  get nodeName() { return "#text"; }
  get nodeValue() { return this.data; }
  set nodeValue(s) { this.data = s; }
}
class FakeElement extends FakeNode {
  constructor(tag) { super(); this.tag = tag; this.attrs = {}; this.listeners = {}; this.html = ""; }
  get nodeType() { return 1; }
  get nodeName() { return this.tag.toUpperCase(); }
  get attributes() { return Object.entries(this.attrs).map(([name, value]) => ({ name, value })); }
  getAttributeNames() { return Object.keys(this.attrs); }
  setAttribute(n, v) { this.attrs[n] = String(v); }
  getAttribute(n) { return n in this.attrs ? this.attrs[n] : null; }
  hasAttribute(n) { return n in this.attrs; }
  removeAttribute(n) { delete this.attrs[n]; }
  addEventListener(t, f) { this.listeners[t] = f; }
  set innerHTML(s) { this.html = s; this.childNodes = []; }
  get innerHTML() { return this.html; }
  click() { if (this.listeners.click) this.listeners.click({ target: this }); }
}
globalThis.Node = FakeNode;
globalThis.document = { createElement: (t) => new FakeElement(t), createTextNode: (t) => new FakeText(t) };
`

var importRel = regexp.MustCompile(`from "\./([a-z0-9]+)\.js"`)

// nodeModules copies the page's scripts into a temporary directory as .mjs
// files (so node reads them as modules whatever its version), with the
// fake DOM and the given extra files, and returns the directory; it skips
// the test as needNode does when node is not installed.
func nodeModules(t *testing.T, extra map[string][]byte) (node, dir string) {
	t.Helper()
	node = needNode(t)
	dir = t.TempDir()
	eachScript(t, func(name string, b []byte) error {
		b = importRel.ReplaceAll(b, []byte(`from "./$1.mjs"`))
		return os.WriteFile(filepath.Join(dir, strings.TrimSuffix(name, ".js")+".mjs"), b, 0o644)
	})
	extra["fakedom.mjs"] = []byte(fakeDOM)
	for name, b := range extra {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return node, dir
}

// runCases runs check under node beside the page's scripts: check fills
// the array cases with [got, want] pairs; the test fails unless each pair
// is equal, naming what it checks.
func runCases(t *testing.T, what, check string) {
	t.Helper()
	check += `let bad = 0;
for (const [got, want] of cases) if (got !== want) { bad++; console.log("got " + JSON.stringify(got) + ", want " + JSON.stringify(want)); }
console.log(cases.length + " cases, " + bad + " wrong");
process.exit(bad ? 1 : 0);
`
	node, dir := nodeModules(t, map[string][]byte{"check.mjs": []byte(check)})
	out, err := exec.Command(node, filepath.Join(dir, "check.mjs")).CombinedOutput()
	if err != nil || !strings.Contains(string(out), " 0 wrong") {
		t.Fatalf("%s: %v\n%s", what, err, out)
	}
}

// eachScript calls f with the file name and the text of each of the
// page's scripts; an error fails the test.
func eachScript(t *testing.T, f func(name string, b []byte) error) {
	t.Helper()
	err := fs.WalkDir(files, "static/js", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		return f(path.Base(p), b)
	})
	if err != nil {
		t.Fatal(err)
	}
}
