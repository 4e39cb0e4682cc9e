package schemaauto

import (
	"encoding/json"
	"testing"
)

// skeletonJSON renders a skeleton as JSON for comparison.
func skeletonJSON(s *Schema) string {
	var render func(s *Schema) any
	render = func(s *Schema) any {
		m := map[string]any{}
		if s.Type != "" {
			m["type"] = s.Type
		}
		if s.Items != nil {
			m["items"] = render(s.Items)
		}
		if s.Properties != nil {
			p := map[string]any{}
			for k, v := range s.Properties {
				p[k] = render(v)
			}
			m["properties"] = p
		}
		if ap := s.AdditionalProperties; ap != nil {
			if ap.Schema != nil {
				m["additionalProperties"] = render(ap.Schema)
			} else {
				m["additionalProperties"] = ap.Allows
			}
		}
		if s.preserves() {
			m["x-kubernetes-preserve-unknown-fields"] = true
		}
		return m
	}
	b, _ := json.Marshal(render(s))
	return string(b)
}

// TestSkeletonKEPExamples runs examples 1-6 of the earlier pruning KEP
// (spec 001) through Skeleton and, where the example states a pruning
// result, through the compiled skeleton.
func TestSkeletonKEPExamples(t *testing.T) {
	for _, tc := range []struct {
		name, schema, skeleton string
		in, pruned             string
	}{
		{"1", `{"properties": {"a": {}, "b": {"type": "string"}, "c": {"not": {}}}}`,
			`{"properties":{"a":{},"b":{"type":"string"},"c":{}}}`,
			`{"a":1, "c": 3, "d": 4}`, `{"a":1,"c":3}`},
		{"2", `{"anyOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}]}`,
			`{"properties":{"a":{},"b":{}}}`,
			`{"a":1, "b": 2, "c": 3}`, `{"a":1,"b":2}`},
		{"3", `{"properties": {"a": {}, "b": {"type": "string", "properties": {"x": {}}}},
			"anyOf": [{"properties": {"c":{}}}, {"properties": {"d":{"not":{}}}}]}`,
			`{"properties":{"a":{},"b":{"properties":{"x":{}},"type":"string"},"c":{},"d":{}}}`,
			`{"a":1,"b":{"x":1,"y":2},"c":1,"d":1,"e":1}`, `{"a":1,"b":{"x":1},"c":1,"d":1}`},
		{"4", `{"properties": {"a": {"type": "string", "pattern": "^[0-9.]+$", "format": "ip"}, "b": {"properties": {"x": {}, "y": {}}}}}`,
			`{"properties":{"a":{"type":"string"},"b":{"properties":{"x":{},"y":{}}}}}`,
			`{"a":"1.2.3.4","b":{"x":1,"y":2,"z":3}}`, `{"a":"1.2.3.4","b":{"x":1,"y":2}}`},
		{"5", `{"anyOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}], "properties": {"c": {}}}`,
			`{"properties":{"a":{},"b":{"type":"string"},"c":{}}}`,
			`{"a":1,"b":"x","c":{"q":1},"d":1}`, `{"a":1,"b":"x","c":{}}`},
		// The KEP prints skel(s) of example 6 as {"properties": {},
		// "additionalProperties": {}}, eliding the branch contents; merge
		// keeps them.
		{"6", `{"anyOf": [{"properties": {"a": {"type": "string"}}}, {"additionalProperties": {"type": "integer"}}]}`,
			`{"additionalProperties":{"type":"integer"},"properties":{"a":{"type":"string"}}}`,
			`{"a":"x","n":1,"o":{"z":1}}`, `{"a":"x","n":1,"o":{}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSchema(t, tc.schema)
			sk, err := Skeleton(s)
			if err != nil {
				t.Fatal(err)
			}
			if got := skeletonJSON(sk); got != tc.skeleton {
				t.Errorf("skel(s)\n got %s\nwant %s", got, tc.skeleton)
			}
			if _, err := Compile(s); err == nil {
				t.Errorf("example %s is not structural, Compile must refuse it by default", tc.name)
			}
			a, err := Compile(s, AllowSkeleton(true))
			if err != nil {
				t.Fatal(err)
			}
			v := mustJSON(t, tc.in)
			a.PruneValue(v, a.Root())
			if got := string(marshalCanonical(v)); got != tc.pruned {
				t.Errorf("pruned\n got %s\nwant %s", got, tc.pruned)
			}
		})
	}
}

func TestSkeletonRejectsRefAndPatternProperties(t *testing.T) {
	for _, src := range []string{
		`{"type":"object","properties":{"a":{"$ref":"#/definitions/x"}}}`,
		`{"type":"object","properties":{"a":{"type":"object","patternProperties":{"^x":{}}}}}`,
	} {
		if _, err := Compile(mustSchema(t, src), AllowSkeleton(true)); err == nil {
			t.Errorf("Compile(%s, Skeleton) succeeded", src)
		}
	}
}

func TestSkeletonKeepsPreserveAndTuples(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{
		"t":{"type":"array","items":[{"properties":{"a":{}}},{"properties":{"b":{}}}]},
		"p":{"oneOf":[{"x-kubernetes-preserve-unknown-fields":true},{"type":"string"}]}}}`)
	sk, err := Skeleton(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"properties":{"p":{"x-kubernetes-preserve-unknown-fields":true},"t":{"items":{"properties":{"a":{},"b":{}}},"type":"array"}},"type":"object"}`
	if got := skeletonJSON(sk); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

// A skeleton keeps no default that would write a resource meta the decoder
// cannot coerce: the reference's CRD validation refuses such defaults in a
// structural schema, and a skeleton is compiled without that validation.
func TestSkeletonDropsDefaultsWithBadEmbeddedMeta(t *testing.T) {
	for _, tc := range []struct{ name, def string }{
		{"metadata false", `{"apiVersion":"v1","kind":"K","metadata":false}`},
		{"kind a number", `{"apiVersion":"v1","kind":5}`},
		{"nested", `{"apiVersion":"v1","kind":"K","inner":{"metadata":{"name":5}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// metadata declared boolean: not structural (rule 11)
			s := mustSchema(t, `{"type":"object","properties":{"deep":{"type":"object",
				"x-kubernetes-embedded-resource":true,"properties":{"metadata":{"type":"boolean"},
				"inner":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}},
				"default":`+tc.def+`}}}`)
			a, err := Compile(s, AllowSkeleton(true))
			if err != nil {
				t.Fatal(err)
			}
			deep := a.Props(a.Root())[a.Lookup(a.Root(), []byte("deep"))].Target
			if a.State(deep).Flags&HasDefault != 0 {
				t.Errorf("the default %s was kept", tc.def)
			}
		})
	}
	// a default whose embedded meta coerces stays
	s := mustSchema(t, `{"type":"object","properties":{"deep":{"type":"object",
		"x-kubernetes-embedded-resource":true,"properties":{"metadata":{"type":"boolean"}},
		"default":{"apiVersion":"v1","kind":"K","metadata":{"name":"n"}}}}}`)
	a, err := Compile(s, AllowSkeleton(true))
	if err != nil {
		t.Fatal(err)
	}
	deep := a.Props(a.Root())[a.Lookup(a.Root(), []byte("deep"))].Target
	if a.State(deep).Flags&HasDefault == 0 {
		t.Error("a default with valid metadata was dropped")
	}
}
