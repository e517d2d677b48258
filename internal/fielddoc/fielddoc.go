// Package fielddoc reads the doc comments of Go types and struct fields
// from source files, so that a configuration's JSON Schema and reference
// page take every description from the Go code. Only generators and tests
// use it: it links Go's parser, which the toolguard program itself does not
// need.
package fielddoc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Read reads Go source files and returns the doc comment of every
// named type, keyed by "TypeName", and of every struct field, keyed by
// "TypeName.FieldName" (embedded fields by their type name; fields of an
// anonymous struct type by "TypeName.FieldName.SubField"). A field's doc is
// the comment above it, or else the comment at the end of its line. This
// lets JSONSchema and Markdown take every description from the Go source.
func Read(srcFiles ...string) (map[string]string, error) {
	docs := map[string]string{}
	fset := token.NewFileSet()
	for _, file := range srcFiles {
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		collectTypeDocs(docs, f)
	}
	return docs, nil
}

func collectTypeDocs(docs map[string]string, f *ast.File) {
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			doc := ts.Doc
			if doc == nil && len(gd.Specs) == 1 {
				doc = gd.Doc
			}
			setDoc(docs, ts.Name.Name, doc)
			if st, ok := ts.Type.(*ast.StructType); ok {
				collectFieldDocs(docs, ts.Name.Name, st)
			}
		}
	}
}

func collectFieldDocs(docs map[string]string, prefix string, st *ast.StructType) {
	for _, field := range st.Fields.List {
		doc := field.Doc
		if doc == nil {
			doc = field.Comment
		}
		for _, name := range fieldNames(field) {
			setDoc(docs, prefix+"."+name, doc)
			if inner, ok := field.Type.(*ast.StructType); ok {
				collectFieldDocs(docs, prefix+"."+name, inner)
			}
		}
	}
}

// fieldNames returns the names a field declares; an embedded field is named
// after its type.
func fieldNames(field *ast.Field) []string {
	if len(field.Names) > 0 {
		names := make([]string, len(field.Names))
		for i, n := range field.Names {
			names[i] = n.Name
		}
		return names
	}
	t := field.Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	switch t := t.(type) {
	case *ast.Ident:
		return []string{t.Name}
	case *ast.SelectorExpr:
		return []string{t.Sel.Name}
	}
	return nil
}

func setDoc(docs map[string]string, key string, cg *ast.CommentGroup) {
	if text := strings.TrimSpace(cg.Text()); text != "" {
		docs[key] = text
	}
}
