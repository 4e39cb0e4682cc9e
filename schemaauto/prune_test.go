package schemaauto

import (
	"reflect"
	"strings"
	"testing"
)

func mustCompile(t testing.TB, schema string) *Automaton {
	t.Helper()
	a, err := Compile(mustSchema(t, schema))
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return a
}

func mustJSON(t testing.TB, s string) any {
	t.Helper()
	docs, err := parseJSONValues([]byte(s))
	if err != nil || len(docs) != 1 {
		t.Fatalf("bad JSON %q: %v", s, err)
	}
	return docs[0]
}

func checkPrune(t *testing.T, a *Automaton, in, want string, wantUnknown ...string) {
	t.Helper()
	v := mustJSON(t, in)
	unknown := a.PruneValue(v, a.Root())
	if got := string(marshalCanonical(v)); got != string(marshalCanonical(mustJSON(t, want))) {
		t.Errorf("pruned %s\n got %s\nwant %s", in, got, want)
	}
	if strings.Join(unknown, "\n") != strings.Join(wantUnknown, "\n") {
		t.Errorf("unknown paths of %s\n got %q\nwant %q", in, unknown, wantUnknown)
	}
}

// TestPruningKEPExamples runs the 11 worked examples of the pruning KEP
// (spec 000) through the automaton. Example 9 follows the reference, not
// the KEP text: additionalProperties inside a preserving node prunes its
// object values with the additionalProperties schema (skipPrune in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go
// hands them to prune), so "bar" is emptied.
func TestPruningKEPExamples(t *testing.T) {
	for _, tc := range []struct {
		name, schema, in, want string
		unknown                []string
	}{
		{"1 unspecified", `{"type":"object"}`,
			`{"foo":42,"json":{"bar":43}}`, `{}`, []string{"foo", "json"}},
		{"2 properties at top-level", `{"type":"object","properties":{"foo":{"type":"object"}}}`,
			`{"foo":{"abc":42},"json":{"bar":43}}`, `{"foo":{}}`, []string{"foo.abc", "json"}},
		{"3 properties at multiple levels", `{"type":"object","properties":{"foo":{"type":"object","properties":{"bar":{"type":"object"}}}}}`,
			`{"foo":{"bar":{"abc":42},"def":43},"json":{"ghi":44}}`, `{"foo":{"bar":{}}}`, []string{"foo.bar.abc", "foo.def", "json"}},
		{"4 additionalProperties with a schema", `{"type":"object","properties":{"foo":{"type":"object","additionalProperties":{"type":"object"}}}}`,
			`{"foo":{"abc":{"x":42},"def":{"y":43}},"json":{"ghi":44}}`, `{"foo":{"abc":{},"def":{}}}`, []string{"foo.abc.x", "foo.def.y", "json"}},
		{"5 additionalProperties false", `{"type":"object","properties":{"foo":{"type":"object","additionalProperties":false}}}`,
			`{"foo":{"abc":{"x":42},"def":{"y":43}},"json":{"ghi":44}}`, `{"foo":{"abc":{},"def":{}}}`, []string{"foo.abc.x", "foo.def.y", "json"}},
		{"6 arbitrary JSON", `{"type":"object","properties":{"json":{"x-kubernetes-preserve-unknown-fields":true,"nullable":true}}}`,
			`{"foo":42,"json":{"bar":43}}`, `{"json":{"bar":43}}`, []string{"foo"}},
		{"7 JSON with properties at the same level", `{"type":"object","properties":{"json":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"nullable":true,"properties":{"bar":{"type":"object"}}}}}`,
			`{"foo":42,"json":{"bar":{"abc":43},"def":44}}`, `{"json":{"bar":{},"def":44}}`, []string{"foo", "json.bar.abc"}},
		{"8 JSON with properties at the same and lower levels", `{"type":"object","properties":{"json":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"nullable":true,"properties":{"bar":{"type":"object","properties":{"inner":{"type":"integer"}}}}}}}`,
			`{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`, `{"json":{"bar":{"inner":43},"def":45}}`, []string{"foo", "json.bar.abc"}},
		{"9 additionalProperties within JSON", `{"type":"object","properties":{"json":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"nullable":true,"additionalProperties":{"type":"object"}}}}`,
			`{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`, `{"json":{"bar":{},"def":45}}`, []string{"foo", "json.bar.abc", "json.bar.inner"}},
		{"10 embedded resource", `{"type":"object","properties":{"object":{"type":"object","nullable":true,"x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}`,
			`{"foo":42,"object":{"bar":43,"abc":44,"metadata":{"name":"example","garbage":45}}}`,
			`{"object":{"bar":43,"abc":44,"metadata":{"name":"example","garbage":45}}}`, []string{"foo"}},
		{"11 implicit TypeMeta and ObjectMeta", `{"type":"object"}`,
			`{"apiVersion":"example/v1","kind":"Foo","metadata":{"name":"example","garbage":43},"foo":42}`,
			`{"apiVersion":"example/v1","kind":"Foo","metadata":{"name":"example","garbage":43}}`, []string{"foo"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkPrune(t, mustCompile(t, tc.schema), tc.in, tc.want, tc.unknown...)
		})
	}
	// Examples 7 and 8 are stated in the KEP without "type" on json's
	// children being pruned; example 7 as printed keeps bar's "abc": the
	// reference (and jsonprune) resets pruning at bar because bar is a
	// property, which is exception 1 of the KEP's own rule. The KEP's
	// metadata garbage (examples 10, 11) is removed by ObjectMeta
	// normalisation in the decoder, not by pruning.
}

// TestPruningReferenceRules pins the rules of prune and skipPrune
// (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go)
// and their surprising cases (additionalProperties true or false empties
// object values, preserve is inherited through items only) on the Widget
// schema.
func TestPruningReferenceRules(t *testing.T) {
	a := widget(t)
	for _, tc := range []struct {
		name, in, want string
		unknown        []string
	}{
		{"root unknown", `{"zroot":1,"aroot":{"x":1}}`, `{}`, []string{"aroot", "zroot"}},
		{"case-sensitive", `{"Spec":{},"spec":{"Replicas":1,"replicas":2}}`, `{"spec":{"replicas":2}}`, []string{"Spec", "spec.Replicas"}},
		{"dotted and bracketed names", `{"spec":{"a.b":"x","a[0]":"y","a":{"b":1},"ключ":"z"}}`, `{"spec":{"a.b":"x","a[0]":"y","ключ":"z"}}`, []string{"spec.a"}},
		{"empty key", `{"spec":{"":1}}`, `{"spec":{}}`, []string{"spec."}},
		{"array items pruned", `{"spec":{"list":[{"x":"a","q":1},{"r":2}]}}`, `{"spec":{"list":[{"x":"a"},{}]}}`, []string{"spec.list[0].q", "spec.list[1].r"}},
		{"object where array expected", `{"spec":{"list":{"x":1}}}`, `{"spec":{"list":{}}}`, []string{"spec.list.x"}},
		{"array where object expected", `{"spec":{"obj":[{"a":1},2]}}`, `{"spec":{"obj":[{},2]}}`, []string{"spec.obj[0].a"}},
		{"map of objects", `{"spec":{"mapOfObj":{"k.1":{"y":"a","zz":1}}}}`, `{"spec":{"mapOfObj":{"k.1":{"y":"a"}}}}`, []string{"spec.mapOfObj.k.1.zz"}},
		{"additionalProperties true empties objects", `{"spec":{"apTrue":{"s":"x","o":{"deep":1},"l":[{"e":1},3]}}}`, `{"spec":{"apTrue":{"s":"x","o":{},"l":[{},3]}}}`, []string{"spec.apTrue.l[0].e", "spec.apTrue.o.deep"}},
		{"preserve keeps unknown, known resets", `{"spec":{"preserved":{"any":{"x":1},"known":{"k":"v","extra":1}}}}`, `{"spec":{"preserved":{"any":{"x":1},"known":{"k":"v"}}}}`, []string{"spec.preserved.known.extra"}},
		{"preserve inherited by items", `{"spec":{"preservedList":[{"k":"v","other":{"z":1}}]}}`, `{"spec":{"preservedList":[{"k":"v","other":{"z":1}}]}}`, nil},
		{"embedded keeps meta keys whatever their type", `{"spec":{"embeddedStrict":{"apiVersion":1,"kind":{},"metadata":{"x":1},"spec":{"a":"x","b":1},"other":2}}}`,
			`{"spec":{"embeddedStrict":{"apiVersion":1,"kind":{},"metadata":{"x":1},"spec":{"a":"x"}}}}`, []string{"spec.embeddedStrict.other", "spec.embeddedStrict.spec.b"}},
		{"nested apiVersion is ordinary", `{"spec":{"obj":{"apiVersion":"v1","kind":"K","metadata":{}}}}`, `{"spec":{"obj":{}}}`, []string{"spec.obj.apiVersion", "spec.obj.kind", "spec.obj.metadata"}},
		{"int-or-string object emptied", `{"spec":{"intOrString":{"a":1}}}`, `{"spec":{"intOrString":{}}}`, []string{"spec.intOrString.a"}},
		{"sorted bytewise", `{"spec":{"list2":1,"listX":1,"List":1,"list":[{"b":1}]}}`, `{"spec":{"list":[{}]}}`, []string{"spec.List", "spec.list2", "spec.listX", "spec.list[0].b"}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkPrune(t, a, tc.in, tc.want, tc.unknown...) })
	}
}

func widget(t testing.TB) *Automaton {
	t.Helper()
	set := widgetSet(t)
	e, ok := set.Lookup("example.com/v1", "Widget")
	if !ok {
		t.Fatal("Widget not found")
	}
	return e.Automaton
}

func widgetSet(t testing.TB) *Set {
	t.Helper()
	crds, err := ParseCRDs(readFile(t, "../examples/widget-crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := CompileCRDs(crds)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestDefaultsArePrePruned compiles unpruned defaults (which CRD validation
// rejects today, but which CRDs created before that check still carry) and
// checks that they are pruned in their surrounding object, as the
// reference's PruneDefaults does.
func TestDefaultsArePrePruned(t *testing.T) {
	a, err := compile(mustSchema(t, `{"type":"object","properties":{
		"o":{"type":"object","properties":{"a":{"type":"string"},"w":{"type":"integer","default":7}},"default":{"a":"x","unk":1}},
		"l":{"type":"array","items":{"type":"object","properties":{"p":{"type":"string"}},"default":{"p":"d","q":2}}},
		"m":{"type":"object","additionalProperties":{"type":"object","properties":{"y":{"type":"string"}},"default":{"y":"1","z":2}}},
		"keep":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"default":{"any":{"x":1}}},
		"n":{"type":"number","default":1.0}}}`), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"o": `{"a":"x","w":7}`, "o.w": `7`, "l[]": `{"p":"d"}`, "m*": `{"y":"1"}`, "keep": `{"any":{"x":1}}`, "n": `1`,
	}
	got := map[string]string{}
	root := a.Root()
	find := func(s StateID, name string) StateID {
		i := a.Lookup(s, []byte(name))
		if i < 0 {
			t.Fatalf("no property %q", name)
		}
		return a.Props(s)[i].Target
	}
	record := func(key string, s StateID) {
		if _, j, ok := a.Default(s); ok {
			got[key] = string(j)
		}
	}
	o := find(root, "o")
	record("o", o)
	record("o.w", find(o, "w"))
	record("l[]", a.State(find(root, "l")).Items)
	record("m*", a.State(find(root, "m")).Additional)
	record("keep", find(root, "keep"))
	record("n", find(root, "n"))
	if !reflect.DeepEqual(got, want) {
		t.Errorf("defaults\n got %v\nwant %v", got, want)
	}
	if a.State(o).Flags&DefaultsProps == 0 || a.State(root).Flags&DefaultsProps == 0 {
		t.Errorf("DefaultsProps not set: %s", a)
	}
}

func TestUnprunedDefaultsAreReported(t *testing.T) {
	_, err := Compile(mustSchema(t, `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"string"}},"default":{"a":"x","unk":1}}}}`))
	want := `schema is not structural: openAPIV3Schema.properties[o].default: Invalid value: {"a":"x","unk":1}: must not have unknown fields`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestDefaultValue runs the reference's defaulting (Default in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting/algorithm.go) over the
// automaton: nested defaults, nulls, additionalProperties and items.
func TestDefaultValue(t *testing.T) {
	a, err := compile(mustSchema(t, `{"type":"object","properties":{
		"o":{"type":"object","properties":{"x":{"type":"integer"},"w":{"type":"integer","default":7}},"default":{"x":1}},
		"n":{"type":"string","default":"d"},
		"nn":{"type":"string","nullable":true,"default":"d"},
		"m":{"type":"object","additionalProperties":{"type":"string","default":"ap"}},
		"l":{"type":"array","items":{"type":"string","default":"I"}}}}`), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		{`{}`, `{"n":"d","nn":"d","o":{"w":7,"x":1}}`},
		{`{"n":null,"nn":null,"o":{}}`, `{"n":"d","nn":null,"o":{"w":7}}`},
		{`{"m":{"a":null,"b":"x"},"l":[null,"x"]}`, `{"l":["I","x"],"m":{"a":"ap","b":"x"},"n":"d","nn":"d","o":{"w":7,"x":1}}`},
	} {
		v := a.DefaultValue(mustJSON(t, tc.in), a.Root())
		if got := string(marshalCanonical(v)); got != tc.want {
			t.Errorf("Default(%s)\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

// TestPruneValueNotResourceRoot: PruneValue from a state that is not a
// resource root removes apiVersion, kind and metadata at the top of the
// value without reporting them, as the reference's pruning does (it records
// an unknown field only below the top); below the top, and from the
// resource root, nothing changes.
func TestPruneValueNotResourceRoot(t *testing.T) {
	a := mustCompile(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"},
		"o":{"type":"object"}}}}}`)
	var spec StateID = NoState
	for _, p := range a.Props(a.Root()) {
		if p.Name == "spec" {
			spec = p.Target
		}
	}
	if spec == NoState {
		t.Fatal("no spec state")
	}
	for _, tc := range []struct {
		in, want string
		unknown  []string
	}{
		{`{"apiVersion":"v1","kind":"K","metadata":{"name":"x"},"a":"s","b":1}`, `{"a":"s"}`, []string{"b"}},
		{`{"o":{"apiVersion":"v1","kind":"K","metadata":{}}}`, `{"o":{}}`, []string{"o.apiVersion", "o.kind", "o.metadata"}},
		{`{"kind":1}`, `{}`, nil},
	} {
		v := mustJSON(t, tc.in)
		unknown := a.PruneValue(v, spec)
		if got := string(marshalCanonical(v)); got != string(marshalCanonical(mustJSON(t, tc.want))) {
			t.Errorf("pruned %s\n got %s\nwant %s", tc.in, got, tc.want)
		}
		if !reflect.DeepEqual(unknown, tc.unknown) {
			t.Errorf("unknown paths of %s\n got %q\nwant %q", tc.in, unknown, tc.unknown)
		}
	}
	// from the root, metadata, apiVersion and kind are kept
	checkPrune(t, a, `{"apiVersion":"v1","kind":"K","metadata":{},"x":1}`, `{"apiVersion":"v1","kind":"K","metadata":{}}`, "x")
}
