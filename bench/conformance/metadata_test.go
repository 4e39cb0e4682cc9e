package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/objectmeta"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	sigsyaml "sigs.k8s.io/yaml"
)

// TestMetadataDifferential compares objectmeta's metadata validation with
// the real create-path validation of k8s.io/apiextensions-apiserver v0.37.2:
// customresource.NewStrategy(...).Validate (TypeMeta 8a, root ObjectMeta
// 8b through ValidateObjectMetaDeclaratively with NameIsDNSSubdomain, and
// embedded resources 8e through schema/objectmeta.Validate) and
// WarningsOnCreate, over generated metadata (valid and broken names,
// labels, annotations, owner references, finalizers, managed fields,
// TypeMeta) and the metadata of the shared corpus's custom resources, each
// both at the root and in an embedded resource, namespaced and
// cluster-scoped.
//
// Metadata is normalised as the server does before validation (decoded
// into metav1.ObjectMeta, rendered back with ToUnstructured) and given to
// objectmeta as JSON. The server's name generation (step 6) is simulated on
// the oracle's side with objectmeta.GeneratedNamePlaceholder as the random
// part, so texts compare exactly.
//
// The error lists must be equal as multisets; they must be equal in order
// too when the server's order does not depend on Go map iteration: root
// errors of metadata with at most one label and at most one annotation
// (embedded errors iterate the embedded object's map and are compared as
// multisets only).
//
// METADATA_CASES=<n> sets the number of generated cases (default 2000).
func TestMetadataDifferential(t *testing.T) {
	ctx := context.Background()
	gvk := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	s := &structuralschema.Structural{
		Generic: structuralschema.Generic{Type: "object"},
		Properties: map[string]structuralschema.Structural{
			"spec": {
				Generic: structuralschema.Generic{Type: "object"},
				Properties: map[string]structuralschema.Structural{
					"e": {Generic: structuralschema.Generic{Type: "object"}, Extensions: structuralschema.Extensions{XEmbeddedResource: true, XPreserveUnknownFields: true}},
				},
			},
		},
	}
	namespaced := customresource.NewStrategy(nil, true, gvk, nil, nil, s, nil, nil, nil)
	cluster := customresource.NewStrategy(nil, false, gvk, nil, nil, s, nil, nil, nil)

	n := 2000
	if s := os.Getenv("METADATA_CASES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	cases := generatedMetadata(n)
	nGen := len(cases)
	cases = append(cases, corpusMetadata(t)...)

	var v objectmeta.Validator
	stats := map[string]int{}
	var seen []string // every error and warning of the oracle
	for i, c := range cases {
		meta, metaJSON, err := normalise(c.meta)
		embMeta, embJSON, err2 := normalise(c.embMeta)
		if err != nil || err2 != nil {
			if i < nGen {
				t.Fatalf("case %d: %v %v", i, err, err2)
			}
			stats["corpus metadata that does not decode"]++
			continue
		}
		for _, scoped := range []bool{true, false} {
			// the oracle
			rootMeta := copyMap(meta)
			if rootMeta["name"] == nil && rootMeta["generateName"] != nil {
				gn := rootMeta["generateName"].(string)
				rootMeta["name"] = gn[:min(len(gn), 58)] + objectmeta.GeneratedNamePlaceholder
			}
			obj := map[string]any{"metadata": rootMeta}
			if c.hasKind {
				obj["kind"] = c.kind
			}
			if c.hasAPIVersion {
				obj["apiVersion"] = c.apiVersion
			}
			e := map[string]any{}
			if c.embHasAPIVersion {
				e["apiVersion"] = c.embAPIVersion
			}
			if c.embHasKind {
				e["kind"] = c.embKind
			}
			if c.embHasMeta {
				e["metadata"] = embMeta
			}
			obj["spec"] = map[string]any{"e": e}
			u := &unstructured.Unstructured{Object: obj}
			strategy := cluster
			if scoped {
				strategy = namespaced
			}
			var wantRoot, wantEmb []string
			for _, err := range strategy.Validate(ctx, u) {
				seen = append(seen, err.Error())
				if strings.HasPrefix(err.Field, "spec.") {
					wantEmb = append(wantEmb, err.Error())
				} else {
					wantRoot = append(wantRoot, err.Error())
				}
			}

			// objectmeta
			scope := objectmeta.ScopeCluster
			if scoped {
				scope = objectmeta.ScopeNamespaced
			}
			got := objectmeta.ValidateTypeMeta(c.kind, c.apiVersion, "Widget", "example.com/v1", nil)
			if len(got) == 0 {
				got = v.Validate(metaJSON, objectmeta.ValidateOptions{Scope: scope}, got)
			}
			gotRoot := strs(got)
			got = objectmeta.ValidateEmbeddedTypeMeta("spec.e", c.embHasAPIVersion, c.embAPIVersion, c.embHasKind, c.embKind, nil)
			if c.embHasMeta {
				got = v.Validate(embJSON, objectmeta.ValidateOptions{Embedded: true, Path: "spec.e.metadata"}, got)
			}
			gotEmb := strs(got)

			name := fmt.Sprintf("case %d (scoped %v)", i, scoped)
			if i >= nGen {
				name = fmt.Sprintf("corpus %s (scoped %v)", c.file, scoped)
			}
			labels, _ := meta["labels"].(map[string]any)
			annotations, _ := meta["annotations"].(map[string]any)
			ordered := len(labels) <= 1 && len(annotations) <= 1
			if ordered && !slices.Equal(gotRoot, wantRoot) || !sameMultiset(gotRoot, wantRoot) {
				t.Errorf("%s root metadata %s:\n got %q\nwant %q", name, metaJSON, gotRoot, wantRoot)
			}
			if !sameMultiset(gotEmb, wantEmb) {
				t.Errorf("%s embedded metadata %s:\n got %q\nwant %q", name, embJSON, gotEmb, wantEmb)
			}
			stats["compared"]++
			if len(wantRoot) > 0 {
				stats["root with errors"]++
			}
			if len(wantEmb) > 0 {
				stats["embedded with errors"]++
			}
			stats["errors"] += len(wantRoot) + len(wantEmb)

			// warnings, when the create succeeds at the root
			if scoped && len(wantRoot) == 0 {
				want := strategy.WarningsOnCreate(ctx, u)
				gotW := v.Warnings(metaJSON, nil)
				if !slices.Equal(gotW, want) {
					t.Errorf("%s warnings %s:\n got %q\nwant %q", name, metaJSON, gotW, want)
				}
				stats["warnings"] += len(want)
				seen = append(seen, want...)
			}
		}
	}
	t.Logf("%v (generated %d, corpus %d)", stats, nGen, len(cases)-nGen)

	// every rule was exercised
	all := strings.Join(seen, "\n")
	for _, rule := range []string{
		"metadata.name: Required value: name or generateName is required", "metadata.name: Invalid value: \"" + strings.Repeat("a", 254) + "\": must be no more than 253 characters",
		"metadata.name: Invalid value: \"Foo\": a lowercase RFC 1123 subdomain", "metadata.generateName: Invalid", objectmeta.GeneratedNamePlaceholder + "\": a lowercase RFC 1123 subdomain",
		"metadata.namespace: Required value", "metadata.namespace: Forbidden: not allowed on this type", "namespace: Invalid value: \"a.b\": must not contain dots",
		"namespace: Invalid value: \"" + strings.Repeat("n", 64) + "\": must be no more than 63 characters", "generation: Invalid value: -2: must be greater than or equal to 0",
		"prefix part must be non-empty", "prefix part must be no more than 253 bytes", "prefix part a lowercase RFC 1123 subdomain", "name part must be non-empty",
		"name part must be no more than 63 bytes", "name part must consist", "a valid label key must consist", "\": must be no more than 63 bytes", "a valid label must be an empty string",
		"metadata.annotations: Invalid value: \"Ä\"", "metadata.annotations: Too long: may not be more than 262144 bytes",
		"apiVersion: Required value: must not be empty", "must be <group>/<version> or <version>", "].kind: Required value: must not be empty",
		"].name: Required value: must not be empty", "].uid: Required value: must not be empty", "/v1, Kind=Event is disallowed from being an owner",
		"Only one reference can have Controller set to true", "finalizer orphan and foregroundDeletion cannot be both set", "metadata.finalizers: Invalid value: \"a/b/c\"",
		"operation: Required value: must not be empty", "operation: Unsupported value: \"\\u003cop\\u003e\": supported values: \"Apply\", \"Update\"", "fieldsType: Invalid value: \"FieldsV2\": must be `FieldsV1`",
		"manager: Too long: may not be more than 128 bytes", "invalid character U+0085", "subresource: Too long: may not be more than 256 bytes",
		"spec.e.apiVersion: Required value", "spec.e.kind: Required value", "spec.e.apiVersion: Invalid value: \"\": must not be empty", "unexpected GroupVersion string: a/b/c",
		"spec.e.kind: Invalid value: \"\": must not be empty", "may have mixed case, but should otherwise match: must be no more than 63 characters,a DNS-1035",
		"spec.e.metadata.name: Invalid value: \"a/b\": may not contain '/'", "may not contain '%'", "may not be '.'", "may not be '..'", "spec.e.metadata.generateName: Invalid value",
		"spec.e.metadata.namespace: Invalid value", "kind: Invalid value: \"widget\": must be Widget", "apiVersion: Invalid value: \"example.com/v2\": must be example.com/v1",
		"prefer a domain-qualified finalizer name to avoid", "prefer a domain-qualified finalizer name including a path",
	} {
		if !strings.Contains(all, rule) {
			t.Errorf("no input exercised %q", rule)
		}
	}
}

func strs(l jperrors.FieldErrors) []string {
	if len(l) == 0 {
		return nil
	}
	return l.Strings()
}

func sameMultiset(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// normalise decodes metadata into metav1.ObjectMeta and renders it back as
// the server does; it returns the map and its JSON.
func normalise(m map[string]any) (map[string]any, []byte, error) {
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, nil, err
	}
	var om metav1.ObjectMeta
	if err := json.Unmarshal(raw, &om); err != nil {
		return nil, nil, err
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&om)
	if err != nil {
		return nil, nil, err
	}
	out, err := json.Marshal(u)
	if err != nil {
		return nil, nil, err
	}
	return u, out, nil
}

type metaCase struct {
	meta, embMeta                map[string]any
	hasKind, hasAPIVersion       bool
	kind, apiVersion             string
	embHasKind, embHasAPIVersion bool
	embHasMeta                   bool
	embKind, embAPIVersion       string
	file                         string
}

var (
	names = []string{"w", "a.b-c", "Foo", "foo_bar", "-a", "a-", "a..b", ".", "..", "a/b", "a%b", "é", "", strings.Repeat("a", 253), strings.Repeat("a", 254),
		strings.Repeat("a", 63) + "." + strings.Repeat("b", 63), "a b", "0", "x.", "UPPER", "a\u212a"}
	generateNames = []string{"", "w-", "Foo-", "-", "a.-", "a-", "ab-", "a/b-", "%", strings.Repeat("g", 70), strings.Repeat("g", 57) + "-", strings.Repeat("g", 57) + ".x", strings.Repeat("G", 254) + "-", "x", "é-"}
	namespaces    = []string{"", "", "default", "NS_", "a.b", strings.Repeat("n", 64), "-x", "kube-system"}
	labelKeys     = []string{"app", "example.com/app", "-bad", "a/b/c", "/", "x/", "P_/n", "a b", strings.Repeat("k", 63), strings.Repeat("k", 64), strings.Repeat("p", 254) + "/n",
		"app.kubernetes.io/name", "A.B/c", "a_b.c-d", "é", "k.", "_k", "9"}
	labelValues = []string{"", "v", "-x-", "a b", strings.Repeat("v", 63), strings.Repeat("v", 64), "MyValue", "my_value", "é", "a.b", "x-"}
	annoKeys    = append(slices.Clone(labelKeys), "Upper.Case/OK", "\u212a", "Ä", "kubectl.kubernetes.io/last-applied-configuration", "A/B/C")
	annoValues  = []string{"", "any text", "{\"a\":1}", "\x00\x01"}
	finalizers  = []string{"example.com/f", "cleanup", "a.b", "orphan", "foregroundDeletion", "kubernetes", "a/b/c", "-x", "", "Example.COM/Fin", "a/", "/a", "cleanup"}
	apiVersions = []string{"v1", "apps/v1", "example.com/v1", "", "/", "a/b/c", "g/", "/v1", "v1beta1"}
	kinds       = []string{"Event", "Deployment", "", "A", "Foo_Bar"}
	operations  = []string{"Apply", "Update", "", "x", "<op>"}
	managers    = []string{"", "kubectl", "m\x01é\a", strings.Repeat("m", 129), "\u0085x"}
	embKinds    = []string{"ConfigMap", "Foo_Bar", "1x", "", strings.Repeat("K", 64), strings.Repeat("K", 63) + "_", "\u212a", "foo-bar", "a-", "É"}
	embAPIs     = []string{"v1", "apps/v1", "a/b/c", "", "/", "a//b"}
)

func pick[T any](r *rand.Rand, l []T) T { return l[r.IntN(len(l))] }

func randomMeta(r *rand.Rand) map[string]any {
	m := map[string]any{}
	if r.IntN(4) > 0 {
		m["name"] = pick(r, names)
	}
	if r.IntN(3) == 0 {
		m["generateName"] = pick(r, generateNames)
	}
	if r.IntN(2) == 0 {
		m["namespace"] = pick(r, namespaces)
	}
	if r.IntN(5) == 0 {
		m["generation"] = int64(r.IntN(5) - 2)
	}
	if r.IntN(2) == 0 {
		l := map[string]any{}
		for range r.IntN(4) {
			l[pick(r, labelKeys)] = pick(r, labelValues)
		}
		m["labels"] = l
	}
	if r.IntN(2) == 0 {
		a := map[string]any{}
		for range r.IntN(4) {
			a[pick(r, annoKeys)] = pick(r, annoValues)
		}
		if r.IntN(20) == 0 {
			a["big"] = strings.Repeat("b", 262144-3+r.IntN(3))
		}
		m["annotations"] = a
	}
	if r.IntN(3) == 0 {
		var refs []any
		for range r.IntN(4) {
			ref := map[string]any{"apiVersion": pick(r, apiVersions), "kind": pick(r, kinds), "name": pick(r, []string{"n", "", "<n>"}), "uid": pick(r, []string{"u", ""})}
			if r.IntN(2) == 0 {
				ref["controller"] = r.IntN(2) == 0
			}
			if r.IntN(3) == 0 {
				ref["blockOwnerDeletion"] = r.IntN(2) == 0
			}
			refs = append(refs, ref)
		}
		m["ownerReferences"] = refs
	}
	if r.IntN(3) == 0 {
		var f []any
		for range r.IntN(4) {
			f = append(f, pick(r, finalizers))
		}
		m["finalizers"] = f
	}
	if r.IntN(6) == 0 {
		var mf []any
		for range r.IntN(3) {
			e := map[string]any{"operation": pick(r, operations), "manager": pick(r, managers)}
			if r.IntN(3) == 0 {
				e["fieldsType"] = pick(r, []string{"FieldsV1", "FieldsV2"})
			}
			if r.IntN(5) == 0 {
				e["subresource"] = pick(r, []string{"status", strings.Repeat("s", 257)})
			}
			mf = append(mf, e)
		}
		m["managedFields"] = mf
	}
	return m
}

func generatedMetadata(n int) []metaCase {
	r := rand.New(rand.NewPCG(1, 2))
	var out []metaCase
	for range n {
		c := metaCase{meta: randomMeta(r), embMeta: randomMeta(r),
			hasKind: true, kind: "Widget", hasAPIVersion: true, apiVersion: "example.com/v1",
			embHasKind: r.IntN(6) > 0, embKind: pick(r, embKinds), embHasAPIVersion: r.IntN(6) > 0, embAPIVersion: pick(r, embAPIs), embHasMeta: r.IntN(5) > 0}
		if r.IntN(10) == 0 {
			c.kind = pick(r, []string{"widget", ""})
			c.hasKind = c.kind != ""
		}
		if r.IntN(10) == 0 {
			c.apiVersion = pick(r, []string{"example.com/v2", ""})
			c.hasAPIVersion = c.apiVersion != ""
		}
		if !c.embHasKind {
			c.embKind = ""
		}
		if !c.embHasAPIVersion {
			c.embAPIVersion = ""
		}
		out = append(out, c)
	}
	return out
}

// corpusMetadata is the metadata of every custom resource of the shared
// corpus, at the root and embedded.
func corpusMetadata(t *testing.T) []metaCase {
	dir := "../../../shared/corpus/crs"
	if _, err := os.Stat(dir); err != nil {
		t.Logf("SKIP corpus part: %s not found", dir)
		return nil
	}
	var out []metaCase
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var obj map[string]any
		if sigsyaml.Unmarshal(data, &obj) != nil {
			return nil
		}
		m, ok := obj["metadata"].(map[string]any)
		if !ok {
			return nil
		}
		kind, _ := obj["kind"].(string)
		av, _ := obj["apiVersion"].(string)
		out = append(out, metaCase{meta: m, embMeta: m, hasKind: true, kind: "Widget", hasAPIVersion: true, apiVersion: "example.com/v1",
			embHasKind: true, embKind: kind, embHasAPIVersion: true, embAPIVersion: av, embHasMeta: true, file: filepath.Base(p)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
