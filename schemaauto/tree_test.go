package schemaauto

import (
	"fmt"
	"slices"
	"testing"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// TestValidationTree: the tree follows the schema as written (junctor
// branches with properties), is memoised per node, and validates.
func TestValidationTree(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"spec":{"type":"object",
		"properties":{"port":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}},
		"oneOf":[{"required":["a"]},{"required":["b"]}]}}}`)
	tr, err := s.ValidationTree()
	if err != nil {
		t.Fatal(err)
	}
	again, _ := s.ValidationTree()
	sub, _ := s.Properties["spec"].ValidationTree()
	if again != tr || sub != tr.Properties["spec"] {
		t.Error("ValidationTree is not memoised per node")
	}
	got := tr.Validate("", map[string]any{"spec": map[string]any{"port": true, "a": int64(1), "b": int64(2)}}).Strings()
	want := []string{
		`<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found 2 valid alternatives`,
		`spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"`,
		`<nil>: Invalid value: "": "spec.port" must validate at least one schema (anyOf)`,
		`spec.port: Invalid value: "boolean": spec.port in body must be of type integer: "boolean"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	var nilSchema *Schema
	if tr, err := nilSchema.ValidationTree(); tr != nil || err != nil {
		t.Error("nil schema")
	}
}

// TestLintValues: the CRD-time checks of reference section 9 with the
// server's texts (ARR08, PAT09, DEF08, DEF09, LT18, the warnings).
func TestLintValues(t *testing.T) {
	p := jperrors.NewFieldPath("spec", "validation", "openAPIV3Schema")
	cases := []struct {
		name, schema string
		errs, warns  []string
	}{
		{"uniqueItems (ARR08)", `{"type":"object","properties":{"u":{"type":"array","uniqueItems":true,"items":{"type":"string"}}}}`,
			[]string{`spec.validation.openAPIV3Schema.properties[u].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`}, nil},
		{"pattern (PAT09)", `{"type":"object","properties":{"p":{"type":"string","pattern":"^(?!x)"}}}`,
			[]string{"spec.validation.openAPIV3Schema.properties[p].pattern: Invalid value: \"^(?!x)\": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: `(?!`"}, nil},
		{"pattern in a junctor", `{"type":"object","properties":{"p":{"type":"string","allOf":[{"pattern":"("}]}}}`,
			[]string{"spec.validation.openAPIV3Schema.properties[p].allOf[0].pattern: Invalid value: \"(\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(`"}, nil},
		{"default too long (DEF08)", `{"type":"object","properties":{"a":{"type":"string","maxLength":3,"default":"abcd"}}}`,
			[]string{`spec.validation.openAPIV3Schema.properties[a].default: Too long: may not be more than 3 bytes`}, nil},
		{"default enum below (DEF09)", `{"type":"object","properties":{"o":{"type":"object","default":{"k":"z"},"properties":{"k":{"type":"string","enum":["a"]}}}}}`,
			[]string{`spec.validation.openAPIV3Schema.properties[o].default.k: Unsupported value: "z": supported values: "a"`}, nil},
		{"default and junctors", `{"type":"object","properties":{"n":{"type":"integer","default":5,"anyOf":[{"maximum":3},{"minimum":10}]}}}`,
			[]string{`spec.validation.openAPIV3Schema.properties[n].default: Invalid value: "": "" must validate at least one schema (anyOf)`,
				`spec.validation.openAPIV3Schema.properties[n].default: Invalid value: 5:  in body should be less than or equal to 3`}, nil},
		{"default type, format as written", `{"type":"object","properties":{"q":{"type":"string","format":"quantity","default":5}}}`,
			[]string{`spec.validation.openAPIV3Schema.properties[q].default: Invalid value: "int64":  in body must be of type quantity: "int64"`},
			[]string{`unrecognized format "quantity"`}},
		{"nullable set items (LT18)", `{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string","nullable":true}}}}`,
			[]string{`spec.validation.openAPIV3Schema.properties[l].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set`}, nil},
		{"warnings", `{"type":"object","properties":{"i":{"type":"integer","format":"uint8"},"d":{"type":"string","format":"date-time"},
			"s":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"object","x-kubernetes-map-type":"atomic"}}}}`, nil,
			[]string{`unrecognized format "uint8"`, `x-kubernetes-list-type: set for items of type "object" is not supported by server-side apply or CEL validation rules`}},
		{"valid", `{"type":"object","properties":{"a":{"type":"string","maxLength":3,"default":"abc","pattern":"^a"}}}`, nil, nil},
	}
	for _, c := range cases {
		errs, warns := LintValues(mustSchema(t, c.schema), p)
		if got := errs.Strings(); !slices.Equal(got, c.errs) {
			t.Errorf("%s: errors\n got  %q\n want %q", c.name, got, c.errs)
		}
		if !slices.Equal(warns, c.warns) {
			t.Errorf("%s: warnings\n got  %q\n want %q", c.name, warns, c.warns)
		}
	}
	if e, w := LintValues(nil, p); e != nil || w != nil {
		t.Error("nil schema")
	}
}

// A schema's validation tree validates a decoded value as the API server's
// schema step does, junctors included.
func ExampleSchema_ValidationTree() {
	s, err := ParseSchema([]byte(`
type: object
properties:
  spec:
    type: object
    properties:
      replicas: {type: integer, minimum: 0}
      port:
        x-kubernetes-int-or-string: true
        anyOf: [{type: integer}, {type: string}]
    oneOf:
    - required: [replicas]
    - required: [port]
`))
	if err != nil {
		panic(err)
	}
	tree, err := s.ValidationTree()
	if err != nil {
		panic(err)
	}
	obj := map[string]any{"spec": map[string]any{"replicas": int64(-1), "port": 8.5}}
	for _, e := range tree.Validate("", obj) {
		fmt.Println(e)
	}
	// Output:
	// <nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found 2 valid alternatives
	// spec.port: Invalid value: "number": spec.port in body must be of type integer,string: "number"
	// <nil>: Invalid value: "": "spec.port" must validate at least one schema (anyOf)
	// spec.port: Invalid value: "number": spec.port in body must be of type integer: "number"
	// <nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.port
	// spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0
}

// LintValues reports the CRD-time value checks with the server's paths.
// An invalid pattern makes the schema non-structural, and then, as on the
// server, defaults are not validated; once it is fixed, the default is.
func ExampleLintValues() {
	s, err := ParseSchema([]byte(`
type: object
properties:
  mode: {type: string, enum: [fast, slow], default: medium}
  size: {type: string, format: quantity}
  tags:
    type: array
    uniqueItems: true
    items: {type: string, pattern: "^(?!-)"}
`))
	if err != nil {
		panic(err)
	}
	errs, warnings := LintValues(s, jperrors.NewFieldPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema"))
	for _, e := range errs {
		fmt.Println(e)
	}
	for _, w := range warnings {
		fmt.Println("warning:", w)
	}
	s.Properties["tags"].Items.Pattern = "^[^-]"
	errs, _ = LintValues(s, jperrors.NewFieldPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema"))
	for _, e := range errs {
		fmt.Println(e)
	}
	// Output:
	// spec.versions[0].schema.openAPIV3Schema.properties[tags].items.pattern: Invalid value: "^(?!-)": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: `(?!`
	// spec.versions[0].schema.openAPIV3Schema.properties[tags].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic
	// warning: unrecognized format "quantity"
	// spec.versions[0].schema.openAPIV3Schema.properties[mode].default: Unsupported value: "medium": supported values: "fast", "slow"
	// spec.versions[0].schema.openAPIV3Schema.properties[tags].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic
}
