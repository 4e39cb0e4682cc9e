package conformance

import "testing"

// dupReqCRD has required names that are no property: a map's keys
// (additionalProperties, not nullable, so a null value is pruned) and a
// preserved object's.
const dupReqCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
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
            required: [size]
            properties:
              size: {type: string}
              lm:
                type: object
                required: [k]
                additionalProperties: {type: string}
              p:
                type: object
                required: [k]
                x-kubernetes-preserve-unknown-fields: true
`

// TestValidationDuplicateRequired holds required to the server where a
// required member is duplicated (the last value wins, and a null one is
// pruned): a required name that is a property and one that is not. A
// duplicate in such a map made the fast path's abandoned walk panic
// before, and a retracted map key still counted as present.
func TestValidationDuplicateRequired(t *testing.T) {
	s := sideOf(t, []byte(dupReqCRD))
	v := validatorsOf(t, []byte(dupReqCRD))["v1"]
	const head = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":`
	var c valComparison
	for _, spec := range []string{
		`{"size":"s","size":null}`, `{"size":null,"size":"s"}`, `{"size":"s","size":"t"}`,
		`{"size":"s","lm":{"k":"v","k":null}}`, `{"size":"s","lm":{"k":"v","j":"w","k":null}}`,
		`{"size":"s","lm":{"k":null,"k":"v"}}`, `{"size":"s","lm":{"k":"v","k":"w"}}`,
		`{"size":"s","lm":{"k":null}}`, `{"size":"s","lm":{"j":"v","j":null}}`,
		`{"size":"s","p":{"k":1,"k":null}}`, `{"size":"s","p":{"k":null,"k":1}}`, `{"size":"s","p":{"j":1,"j":2}}`,
		`{"size":"s","lm":{"k":"v","k":null},"lm":{"k":"v"}}`,
	} {
		c.compareValidation(t, spec, s, v, []byte(head+spec+`}`))
	}
	c.report(t, "duplicated required members")
	if c.compared != 13 || c.identical != 13 {
		t.Errorf("compared %d, identical %d; want 13 and 13", c.compared, c.identical)
	}
}
