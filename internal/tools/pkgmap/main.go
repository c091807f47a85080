// Command pkgmap measures how a package's files depend on each other and
// how big its largest types are, so that a refactor's before and after
// can be given as figures anyone can reproduce:
//
//	go run ./internal/tools/pkgmap ./internal/table
//
// A file depends on another when it uses a name (a package-level
// declaration, a method or a field) declared in the other. An edge is on
// a cycle when both files are in the same strongly connected component.
// An edge runs backwards when it goes against the order of files given
// by the greedy heuristic of Eades, Lin and Smyth for the minimum
// feedback arc set: the fewer, the more the files read one way. Only
// the package's non-test files count.
package main

import (
	"flag"
	"fmt"
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
	"sort"
	"strings"
)

func main() {
	top := flag.Int("types", 6, "how many of the largest types to list")
	edges := flag.Bool("edges", false, "list every edge that runs backwards")
	recv := flag.String("via", "l.h", "count selectors through this field path (receiver.field)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: pkgmap [flags] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	p, err := load(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "pkgmap:", err)
		os.Exit(1)
	}
	p.report(os.Stdout, *top, *edges, *recv)
}

// pkg is a type-checked package and what was measured of it.
type pkg struct {
	dir   string
	fset  *token.FileSet
	files []*ast.File
	names []string // base names of files, in the order of files
	info  *types.Info
	types *types.Package
}

// load type-checks the non-test files of dir against the export data of
// its imports, which the go command builds.
func load(dir string) (*pkg, error) {
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		return nil, err
	}
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", "./"+filepath.Clean(dir)).Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	exports := map[string]string{}
	for line := range strings.Lines(string(out)) {
		path, file, _ := strings.Cut(strings.TrimSpace(line), "=")
		exports[path] = file
	}
	p := &pkg{dir: dir, fset: token.NewFileSet()}
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(p.fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		p.files = append(p.files, f)
		p.names = append(p.names, name)
	}
	imp := importer.ForCompiler(p.fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	p.info = &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: imp}
	p.types, err = conf.Check(bp.ImportPath, p.fset, p.files, p.info)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// fileOf is the index of the file that holds pos, or -1.
func (p *pkg) fileOf(pos token.Pos) int {
	for i, f := range p.files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return i
		}
	}
	return -1
}

// graph is the set of file-to-file dependencies: graph[a][b] when file a
// uses a name declared in file b.
func (p *pkg) graph() []map[int]bool {
	g := make([]map[int]bool, len(p.files))
	for i := range g {
		g[i] = map[int]bool{}
	}
	for id, obj := range p.info.Uses {
		if obj == nil || obj.Pkg() != p.types || !declaredOutsideFuncs(obj) {
			continue
		}
		from, to := p.fileOf(id.Pos()), p.fileOf(obj.Pos())
		if from >= 0 && to >= 0 && from != to {
			g[from][to] = true
		}
	}
	return g
}

// declaredOutsideFuncs: obj is a package-level name, a method or a field,
// not a local variable, parameter or label.
func declaredOutsideFuncs(obj types.Object) bool {
	switch o := obj.(type) {
	case *types.Func:
		return true
	case *types.Var:
		return o.IsField() || o.Parent() == o.Pkg().Scope()
	case *types.Label, *types.PkgName:
		return false
	}
	return obj.Parent() == obj.Pkg().Scope()
}

func (p *pkg) report(w io.Writer, top int, listEdges bool, via string) {
	g := p.graph()
	n, cyc := 0, 0
	comp := components(g)
	for a := range g {
		for b := range g[a] {
			n++
			if comp[a] == comp[b] {
				cyc++
			}
		}
	}
	order := greedyOrder(g)
	pos := make([]int, len(order))
	for i, v := range order {
		pos[v] = i
	}
	var back [][2]int
	for a := range g {
		for b := range g[a] {
			if pos[b] < pos[a] {
				back = append(back, [2]int{a, b})
			}
		}
	}
	lines := 0
	for _, f := range p.files {
		lines += p.fset.Position(f.FileEnd).Line
	}
	fmt.Fprintf(w, "package %s: %d files, %d lines (non-test)\n", p.dir, len(p.files), lines)
	fmt.Fprintf(w, "file-to-file dependencies: %d, on a cycle: %d, backwards: %d\n", n, cyc, len(back))
	if listEdges {
		sort.Slice(back, func(i, j int) bool {
			return p.names[back[i][0]]+p.names[back[i][1]] < p.names[back[j][0]]+p.names[back[j][1]]
		})
		for _, e := range back {
			fmt.Fprintf(w, "  backwards: %s -> %s\n", p.names[e[0]], p.names[e[1]])
		}
		var names []string
		for _, v := range order {
			names = append(names, p.names[v])
		}
		fmt.Fprintf(w, "  order (users first): %s\n", strings.Join(names, " "))
	}
	fmt.Fprintf(w, "largest types (methods, fields, lines of declaration and methods):\n")
	for _, t := range p.typeSizes()[:min(top, len(p.typeSizes()))] {
		fmt.Fprintf(w, "  %-16s %3d methods %3d fields %5d lines in %d files\n", t.name, t.methods, t.fields, t.lines, t.files)
	}
	if recv, field, ok := strings.Cut(via, "."); ok {
		fmt.Fprintf(w, "selectors through %s.%s: %d\n", recv, field, p.countVia(recv, field))
	}
}

// typeSize is what a named type of the package weighs.
type typeSize struct {
	name                          string
	methods, fields, lines, files int
}

func (p *pkg) typeSizes() []typeSize {
	sizes := map[string]*typeSize{}
	files := map[string]map[int]bool{}
	get := func(name string) *typeSize {
		if sizes[name] == nil {
			sizes[name] = &typeSize{name: name}
			files[name] = map[int]bool{}
		}
		return sizes[name]
	}
	span := func(n ast.Node) int {
		return p.fset.Position(n.End()).Line - p.fset.Position(n.Pos()).Line + 1
	}
	for i, f := range p.files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok {
						continue
					}
					s := get(ts.Name.Name)
					s.lines += span(ts)
					files[ts.Name.Name][i] = true
					if st, ok := ts.Type.(*ast.StructType); ok {
						for _, fl := range st.Fields.List {
							s.fields += max(1, len(fl.Names))
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					continue
				}
				name := recvName(d.Recv.List[0].Type)
				s := get(name)
				s.methods++
				s.lines += span(d)
				files[name][i] = true
			}
		}
	}
	var out []typeSize
	for name, s := range sizes {
		s.files = len(files[name])
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b typeSize) int {
		if a.methods != b.methods {
			return b.methods - a.methods
		}
		return strings.Compare(a.name, b.name)
	})
	return out
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

// countVia counts selectors recv.field.X: how often code reaches through
// the field to what it points at.
func (p *pkg) countVia(recv, field string) int {
	n := 0
	for _, f := range p.files {
		ast.Inspect(f, func(node ast.Node) bool {
			sel, ok := node.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			inner, ok := sel.X.(*ast.SelectorExpr)
			if !ok || inner.Sel.Name != field {
				return true
			}
			if id, ok := inner.X.(*ast.Ident); ok && id.Name == recv {
				n++
			}
			return true
		})
	}
	return n
}

// components numbers the strongly connected components of g (Tarjan).
func components(g []map[int]bool) []int {
	index, low, comp := make([]int, len(g)), make([]int, len(g)), make([]int, len(g))
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	var stack []int
	onStack := make([]bool, len(g))
	next, ncomp := 0, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range sortedKeys(g[v]) {
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = ncomp
				if w == v {
					break
				}
			}
			ncomp++
		}
	}
	for v := range g {
		if index[v] < 0 {
			visit(v)
		}
	}
	return comp
}

// greedyOrder orders the vertices of g so that few edges run from a later
// vertex to an earlier one (Eades, Lin and Smyth, 1993): sinks go to the
// end, sources to the front, and otherwise the vertex with the most
// outgoing edges over incoming ones goes to the front. Ties go to the
// lower index, so the order is the same every run.
func greedyOrder(g []map[int]bool) []int {
	in, out := make([]int, len(g)), make([]int, len(g))
	for a := range g {
		for b := range g[a] {
			out[a]++
			in[b]++
		}
	}
	left := make([]bool, len(g))
	remove := func(v int) {
		left[v] = true
		for b := range g[v] {
			in[b]--
		}
		for a := range g {
			if !left[a] && g[a][v] {
				out[a]--
			}
		}
	}
	var front, back []int
	for remaining := len(g); remaining > 0; {
		moved := false
		for v := range g {
			if !left[v] && out[v] == 0 {
				back = append(back, v)
				remove(v)
				remaining--
				moved = true
			}
		}
		for v := range g {
			if !left[v] && in[v] == 0 {
				front = append(front, v)
				remove(v)
				remaining--
				moved = true
			}
		}
		if moved || remaining == 0 {
			continue
		}
		best := -1
		for v := range g {
			if !left[v] && (best < 0 || out[v]-in[v] > out[best]-in[best]) {
				best = v
			}
		}
		front = append(front, best)
		remove(best)
		remaining--
	}
	slices.Reverse(back)
	return append(front, back...)
}

func sortedKeys(m map[int]bool) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
