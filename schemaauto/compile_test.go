package schemaauto

import (
	"reflect"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/internal/objectmeta"
	"github.com/jsonprune/jsonprune/validate"
)

// TestCompileFlags checks that every extension and generic flag reaches its
// state, and the transitions of the reference's two pruning modes.
func TestCompileFlags(t *testing.T) {
	a := widget(t)
	prop := func(s StateID, name string) *Prop {
		t.Helper()
		i := a.Lookup(s, []byte(name))
		if i < 0 {
			t.Fatalf("s%d has no property %q", s, name)
		}
		return &a.Props(s)[i]
	}
	root := a.Root()
	if f := a.State(root).Flags; f&Embedded == 0 || f&Preserve != 0 {
		t.Errorf("root flags %s", f.describe())
	}
	for _, m := range []struct {
		name string
		role PropRole
	}{{"apiVersion", RoleAPIVersion}, {"kind", RoleKind}, {"metadata", RoleMetadata}} {
		if p := prop(root, m.name); p.Role != m.role || p.Declared != NoState {
			t.Errorf("root %s: %+v", m.name, p)
		}
	}
	if prop(root, "metadata").Target != a.ObjectMeta() {
		t.Error("root metadata does not lead to ObjectMeta")
	}
	spec := prop(root, "spec").Target
	for _, tc := range []struct {
		name  string
		flags Flags
		types TypeSet
	}{
		{"nullableField", Nullable, TypeString | TypeNull},
		{"defaulted", HasDefault, TypeString},
		{"nullableDefaulted", Nullable | HasDefault, TypeString | TypeNull},
		{"intOrString", 0, TypeInteger | TypeString},
		{"anyVal", Preserve, TypeAny},
		{"preserved", Preserve, TypeObject},
		{"embedded", Embedded | Preserve, TypeObject},
		{"embeddedStrict", Embedded, TypeObject},
		{"apTrue", 0, TypeObject},
		{"ratio", 0, TypeNumber | TypeInteger},
	} {
		st := a.State(prop(spec, tc.name).Target)
		if st.Flags != tc.flags || st.Types != tc.types {
			t.Errorf("%s: flags %q types %s, want %q %s", tc.name, st.Flags.describe(), st.Types, tc.flags.describe(), tc.types)
		}
	}
	if a.State(spec).Flags&DefaultsProps == 0 {
		t.Error("spec has defaulted properties")
	}
	// additionalProperties: true prunes like a nil schema
	if ap := a.State(prop(spec, "apTrue").Target).Additional; ap != Drop {
		t.Errorf("apTrue additionalProperties → s%d, want Drop", ap)
	}
	// preserve is inherited through items, not through properties
	pl := a.State(prop(spec, "preservedList").Target)
	item := a.State(pl.Items)
	if item.Flags&Preserve == 0 || a.State(a.Props(pl.Items)[a.Lookup(pl.Items, []byte("k"))].Target).Flags&Preserve != 0 {
		t.Error("preserve must be inherited by items and reset by properties")
	}
	// an array of a plain schema without items schema drops objects
	if a.State(prop(spec, "list").Target).Items == Drop {
		t.Error("list has an items schema")
	}
	// embedded strict: declared spec is ordinary; meta keys built in
	es := prop(spec, "embeddedStrict").Target
	if p := prop(es, "metadata"); p.Role != RoleMetadata || p.Target != a.ObjectMeta() {
		t.Errorf("embedded metadata %+v", p)
	}
	// ObjectMeta knows its fields and types
	om := a.ObjectMeta()
	if g := prop(om, "generation").Target; a.State(g).Types != TypeInteger|TypeNumber|TypeNull || a.Node(g).Path != "ObjectMeta.generation" {
		t.Errorf("generation: types %s, node %q", a.State(g).Types, a.Node(g).Path)
	}
	if st := a.State(prop(a.State(prop(om, "managedFields").Target).Items, "fieldsV1").Target); st.Flags&Opaque == 0 {
		t.Error("fieldsV1 is opaque")
	}
	if st := a.State(prop(om, "labels").Target); st.Additional == NoState || a.State(st.Additional).Types&TypeString == 0 {
		t.Error("labels is a map of strings")
	}
}

// TestEmbeddedDeclaredMeta: a declared apiVersion/kind/metadata of an
// embedded resource stays reachable for null pruning and defaults.
func TestEmbeddedDeclaredMeta(t *testing.T) {
	a := mustCompile(t, `{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,
		"properties":{"kind":{"type":"string","default":"K"},"metadata":{"type":"object"},"spec":{"type":"object"}}}}}`)
	e := a.Props(a.Root())[a.Lookup(a.Root(), []byte("e"))].Target
	k := a.Props(e)[a.Lookup(e, []byte("kind"))]
	if k.Role != RoleKind || k.Target != Keep || k.Declared == NoState || a.State(k.Declared).Flags&HasDefault == 0 {
		t.Errorf("kind %+v", k)
	}
	if a.State(e).Flags&DefaultsProps == 0 {
		t.Error("DefaultsProps must see the declared kind's default")
	}
}

// TestObjectMetaStates: the built-in ObjectMeta states hold the fields of
// internal/objectmeta's table, no more, each at its path, down into the
// elements of ownerReferences and managedFields.
func TestObjectMetaStates(t *testing.T) {
	a := widget(t)
	var check func(s StateID, st *objectmeta.Struct, prefix string)
	check = func(s StateID, st *objectmeta.Struct, prefix string) {
		if got := a.Node(s).Path; got != st.Name || len(a.Props(s)) != len(st.Fields) {
			t.Errorf("s%d %q has %d properties, want %q with %d", s, got, len(a.Props(s)), st.Name, len(st.Fields))
		}
		for _, f := range st.Fields {
			i := a.Lookup(s, []byte(f.Name))
			if i < 0 {
				t.Errorf("%s has no property %q", st.Name, f.Name)
				continue
			}
			target := a.Props(s)[i].Target
			if got := a.Node(target).Path; got != prefix+f.Name {
				t.Errorf("%s.%s: path %q", st.Name, f.Name, got)
			}
			if f.Type == objectmeta.StructSlice {
				check(a.State(target).Items, f.Elem, prefix+f.Name+".")
			}
		}
	}
	check(a.ObjectMeta(), objectmeta.ObjectMeta, "ObjectMeta.")
}

// TestPlainNodeFields checks that the key of the compiler's shared value
// rules, a node's encoding (encoder.nodeBytes), writes every field of
// validate.Node: a field added there and not to the encoding would give
// two nodes that differ in it the same rules (and the same cache entry).
func TestPlainNodeFields(t *testing.T) {
	node := reflect.TypeOf(validate.Node{})
	const encoded = 7 // Type, Format, Nullable, IntOrString, Pattern, AdditionalPropertiesFalse, Keywords
	if node.NumField() != encoded {
		var names []string
		for i := range node.NumField() {
			names = append(names, node.Field(i).Name)
		}
		t.Fatalf("validate.Node has %d fields (%v), encoder.nodeBytes writes %d: it must write each", node.NumField(), names, encoded)
	}
	// nodes that differ in one field each get their own rules
	c := &compiler{}
	base := validate.Node{Type: "object"}
	seen := map[*validate.Rules]string{}
	for name, n := range map[string]validate.Node{
		"base":                      base,
		"Type":                      {Type: "string"},
		"Format":                    {Type: "object", Format: "date-time"},
		"Nullable":                  {Type: "object", Nullable: true},
		"IntOrString":               {Type: "object", IntOrString: true},
		"Pattern":                   {Type: "object", Pattern: "^a$"},
		"AdditionalPropertiesFalse": {Type: "object", AdditionalPropertiesFalse: true},
	} {
		r, err := c.compileRules(n)
		if err != nil || r == nil {
			t.Fatalf("%s: %v, %v", name, r, err)
		}
		if other, dup := seen[r]; dup {
			t.Errorf("%s and %s share their rules", name, other)
		}
		seen[r] = name
		if again, _ := c.compileRules(n); again != r {
			t.Errorf("%s: compiled again, not shared", name)
		}
	}
}

// TestSharedKeywordRules checks that nodes with keywords share their rules
// only when they are equal, keywords included, and that a node whose
// rules do not compile gives its error each time.
func TestSharedKeywordRules(t *testing.T) {
	c := &compiler{}
	enum := func(vs ...any) validate.Node {
		return validate.Node{Type: "string", Keywords: map[string]any{"enum": vs}}
	}
	a, err := c.compileRules(enum("Always", "Never"))
	if err != nil || a == nil {
		t.Fatal(a, err)
	}
	if b, _ := c.compileRules(enum("Always", "Never")); b != a {
		t.Error("an equal node compiled again")
	}
	for name, n := range map[string]validate.Node{
		"another enum":  enum("Always", "IfNotPresent"),
		"another order": enum("Never", "Always"),
		"another type":  {Type: "integer", Keywords: map[string]any{"enum": []any{"Always", "Never"}}},
		"maximum":       {Type: "string", Keywords: map[string]any{"enum": []any{"Always", "Never"}, "maxLength": int64(3)}},
	} {
		if r, err := c.compileRules(n); err != nil || r == a {
			t.Errorf("%s: %p, %v: shares the rules of another node", name, r, err)
		}
	}
	bad := validate.Node{Type: "integer", Keywords: map[string]any{"maximum": "ten"}}
	if _, err := c.compileRules(bad); err == nil {
		t.Fatal("maximum: \"ten\" compiled")
	}
	if _, err := c.compileRules(bad); err == nil {
		t.Error("maximum: \"ten\" compiled the second time")
	}
}

// TestEnumHas: a string enum's EnumText finds exactly its strings, the
// empty one and those that are prefixes of others included; one with a
// string over 255 bytes is left to the Rules.
func TestEnumHas(t *testing.T) {
	long := strings.Repeat("x", 255)
	strs := []string{"", "a", "ab", "b", long}
	text, ok := enumText(strs)
	if !ok {
		t.Fatal("not encoded")
	}
	c := ValueCheck{Strings: StringsEnum, EnumText: text}
	for _, s := range strs {
		if !c.EnumHas([]byte(s)) {
			t.Errorf("%.10q not found", s)
		}
	}
	for _, s := range []string{"abc", "ba", "c", long + "x", long[1:], "\x01", "\x01a"} {
		if c.EnumHas([]byte(s)) {
			t.Errorf("%.10q found", s)
		}
	}
	if _, ok := enumText([]string{"a", long + "x"}); ok {
		t.Error("a string of 256 bytes encoded")
	}
}
