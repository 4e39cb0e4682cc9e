package validate

import (
	"slices"
	"strconv"
	"testing"
)

// tn compiles a tree node for tests; it panics on a bad node.
func tn(n Node) *Tree {
	r, err := Compile(n)
	if err != nil {
		panic(err)
	}
	return &Tree{Rules: r}
}

func typed(t string) *Tree { return tn(Node{Type: t}) }

// TestTreeJunctors pins the junctor behaviours of reference 4.3 with the
// server's exact texts (each recorded from ValidateCustomResource by
// bench/conformance TestJunctorVectors).
func TestTreeJunctors(t *testing.T) {
	intMin5 := tn(Node{Type: "integer", Keywords: kw{"minimum": int64(5)}})
	intMax1 := tn(Node{Type: "integer", Keywords: kw{"maximum": int64(1)}})
	aStr := &Tree{Properties: map[string]*Tree{"a": typed("string")}}
	abStr := &Tree{Properties: map[string]*Tree{"a": typed("string"), "b": typed("string")}}
	cases := []struct {
		name  string
		tree  *Tree
		value any
		want  []string
	}{
		{"anyOf: the first of equal counts (J11)", &Tree{AnyOf: []*Tree{intMin5, intMax1}}, int64(3), []string{
			`<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)`,
			`spec.x: Invalid value: 3: spec.x in body should be greater than or equal to 5`}},
		{"anyOf: a passing branch", &Tree{AnyOf: []*Tree{intMin5, intMax1}}, int64(0), nil},
		{"anyOf: int-or-string (IOS03)", &Tree{Rules: tn(Node{IntOrString: true}).Rules, AnyOf: []*Tree{typed("integer"), typed("string")}}, 1.5, []string{
			`spec.x: Invalid value: "number": spec.x in body must be of type integer,string: "number"`,
			`<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)`,
			`spec.x: Invalid value: "number": spec.x in body must be of type integer: "number"`,
			`<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.x`}},
		{"anyOf: the deeper branch (J13)", &Tree{AnyOf: []*Tree{aStr, abStr}}, map[string]any{"a": int64(1), "b": int64(2)}, []string{
			`<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)`,
			`spec.x.a: Invalid value: "integer": spec.x.a in body must be of type string: "integer"`,
			`spec.x.b: Invalid value: "integer": spec.x.b in body must be of type string: "integer"`}},
		{"oneOf: none (J03)", &Tree{OneOf: []*Tree{typed("string"), typed("boolean")}}, int64(1), []string{
			`<nil>: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found none valid`,
			`spec.x: Invalid value: "integer": spec.x in body must be of type string: "integer"`}},
		{"oneOf: two (J04)", &Tree{OneOf: []*Tree{typed("integer"), tn(Node{Keywords: kw{"minimum": 0.0}})}}, int64(1), []string{
			`<nil>: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found 2 valid alternatives`}},
		{"allOf: none (J07)", &Tree{AllOf: []*Tree{typed("string"), typed("boolean")}}, int64(1), []string{
			`spec.x: Invalid value: "integer": spec.x in body must be of type string: "integer"`,
			`spec.x: Invalid value: "integer": spec.x in body must be of type boolean: "integer"`,
			`<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf). None validated`}},
		{"allOf: some (J06)", &Tree{AllOf: []*Tree{typed("integer"), typed("boolean")}}, int64(1), []string{
			`spec.x: Invalid value: "integer": spec.x in body must be of type boolean: "integer"`,
			`<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf)`}},
		{"not (J09)", &Tree{Not: typed("integer")}, int64(1), []string{
			`<nil>: Invalid value: "": "spec.x" must not validate the schema (not)`}},
		{"de-duplicated with the node (J14)", &Tree{Rules: tn(Node{Type: "integer"}).Rules, AllOf: []*Tree{typed("integer")}}, "x", []string{
			`spec.x: Invalid value: "string": spec.x in body must be of type integer: "string"`,
			`<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf). None validated`}},
		{"the node's later check is the duplicate", &Tree{Rules: tn(Node{Keywords: kw{"maxLength": int64(2)}}).Rules, AllOf: []*Tree{tn(Node{Keywords: kw{"maxLength": int64(2)}})}}, "abc", []string{
			`spec.x: Too long: may not be more than 2 bytes`,
			`<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf). None validated`}},
		{"required twice", &Tree{Rules: tn(Node{Keywords: kw{"required": []any{"a"}}}).Rules, AllOf: []*Tree{tn(Node{Keywords: kw{"required": []any{"a"}}})}}, map[string]any{}, []string{
			`spec.x.a: Required value`,
			`<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf). None validated`}},
		{"the order anyOf, oneOf, allOf, not (J15)", &Tree{AnyOf: []*Tree{typed("string")}, OneOf: []*Tree{typed("string")}, AllOf: []*Tree{typed("string")}, Not: typed("integer")}, int64(1), []string{
			`<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)`,
			`spec.x: Invalid value: "integer": spec.x in body must be of type string: "integer"`,
			`<nil>: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found none valid`,
			`<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf). None validated`,
			`<nil>: Invalid value: "": "spec.x" must not validate the schema (not)`}},
		{"null skips the junctors", &Tree{Rules: tn(Node{Type: "string", Nullable: true}).Rules, Not: typed("string")}, nil, nil},
	}
	for _, c := range cases {
		got := c.tree.Validate("spec.x", c.value).Strings()
		if !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got  %q\n want %q", c.name, got, c.want)
		}
	}
	// the root path is "" in the junctor lines (J16)
	got := (&Tree{Not: typed("integer")}).Validate("", int64(1)).Strings()
	if want := []string{`<nil>: Invalid value: "": "" must not validate the schema (not)`}; !slices.Equal(got, want) {
		t.Errorf("root: got %q, want %q", got, want)
	}
}

// TestTreeObjects: properties, additionalProperties, required at every
// depth, with the validator's paths (".key" for additional properties at
// the root).
func TestTreeObjects(t *testing.T) {
	tree := &Tree{
		Rules: tn(Node{Type: "object", Keywords: kw{"required": []any{"spec", "z"}, "maxProperties": int64(2)}}).Rules,
		Properties: map[string]*Tree{
			"spec": {Rules: tn(Node{Type: "object"}).Rules, Properties: map[string]*Tree{
				"l": {Rules: tn(Node{Type: "array", Keywords: kw{"maxItems": int64(1)}}).Rules, Items: typed("integer")},
				"m": {AdditionalProperties: tn(Node{Type: "string", Keywords: kw{"enum": []any{"a"}}})},
			}},
		},
	}
	v := map[string]any{"spec": map[string]any{"l": []any{int64(1), "x"}, "m": map[string]any{"k.1": "b"}}, "extra": true, "more": nil}
	got := tree.Validate("", v).Strings()
	want := []string{
		`<nil>: Too many: 3: must have at most 2 items`,
		`spec.l[1]: Invalid value: "string": spec.l[1] in body must be of type integer: "string"`,
		`spec.l: Too many: 2: must have at most 1 item`,
		`spec.m.k.1: Unsupported value: "b": supported values: "a"`,
		`z: Required value`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	ap := &Tree{AdditionalProperties: typed("integer")}
	if got := ap.Validate("", map[string]any{"k": "x"}).Strings(); !slices.Equal(got, []string{`k: Invalid value: "string": .k in body must be of type integer: "string"`}) {
		t.Errorf("root additional property: %q", got)
	}
}

// TestListTypeErrors pins section 6 with the server's texts (recorded by
// bench/conformance TestListTypeDifferential).
func TestListTypeErrors(t *testing.T) {
	cases := []struct {
		lt    string
		keys  []string
		items []any
		want  []string
	}{
		{"set", nil, []any{"a", "b", "a", "a", "b"}, []string{`spec.l[2]: Duplicate value: "a"`, `spec.l[4]: Duplicate value: "b"`}},
		{"set", nil, []any{int64(1), 1.0}, nil},
		{"set", nil, []any{map[string]any{"a": int64(1), "b": "x"}, map[string]any{"b": "x", "a": 1.0}}, []string{`spec.l[1]: Duplicate value: {"a":1,"b":"x"}`}},
		{"set", nil, []any{nil, nil, []any{}, []any{}}, []string{`spec.l[1]: Duplicate value: null`, `spec.l[3]: Duplicate value: []`}},
		{"map", []string{"name"}, []any{map[string]any{"name": "a"}, "b", map[string]any{"name": "a"}}, []string{`spec.l[1]: Invalid value: "b": must be an object for an array of list-type map`}},
		{"map", []string{"name"}, []any{map[string]any{"name": "a", "v": int64(1)}, map[string]any{"name": "a"}}, []string{`spec.l[1]: Duplicate value: {"name":"a"}`}},
		{"map", []string{"name"}, []any{nil, map[string]any{}, map[string]any{"name": nil}, map[string]any{"name": nil}}, []string{`spec.l[1]: Duplicate value: {}`, `spec.l[3]: Duplicate value: {"name":null}`}},
		{"map", []string{"port", "protocol"}, []any{map[string]any{"port": int64(80), "protocol": "TCP"}, map[string]any{"protocol": "TCP", "port": 80.0}, map[string]any{"port": int64(80)}},
			[]string{`spec.l[1]: Duplicate value: {"port":80,"protocol":"TCP"}`}},
		{"atomic", nil, []any{"a", "a"}, nil},
		{"", nil, []any{"a", "a"}, nil},
	}
	for _, c := range cases {
		got := ListTypeErrors("spec.l", c.lt, c.keys, c.items).Strings()
		if !slices.Equal(got, c.want) {
			t.Errorf("%s %v %v:\n got  %q\n want %q", c.lt, c.keys, c.items, got, c.want)
		}
	}
	// the walk: additionalProperties keys as [key], items as [i]
	tree := &Tree{Properties: map[string]*Tree{"spec": {Properties: map[string]*Tree{
		"m": {AdditionalProperties: &Tree{ListType: "set", Items: &Tree{ListType: "set"}}}}}}}
	v := map[string]any{"spec": map[string]any{"m": map[string]any{"k.1": []any{[]any{"a", "a"}, []any{"a", "a"}}}}}
	want := []string{`spec.m[k.1][1]: Duplicate value: ["a","a"]`, `spec.m[k.1][0][1]: Duplicate value: "a"`, `spec.m[k.1][1][1]: Duplicate value: "a"`}
	if got := tree.ListTypes("", v).Strings(); !slices.Equal(got, want) {
		t.Errorf("walk:\n got  %q\n want %q", got, want)
	}
}

// TestListTypeLarge: a 100,000-item set and map list are checked in linear
// time (one map entry per distinct item).
func TestListTypeLarge(t *testing.T) {
	const n = 100000
	set := make([]any, n)
	list := make([]any, n)
	for i := range set {
		set[i] = "item-" + strconv.Itoa(i)
		list[i] = map[string]any{"name": "n" + strconv.Itoa(i), "port": int64(i)}
	}
	set[n-1] = "item-0"
	list[n-1] = map[string]any{"name": "n0", "port": int64(7)}
	if got := ListTypeErrors("l", "set", nil, set).Strings(); !slices.Equal(got, []string{`l[99999]: Duplicate value: "item-0"`}) {
		t.Errorf("set: %q", got)
	}
	if got := ListTypeErrors("l", "map", []string{"name"}, list).Strings(); !slices.Equal(got, []string{`l[99999]: Duplicate value: {"name":"n0"}`}) {
		t.Errorf("map: %q", got)
	}
	if got := ListTypeErrors("l", "map", []string{"name", "port"}, list); len(got) != 0 {
		t.Errorf("map with two keys: %q", got.Strings())
	}
}

// TestCompileAsWritten: the default validator keeps unsupported formats.
func TestCompileAsWritten(t *testing.T) {
	r, err := CompileAsWritten(Node{Type: "string", Format: "quantity"})
	if err != nil {
		t.Fatal(err)
	}
	got := (&Tree{Rules: r}).Validate("", int64(5)).Strings()
	if want := []string{`<nil>: Invalid value: "int64":  in body must be of type quantity: "int64"`}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	r, _ = CompileAsWritten(Node{Format: "date"})
	got = (&Tree{Rules: r}).Validate("d", "x").Strings()
	if want := []string{`d: Invalid value: "x": d in body must be of type date: "x"`}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestMessageKey: a streaming caller's merge (type, Junctors, the rest, by
// key) gives Validate's list.
func TestMessageKey(t *testing.T) {
	node := Node{Type: "string", Keywords: kw{"maxLength": int64(2), "enum": []any{"a b"}}}
	r, _ := Compile(node)
	tree := &Tree{Rules: r, AllOf: []*Tree{tn(Node{Keywords: kw{"maxLength": int64(2), "enum": []any{"a", "b"}}})}}
	v := "abc"
	res := &Result{}
	s, _ := ScalarOf(v)
	for _, e := range r.AppendTypeErrors(nil, "x", s) {
		res.Add(e, r.MessageKey("x", String, e))
	}
	j := tree.JunctorResult("x", v)
	for i, e := range j.Errors {
		res.Add(e, j.Keys[i])
	}
	for _, e := range r.AppendErrors(nil, "x", s) {
		res.Add(e, r.MessageKey("x", String, e))
	}
	if got, want := res.Errors.Strings(), tree.Validate("x", v).Strings(); !slices.Equal(got, want) {
		t.Errorf("streaming merge %q, Validate %q", got, want)
	}
	if got := len(res.Errors); got != 3 {
		t.Errorf("%d errors, want 3 (the enum's %%v texts coincide): %q", got, res.Errors.Strings())
	}
	if k := r.MessageKey("", Object, RequiredError("", "a")); k != ".a in body is required" {
		t.Errorf("root required key %q", k)
	}
}

// TestTreeLargeJunctorSubtree: a 100,000-item list under an anyOf is
// judged without allocating when valid; one bad item renders only its
// branch's errors.
func TestTreeLargeJunctorSubtree(t *testing.T) {
	items := make([]any, 100000)
	for i := range items {
		items[i] = map[string]any{"n": int64(i)}
	}
	listOf := func(typ string) *Tree {
		return &Tree{Rules: tn(Node{Type: "array"}).Rules, Items: &Tree{Properties: map[string]*Tree{"n": typed(typ)}}}
	}
	tree := &Tree{AnyOf: []*Tree{listOf("string"), listOf("integer")}}
	var v any = items
	if allocs := testing.AllocsPerRun(3, func() {
		if errs := tree.Validate("spec.l", v); errs != nil {
			t.Fatal(errs)
		}
	}); allocs > 0 {
		t.Errorf("%v allocations for a valid value", allocs)
	}
	items[7] = map[string]any{"n": "x"}
	got := tree.Validate("spec.l", v).Strings()
	want := []string{
		`<nil>: Invalid value: "": "spec.l" must validate at least one schema (anyOf)`,
		`spec.l[7].n: Invalid value: "string": spec.l[7].n in body must be of type integer: "string"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestCompileAsWrittenCheck: Check agrees with AppendErrors on rules that
// keep their format as written.
func TestCompileAsWrittenCheck(t *testing.T) {
	values := []Scalar{N, B(true), S("x"), S("2020-01-01"), {Kind: Int, Int: 5}, F(1.5), F(2), {Kind: Object}, {Kind: Array}}
	for _, typ := range []string{"", "string", "integer", "number", "boolean", "object", "array"} {
		for _, f := range []string{"quantity", "date", "int32", "float64", "int64", "double", "int-or-string"} {
			for _, nullable := range []bool{false, true} {
				r, err := CompileAsWritten(Node{Type: typ, Format: f, Nullable: nullable})
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range values {
					errs := r.AppendErrors(nil, "x", v)
					if v.Kind == Object || v.Kind == Array {
						errs = r.AppendTypeErrors(nil, "x", v)
					}
					if ok := r.Check(v); ok != (len(errs) == 0) {
						t.Errorf("%s/%s nullable=%v %+v: Check %v, errors %q", typ, f, nullable, v, ok, errs.Strings())
					}
					if ok := r.typePasses(v); ok != (len(r.AppendTypeErrors(nil, "x", v)) == 0) {
						t.Errorf("%s/%s %+v: typePasses %v", typ, f, v, ok)
					}
				}
			}
		}
	}
}
