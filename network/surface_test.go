package network

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestExportedSurface holds package network's exported surface to the
// list in testdata/surface.txt (docs/go.md, "Stable surface"):
// an exported name added or removed fails here, so a change to what other
// programs build on is deliberate — update the list with docs/go.md.
// The kernel must stay off it: no Network field, alias or function may
// hand out *kernel.Kernel or its spec.
func TestExportedSurface(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	files := []*ast.File{}
	for _, f := range pkgs["network"].Files {
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/flitsim/flitsim/network")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	add := func(s string) { got = append(got, s) }
	for _, v := range append(p.Consts, p.Vars...) {
		for _, n := range v.Names {
			if ast.IsExported(n) {
				add(n)
			}
		}
	}
	for _, f := range p.Funcs {
		add(f.Name + "()")
	}
	for _, ty := range p.Types {
		add(ty.Name)
		for _, v := range append(ty.Consts, ty.Vars...) {
			for _, n := range v.Names {
				add(n)
			}
		}
		for _, f := range ty.Funcs {
			add(f.Name + "()")
		}
		for _, m := range ty.Methods {
			add(ty.Name + "." + m.Name + "()")
		}
		if ty.Name == "Network" {
			st := ty.Decl.Specs[0].(*ast.TypeSpec).Type.(*ast.StructType)
			for _, fl := range st.Fields.List {
				for _, n := range fl.Names {
					if ast.IsExported(n.Name) {
						add("Network." + n.Name)
					}
				}
			}
		}
	}
	slices.Sort(got)
	data, err := os.ReadFile("testdata/surface.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(data))
	for _, n := range got {
		if !slices.Contains(want, n) {
			t.Errorf("%s is exported but not in testdata/surface.txt: keep it unexported, or add it there and to the stable surface in docs/go.md", n)
		}
	}
	for _, n := range want {
		if !slices.Contains(got, n) {
			t.Errorf("%s is in testdata/surface.txt but no longer exported: a program built on it breaks", n)
		}
	}
	for _, n := range got {
		for _, bad := range []string{"Kernel", "KernelSpec", "Network.K", "BuildWith()", "Hooks"} {
			if n == bad {
				t.Errorf("%s exposes the kernel on the library surface", n)
			}
		}
	}
}
