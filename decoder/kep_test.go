package decoder

import (
	"testing"

	"github.com/jsonprune/jsonprune/schemaauto"
)

// TestKEPExamples runs the 11 worked examples of the pruning KEP (spec
// 000) through the decoder, as resources of a CRD whose schema is the
// example's. The KEP leaves out apiVersion and kind; they are added, and
// ObjectMeta normalisation removes the metadata garbage of examples 10 and
// 11. Example 9 follows the reference (skipPrune in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go): inside a
// preserving node additionalProperties switches pruning back on.
func TestKEPExamples(t *testing.T) {
	const tm = `"apiVersion":"ex.com/v1","kind":"Ex"`
	for _, tc := range []struct {
		name, schema, in, want string
		find                   []string
	}{
		{"1 unspecified", `{"type":"object"}`,
			`{"foo":42,"json":{"bar":43}}`, `{}`, []string{`unknown field "foo"`, `unknown field "json"`}},
		{"2 properties at top-level", `{"type":"object","properties":{"foo":{"type":"object"}}}`,
			`{"foo":{"abc":42},"json":{"bar":43}}`, `{"foo":{}}`, []string{`unknown field "foo.abc"`, `unknown field "json"`}},
		{"3 properties at multiple levels", `{"type":"object","properties":{"foo":{"type":"object","properties":{"bar":{"type":"object"}}}}}`,
			`{"foo":{"bar":{"abc":42},"def":43},"json":{"ghi":44}}`, `{"foo":{"bar":{}}}`, []string{`unknown field "foo.bar.abc"`, `unknown field "foo.def"`, `unknown field "json"`}},
		{"4 additionalProperties with a schema", `{"type":"object","properties":{"foo":{"type":"object","additionalProperties":{"type":"object"}}}}`,
			`{"foo":{"abc":{"x":42},"def":{"y":43}},"json":{"ghi":44}}`, `{"foo":{"abc":{},"def":{}}}`, []string{`unknown field "foo.abc.x"`, `unknown field "foo.def.y"`, `unknown field "json"`}},
		{"5 additionalProperties false", `{"type":"object","properties":{"foo":{"type":"object","additionalProperties":false}}}`,
			`{"foo":{"abc":{"x":42},"def":{"y":43}},"json":{"ghi":44}}`, `{"foo":{"abc":{},"def":{}}}`, []string{`unknown field "foo.abc.x"`, `unknown field "foo.def.y"`, `unknown field "json"`}},
		{"6 arbitrary JSON", `{"type":"object","properties":{"json":{"x-kubernetes-preserve-unknown-fields":true,"nullable":true}}}`,
			`{"foo":42,"json":{"bar":43}}`, `{"json":{"bar":43}}`, []string{`unknown field "foo"`}},
		{"7 JSON with properties at the same level", `{"type":"object","properties":{"json":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"nullable":true,"properties":{"bar":{"type":"object"}}}}}`,
			`{"foo":42,"json":{"bar":{"abc":43},"def":44}}`, `{"json":{"bar":{},"def":44}}`, []string{`unknown field "foo"`, `unknown field "json.bar.abc"`}},
		{"8 JSON with properties at the same and lower levels", `{"type":"object","properties":{"json":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"nullable":true,"properties":{"bar":{"type":"object","properties":{"inner":{"type":"integer"}}}}}}}`,
			`{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`, `{"json":{"bar":{"inner":43},"def":45}}`, []string{`unknown field "foo"`, `unknown field "json.bar.abc"`}},
		{"9 additionalProperties within JSON", `{"type":"object","properties":{"json":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"nullable":true,"additionalProperties":{"type":"object"}}}}`,
			`{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`, `{"json":{"bar":{},"def":45}}`, []string{`unknown field "foo"`, `unknown field "json.bar.abc"`, `unknown field "json.bar.inner"`}},
		{"10 embedded resource", `{"type":"object","properties":{"object":{"type":"object","nullable":true,"x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}`,
			`{"foo":42,"object":{"bar":43,"abc":44,"metadata":{"name":"example","garbage":45}}}`,
			`{"object":{"bar":43,"abc":44,"metadata":{"name":"example"}}}`, []string{`unknown field "foo"`, `unknown field "object.metadata.garbage"`}},
		{"11 implicit TypeMeta and ObjectMeta", `{"type":"object"}`,
			`{"metadata":{"name":"example","garbage":43},"foo":42}`,
			`{"metadata":{"name":"example"}}`, []string{`unknown field "metadata.garbage"`, `unknown field "foo"`}},
	} {
		s, err := schemaauto.ParseSchema([]byte(tc.schema))
		if err != nil {
			t.Fatal(err)
		}
		a, err := schemaauto.Compile(s)
		if err != nil {
			t.Fatal(err)
		}
		in := `{` + tm + `,` + tc.in[1:]
		want := `{` + tm
		if tc.want != `{}` {
			want += `,` + tc.want[1:]
		} else {
			want += `}`
		}
		run(t, must(NewForAutomaton(a)), tcase{name: tc.name, in: in, want: want, find: tc.find})
	}
}

// TestSkeletonKEPExamples runs the examples of the earlier pruning KEP
// (spec 001) through the decoder, their schemas compiled by their
// skeletons (schemaauto.AllowSkeleton(true)).
func TestSkeletonKEPExamples(t *testing.T) {
	const tm = `"apiVersion":"ex.com/v1","kind":"Ex",`
	for _, tc := range []struct {
		name, schema, in, want string
		find                   []string
	}{
		{"1", `{"properties": {"a": {}, "b": {"type": "string"}, "c": {"not": {}}}}`,
			`{"a":1, "c": 3, "d": 4}`, `{"a":1,"c":3}`, []string{`unknown field "d"`}},
		{"2", `{"anyOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}]}`,
			`{"a":1, "b": 2, "c": 3}`, `{"a":1,"b":2}`, []string{`unknown field "c"`}},
		{"3", `{"properties": {"a": {}, "b": {"type": "string", "properties": {"x": {}}}}, "anyOf": [{"properties": {"c":{}}}, {"properties": {"d":{"not":{}}}}]}`,
			`{"a":1,"b":{"x":1,"y":2},"c":1,"d":1,"e":1}`, `{"a":1,"b":{"x":1},"c":1,"d":1}`, []string{`unknown field "b.y"`, `unknown field "e"`}},
		{"4", `{"properties": {"a": {"type": "string", "pattern": "^[0-9.]+$", "format": "ip"}, "b": {"properties": {"x": {}, "y": {}}}}}`,
			`{"a":"1.2.3.4","b":{"x":1,"y":2,"z":3}}`, `{"a":"1.2.3.4","b":{"x":1,"y":2}}`, []string{`unknown field "b.z"`}},
		{"5", `{"anyOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}], "properties": {"c": {}}}`,
			`{"a":1,"b":"x","c":{"q":1},"d":1}`, `{"a":1,"b":"x","c":{}}`, []string{`unknown field "c.q"`, `unknown field "d"`}},
		{"6", `{"anyOf": [{"properties": {"a": {"type": "string"}}}, {"additionalProperties": {"type": "integer"}}]}`,
			`{"a":"x","n":1,"o":{"z":1}}`, `{"a":"x","n":1,"o":{}}`, []string{`unknown field "o.z"`}},
	} {
		s, err := schemaauto.ParseSchema([]byte(tc.schema))
		if err != nil {
			t.Fatal(err)
		}
		a, err := schemaauto.Compile(s, schemaauto.AllowSkeleton(true))
		if err != nil {
			t.Fatal(err)
		}
		run(t, must(NewForAutomaton(a)), tcase{name: "skeleton " + tc.name, in: `{` + tm + tc.in[1:], want: `{` + tm + tc.want[1:], find: tc.find})
	}
}
