package oracle

import (
	"encoding/json"
	"slices"
	"testing"
)

// Messages quoted in /work/shared/reference/kubernetes-behaviour.md (sections 1.2, 1.3, 1.5),
// reproduced through the oracle so that a broken wiring shows up at once.
func TestSchemaViolationsMatchReference(t *testing.T) {
	for _, tc := range []struct {
		schema string
		want   []string
	}{
		{`{type: object, properties: {spec: {type: object, properties: {a: {type: string}}}}, allOf: [{properties: {spec: {properties: {b: {minLength: 1}}}}}]}`,
			[]string{"openAPIV3Schema.properties[spec].properties[b]: Required value: because it is defined in openAPIV3Schema.allOf[0].properties[spec].properties[b]"}},
		{`{type: object, properties: {a: {type: string, pattern: "["}}}`,
			[]string{"openAPIV3Schema.properties[a].pattern: Invalid value: \"[\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ]: `[`"}},
		{`{type: object, properties: {m: {type: object, patternProperties: {a: {type: string}}}}}`,
			[]string{NewStructuralErrorPrefix + "OpenAPIV3Schema 'patternProperties' is not supported"}},
		{`{type: object, properties: {p: {x-kubernetes-int-or-string: true, anyOf: [{type: string}, {type: integer}]}}}`,
			[]string{
				"openAPIV3Schema.properties[p].anyOf[0].type: Forbidden: must be empty to be structural",
				"openAPIV3Schema.properties[p].anyOf[1].type: Forbidden: must be empty to be structural",
			}},
	} {
		got, err := SchemaViolations([]byte(tc.schema))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.schema, got, tc.want)
		}
	}
}

const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              a: {type: string}
              obj:
                type: object
                properties: {x: {type: string}}
                default: {x: "d"}
`

func TestCRDViolations(t *testing.T) {
	got, err := CRDViolations([]byte(widgetCRD))
	if err != nil || len(got) != 0 {
		t.Fatalf("valid CRD: %q, %v", got, err)
	}
	bad := widgetCRD + "        nullable: true\n"
	got, err = CRDViolations([]byte(bad))
	want := []string{"spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root"}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
}

func TestStructuralSchemas(t *testing.T) {
	s, err := StructuralSchemas([]byte(widgetCRD))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Versions) != 1 || s.Versions[0].Name != "v1" || s.PreserveUnknownFields {
		t.Fatalf("unexpected %+v", s)
	}
	var m map[string]any
	if err := json.Unmarshal(s.Versions[0].Schema, &m); err != nil {
		t.Fatal(err)
	}
	obj := m["properties"].(map[string]any)["spec"].(map[string]any)["properties"].(map[string]any)["obj"].(map[string]any)
	if d, _ := json.Marshal(obj["default"]); string(d) != `{"x":"d"}` {
		t.Errorf("default = %s", d)
	}
}
