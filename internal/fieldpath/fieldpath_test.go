package fieldpath

import "testing"

// TestPathSyntaxes renders one path in the reference's three syntaxes and
// as a JSON Pointer (see the comment above AppendPath).
func TestPathSyntaxes(t *testing.T) {
	for _, tc := range []struct {
		segs                 []Segment
		path, field, pointer string
	}{
		{[]Segment{{Name: []byte("spec")}, {Kind: MapKey, Name: []byte("k.1")}, {Name: []byte("zz")}}, "spec.k.1.zz", "spec[k.1].zz", "/spec/k.1/zz"},
		{[]Segment{{Name: []byte("spec")}, {Name: []byte("list")}, {Kind: Index, Index: 0}, {Name: []byte("b")}}, "spec.list[0].b", "spec.list[0].b", "/spec/list/0/b"},
		{[]Segment{{Name: []byte("spec")}, {Name: []byte("")}}, "spec.", "spec[]", "/spec/"},
		{[]Segment{{Name: []byte(`q"k`)}, {Name: []byte("a/b~c")}}, `q"k.a/b~c`, `q"k.a/b~c`, `/q"k/a~1b~0c`},
		{[]Segment{{Kind: Index, Index: 3}}, "[3]", "[3]", "/3"},
	} {
		if got := string(AppendPath(nil, tc.segs)); got != tc.path {
			t.Errorf("path %q, want %q", got, tc.path)
		}
		if got := string(AppendFieldPath(nil, tc.segs)); got != tc.field {
			t.Errorf("field path %q, want %q", got, tc.field)
		}
		if got := string(AppendPointer(nil, tc.segs)); got != tc.pointer {
			t.Errorf("pointer %q, want %q", got, tc.pointer)
		}
	}
}
