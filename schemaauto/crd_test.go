package schemaauto

import (
	"strings"
	"testing"
)

const crdHead = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: foos.example.com}
spec:
  group: example.com
  names: {kind: Foo, plural: foos}
  scope: Namespaced
`

func mustCRDs(t testing.TB, src string) []*CRD {
	t.Helper()
	crds, err := ParseCRDs([]byte(src))
	if err != nil {
		t.Fatalf("ParseCRDs: %v", err)
	}
	return crds
}

func TestCRDv1(t *testing.T) {
	crds := mustCRDs(t, crdHead+`  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties: {spec: {type: object, properties: {a: {type: string}}}}
`)
	c := crds[0]
	if c.Group != "example.com" || c.Kind != "Foo" || c.Plural != "foos" || c.Name != "foos.example.com" || c.PreserveUnknownFields {
		t.Errorf("bad CRD %+v", c)
	}
	if v := c.Validate(); len(v) != 0 {
		t.Errorf("violations: %v", v)
	}
	set, err := CompileCRDs(crds)
	if err != nil {
		t.Fatal(err)
	}
	e, ok := set.Lookup("example.com/v1", "Foo")
	if !ok || e.Version.Name != "v1" || !e.Automaton.Prunes() {
		t.Fatalf("lookup: %v %+v", ok, e)
	}
	for _, miss := range [][2]string{{"example.com/v2", "Foo"}, {"Example.com/v1", "Foo"}, {"example.com/v1", "foo"}, {"v1", "Foo"}, {"a/b/c", "Foo"}} {
		if _, ok := set.Lookup(miss[0], miss[1]); ok {
			t.Errorf("Lookup(%q, %q) found an entry; matching must be exact", miss[0], miss[1])
		}
	}
}

// TestCRDv1beta1 checks the v1beta1 specifics: spec.validation copied to
// every version (Convert_apiextensions_CustomResourceDefinitionSpec_To_v1_CustomResourceDefinitionSpec
// in k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/conversion.go) and
// preserveUnknownFields defaulting to true
// (SetDefaults_CustomResourceDefinitionSpec in v1beta1/defaults.go).
func TestCRDv1beta1(t *testing.T) {
	src := `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: foos.example.com}
spec:
  group: example.com
  names: {kind: Foo, plural: foos}
  version: v1alpha1
  validation:
    openAPIV3Schema:
      type: object
      properties: {spec: {type: object, properties: {a: {type: string}}}}
`
	c := mustCRDs(t, src)[0]
	if !c.PreserveUnknownFields {
		t.Error("v1beta1 preserveUnknownFields must default to true")
	}
	if len(c.Versions) != 1 || c.Versions[0].Name != "v1alpha1" || c.Versions[0].Schema == nil {
		t.Fatalf("versions: %+v", c.Versions)
	}
	set, err := CompileCRDs([]*CRD{c})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := set.Lookup("example.com/v1alpha1", "Foo")
	if e == nil || e.Automaton.Prunes() {
		t.Fatalf("a preserveUnknownFields CRD must not prune: %+v", e)
	}
	// Nothing is pruned, but the schema is still walked (embedded
	// resources, defaults).
	v := mustJSON(t, `{"spec":{"a":"x","b":{"c":1}},"other":1}`)
	if u := e.Automaton.PruneValue(v, e.Automaton.Root()); len(u) != 0 {
		t.Errorf("pruned %v", u)
	}

	// Top-level validation applies to every version; with
	// preserveUnknownFields: false it prunes.
	multi := strings.Replace(src, "  version: v1alpha1\n", "  preserveUnknownFields: false\n  versions:\n  - {name: v1, served: true, storage: true}\n  - {name: v2, served: true, storage: false}\n", 1)
	c = mustCRDs(t, multi)[0]
	if c.PreserveUnknownFields || len(c.Versions) != 2 || c.Versions[1].Schema == nil {
		t.Fatalf("bad CRD %+v", c)
	}
	set, err = CompileCRDs([]*CRD{c})
	if err != nil {
		t.Fatal(err)
	}
	e, _ = set.Lookup("example.com/v2", "Foo")
	if e == nil || !e.Automaton.Prunes() {
		t.Fatal("v2 must prune")
	}

	// Top-level and per-version schemas are mutually exclusive.
	both := strings.Replace(multi, "  - {name: v2, served: true, storage: false}\n", "  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}\n", 1)
	if _, err := ParseCRDs([]byte(both)); err == nil || !strings.Contains(err.Error(), "mutually exclusive") {
		t.Errorf("got %v", err)
	}
}

// TestCRDMultiVersionPaths checks where violations are reported: under
// spec.validation when every version has the same schema (the internal
// form the server validates), per version otherwise.
func TestCRDMultiVersionPaths(t *testing.T) {
	bad := `{type: object, properties: {a: {}}}`
	good := `{type: object, properties: {a: {type: string}}}`
	ver := func(name, schema string) string {
		return "  - name: " + name + "\n    served: true\n    storage: " + map[bool]string{true: "true", false: "false"}[name == "v1"] + "\n    schema:\n      openAPIV3Schema: " + schema + "\n"
	}
	same := mustCRDs(t, crdHead+"  versions:\n"+ver("v1", bad)+ver("v2", bad))[0]
	want := "spec.validation.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields"
	if got := same.Validate().Error(); got != want {
		t.Errorf("identical schemas:\n got %s\nwant %s", got, want)
	}
	diff := mustCRDs(t, crdHead+"  versions:\n"+ver("v1", good)+ver("v2", bad)+ver("v3", bad))[0]
	want = "[spec.versions[1].schema.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields, " +
		"spec.versions[2].schema.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields]"
	if got := diff.Validate().Error(); got != want {
		t.Errorf("different schemas:\n got %s\nwant %s", got, want)
	}
	_, err := CompileCRDs([]*CRD{diff})
	if err == nil || !strings.Contains(err.Error(), `CustomResourceDefinition "foos.example.com" is invalid: [spec.versions[1]`) {
		t.Errorf("CompileCRDs: %v", err)
	}
	set, err := CompileCRDs([]*CRD{diff}, AllowSkeleton(true))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"v1", "v2", "v3"} {
		e, ok := set.Lookup("example.com/"+v, "Foo")
		if !ok || e.Skeleton != (v != "v1") {
			t.Errorf("%s: %v %+v", v, ok, e)
		}
	}
}

func TestCRDVersionWithoutSchema(t *testing.T) {
	c := mustCRDs(t, crdHead+"  versions:\n  - {name: v1, served: true, storage: true}\n")[0]
	want := "spec.versions[0].schema.openAPIV3Schema: Required value"
	if got := c.Validate().Error(); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestParseCRDsMultiDocumentAndJSON(t *testing.T) {
	y := crdHead + "  versions:\n  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}\n"
	two := y + "---\n# a comment-only document\n---\n" + strings.ReplaceAll(strings.ReplaceAll(y, "Foo", "Bar"), "foos", "bars")
	crds := mustCRDs(t, two)
	if len(crds) != 2 || crds[1].Kind != "Bar" {
		t.Fatalf("got %d CRDs", len(crds))
	}
	j := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.b"},
	"spec":{"group":"b","names":{"kind":"A","plural":"as"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`
	crds = mustCRDs(t, j+"\n"+strings.ReplaceAll(j, `"A"`, `"C"`))
	if len(crds) != 2 || crds[1].Kind != "C" {
		t.Fatalf("JSON stream: got %d CRDs", len(crds))
	}
	if _, err := CompileCRDs(append(crds, crds[0])); err == nil || !strings.Contains(err.Error(), "served by another") {
		t.Errorf("duplicate GVK: %v", err)
	}
	for _, bad := range []string{`{"kind":"ConfigMap","apiVersion":"v1"}`, `[1]`, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"group":"g","names":{"kind":"K"},"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":5}}}]}}`} {
		if _, err := ParseCRDs([]byte(bad)); err == nil {
			t.Errorf("ParseCRDs(%s) succeeded", bad)
		}
	}
}

func TestParseGroupVersion(t *testing.T) {
	for in, want := range map[string][2]string{"v1": {"", "v1"}, "example.com/v1": {"example.com", "v1"}, "": {"", ""}, "/": {"", ""}} {
		g, v, err := ParseGroupVersion(in)
		if err != nil || g != want[0] || v != want[1] {
			t.Errorf("ParseGroupVersion(%q) = %q, %q, %v", in, g, v, err)
		}
	}
	if _, _, err := ParseGroupVersion("a/b/c"); err == nil || err.Error() != "unexpected GroupVersion string: a/b/c" {
		t.Errorf("got %v", err)
	}
}

// TestCRDTimeChecks checks issue 13's CRD-time rules with the API server's
// exact texts (the differentials in bench/conformance compare them with
// the server on generated schemas): the completeness of a preserving
// root's junctors and of nested properties, the status-subresource rule on
// the root schema, and the TypeMeta/ObjectMeta checks of embedded
// resources in defaults, reported at the offending field.
func TestCRDTimeChecks(t *testing.T) {
	version := func(name string, storage, status bool, schema string) string {
		s := "  - name: " + name + "\n    served: true\n    storage: " + map[bool]string{true: "true", false: "false"}[storage] + "\n"
		if status {
			s += "    subresources: {status: {}}\n"
		}
		return s + "    schema:\n      openAPIV3Schema: " + schema + "\n"
	}
	const typeObj = `type: object`
	for _, tc := range []struct {
		name, versions string
		want           []string
		lint           []string
	}{
		{"preserving root, property only under allOf",
			version("v1", true, false, `{`+typeObj+`, x-kubernetes-preserve-unknown-fields: true, allOf: [{properties: {l: {minLength: 1}}}]}`),
			[]string{"spec.validation.openAPIV3Schema.properties[l]: Required value: because it is defined in spec.validation.openAPIV3Schema.allOf[0].properties[l]"}, nil},
		{"nested property only under allOf, per-version path",
			version("v1", true, false, `{`+typeObj+`}`) +
				version("v2", false, false, `{`+typeObj+`, properties: {spec: {type: object, properties: {a: {type: string}}}}, allOf: [{properties: {spec: {properties: {b: {minLength: 1}}}}}]}`),
			[]string{"spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[b]: Required value: because it is defined in spec.versions[1].schema.openAPIV3Schema.allOf[0].properties[spec].properties[b]"}, nil},
		{"status subresource, root type",
			version("v1", true, true, `{type: array, items: {type: string}}`),
			[]string{
				`spec.validation.openAPIV3Schema.type: Invalid value: "array": only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
				`spec.validation.openAPIV3Schema.type: Invalid value: "array": must be object at the root`}, nil},
		{"status subresource, allowed root keywords",
			version("v1", true, true, `{`+typeObj+`, description: d, title: t, required: [spec], maxLength: 1, example: {}, x-kubernetes-preserve-unknown-fields: true, properties: {spec: {type: object, nullable: true}}}`),
			nil, nil},
		{"status subresource on one version only",
			version("v1", true, false, `{`+typeObj+`, minProperties: 1}`) + version("v2", false, true, `{`+typeObj+`, minProperties: 2}`),
			[]string{`spec.versions[1].schema.openAPIV3Schema: Invalid value: {"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","Nullable":false,"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":2,"Required":null,"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"AdditionalProperties":null,"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled`},
			nil},
		{"embedded default, wrongly typed apiVersion",
			version("v1", true, false, `{`+typeObj+`, properties: {a: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true, default: {apiVersion: 42, kind: X}}}}`),
			[]string{"spec.validation.openAPIV3Schema.properties[a].default.apiVersion: Invalid value: 42: must be a string"}, nil},
		{"embedded default, TypeMeta and ObjectMeta rules; its value is not validated",
			version("v1", true, false, `{`+typeObj+`, properties: {a: {type: object, maxProperties: 1, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true, default: {kind: X_y, metadata: {name: "a/b"}}}}}`),
			[]string{
				"spec.validation.openAPIV3Schema.properties[a].default.apiVersion: Required value",
				`spec.validation.openAPIV3Schema.properties[a].default.kind: Invalid value: "X_y": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
				`spec.validation.openAPIV3Schema.properties[a].default.metadata.name: Invalid value: "a/b": may not contain '/'`},
			nil},
		{"embedded default passing the meta checks: its coerced value is validated",
			version("v1", true, false, `{`+typeObj+`, properties: {a: {type: object, maxProperties: 2, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true, default: {apiVersion: v1, kind: X, metadata: null}}}}`),
			nil,
			[]string{"spec.validation.openAPIV3Schema.properties[a].default: Too many: 3: must have at most 2 items"}},
		{"default inside embedded metadata: ObjectMeta rules, then its value",
			version("v1", true, false, `{`+typeObj+`, properties: {a: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true, properties: {metadata: {type: object, properties: {name: {type: string, maxLength: 2, default: abc}, generateName: {type: string, default: "a%b"}}}}}}}`),
			[]string{`spec.validation.openAPIV3Schema.properties[a].properties[metadata].properties[generateName].default: Invalid value: "a%b": must result in valid metadata: metadata.generateName: Invalid value: "a%b": may not contain '%'`},
			[]string{"spec.validation.openAPIV3Schema.properties[a].properties[metadata].properties[name].default: Too long: may not be more than 2 bytes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustCRDs(t, crdHead+"  versions:\n"+tc.versions)[0]
			if got := c.Validate().Strings(); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("Validate\n got %q\nwant %q", got, tc.want)
			}
			lv, _ := c.LintValues()
			if got := lv.Strings(); strings.Join(got, "\n") != strings.Join(tc.lint, "\n") {
				t.Errorf("LintValues\n got %q\nwant %q", got, tc.lint)
			}
		})
	}
}
