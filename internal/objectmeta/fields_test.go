package objectmeta

import (
	"slices"
	"strings"
	"testing"
)

// TestFields: each table is sorted by JSON name (the order encoding/json
// renders the fields in), Index finds every field and nothing else, the
// ObjectMeta index constants name their fields, and Index does not
// allocate.
func TestFields(t *testing.T) {
	for _, s := range []*Struct{ObjectMeta, OwnerReference, ManagedFieldsEntry} {
		if !slices.IsSortedFunc(s.Fields, func(a, b Field) int { return strings.Compare(a.Name, b.Name) }) {
			t.Errorf("%s: fields not sorted", s.Name)
		}
		for i, f := range s.Fields {
			if got := s.Index([]byte(f.Name)); got != i {
				t.Errorf("%s: Index(%q) = %d, want %d", s.Name, f.Name, got, i)
			}
			if got := index(s, f.Name); got != i {
				t.Errorf("%s: index(%q) = %d, want %d", s.Name, f.Name, got, i)
			}
			if (f.Type == StructSlice) != (f.Elem != nil) {
				t.Errorf("%s.%s: Elem %v with type %d", s.Name, f.Name, f.Elem, f.Type)
			}
			for _, other := range []string{strings.ToUpper(f.Name[:1]) + f.Name[1:], f.Name + "x", f.Name[1:]} {
				if got := s.Index([]byte(other)); got >= 0 {
					t.Errorf("%s: Index(%q) = %d", s.Name, other, got)
				}
			}
		}
		for _, other := range []string{"", strings.Repeat("a", 300), "metadata"} {
			if got := s.Index([]byte(other)); got >= 0 {
				t.Errorf("%s: Index(%q) = %d", s.Name, other, got)
			}
		}
	}
	if len(ObjectMeta.Fields) != NumObjectMetaFields || len(OwnerReference.Fields) != NumOwnerReferenceFields || len(ManagedFieldsEntry.Fields) != 7 {
		t.Errorf("%d, %d, %d fields", len(ObjectMeta.Fields), len(OwnerReference.Fields), len(ManagedFieldsEntry.Fields))
	}
	for i, name := range map[int]string{FieldAnnotations: "annotations", FieldGeneration: "generation", FieldOwnerReferences: "ownerReferences", FieldUID: "uid"} {
		if ObjectMeta.Fields[i].Name != name {
			t.Errorf("field %d is %q, want %q", i, ObjectMeta.Fields[i].Name, name)
		}
	}
	name := []byte("creationTimestamp")
	if n := testing.AllocsPerRun(100, func() { ObjectMeta.Index(name) }); n != 0 {
		t.Errorf("Index allocates %v times", n)
	}
}
