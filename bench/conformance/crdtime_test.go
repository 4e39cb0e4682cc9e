package conformance

// This file compares the CRD-time checks of issue 13 with the API server's
// CRD validation (ValidateCustomResourceDefinition through the oracle) on
// generated schemas: the defaults of embedded resources against TypeMeta
// and ObjectMeta, the completeness of the root's junctors, and the
// status-subresource rule on the root schema.

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/bench/oracle"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// crdTimeGen generates schemas and default values around embedded
// resources.
type crdTimeGen struct{ r *rand.Rand }

func (g crdTimeGen) pick(n int) int { return g.r.IntN(n) }

func (g crdTimeGen) oneOf(xs ...any) any { return xs[g.pick(len(xs))] }

// typeMeta returns an apiVersion or kind value (or absent) for a default.
func (g crdTimeGen) apiVersion() (any, bool) {
	v := g.oneOf("v1", "example.com/v1", "", "a/b/c", "/", int64(42), true, nil, "v1", "apps/v1")
	return v, g.pick(6) != 0
}

func (g crdTimeGen) kind() (any, bool) {
	v := g.oneOf("Widget", "X_y", "", "a", "1abc", int64(7), map[string]any{}, "Pod", strings.Repeat("k", 64), "Wid-get")
	return v, g.pick(6) != 0
}

// metadata returns a metadata value for a default.
func (g crdTimeGen) metadata() any {
	switch g.pick(12) {
	case 0:
		return nil
	case 1:
		return map[string]any{}
	case 2:
		return map[string]any{"name": int64(7)}
	case 3:
		return "x"
	}
	m := map[string]any{}
	for range 1 + g.pick(3) {
		switch g.pick(10) {
		case 0:
			m["name"] = g.oneOf("ok", "A_B", "a/b", "..", "%", "")
		case 1:
			m["generateName"] = g.oneOf("gen-", "a/b", "a%b", "")
		case 2:
			m["namespace"] = g.oneOf("ns", "Bad_NS", "", strings.Repeat("n", 64))
		case 3:
			m["labels"] = map[string]any{g.oneOf("a", "a b", "x/y", "-bad").(string): g.oneOf("v", "bad value", "", "-x")}
		case 4:
			m["annotations"] = map[string]any{g.oneOf("a", "A b", "example.com/x").(string): "v"}
		case 5:
			m["finalizers"] = []any{g.oneOf("example.com/f", "bad finalizer", "orphan", "x.y")}
		case 6:
			m["generation"] = g.oneOf(int64(-1), int64(1), "1")
		case 7:
			m["creationTimestamp"] = g.oneOf(nil, "2020-01-01T00:00:00Z", "nope")
		case 8:
			m["unknownField"] = "x"
		case 9:
			m["ownerReferences"] = []any{map[string]any{"apiVersion": g.oneOf("v1", "a/b/c", ""), "kind": "K", "name": "n", "uid": g.oneOf("u", "")}}
		}
	}
	return m
}

// resource returns an embedded resource's default value.
func (g crdTimeGen) resource() map[string]any {
	d := map[string]any{}
	if v, ok := g.apiVersion(); ok {
		d["apiVersion"] = v
	}
	if v, ok := g.kind(); ok {
		d["kind"] = v
	}
	if g.pick(3) != 0 {
		d["metadata"] = g.metadata()
	}
	if g.pick(4) == 0 {
		d["x"] = "y"
	}
	return d
}

// embedded returns an x-kubernetes-embedded-resource schema, with a
// default sometimes, and sometimes with declared apiVersion, kind and
// metadata carrying defaults of their own.
func (g crdTimeGen) embedded(depth int) map[string]any {
	n := map[string]any{"type": "object", "x-kubernetes-embedded-resource": true}
	props := map[string]any{}
	if g.pick(2) == 0 {
		n["x-kubernetes-preserve-unknown-fields"] = true
	} else {
		props["x"] = map[string]any{"type": "string"}
	}
	if g.pick(3) == 0 {
		av := map[string]any{"type": "string"}
		if g.pick(2) == 0 {
			if v, _ := g.apiVersion(); v != nil {
				if s, ok := v.(string); ok {
					av["default"] = s
				}
			}
		}
		props["apiVersion"] = av
	}
	if g.pick(3) == 0 {
		k := map[string]any{"type": "string"}
		if g.pick(2) == 0 {
			if v, _ := g.kind(); v != nil {
				if s, ok := v.(string); ok {
					k["default"] = s
				}
			}
		}
		props["kind"] = k
	}
	if g.pick(3) == 0 {
		md := map[string]any{"type": "object"}
		switch g.pick(3) {
		case 0:
			md["default"] = g.metadata()
			if md["default"] == nil {
				delete(md, "default")
			}
			md["x-kubernetes-preserve-unknown-fields"] = true
		case 1:
			md["properties"] = map[string]any{"name": map[string]any{"type": "string", "default": g.oneOf("ok", "A_B", "a/b", "abcdef")},
				"labels": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}, "default": map[string]any{g.oneOf("a", "a b").(string): "v"}}}
			if g.pick(2) == 0 {
				md["properties"].(map[string]any)["name"].(map[string]any)["maxLength"] = int64(3)
			}
		}
		props["metadata"] = md
	}
	if depth > 0 && g.pick(3) == 0 {
		props["inner"] = g.embedded(depth - 1)
	}
	if len(props) > 0 {
		n["properties"] = props
	}
	if g.pick(2) == 0 {
		n["default"] = g.resource()
	}
	return n
}

// holder returns a schema holding embedded resources: one directly, in an
// array, in a map, or in an object whose own default holds them.
func (g crdTimeGen) holder(depth int) map[string]any {
	switch g.pick(5) {
	case 0:
		return map[string]any{"type": "array", "items": g.embedded(depth)}
	case 1:
		return map[string]any{"type": "object", "additionalProperties": g.embedded(depth)}
	case 2:
		o := map[string]any{"type": "object", "properties": map[string]any{"e": g.embedded(depth), "l": map[string]any{"type": "array", "items": g.embedded(depth)}}}
		d := map[string]any{}
		if g.pick(2) == 0 {
			d["e"] = g.resource()
		}
		if g.pick(2) == 0 {
			d["l"] = []any{g.resource(), g.resource()}
		}
		o["default"] = d
		return o
	}
	return g.embedded(depth)
}

// rootSchema wraps a holder as spec of a root schema; sometimes the root
// has a default too (validated as a resource root).
func (g crdTimeGen) rootSchema() map[string]any {
	root := map[string]any{"type": "object", "properties": map[string]any{"spec": g.holder(2)}}
	if g.pick(8) == 0 {
		root["default"] = map[string]any{"spec": map[string]any{}}
	}
	return root
}

// crdTimeGot is what a create of the CRD would report according to
// jsonprune: CRD.Validate, then the LintValues lines it does not have (as
// `jsonprune lint-crds` prints them).
func crdTimeGot(t *testing.T, data []byte) []string {
	t.Helper()
	crds, err := schemaauto.ParseCRDs(data)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range crds {
		v := c.Validate().Strings()
		lv, _ := c.LintValues()
		for _, l := range lv.Strings() {
			if !slices.Contains(v, l) {
				v = append(v, l)
			}
		}
		got = append(got, v...)
	}
	return got
}

// TestEmbeddedDefaultsDifferential: CRDs with embedded resources whose
// defaults (at the embedded node, at a parent holding it, inside its
// apiVersion, kind and metadata, at the root) have good and bad apiVersion,
// kind and metadata, against the API server's CRD validation. The lines
// must be the same; the order is compared where the server's own order is
// stable (reordered: it iterates Go maps).
func TestEmbeddedDefaultsDifferential(t *testing.T) {
	g := crdTimeGen{rand.New(rand.NewPCG(13, 3))}
	n := 3000
	if testing.Short() {
		n = 600
	}
	var c treeComparison
	refused, metaLines, random := 0, 0, 0
	for range n {
		js, err := json.Marshal(g.rootSchema())
		if err != nil {
			t.Fatal(err)
		}
		data := wrapSchema(js)
		want, err := oracle.CRDViolations(data)
		if err != nil {
			t.Fatal(err)
		}
		want = oracle.FilterSchemaErrors(want)
		if len(want) > 0 {
			refused++
		}
		for _, w := range want {
			if strings.Contains(w, "default.apiVersion") || strings.Contains(w, "default.kind") || strings.Contains(w, "default.metadata") || strings.Contains(w, "must result in valid metadata") {
				metaLines++
			}
		}
		got := crdTimeGot(t, data)
		if !slices.Equal(want, got) && serverMayGive(data, got) {
			// the server picks one of several bad fields (or orders the
			// lines) by Go map iteration, and gives ours on some run
			random++
			want = got
		}
		c.compare(string(js), want, got, true)
	}
	c.report(t, "embedded-resource defaults")
	t.Logf("%d of %d CRDs refused by the server, %d TypeMeta/ObjectMeta lines; %d identical to one of the server's outputs that vary from run to run (map order)", refused, n, metaLines, random)
}

// serverMayGive reports whether the server's CRD validation of data gives
// the lines got, as a multiset, on one of 300 runs (where it iterates Go
// maps, which of several bad fields it reports first, and the order of its
// lines, vary).
func serverMayGive(data []byte, got []string) bool {
	g := slices.Sorted(slices.Values(got))
	for range 300 {
		again, err := oracle.CRDViolations(data)
		if err != nil {
			return false
		}
		if slices.Equal(slices.Sorted(slices.Values(oracle.FilterSchemaErrors(again))), g) {
			return true
		}
	}
	return false
}

// statusRoot generates a root schema with a random choice of keywords, the
// allowed ones with the status subresource and the others, with zero and
// non-zero values.
func (g crdTimeGen) statusRoot() map[string]any {
	root := map[string]any{"properties": map[string]any{"a": map[string]any{"type": "string"}}}
	if g.pick(6) != 0 {
		root["type"] = "object"
	} else {
		root["type"] = g.oneOf("array", "", "string")
	}
	choices := []func(){
		func() { root["description"] = g.oneOf("a <b> & c", "", "d") },
		func() { root["format"] = g.oneOf("int32", "") },
		func() { root["title"] = "t" },
		func() { root["maximum"] = g.oneOf(int64(3), 1.5, 1e21) },
		func() { root["exclusiveMaximum"] = g.oneOf(true, false) },
		func() { root["minimum"] = g.oneOf(int64(-1), 0.25) },
		func() { root["maxLength"] = int64(3) },
		func() { root["pattern"] = "^a" },
		func() { root["minItems"] = int64(1) },
		func() { root["multipleOf"] = g.oneOf(int64(2), 0.5) },
		func() { root["required"] = g.oneOf([]any{"a"}, []any{}) },
		func() { root["externalDocs"] = map[string]any{"description": "d", "url": "http://x/?a=1&b=<2>"} },
		func() { root["example"] = g.oneOf(map[string]any{"a": "x"}, int64(1), nil) },
		func() { root["x-kubernetes-preserve-unknown-fields"] = true },
		func() { root["x-kubernetes-validations"] = []any{map[string]any{"rule": "true", "message": "m"}} },
		func() { root["nullable"] = g.oneOf(true, false) },
		func() {
			root["default"] = g.oneOf(map[string]any{}, nil, map[string]any{"apiVersion": "v1", "kind": "K"})
		},
		func() { root["enum"] = g.oneOf([]any{map[string]any{}}, []any{}, nil) },
		func() { root["maxProperties"] = g.oneOf(int64(3), nil) },
		func() { root["minProperties"] = int64(1) },
		func() { root["allOf"] = g.oneOf([]any{map[string]any{"required": []any{"a"}}}, []any{}) },
		func() { root["oneOf"] = []any{map[string]any{"required": []any{"a"}}} },
		func() {
			root["anyOf"] = []any{map[string]any{"required": []any{"a"}}, map[string]any{"properties": map[string]any{"a": map[string]any{"minLength": int64(1)}}}}
		},
		func() { root["not"] = map[string]any{"required": []any{"x"}} },
		func() { root["additionalProperties"] = g.oneOf(false, true, map[string]any{"type": "string"}) },
		func() { root["x-kubernetes-embedded-resource"] = g.oneOf(true, false) },
		func() { root["x-kubernetes-int-or-string"] = g.oneOf(true, false) },
		func() { root["x-kubernetes-list-type"] = g.oneOf("atomic", nil) },
		func() { root["x-kubernetes-map-type"] = "atomic" },
		func() { root["x-kubernetes-list-map-keys"] = g.oneOf([]any{"a"}, []any{}) },
		func() { root["id"] = g.oneOf("x", "") },
		func() { root["$schema"] = g.oneOf("x", "") },
		func() { root["$ref"] = g.oneOf("#/x", "") },
		func() { root["dependencies"] = g.oneOf(map[string]any{}, map[string]any{"a": []any{"b"}}) },
		func() {
			root["patternProperties"] = g.oneOf(map[string]any{}, map[string]any{"^a": map[string]any{"type": "string"}})
		},
		func() { root["definitions"] = map[string]any{} },
		func() { root["items"] = map[string]any{"type": "string"} },
	}
	for range g.pick(4) {
		choices[g.pick(len(choices))]()
	}
	if g.pick(3) == 0 {
		root["properties"].(map[string]any)["status"] = map[string]any{"type": "object", "properties": map[string]any{"s": map[string]any{"type": "integer"}}}
	}
	return root
}

// statusCRD wraps schemas in a CRD with the status subresource: one v1
// version; two v1 versions with the same schema (spec.validation), or
// different ones (one with status, one without); or a v1beta1 CRD with a
// top-level schema and spec.subresources.
func (g crdTimeGen) statusCRD() []byte {
	head := `"metadata":{"name":"widgets.example.com"},"spec":{"group":"example.com","scope":"Namespaced",
"names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},`
	sch := func(s map[string]any) string {
		js, _ := json.Marshal(s)
		return `{"openAPIV3Schema":` + string(js) + `}`
	}
	status := `"subresources":{"status":{}}`
	s1 := g.statusRoot()
	switch g.pick(4) {
	case 0:
		return []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",` + head +
			`"versions":[{"name":"v1","served":true,"storage":true,` + status + `,"schema":` + sch(s1) + `}]}}`)
	case 1:
		return []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",` + head +
			`"versions":[{"name":"v1","served":true,"storage":true,` + status + `,"schema":` + sch(s1) + `},` +
			`{"name":"v2","served":true,"storage":false,"schema":` + sch(s1) + `}]}}`)
	case 2:
		return []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",` + head +
			`"versions":[{"name":"v1","served":true,"storage":true,"schema":` + sch(s1) + `},` +
			`{"name":"v2","served":true,"storage":false,` + status + `,"schema":` + sch(g.statusRoot()) + `}]}}`)
	}
	return []byte(`{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"CustomResourceDefinition",` + head +
		`"preserveUnknownFields":false,"versions":[{"name":"v1","served":true,"storage":true}],` + status + `,"validation":` + sch(s1) + `}}`)
}

// TestStatusRootDifferential: the status-subresource rule on the root
// schema (its "only [...] fields are allowed" message with the schema as
// the server renders it, and its type message) with the other CRD-time
// checks, against the API server's CRD validation, on generated schemas
// in v1 (one version, versions sharing a schema, versions with schemas of
// their own) and v1beta1 (top-level schema, spec.subresources).
func TestStatusRootDifferential(t *testing.T) {
	g := crdTimeGen{rand.New(rand.NewPCG(13, 2))}
	n := 2000
	if testing.Short() {
		n = 400
	}
	var c treeComparison
	statusLines, random := 0, 0
	for range n {
		data := g.statusCRD()
		want, err := oracle.CRDViolations(data)
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		want = oracle.FilterSchemaErrors(want)
		for _, w := range want {
			if strings.Contains(w, "if the status subresource is enabled") {
				statusLines++
			}
		}
		got := crdTimeGot(t, data)
		if !slices.Equal(want, got) && serverMayGive(data, got) {
			random++
			want = got
		}
		c.compare(string(data), want, got, true)
	}
	c.report(t, "status subresource on the root")
	t.Logf("%d status-subresource lines; %d identical to one of the server's outputs that vary from run to run", statusLines, random)
}

// junctorTree generates the value-validation side of a root junctor:
// properties (some nested) and items, with value validations only.
func (g crdTimeGen) junctorTree(depth int) map[string]any {
	n := map[string]any{}
	switch g.pick(4) {
	case 0:
		n["minLength"] = int64(1)
	case 1:
		n["required"] = []any{"a"}
	}
	if depth > 0 && g.pick(3) != 0 {
		props := map[string]any{}
		for range 1 + g.pick(2) {
			props[[]string{"spec", "l", "a", "b", "list"}[g.pick(5)]] = g.junctorTree(depth - 1)
		}
		n["properties"] = props
	}
	if depth > 0 && g.pick(5) == 0 {
		n["items"] = g.junctorTree(depth - 1)
	}
	return n
}

// skeleton generates the structural side: a root with some of the
// properties the junctors name (spec with a and maybe b, a list of
// objects), with or without x-kubernetes-preserve-unknown-fields at the root
// or at spec.
func (g crdTimeGen) skeleton() map[string]any {
	root := map[string]any{"type": "object"}
	if g.pick(2) == 0 {
		root["x-kubernetes-preserve-unknown-fields"] = true
	}
	props := map[string]any{}
	if g.pick(4) != 0 {
		spec := map[string]any{"type": "object"}
		sp := map[string]any{"a": map[string]any{"type": "string"}}
		if g.pick(2) == 0 {
			sp["b"] = map[string]any{"type": "string"}
		}
		spec["properties"] = sp
		if g.pick(3) == 0 {
			spec["x-kubernetes-preserve-unknown-fields"] = true
		}
		props["spec"] = spec
	}
	if g.pick(2) == 0 {
		props["list"] = map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}}}
	}
	if g.pick(3) == 0 {
		props["l"] = map[string]any{"type": "string"}
	}
	if len(props) > 0 {
		root["properties"] = props
	}
	for _, j := range []string{"allOf", "anyOf", "oneOf"} {
		if g.pick(3) == 0 {
			var l []any
			for range 1 + g.pick(2) {
				l = append(l, g.junctorTree(3))
			}
			root[j] = l
		}
	}
	if g.pick(5) == 0 {
		root["not"] = g.junctorTree(3)
	}
	return root
}

// TestCompletenessDifferential: the completeness of the root's junctors
// (every property and items named under allOf, anyOf, oneOf or not of the
// root must be specified outside them: "<path>: Required value: because it
// is defined in <junctor path>"), including properties named only under a
// root junctor when the root has x-kubernetes-preserve-unknown-fields and
// properties of nested properties (properties[spec].properties[b]), against
// the API server, with both path prefixes: spec.validation.openAPIV3Schema
// (one version) and spec.versions[i].schema.openAPIV3Schema (two versions
// with different schemas).
func TestCompletenessDifferential(t *testing.T) {
	g := crdTimeGen{rand.New(rand.NewPCG(13, 1))}
	n := 2000
	if testing.Short() {
		n = 400
	}
	var c treeComparison
	lines, preserveRoot, nested, random := 0, 0, 0, 0
	for i := range n {
		s1 := g.skeleton()
		js1, _ := json.Marshal(s1)
		var data []byte
		if i%2 == 0 {
			data = wrapSchema(js1)
		} else {
			js2, _ := json.Marshal(g.skeleton())
			data = []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.example.com"},"spec":{"group":"example.com","scope":"Namespaced",
"names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":` + string(js1) + `}},
{"name":"v2","served":true,"storage":false,"schema":{"openAPIV3Schema":` + string(js2) + `}}]}}`)
		}
		want, err := oracle.CRDViolations(data)
		if err != nil {
			t.Fatal(err)
		}
		want = oracle.FilterSchemaErrors(want)
		for _, w := range want {
			if strings.Contains(w, "because it is defined in") {
				lines++
				if strings.Count(w, "properties[") >= 4 {
					nested++
				}
				if s1["x-kubernetes-preserve-unknown-fields"] == true {
					preserveRoot++
				}
			}
		}
		got := crdTimeGot(t, data)
		if !slices.Equal(want, got) && serverMayGive(data, got) {
			random++
			want = got
		}
		c.compare(string(data), want, got, true)
	}
	c.report(t, "completeness of the root's junctors")
	t.Logf("%d completeness lines (%d with a nested property, %d in CRDs whose first root has x-kubernetes-preserve-unknown-fields); %d identical to one of the server's outputs that vary from run to run", lines, nested, preserveRoot, random)
}
