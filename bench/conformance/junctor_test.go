package conformance

// This file holds package validate's value-tree validator (validate.Tree,
// built by schemaauto's Schema.ValidationTree) to the API server's code:
//
//   - the schema step (apiextensions' NewSchemaValidator, then
//     ValidateCustomResource) on generated schemas with nested junctors
//     (allOf, anyOf, oneOf, not with types, enums, bounds, required and
//     properties inside the branches) and generated values, at the root and
//     as the property spec.x, and on every corpus CRD schema that uses
//     junctors, with its CRs as written, mutated, and generated instances;
//   - the list-type step (listtype.ValidateListSetsAndMaps) on generated
//     arrays: int64 vs float64, objects with keys in any order, nulls,
//     missing keys, nested lists, additionalProperties maps.
//
// Errors are compared as multisets; where the server's order is
// deterministic (no object with two or more keys in the value) the order
// must be identical too.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/bench/gen"
	"github.com/jsonprune/jsonprune/bench/oracle"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/validate"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	sigsjson "sigs.k8s.io/json"
)

// junctorGen generates schemas (as JSON value trees) and values.
type junctorGen struct{ r *rand.Rand }

func (g junctorGen) pick(n int) int { return g.r.IntN(n) }

var (
	genKeys    = []string{"a", "b", "c"}
	genStrings = []any{"", "a", "ab", "abc", "abcd", "x", "2020-01-01", "A"}
	genInts    = []any{int64(-1), int64(0), int64(1), int64(2), int64(3), int64(5), int64(10), int64(65)}
	genFloats  = []any{0.5, 1.0, 2.5, 3.0, 1e21, -0.5}
)

// node generates one schema node; depth bounds the nesting.
func (g junctorGen) node(depth int) map[string]any {
	n := map[string]any{}
	types := []string{"", "", "string", "integer", "number", "boolean", "object", "object", "array"}
	typ := types[g.pick(len(types))]
	if typ != "" {
		n["type"] = typ
	}
	if g.pick(10) == 0 {
		n["nullable"] = true
	}
	if typ == "" && g.pick(8) == 0 {
		n["x-kubernetes-int-or-string"] = true
	}
	if g.pick(5) == 0 {
		var e []any
		pool := slices.Concat(genStrings, genInts, genFloats, []any{true, map[string]any{"a": int64(1)}, []any{int64(1)}})
		for k := 1 + g.pick(3); k > 0; k-- {
			e = append(e, pool[g.pick(len(pool))])
		}
		n["enum"] = e
	}
	if typ == "string" || typ == "" && g.pick(3) == 0 {
		switch g.pick(6) {
		case 0:
			n["maxLength"] = int64(g.pick(4))
		case 1:
			n["minLength"] = int64(1 + g.pick(3))
		case 2:
			n["pattern"] = []string{"^a", "b", "^[a-c]+$", "x$"}[g.pick(4)]
		case 3:
			n["format"] = []string{"date", "uuid", "int32", "byte"}[g.pick(4)]
		}
	}
	if typ == "integer" || typ == "number" || typ == "" && g.pick(3) == 0 {
		switch g.pick(6) {
		case 0:
			n["minimum"] = []any{int64(0), int64(2), 0.5}[g.pick(3)]
		case 1:
			n["maximum"] = []any{int64(3), int64(10), 2.5}[g.pick(3)]
			if g.pick(2) == 0 {
				n["exclusiveMaximum"] = true
			}
		case 2:
			n["multipleOf"] = []any{int64(2), int64(5), 0.5}[g.pick(3)]
		case 3:
			n["format"] = []string{"int32", "float", "int64"}[g.pick(3)]
		}
	}
	if typ == "array" || typ == "" && g.pick(4) == 0 {
		if depth > 0 && g.pick(3) > 0 {
			n["items"] = g.node(depth - 1)
		}
		switch g.pick(4) {
		case 0:
			n["minItems"] = int64(1 + g.pick(2))
		case 1:
			n["maxItems"] = int64(g.pick(3))
		}
	}
	if typ == "object" || typ == "" && g.pick(3) == 0 {
		if depth > 0 && g.pick(4) > 0 {
			props := map[string]any{}
			for _, k := range genKeys {
				if g.pick(2) == 0 {
					props[k] = g.node(depth - 1)
				}
			}
			n["properties"] = props
		} else if depth > 0 && g.pick(3) == 0 {
			n["additionalProperties"] = g.node(depth - 1)
		} else if g.pick(4) == 0 {
			n["additionalProperties"] = false
		}
		if g.pick(3) == 0 {
			var req []any
			for _, k := range genKeys {
				if g.pick(3) == 0 {
					req = append(req, k)
				}
			}
			if len(req) > 0 {
				n["required"] = req
			}
		}
		switch g.pick(5) {
		case 0:
			n["minProperties"] = int64(1 + g.pick(2))
		case 1:
			n["maxProperties"] = int64(g.pick(3))
		}
	}
	if depth > 0 {
		for _, j := range []string{"allOf", "anyOf", "oneOf"} {
			if g.pick(3) == 0 {
				var l []any
				for k := 1 + g.pick(3); k > 0; k-- {
					l = append(l, g.node(depth-1))
				}
				n[j] = l
			}
		}
		if g.pick(6) == 0 {
			n["not"] = g.node(depth - 1)
		}
	}
	return n
}

// value generates a decoded value.
func (g junctorGen) value(depth int) any {
	switch g.pick(9) {
	case 0:
		return nil
	case 1:
		return g.pick(2) == 0
	case 2:
		return genInts[g.pick(len(genInts))]
	case 3:
		return genFloats[g.pick(len(genFloats))]
	case 4, 5:
		return genStrings[g.pick(len(genStrings))]
	case 6:
		if depth > 0 {
			var a []any
			for k := g.pick(4); k > 0; k-- {
				a = append(a, g.value(depth-1))
			}
			if a == nil {
				a = []any{}
			}
			return a
		}
		return "a"
	default:
		m := map[string]any{}
		if depth > 0 {
			for _, k := range []string{"a", "b", "c", "d"} {
				if g.pick(3) == 0 {
					m[k] = g.value(depth - 1)
				}
			}
		}
		return m
	}
}

// serverValidator builds the API server's schema validator from a bare
// schema, decoded as a CRD's schema is (integers as int64).
func serverValidator(t testing.TB, schema []byte) apiservervalidation.SchemaValidator {
	crd, _, err := oracle.DecodeCRD(wrapSchema(schema))
	if err != nil {
		t.Fatalf("DecodeCRD: %v\n%s", err, schema)
	}
	var props *apiextensions.JSONSchemaProps
	if crd.Spec.Validation != nil {
		props = crd.Spec.Validation.OpenAPIV3Schema
	}
	if s := crd.Spec.Versions[0].Schema; s != nil && s.OpenAPIV3Schema != nil {
		props = s.OpenAPIV3Schema
	}
	sv, _, err := apiservervalidation.NewSchemaValidator(props)
	if err != nil {
		t.Fatalf("NewSchemaValidator: %v", err)
	}
	return sv
}

func serverErrors(sv apiservervalidation.SchemaValidator, v any) []string {
	var out []string
	for _, e := range apiservervalidation.ValidateCustomResource(nil, v, sv) {
		out = append(out, e.Error())
	}
	return out
}

// orderDeterministic reports whether the server's error order for v is
// free of Go map iteration: no object in v has two keys or more.
func orderDeterministic(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		if len(x) > 1 {
			return false
		}
		for _, e := range x {
			if !orderDeterministic(e) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !orderDeterministic(e) {
				return false
			}
		}
	}
	return true
}

type treeComparison struct {
	compared, withErrors, identical, sameMultiset, exactChecked int
	junctorLines                                                int
	diffs                                                       []string
}

func (c *treeComparison) compare(name string, want, got []string, exact bool) {
	c.compared++
	if len(want) > 0 {
		c.withErrors++
	}
	for _, w := range want {
		if strings.Contains(w, "(anyOf)") || strings.Contains(w, "(oneOf)") || strings.Contains(w, "(allOf)") || strings.Contains(w, "(not)") {
			c.junctorLines++
			break
		}
	}
	if exact {
		c.exactChecked++
		if slices.Equal(want, got) {
			c.identical++
			return
		}
	} else {
		ws, gs := slices.Clone(want), slices.Clone(got)
		slices.Sort(ws)
		slices.Sort(gs)
		if slices.Equal(ws, gs) {
			c.sameMultiset++
			return
		}
	}
	if len(c.diffs) < 25 {
		c.diffs = append(c.diffs, fmt.Sprintf("%s:\n  server   %q\n  jsonprune %q", name, want, got))
	}
}

func (c *treeComparison) report(t *testing.T, what string) {
	t.Logf("%s: %d compared (%d with errors, %d with junctor lines); %d of %d in deterministic order identical, %d others identical as multisets; %d differences",
		what, c.compared, c.withErrors, c.junctorLines, c.identical, c.exactChecked, c.sameMultiset, c.compared-c.identical-c.sameMultiset)
	for _, d := range c.diffs {
		t.Error(d)
	}
}

func mustTree(t testing.TB, schema []byte) *validate.Tree {
	s, err := schemaauto.ParseSchema(schema)
	if err != nil {
		t.Fatalf("ParseSchema: %v\n%s", err, schema)
	}
	tr, err := s.ValidationTree()
	if err != nil {
		t.Fatalf("ValidationTree: %v\n%s", err, schema)
	}
	return tr
}

// TestJunctorDifferential: generated schemas with nested junctors, each
// against generated values, at the root and as spec.x.
func TestJunctorDifferential(t *testing.T) {
	g := junctorGen{rand.New(rand.NewPCG(13, 21))}
	schemas, values := 1500, 12
	if testing.Short() {
		schemas = 300
	}
	var c treeComparison
	for i := 0; i < schemas; i++ {
		node := g.node(3)
		for _, nested := range []bool{false, true} {
			root := node
			if nested {
				root = map[string]any{"type": "object", "properties": map[string]any{
					"spec": map[string]any{"type": "object", "properties": map[string]any{"x": node}}}}
			}
			js, err := json.Marshal(root)
			if err != nil {
				t.Fatal(err)
			}
			sv := serverValidator(t, js)
			tr := mustTree(t, js)
			for k := 0; k < values; k++ {
				v := g.value(3)
				val := v
				if nested {
					val = map[string]any{"spec": map[string]any{"x": v}}
				}
				want := serverErrors(sv, val)
				got := tr.Validate("", val).Strings()
				c.compare(fmt.Sprintf("schema %s value %s", js, mustJSON(val)), want, got, orderDeterministic(val))
			}
		}
	}
	c.report(t, "generated junctor schemas")
	if c.junctorLines == 0 {
		t.Error("no junctor error was compared")
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestJunctorVectors pins the reference's junctor behaviours (4.3) against
// the server: the best branch (first of equal counts, J11/J12; deeper
// beats shallower, J13), de-duplication with the node (J14), the order
// anyOf, oneOf, allOf, not (J15), the root path "" (J16).
func TestJunctorVectors(t *testing.T) {
	cases := []struct {
		schema string
		value  string
	}{
		{`{"anyOf":[{"type":"integer","minimum":5},{"type":"integer","maximum":1}]}`, `3`},
		{`{"anyOf":[{"type":"integer"},{"type":"string"}]}`, `1.5`},
		{`{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}`, `1.5`},
		{`{"anyOf":[{"properties":{"a":{"type":"string"}}},{"properties":{"a":{"type":"string"},"b":{"type":"string"}}}]}`, `{"a":1,"b":2}`},
		{`{"type":"integer","allOf":[{"type":"integer"}]}`, `"x"`},
		{`{"maxLength":2,"allOf":[{"maxLength":2}]}`, `"abc"`},
		{`{"anyOf":[{"type":"string"}],"oneOf":[{"type":"string"}],"allOf":[{"type":"string"}],"not":{"type":"integer"}}`, `1`},
		{`{"oneOf":[{"type":"integer"},{"minimum":0}]}`, `1`},
		{`{"oneOf":[{"type":"string"},{"type":"boolean"}]}`, `1`},
		{`{"allOf":[{"type":"string"},{"type":"boolean"}]}`, `1`},
		{`{"allOf":[{"type":"integer"},{"type":"boolean"}]}`, `1`},
		{`{"not":{"type":"integer"}}`, `1`},
		{`{"required":["a"],"allOf":[{"required":["a"]}]}`, `{}`},
		{`{"properties":{"IMPORTANT!x":{"anyOf":[{"type":"string"}]}},"anyOf":[{"properties":{"IMPORTANT!x":{"type":"string"}}},{"type":"string"}]}`, `{"IMPORTANT!x":1}`},
		{`{"enum":["a b"],"allOf":[{"enum":["a","b"]}]}`, `"c"`},
		{`{"maxItems":1,"allOf":[{"maxProperties":1}]}`, `{"a":1,"b":2}`},
	}
	for _, tc := range cases {
		for _, nested := range []bool{false, true} {
			schema := tc.schema
			value := tc.value
			if nested {
				schema = `{"type":"object","properties":{"spec":{"type":"object","properties":{"x":` + schema + `}}}}`
				value = `{"spec":{"x":` + value + `}}`
			}
			var v any
			if err := sigsjson.UnmarshalCaseSensitivePreserveInts([]byte(value), &v); err != nil {
				t.Fatal(err)
			}
			want := serverErrors(serverValidator(t, []byte(schema)), v)
			got := mustTree(t, []byte(schema)).Validate("", v).Strings()
			same := slices.Equal(want, got)
			if !orderDeterministic(v) {
				ws, gs := slices.Sorted(slices.Values(want)), slices.Sorted(slices.Values(got))
				same = slices.Equal(ws, gs)
			}
			if !same {
				t.Errorf("schema %s value %s:\n server    %q\n jsonprune %q", schema, value, want, got)
			} else {
				t.Logf("%s %s: %q", schema, value, got)
			}
		}
	}
}

// usesJunctors reports whether a schema has allOf, anyOf, oneOf or not anywhere.
func usesJunctors(s *schemaauto.Schema) bool {
	if s == nil {
		return false
	}
	if len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) > 0 || s.Not != nil {
		return true
	}
	for _, c := range s.Properties {
		if usesJunctors(c) {
			return true
		}
	}
	if s.AdditionalProperties != nil && usesJunctors(s.AdditionalProperties.Schema) {
		return true
	}
	return usesJunctors(s.Items)
}

// TestJunctorCorpusDifferential: every corpus CRD version whose schema uses
// junctors; its CRs as written and mutated, and generated instances,
// decoded, pruned and defaulted by the reference chain, validated by both.
func TestJunctorCorpusDifferential(t *testing.T) {
	pairs, sides := loadPairs(t)
	type ver struct {
		sv   apiservervalidation.SchemaValidator
		tree *validate.Tree
		stat bool
	}
	vers := map[string]map[string]*ver{}
	crdsWith := 0
	for crd := range sides {
		data, err := os.ReadFile(filepath.Join(corpusRoot, crd))
		if err != nil {
			t.Fatal(err)
		}
		crds, err := schemaauto.ParseCRDs(data)
		if err != nil || len(crds) != 1 {
			t.Fatalf("%s: %v", crd, err)
		}
		vals := validatorsOf(t, data)
		m := map[string]*ver{}
		for name, v := range vals {
			sv := crds[0].Version(name)
			if sv == nil || !usesJunctors(sv.Schema) {
				continue
			}
			tr, err := sv.Schema.ValidationTree()
			if err != nil {
				t.Fatalf("%s %s: %v", crd, name, err)
			}
			m[name] = &ver{v.sv, tr, v.status}
		}
		if len(m) > 0 {
			vers[crd] = m
			crdsWith++
		}
	}
	var asIs, mutated, generated treeComparison
	check := func(c *treeComparison, name string, s side, v *ver, body []byte) {
		res, err := s.oracle.Decode(body, oracle.CROptions{FieldValidation: "Ignore"})
		if err != nil || res.Object == nil || res.Fatal != "" || res.GroupVersionMismatch != "" {
			return
		}
		obj := res.Object
		if v.stat {
			delete(obj, "status")
		}
		want := serverErrors(v.sv, obj)
		got := v.tree.Validate("", obj).Strings()
		c.compare(name, want, got, false)
	}
	for i, p := range pairs {
		v := vers[p.crd][versionOf(p.body)]
		if v == nil {
			continue
		}
		check(&asIs, p.name, sides[p.crd], v, p.body)
		r := rand.New(rand.NewPCG(uint64(i), 17))
		for k := range 4 {
			check(&mutated, fmt.Sprintf("%s (mutation %d)", p.name, k), sides[p.crd], v, mutateValues(r, p.body))
		}
	}
	i := 0
	for _, crd := range slices.Sorted(func(yield func(string) bool) {
		for k := range vers {
			if !yield(k) {
				return
			}
		}
	}) {
		s := sides[crd]
		for _, version := range slices.Sorted(maps.Keys(vers[crd])) {
			v := vers[crd][version]
			sch := schemaFor(t, s.oracle, version)
			if sch == nil {
				continue
			}
			g := gen.New(int64(i))
			i++
			r := rand.New(rand.NewPCG(uint64(i), 19))
			for k := range 6 {
				body := g.Instance(sch, s.oracle.Group+"/"+version, s.oracle.Kind)
				check(&generated, fmt.Sprintf("%s %s instance %d", crd, version, k), s, v, mutateValues(r, body))
			}
		}
	}
	t.Logf("%d corpus CRDs use junctors", crdsWith)
	asIs.report(t, "corpus CRs as written")
	mutated.report(t, "corpus CRs, values mutated")
	generated.report(t, "generated instances, values mutated")
}

// ---- list types ----

func strp(s string) *string { return &s }

// listGen generates list-type schemas (structural, for the server) and the
// matching trees, and arrays to check.
type listCase struct {
	name   string
	server *structuralschema.Structural
	tree   *validate.Tree
}

func listCases() []listCase {
	scalar := func(t string) *structuralschema.Structural {
		return &structuralschema.Structural{Generic: structuralschema.Generic{Type: t}}
	}
	obj := func(props ...string) *structuralschema.Structural {
		s := &structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"}, Properties: map[string]structuralschema.Structural{}}
		for _, p := range props {
			s.Properties[p] = *scalar("")
		}
		return s
	}
	list := func(lt string, keys []string, items *structuralschema.Structural) *structuralschema.Structural {
		s := &structuralschema.Structural{Generic: structuralschema.Generic{Type: "array"}, Items: items}
		if lt != "" {
			s.Extensions.XListType = strp(lt)
		}
		s.Extensions.XListMapKeys = keys
		return s
	}
	inner := list("set", nil, scalar(""))
	mapItems := obj("name", "port", "protocol", "l")
	mapItems.Properties["l"] = *inner
	cases := []struct {
		name string
		s    *structuralschema.Structural
	}{
		{"set", list("set", nil, scalar(""))},
		{"atomic", list("atomic", nil, scalar(""))},
		{"none", list("", nil, scalar(""))},
		{"map1", list("map", []string{"name"}, mapItems)},
		{"map2", list("map", []string{"port", "protocol"}, mapItems)},
		{"map0", list("map", nil, mapItems)},
		{"setOfSets", list("set", nil, list("set", nil, scalar("")))},
		{"listOfSets", list("", nil, inner)},
	}
	var out []listCase
	for _, c := range cases {
		root := &structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"}, Properties: map[string]structuralschema.Structural{
			"spec": {Generic: structuralschema.Generic{Type: "object"}, Properties: map[string]structuralschema.Structural{"l": *c.s}},
			"m":    {Generic: structuralschema.Generic{Type: "object"}, AdditionalProperties: &structuralschema.StructuralOrBool{Structural: c.s}},
		}}
		out = append(out, listCase{c.name, root, treeOfStructural(root)})
	}
	return out
}

// treeOfStructural builds the Tree of a structural schema (list types and
// the structure only).
func treeOfStructural(s *structuralschema.Structural) *validate.Tree {
	if s == nil {
		return nil
	}
	t := &validate.Tree{ListMapKeys: s.Extensions.XListMapKeys}
	if s.Extensions.XListType != nil {
		t.ListType = *s.Extensions.XListType
	}
	if len(s.Properties) > 0 {
		t.Properties = map[string]*validate.Tree{}
		for k, p := range s.Properties {
			t.Properties[k] = treeOfStructural(&p)
		}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		t.AdditionalProperties = treeOfStructural(s.AdditionalProperties.Structural)
	}
	t.Items = treeOfStructural(s.Items)
	return t
}

func (g junctorGen) listItem(depth int) any {
	pool := []any{int64(1), 1.0, int64(2), 2.0, "a", "b", true, false, nil, "1"}
	switch g.pick(6) {
	case 0, 1:
		return pool[g.pick(len(pool))]
	case 2:
		if depth > 0 {
			var a []any
			for k := g.pick(3); k > 0; k-- {
				a = append(a, g.listItem(depth-1))
			}
			if a == nil {
				a = []any{}
			}
			return a
		}
		return int64(1)
	default:
		m := map[string]any{}
		vals := []any{"a", "b", int64(80), 80.0, "TCP", nil, int64(1)}
		for _, k := range []string{"name", "port", "protocol"} {
			if g.pick(3) > 0 {
				m[k] = vals[g.pick(len(vals))]
			}
		}
		if depth > 0 && g.pick(3) == 0 {
			var a []any
			for k := g.pick(4); k > 0; k-- {
				a = append(a, pool[g.pick(len(pool))])
			}
			m["l"] = a
		}
		return m
	}
}

// TestListTypeDifferential: validate.Tree.ListTypes (with ListTypeErrors)
// against listtype.ValidateListSetsAndMaps on generated arrays under
// spec.l and in a map m (additionalProperties).
func TestListTypeDifferential(t *testing.T) {
	g := junctorGen{rand.New(rand.NewPCG(5, 8))}
	var c treeComparison
	dups := 0
	for _, lc := range listCases() {
		for i := 0; i < 3000; i++ {
			var arr []any
			for k := g.pick(7); k > 0; k-- {
				arr = append(arr, g.listItem(2))
			}
			if arr == nil {
				arr = []any{}
			}
			obj := map[string]any{"spec": map[string]any{"l": arr}}
			if g.pick(3) == 0 {
				obj["m"] = map[string]any{"k.1": arr, "k2": []any{int64(1), int64(1)}}
			}
			var want []string
			for _, e := range listtype.ValidateListSetsAndMaps(nil, lc.server, obj) {
				want = append(want, e.Error())
				if strings.Contains(e.Error(), "Duplicate value") {
					dups++
				}
			}
			got := lc.tree.ListTypes("", obj).Strings()
			_, hasMap := obj["m"]
			c.compare(fmt.Sprintf("%s: %s", lc.name, mustJSON(obj)), want, got, !hasMap)
		}
	}
	c.report(t, "list types")
	t.Logf("%d Duplicate value errors compared", dups)
}

// ---- CRD-time checks (LintValues) ----

// lintNode generates a structural schema node with defaults, patterns (some
// invalid), formats (some unknown), uniqueItems, list types with nullable
// items, and value-only junctor branches.
func (g junctorGen) lintNode(depth int) map[string]any {
	n := map[string]any{}
	types := []string{"string", "integer", "number", "boolean", "object", "array", "ios"}
	typ := types[g.pick(len(types))]
	if typ == "ios" {
		n["x-kubernetes-int-or-string"] = true
		if g.pick(2) == 0 {
			n["anyOf"] = []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}
		}
	} else {
		n["type"] = typ
	}
	if g.pick(8) == 0 {
		n["nullable"] = true
	}
	values := slices.Concat(genStrings, genInts, genFloats, []any{true, nil, map[string]any{"a": "x"}, []any{"a", "a"}})
	branch := func() map[string]any {
		b := map[string]any{}
		switch g.pick(5) {
		case 0:
			b["maxLength"] = int64(1 + g.pick(2))
		case 1:
			b["minimum"] = int64(g.pick(4))
		case 2:
			b["maximum"] = int64(g.pick(4))
		case 3:
			b["enum"] = []any{values[g.pick(len(values))], values[g.pick(len(values))]}
		case 4:
			b["pattern"] = []string{"^a", "(", "b$"}[g.pick(3)]
		}
		return b
	}
	switch typ {
	case "string":
		switch g.pick(6) {
		case 0:
			n["maxLength"] = int64(1 + g.pick(3))
		case 1:
			n["pattern"] = []string{"^a", "^(?!x)", "(", "a{2,1}", "b"}[g.pick(5)]
		case 2:
			n["format"] = []string{"date", "date-time", "quantity", "uuid", "UUID", "int32"}[g.pick(6)]
		case 3:
			n["enum"] = []any{"a", "ab"}
		}
	case "integer", "number":
		switch g.pick(5) {
		case 0:
			n["minimum"] = int64(1)
		case 1:
			n["maximum"] = 2.5
		case 2:
			n["multipleOf"] = int64(2)
		case 3:
			n["format"] = []string{"int32", "uint8", "double", "float"}[g.pick(4)]
		}
	case "boolean":
		if g.pick(3) == 0 {
			n["format"] = "bool"
		}
	case "object":
		props := map[string]any{}
		if depth > 0 {
			for _, k := range genKeys {
				if g.pick(2) == 0 {
					props[k] = g.lintNode(depth - 1)
				}
			}
		}
		if len(props) > 0 {
			n["properties"] = props
			if g.pick(3) == 0 {
				n["required"] = []any{genKeys[g.pick(3)]}
			}
		} else if depth > 0 && g.pick(2) == 0 {
			n["additionalProperties"] = g.lintNode(depth - 1)
		}
		if g.pick(5) == 0 {
			n["maxProperties"] = int64(1)
		}
	case "array":
		items := map[string]any{"type": []string{"string", "integer", "object"}[g.pick(3)]}
		if depth > 0 && g.pick(2) == 0 {
			items = g.lintNode(depth - 1)
		}
		n["items"] = items
		switch g.pick(5) {
		case 0:
			n["x-kubernetes-list-type"] = "set"
			if items["type"] == "object" {
				items["x-kubernetes-map-type"] = "atomic"
			}
			if g.pick(2) == 0 {
				items["nullable"] = true
			}
		case 1:
			n["uniqueItems"] = true
		case 2:
			n["maxItems"] = int64(1)
		}
	}
	if typ != "ios" && g.pick(4) == 0 {
		var l []any
		for k := 1 + g.pick(2); k > 0; k-- {
			l = append(l, branch())
		}
		n[[]string{"allOf", "anyOf", "oneOf"}[g.pick(3)]] = l
	}
	if g.pick(6) == 0 {
		n["not"] = branch()
	}
	if g.pick(2) == 0 {
		switch typ {
		case "object":
			d := map[string]any{}
			for _, k := range genKeys {
				if g.pick(2) == 0 {
					d[k] = values[g.pick(len(values))]
				}
			}
			n["default"] = d
		case "array":
			n["default"] = []any{values[g.pick(len(values))], values[g.pick(len(values))]}
		default:
			n["default"] = values[g.pick(len(values))]
		}
	}
	return n
}

// lintLine reports whether a CRD-validation message is one LintValues
// reproduces: a default's value errors, patterns, uniqueItems, nullable
// list items.
func lintLine(m string) bool {
	if strings.Contains(m, "must not have unknown fields") {
		return false
	}
	return strings.Contains(m, ".default") || strings.Contains(m, ".pattern:") || strings.Contains(m, ".uniqueItems:") ||
		strings.Contains(m, "cannot be nullable when x-kubernetes-list-type")
}

// TestLintValuesDifferential: schemaauto.LintValues against the API
// server's CRD validation (ValidateCustomResourceDefinition, the lines of
// section 9) and its create warnings (WarningsOnCreate), on generated
// structural schemas.
func TestLintValuesDifferential(t *testing.T) {
	g := junctorGen{rand.New(rand.NewPCG(3, 34))}
	strategy := customresourcedefinition.NewStrategy(nil)
	var c, w treeComparison
	defaults, lines := 0, 0
	n := 3000
	if testing.Short() {
		n = 500
	}
	for i := 0; i < n; i++ {
		root := map[string]any{"type": "object", "properties": map[string]any{"spec": g.lintNode(3)}}
		js, err := json.Marshal(root)
		if err != nil {
			t.Fatal(err)
		}
		data := wrapSchema(js)
		crd, _, err := oracle.DecodeCRD(data)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, m := range oracle.Messages(oracle.ValidateDecodedCRD(crd)) {
			if lintLine(m) {
				want = append(want, m)
				if strings.Contains(m, ".default") {
					defaults++
				}
			}
		}
		lines += len(want)
		s, err := schemaauto.ParseSchema(js)
		if err != nil {
			t.Fatal(err)
		}
		errs, warns := schemaauto.LintValues(s, jperrors.NewFieldPath("spec", "validation", "openAPIV3Schema"))
		c.compare(string(js), want, errs.Strings(), false)
		w.compare(string(js), strategy.WarningsOnCreate(context.Background(), crd), warns, false)
	}
	c.report(t, "CRD-time errors")
	w.report(t, "CRD-time warnings")
	t.Logf("%d error lines compared, %d about defaults", lines, defaults)
}

// BenchmarkJunctorCorpus validates the decoded, pruned and defaulted
// objects of every corpus CR whose schema uses junctors with validate.Tree
// and with the API server's validator, side by side.
func BenchmarkJunctorCorpus(b *testing.B) {
	t := &testing.T{}
	pairs, sides := loadPairs(t)
	type job struct {
		obj  map[string]any
		sv   apiservervalidation.SchemaValidator
		tree *validate.Tree
	}
	var jobs []job
	trees := map[string]*validate.Tree{}
	valsOf := map[string]map[string]*validator{}
	for _, p := range pairs {
		data, err := os.ReadFile(filepath.Join(corpusRoot, p.crd))
		if err != nil {
			b.Fatal(err)
		}
		crds, err := schemaauto.ParseCRDs(data)
		if err != nil {
			b.Fatal(err)
		}
		ver := versionOf(p.body)
		v := crds[0].Version(ver)
		if v == nil || !usesJunctors(v.Schema) {
			continue
		}
		key := p.crd + "/" + ver
		if trees[key] == nil {
			if trees[key], err = v.Schema.ValidationTree(); err != nil {
				b.Fatal(err)
			}
		}
		vals := valsOf[p.crd]
		if vals == nil {
			vals = validatorsOf(t, data)
			valsOf[p.crd] = vals
		}
		res, err := sides[p.crd].oracle.Decode(p.body, oracle.CROptions{FieldValidation: "Ignore"})
		if err != nil || res.Object == nil || vals[ver] == nil {
			continue
		}
		if vals[ver].status {
			delete(res.Object, "status")
		}
		jobs = append(jobs, job{res.Object, vals[ver].sv, trees[key]})
	}
	b.Logf("%d objects", len(jobs))
	b.Run("jsonprune", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, j := range jobs {
				j.tree.Validate("", j.obj)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, j := range jobs {
				apiservervalidation.ValidateCustomResource(nil, j.obj, j.sv)
			}
		}
	})
}

// usesListTypes reports whether a schema has x-kubernetes-list-type set or
// map anywhere in its structural part.
func usesListTypes(s *schemaauto.Schema) bool {
	if s == nil {
		return false
	}
	if s.ListType != nil && (*s.ListType == "set" || *s.ListType == "map") {
		return true
	}
	for _, c := range s.Properties {
		if usesListTypes(c) {
			return true
		}
	}
	if s.AdditionalProperties != nil && usesListTypes(s.AdditionalProperties.Schema) {
		return true
	}
	return usesListTypes(s.Items)
}

// duplicateItems copies, with some probability, an item of each array to
// its end (a copy of an object sometimes with its key fields' values
// turned from int64 to float64 or dropped).
func duplicateItems(r *rand.Rand, v any) any {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range x {
				if !yield(k) {
					return
				}
			}
		}) {
			x[k] = duplicateItems(r, x[k])
		}
		return x
	case []any:
		for i := range x {
			x[i] = duplicateItems(r, x[i])
		}
		if len(x) > 0 && r.IntN(2) == 0 {
			c := x[r.IntN(len(x))]
			if m, ok := c.(map[string]any); ok {
				cp := map[string]any{}
				for _, k := range slices.Sorted(maps.Keys(m)) {
					e := m[k]
					switch r.IntN(6) {
					case 0:
						continue
					case 1:
						if n, ok := e.(int64); ok {
							e = float64(n)
						}
					}
					cp[k] = e
				}
				c = cp
			}
			x = append(x, c)
		}
		return x
	}
	return v
}

// TestListTypeCorpusDifferential: every corpus CRD version with set or map
// lists; its CRs and generated instances, decoded by the reference chain,
// then with items duplicated; ListTypes against ValidateListSetsAndMaps
// with the version's structural schema.
func TestListTypeCorpusDifferential(t *testing.T) {
	pairs, sides := loadPairs(t)
	type ver struct {
		structural *structuralschema.Structural
		tree       *validate.Tree
	}
	vers := map[string]map[string]*ver{}
	for crd, s := range sides {
		data, err := os.ReadFile(filepath.Join(corpusRoot, crd))
		if err != nil {
			t.Fatal(err)
		}
		crds, err := schemaauto.ParseCRDs(data)
		if err != nil || len(crds) != 1 {
			t.Fatalf("%s: %v", crd, err)
		}
		for _, v := range crds[0].Versions {
			if !usesListTypes(v.Schema) || s.oracle.Schema(v.Name) == nil {
				continue
			}
			tr, err := v.Schema.ValidationTree()
			if err != nil {
				t.Fatal(err)
			}
			if vers[crd] == nil {
				vers[crd] = map[string]*ver{}
			}
			vers[crd][v.Name] = &ver{s.oracle.Schema(v.Name), tr}
		}
	}
	var c treeComparison
	dups := 0
	check := func(name string, s side, v *ver, body []byte, r *rand.Rand) {
		res, err := s.oracle.Decode(body, oracle.CROptions{FieldValidation: "Ignore"})
		if err != nil || res.Object == nil || res.Fatal != "" || res.GroupVersionMismatch != "" {
			return
		}
		for k := range 3 {
			obj := res.Object
			if k > 0 {
				obj = duplicateItems(r, runtimeCopy(res.Object)).(map[string]any)
			}
			var want []string
			for _, e := range listtype.ValidateListSetsAndMaps(nil, v.structural, obj) {
				want = append(want, e.Error())
				if strings.Contains(e.Error(), "Duplicate value") {
					dups++
				}
			}
			c.compare(fmt.Sprintf("%s (%d)", name, k), want, v.tree.ListTypes("", obj).Strings(), false)
		}
	}
	for i, p := range pairs {
		v := vers[p.crd][versionOf(p.body)]
		if v == nil {
			continue
		}
		check(p.name, sides[p.crd], v, p.body, rand.New(rand.NewPCG(uint64(i), 23)))
	}
	i := 0
	for _, crd := range slices.Sorted(func(yield func(string) bool) {
		for k := range vers {
			if !yield(k) {
				return
			}
		}
	}) {
		s := sides[crd]
		for _, version := range slices.Sorted(maps.Keys(vers[crd])) {
			v := vers[crd][version]
			sch := schemaFor(t, s.oracle, version)
			if sch == nil {
				continue
			}
			g := gen.New(int64(1000 + i))
			i++
			r := rand.New(rand.NewPCG(uint64(i), 29))
			for k := range 6 {
				check(fmt.Sprintf("%s %s instance %d", crd, version, k), s, v, g.Instance(sch, s.oracle.Group+"/"+version, s.oracle.Kind), r)
			}
		}
	}
	t.Logf("%d corpus CRDs with set/map lists", len(vers))
	c.report(t, "list types on corpus objects")
	t.Logf("%d Duplicate value errors compared", dups)
}

// runtimeCopy deep-copies a decoded value tree.
func runtimeCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = runtimeCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = runtimeCopy(e)
		}
		return a
	}
	return v
}

// FuzzJunctorDifferential: one generated junctor schema (depth 3) and a few
// values per input, as spec.x, against the server
// (go test -fuzz=FuzzJunctorDifferential).
func FuzzJunctorDifferential(f *testing.F) {
	for i := range uint64(8) {
		f.Add(i, i*7+1)
	}
	f.Fuzz(func(t *testing.T, s1, s2 uint64) {
		g := junctorGen{rand.New(rand.NewPCG(s1, s2))}
		root := map[string]any{"type": "object", "properties": map[string]any{
			"spec": map[string]any{"type": "object", "properties": map[string]any{"x": g.node(3)}}}}
		js, err := json.Marshal(root)
		if err != nil {
			t.Fatal(err)
		}
		sv, tr := serverValidator(t, js), mustTree(t, js)
		for range 8 {
			val := map[string]any{"spec": map[string]any{"x": g.value(3)}}
			want, got := serverErrors(sv, val), tr.Validate("", val).Strings()
			if !orderDeterministic(val) {
				slices.Sort(want)
				slices.Sort(got)
			}
			if !slices.Equal(want, got) {
				t.Fatalf("schema %s value %s:\n server    %q\n jsonprune %q", js, mustJSON(val), want, got)
			}
		}
	})
}
