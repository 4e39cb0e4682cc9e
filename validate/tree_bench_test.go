package validate

import (
	"strconv"
	"testing"
)

// benchTree is a list of objects whose port is the generated
// int-or-string pattern (anyOf [integer, string]) and whose mode is a oneOf.
func benchTree() *Tree {
	ios := &Tree{Rules: tn(Node{IntOrString: true}).Rules, AnyOf: []*Tree{typed("integer"), typed("string")}}
	mode := &Tree{Rules: tn(Node{Type: "string"}).Rules, OneOf: []*Tree{
		tn(Node{Keywords: kw{"enum": []any{"a", "b"}}}), tn(Node{Pattern: "^x-"})}}
	item := &Tree{Rules: tn(Node{Type: "object", Keywords: kw{"required": []any{"name"}}}).Rules,
		Properties: map[string]*Tree{"name": typed("string"), "port": ios, "mode": mode}}
	return &Tree{Rules: tn(Node{Type: "array"}).Rules, Items: item, ListType: "map", ListMapKeys: []string{"name"}}
}

func benchValue(n int) []any {
	items := make([]any, n)
	for i := range items {
		var port any = int64(i)
		if i%2 == 1 {
			port = "p" + strconv.Itoa(i)
		}
		items[i] = map[string]any{"name": "n" + strconv.Itoa(i), "port": port, "mode": "a"}
	}
	return items
}

// BenchmarkTreeValidate: a valid 1,000-item list, each item with an anyOf
// and a oneOf.
func BenchmarkTreeValidate(b *testing.B) {
	t, v := benchTree(), benchValue(1000)
	b.ReportAllocs()
	for b.Loop() {
		if errs := t.Validate("spec.l", v); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}

// BenchmarkListTypes: the map-list check of a valid 100,000-item list.
func BenchmarkListTypes(b *testing.B) {
	t, v := benchTree(), benchValue(100000)
	b.ReportAllocs()
	for b.Loop() {
		if errs := t.ListTypes("spec.l", v); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}
