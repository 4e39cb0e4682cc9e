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
