package schemaauto

import (
	"strings"
	"testing"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

func mustSchema(t testing.TB, src string) *Schema {
	t.Helper()
	s, err := ParseSchema([]byte(src))
	if err != nil {
		t.Fatalf("ParseSchema: %v\n%s", err, src)
	}
	return s
}

// TestStructuralRules checks every rule of ValidateStructural
// (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/validation.go) with its
// exact message, path and the sorted order.
func TestStructuralRules(t *testing.T) {
	p := "openAPIV3Schema"
	for _, tc := range []struct {
		name   string
		schema string
		want   []string
	}{
		{"structural", `{type: object, properties: {spec: {type: object, properties: {a: {type: string}}}}}`, nil},
		{"rule01 array without items", `{type: object, properties: {l: {type: array}}}`,
			[]string{p + ".properties[l].items: Required value: must be specified"}},
		{"rule02 additionalProperties at root", `{type: object, additionalProperties: {type: string}}`,
			[]string{p + ".additionalProperties: Forbidden: must not be used at the root"}},
		{"rule02 additionalProperties true at root", `{type: object, additionalProperties: true}`,
			[]string{p + ".additionalProperties: Forbidden: must not be used at the root"}},
		{"rule03 int-or-string and preserve", `{type: object, properties: {f: {x-kubernetes-int-or-string: true, x-kubernetes-preserve-unknown-fields: true}}}`,
			[]string{p + ".properties[f].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true"}},
		{"rule04 int-or-string and embedded", `{type: object, properties: {f: {type: object, x-kubernetes-int-or-string: true, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}}}`,
			[]string{
				p + ".properties[f].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
				p + ".properties[f].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
			}},
		{"rule05a embedded without type", `{type: object, properties: {e: {x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}}}`,
			[]string{p + ".properties[e].type: Required value: must be object if x-kubernetes-embedded-resource is true"}},
		{"rule05b embedded not object", `{type: object, properties: {e: {type: string, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}}}`,
			[]string{p + `.properties[e].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`}},
		{"rule06 empty type at root", `{properties: {a: {type: string}}}`,
			[]string{p + ".type: Required value: must not be empty at the root"}},
		{"rule06 empty type for items", `{type: object, properties: {l: {type: array, items: {description: d}}}}`,
			[]string{p + ".properties[l].items.type: Required value: must not be empty for specified array items"}},
		{"rule06 empty type for fields", `{type: object, properties: {a: {description: d}}}`,
			[]string{p + ".properties[a].type: Required value: must not be empty for specified object fields"}},
		{"rule06 empty type under additionalProperties", `{type: object, properties: {m: {type: object, additionalProperties: {}}}}`,
			[]string{p + ".properties[m].additionalProperties.type: Required value: must not be empty for specified object fields"}},
		{"rule06 empty type allowed with int-or-string", `{type: object, properties: {a: {x-kubernetes-int-or-string: true}}}`, nil},
		{"rule06 empty type allowed with preserve", `{type: object, properties: {a: {x-kubernetes-preserve-unknown-fields: true}}}`, nil},
		{"rule07 embedded with additionalProperties", `{type: object, properties: {e: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true, additionalProperties: {type: string}}}}`,
			[]string{p + ".properties[e].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set"}},
		{"rule08 root not object", `{type: array, items: {type: string}}`,
			[]string{p + `.type: Invalid value: "array": must be object at the root`}},
		{"rule09 kind not string", `{type: object, properties: {kind: {type: integer}}}`,
			[]string{p + `.properties[kind].type: Invalid value: "integer": must be string`}},
		{"rule09 kind empty type", `{type: object, properties: {kind: {x-kubernetes-preserve-unknown-fields: true}}}`,
			[]string{p + `.properties[kind].type: Invalid value: "": must be string`}},
		{"rule09 kind in embedded", `{type: object, properties: {e: {type: object, x-kubernetes-embedded-resource: true, properties: {kind: {type: boolean}}}}}`,
			[]string{p + `.properties[e].properties[kind].type: Invalid value: "boolean": must be string`}},
		{"rule09 kind in nested object is ordinary", `{type: object, properties: {o: {type: object, properties: {kind: {type: boolean}}}}}`, nil},
		{"rule10 apiVersion not string", `{type: object, properties: {apiVersion: {type: number}}}`,
			[]string{p + `.properties[apiVersion].type: Invalid value: "number": must be string`}},
		{"rule11 metadata not object", `{type: object, properties: {metadata: {type: string}}}`,
			// the type itself is not "anything other" (the reference clears it)
			[]string{p + `.properties[metadata].type: Invalid value: "string": must be object`}},
		{"rule11 metadata in embedded", `{type: object, properties: {e: {type: object, x-kubernetes-embedded-resource: true, properties: {metadata: {type: array, items: {type: string}}}}}}`,
			[]string{p + `.properties[e].properties[metadata].type: Invalid value: "array": must be object`}},
		{"rule12 metadata name and generateName", `{type: object, properties: {metadata: {type: object, properties: {name: {type: string, maxLength: 3}, generateName: {type: string}}}}}`, nil},
		{"rule12 metadata name only", `{type: object, properties: {metadata: {type: object, properties: {name: {type: string}}}}}`, nil},
		{"rule12 metadata description", `{type: object, properties: {metadata: {type: object, description: d}}}`,
			[]string{p + `.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`}},
		{"rule12 metadata other property", `{type: object, properties: {metadata: {type: object, properties: {name: {type: string}, labels: {type: object}}}}}`,
			[]string{p + `.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`}},
		{"rule12 metadata value validation", `{type: object, properties: {metadata: {type: object, required: [name]}}}`,
			[]string{p + `.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`}},
		{"rule12 metadata in embedded is free", `{type: object, properties: {e: {type: object, x-kubernetes-embedded-resource: true, properties: {metadata: {type: object, description: d, properties: {labels: {type: object}}}}}}}`, nil},
		{"rule13 embedded without properties", `{type: object, properties: {e: {type: object, x-kubernetes-embedded-resource: true}}}`,
			[]string{p + `.properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`}},
		{"rule14 bad pattern", `{type: object, properties: {s: {type: string, pattern: "["}}}`,
			[]string{p + ".properties[s].pattern: Invalid value: \"[\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ]: `[`"}},
		{"rule14 bad pattern in junctor", `{type: object, properties: {s: {type: string, anyOf: [{pattern: "a("}]}}}`,
			[]string{p + ".properties[s].anyOf[0].pattern: Invalid value: \"a(\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `a(`"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ValidateStructural(jperrors.NewFieldPath("openAPIV3Schema"), mustSchema(t, tc.schema)).Strings()
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// TestStructuralNested checks everything forbidden inside allOf, anyOf,
// oneOf and not, the int-or-string exceptions and completeness.
func TestStructuralNested(t *testing.T) {
	p := "openAPIV3Schema.properties[f]"
	for _, tc := range []struct {
		name   string
		nested string // the body of f.allOf[0]
		want   string
	}{
		{"type", `{type: string}`, ".allOf[0].type: Forbidden: must be empty to be structural"},
		{"additionalProperties schema", `{additionalProperties: {}}`, ".allOf[0].additionalProperties: Forbidden: must be undefined to be structural"},
		{"additionalProperties true", `{additionalProperties: true}`, ".allOf[0].additionalProperties: Forbidden: must be undefined to be structural"},
		{"additionalProperties false is dropped", `{additionalProperties: false}`, ""},
		{"default", `{default: 1}`, ".allOf[0].default: Forbidden: must be undefined to be structural"},
		{"title", `{title: t}`, ".allOf[0].title: Forbidden: must be empty to be structural"},
		{"description", `{description: d}`, ".allOf[0].description: Forbidden: must be empty to be structural"},
		{"nullable", `{nullable: true}`, ".allOf[0].nullable: Forbidden: must be false to be structural"},
		{"nullable false", `{nullable: false}`, ""},
		{"preserve", `{x-kubernetes-preserve-unknown-fields: true}`, ".allOf[0].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural"},
		{"embedded", `{x-kubernetes-embedded-resource: true}`, ".allOf[0].x-kubernetes-embedded-resource: Forbidden: must be false to be structural"},
		{"int-or-string", `{x-kubernetes-int-or-string: true}`, ".allOf[0].x-kubernetes-int-or-string: Forbidden: must be false to be structural"},
		{"list-map-keys", `{x-kubernetes-list-map-keys: [a]}`, ".allOf[0].x-kubernetes-list-map-keys: Forbidden: must be empty to be structural"},
		{"list-type", `{x-kubernetes-list-type: atomic}`, ".allOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural"},
		{"map-type", `{x-kubernetes-map-type: atomic}`, ".allOf[0].x-kubernetes-map-type: Forbidden: must be undefined to be structural"},
		{"validations", `{x-kubernetes-validations: [{rule: "true"}]}`, ".allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural"},
		{"metadata", `{properties: {metadata: {}}}`, ".allOf[0].properties[metadata]: Forbidden: must not be specified in a nested context"},
		{"nested property type", `{properties: {x: {type: string}}}`, ".allOf[0].properties[x].type: Forbidden: must be empty to be structural"},
		{"nested items type", `{items: {type: string}}`, ".allOf[0].items.type: Forbidden: must be empty to be structural"},
		// a nested additionalProperties is forbidden and not looked into
		{"nested additionalProperties type", `{additionalProperties: {type: string}}`, ".allOf[0].additionalProperties: Forbidden: must be undefined to be structural"},
		{"example and externalDocs are not checked", `{example: 1, externalDocs: {url: "http://x"}}`, ""},
		{"value validations are fine", `{minimum: 1, required: [a], enum: [1], maxLength: 3}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// f is a preserving field so that its skeleton needs no type;
			// completeness is checked for the root's junctors only, so a
			// property named in f's junctors raises nothing.
			schema := `{type: object, properties: {f: {x-kubernetes-preserve-unknown-fields: true, allOf: [` + tc.nested + `]}}}`
			got := strings.Join(ValidateStructural(jperrors.NewFieldPath("openAPIV3Schema"), mustSchema(t, schema)).Strings(), "\n")
			want := ""
			if tc.want != "" {
				want = p + tc.want
			}
			if got != want {
				t.Errorf("got\n  %s\nwant\n  %s", got, want)
			}
		})
	}

	root := "openAPIV3Schema"
	for _, tc := range []struct {
		name, schema string
		want         []string
	}{
		{"int-or-string anyOf", `{type: object, properties: {f: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}}}`, nil},
		{"int-or-string anyOf without the extension", `{type: object, properties: {f: {type: string, anyOf: [{type: integer}, {type: string}]}}}`, nil},
		{"int-or-string allOf[0].anyOf", `{type: object, properties: {f: {x-kubernetes-int-or-string: true, allOf: [{anyOf: [{type: integer}, {type: string}]}, {minimum: 1}]}}}`, nil},
		{"int-or-string reversed", `{type: object, properties: {f: {x-kubernetes-int-or-string: true, anyOf: [{type: string}, {type: integer}]}}}`, []string{
			root + ".properties[f].anyOf[0].type: Forbidden: must be empty to be structural",
			root + ".properties[f].anyOf[1].type: Forbidden: must be empty to be structural",
		}},
		{"int-or-string with minimum", `{type: object, properties: {f: {x-kubernetes-int-or-string: true, anyOf: [{type: integer, minimum: 0}, {type: string}]}}}`, []string{
			root + ".properties[f].anyOf[0].type: Forbidden: must be empty to be structural",
			root + ".properties[f].anyOf[1].type: Forbidden: must be empty to be structural",
		}},
		{"int-or-string allOf[1] is checked", `{type: object, properties: {f: {x-kubernetes-int-or-string: true, allOf: [{minimum: 1}, {anyOf: [{type: integer}, {type: string}]}]}}}`, []string{
			root + ".properties[f].allOf[1].anyOf[0].type: Forbidden: must be empty to be structural",
			root + ".properties[f].allOf[1].anyOf[1].type: Forbidden: must be empty to be structural",
		}},
		{"completeness property", `{type: object, properties: {spec: {type: object}}, allOf: [{properties: {spec: {properties: {b: {}}}}}]}`, []string{
			root + ".properties[spec].properties[b]: Required value: because it is defined in openAPIV3Schema.allOf[0].properties[spec].properties[b]",
		}},
		{"completeness items", `{type: object, properties: {l: {x-kubernetes-preserve-unknown-fields: true}}, anyOf: [{properties: {l: {items: {}}}}]}`, []string{
			root + ".properties[l].items: Required value: because it is defined in openAPIV3Schema.anyOf[0].properties[l].items",
		}},
		{"completeness through not and nested junctors", `{type: object, properties: {a: {type: string}}, not: {allOf: [{properties: {z: {}}}]}}`, []string{
			root + ".properties[z]: Required value: because it is defined in openAPIV3Schema.not.allOf[0].properties[z]",
		}},
		{"completeness at non-root junctor is not checked", `{type: object, properties: {spec: {type: object, oneOf: [{properties: {zz: {}}}]}}}`, nil},
		{"sorted by message", `{type: object, properties: {b: {type: array}, a: {}, c: {type: object, x-kubernetes-embedded-resource: true}}}`, []string{
			root + ".properties[a].type: Required value: must not be empty for specified object fields",
			root + ".properties[b].items: Required value: must be specified",
			root + ".properties[c].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ValidateStructural(jperrors.NewFieldPath("openAPIV3Schema"), mustSchema(t, tc.schema)).Strings()
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}
