package apiserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	sigsyaml "sigs.k8s.io/yaml"
)

// The explicit vectors are built on one small corpus document, the
// ReferenceGrant of gateway-api's examples (its CRD serves v1 and
// v1beta1, which defect 3 needs).
const (
	vectorCRD    = "crds/gateway-api/gateway.networking.k8s.io_referencegrants.yaml"
	vectorGroup  = "gateway.networking.k8s.io"
	vectorPlural = "referencegrants"
	vectorKind   = "ReferenceGrant"
	vectorName   = "crs/gateway-api/gateway-api__examples__standard__reference-grant.yaml"
	vectorSpec   = `{"from":[{"group":"gateway.networking.k8s.io","kind":"HTTPRoute","namespace":"prod"}],"to":[{"group":"","kind":"Service"}]}`
)

// Vector is one explicit body.
type Vector struct {
	Name    string // what it tests; "defectN-..." for the five type-meta defects
	Version string // the endpoint version
	Body    string // JSON text, possibly not UTF-8
	// YAML, when set, is the body of a YAML-only vector (Body is then
	// empty): block-style YAML.
	YAML string
}

const yamlRG = "apiVersion: gateway.networking.k8s.io/v1\nkind: ReferenceGrant\nmetadata:\n  name: allow-prod-traffic\n"
const yamlSpecRG = "spec:\n  from:\n  - group: gateway.networking.k8s.io\n    kind: HTTPRoute\n    namespace: prod\n  to:\n  - group: \"\"\n    kind: Service\n"

func rg(members ...string) string { return "{" + strings.Join(members, ",") + "}" }

const (
	av1      = `"apiVersion":"gateway.networking.k8s.io/v1"`
	av1beta1 = `"apiVersion":"gateway.networking.k8s.io/v1beta1"`
	kindRG   = `"kind":"ReferenceGrant"`
	mdRG     = `"metadata":{"name":"allow-prod-traffic"}`
	specRG   = `"spec":` + vectorSpec
	specUnk  = `"spec":{"from":[{"group":"gateway.networking.k8s.io","kind":"HTTPRoute","namespace":"prod"}],"to":[{"group":"","kind":"Service"}],"jsonpruneUnknown":1}`
)

// duplicateLabels is metadata with n labels each given twice (n duplicate
// fields).
func duplicateLabels(n int) string {
	var b strings.Builder
	b.WriteString(`"metadata":{"name":"allow-prod-traffic","labels":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%03d":"v","k%03d":"v"`, i, i)
	}
	b.WriteString("}}")
	return b.String()
}

// Vectors are the explicit vectors: the five type-meta defects of issue
// 14 (and neighbours of each), then plain mutations of the same document.
func Vectors() []Vector {
	return []Vector{
		{"base", "v1", rg(av1, kindRG, mdRG, specRG), ""},
		{"defect1-invalid-utf8-key-before-apiversion", "v1", rg(`"k`+"\xff"+`":1`, av1, kindRG, mdRG, specRG), ""},
		{"defect1-lone-surrogate-key-before-apiversion", "v1", rg(`"k\ud800":1`, av1, kindRG, mdRG, specRG), ""},
		{"defect1-invalid-utf8-key-after-kind", "v1", rg(av1, kindRG, `"k`+"\xff"+`":1`, mdRG, specRG), ""},
		{"defect2-apiversion-number", "v1", rg(`"apiVersion":5`, kindRG, mdRG, specRG), ""},
		{"defect2-apiversion-object", "v1", rg(`"apiVersion":{}`, kindRG, mdRG, specRG), ""},
		{"defect2-kind-number", "v1", rg(av1, `"kind":5`, mdRG, specRG), ""},
		{"defect3-two-apiversions-v1beta1-then-v1", "v1", rg(av1beta1, av1, kindRG, mdRG, specUnk), ""},
		{"defect3-two-apiversions-v1-then-v1beta1", "v1beta1", rg(av1, av1beta1, kindRG, mdRG, specUnk), ""},
		{"defect3-two-apiversions-warn-object", "v1", rg(av1beta1, av1, kindRG, mdRG, specRG), ""},
		{"defect4-case-variant-APIVersion-after-apiversion", "v1", rg(av1, kindRG, `"APIVersion":"a/b/c"`, mdRG, specRG), ""},
		{"defect4-case-variant-Kind-after-kind", "v1", rg(av1, kindRG, `"Kind":"Other"`, mdRG, specRG), ""},
		{"defect4-case-variant-APIVERSION-valid", "v1", rg(av1, kindRG, `"APIVERSION":"gateway.networking.k8s.io/v1beta1"`, mdRG, specRG), ""},
		{"defect5-100-duplicates", "v1", rg(av1, kindRG, duplicateLabels(100), specRG), ""},
		{"defect5-101-duplicates", "v1", rg(av1, kindRG, duplicateLabels(101), specRG), ""},
		{"defect5-150-duplicates", "v1", rg(av1, kindRG, duplicateLabels(150), specRG), ""},
		{"mutation-unknown-field-root", "v1", rg(av1, kindRG, `"jsonpruneUnknown":1`, mdRG, specRG), ""},
		{"mutation-unknown-field-spec", "v1", rg(av1, kindRG, mdRG, specUnk), ""},
		{"mutation-unknown-field-metadata", "v1", rg(av1, kindRG, `"metadata":{"name":"allow-prod-traffic","jsonpruneUnknown":1}`, specRG), ""},
		{"mutation-duplicate-field-kind", "v1", rg(av1, kindRG, kindRG, mdRG, specRG), ""},
		{"mutation-duplicate-field-spec", "v1", rg(av1, kindRG, mdRG, specRG, specRG), ""},
		{"mutation-wrong-type-metadata-generation", "v1", rg(av1, kindRG, `"metadata":{"name":"allow-prod-traffic","generation":"one"}`, specRG), ""},
		{"mutation-wrong-type-metadata-labels", "v1", rg(av1, kindRG, `"metadata":{"name":"allow-prod-traffic","labels":"x"}`, specRG), ""},
		{"mutation-wrong-type-spec-array", "v1", rg(av1, kindRG, mdRG, `"spec":[]`), ""},
		{"mutation-wrong-type-spec-from-string", "v1", rg(av1, kindRG, mdRG, `"spec":{"from":"x","to":[{"group":"","kind":"Service"}]}`), ""},
		{"mutation-misspelled-kind", "v1", rg(av1, `"kind":"ReferenceGrnat"`, mdRG, specRG), ""},
		{"mutation-kind-missing", "v1", rg(av1, mdRG, specRG), ""},
		{"mutation-apiversion-missing", "v1", rg(kindRG, mdRG, specRG), ""},
		{"mutation-apiversion-other-group", "v1", rg(`"apiVersion":"example.com/v1"`, kindRG, mdRG, specRG), ""},
		{"yaml-block-duplicate-root-key", "v1", "", yamlRG + "kind: ReferenceGrant\n" + yamlSpecRG},
		{"yaml-block-duplicate-nested-key", "v1", "", yamlRG + "spec:\n  from:\n  - group: gateway.networking.k8s.io\n    kind: HTTPRoute\n    kind: HTTPRoute\n    namespace: prod\n  to:\n  - group: \"\"\n    kind: Service\n"},
		{"yaml-flow-duplicate-nested-key", "v1", "", yamlRG + "spec:\n  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, kind: HTTPRoute, namespace: prod}]\n  to:\n  - group: \"\"\n    kind: Service\n"},
		{"yaml-block-unknown-field", "v1", "", yamlRG + yamlSpecRG + "  jsonpruneUnknown: 1\n"},
	}
}

// asYAML is the YAML form of a JSON body: "---\n" then the JSON text (JSON
// is YAML's flow style). The marker makes jsonprune read the body as YAML
// (it tells the formats by the first byte, the server by the Content-Type);
// the server's YAML-to-JSON conversion ignores it.
func asYAML(body []byte) []byte { return append([]byte("---\n"), body...) }

// VectorCases are the cases of Vectors, JSON and YAML, Strict and Warn.
func VectorCases() []Case {
	var out []Case
	for _, v := range Vectors() {
		for _, mode := range []string{"Strict", "Warn"} {
			for _, y := range []bool{false, true} {
				body := []byte(v.Body)
				if v.YAML != "" {
					if !y {
						continue
					}
					body = []byte(v.YAML)
				} else if y {
					body = asYAML(body)
				}
				out = append(out, Case{Family: "vectors", Name: vectorName + "#" + v.Name, CRD: vectorCRD,
					Group: vectorGroup, Version: v.Version, Plural: vectorPlural, Namespace: "default",
					YAML: y, Mode: mode, Body: body})
			}
		}
	}
	return out
}

// MutationCases returns seeded mutations of the JSON corpus cases among
// cases (every n-th CR): an unknown root field, a duplicate field (kind
// given twice), a wrong-typed metadata value (generation as a string),
// and a misspelled kind, each as JSON and as YAML ("---\n" + the JSON), in
// both modes. A body whose JSON form does not have the members the
// mutation edits is skipped.
func MutationCases(cases []Case, n int) []Case {
	var out []Case
	seen := map[string]int{}
	for _, c := range cases {
		if c.YAML || c.Mode != "Strict" {
			continue
		}
		seen[c.Family]++
		if (seen[c.Family]-1)%n != 0 {
			continue
		}
		var tm struct {
			Kind string `json:"kind"`
		}
		if json.Unmarshal(c.Body, &tm) != nil || tm.Kind == "" || !bytes.HasPrefix(c.Body, []byte("{")) {
			continue
		}
		kindMember := []byte(`"kind":` + quote(tm.Kind))
		muts := []struct {
			name string
			body []byte
		}{
			{"unknown-field", append([]byte(`{"jsonpruneUnknown":1,`), c.Body[1:]...)},
			{"duplicate-field", append(append([]byte("{"), kindMember...), append([]byte(","), c.Body[1:]...)...)},
			{"wrong-type-generation", wrongTypeGeneration(c.Body)},
			{"misspelled-kind", bytes.Replace(c.Body, kindMember, []byte(`"kind":`+quote(tm.Kind+"x")), 1)},
		}
		for _, m := range muts {
			if bytes.Equal(m.body, c.Body) {
				continue
			}
			for _, mode := range []string{"Strict", "Warn"} {
				for _, y := range []bool{false, true} {
					mc := c
					mc.Family, mc.Name, mc.Mode, mc.YAML, mc.Body = "mutations", c.Name+"#"+m.name, mode, y, m.body
					if y {
						mc.Body = asYAML(m.body)
					}
					out = append(out, mc)
				}
			}
		}
	}
	return out
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// wrongTypeGeneration puts "generation":"one" first in the body's
// metadata (an empty metadata gets it alone).
func wrongTypeGeneration(body []byte) []byte {
	if bytes.Contains(body, []byte(`"metadata":{}`)) {
		return bytes.Replace(body, []byte(`"metadata":{}`), []byte(`"metadata":{"generation":"one"}`), 1)
	}
	return bytes.Replace(body, []byte(`"metadata":{`), []byte(`"metadata":{"generation":"one",`), 1)
}

// CRVectorCases returns the bodies of testdata/crvectors.jsonl (the
// re-assembled oracle's regression vectors: corpus documents and seeded
// mutations of 55 families, bench/cmd/crvectors) as cases, family
// "crvectors", each in its recorded format, in Strict and Warn mode. The
// URL is the record's CRD (group, plural, scope from index.json) and
// version; the namespace is the body's when it is a valid name.
func CRVectorCases(path string, ix *Index) ([]Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	crds := map[string]*CRDInfo{}
	for i := range ix.CRDs {
		crds[ix.CRDs[i].File] = &ix.CRDs[i]
	}
	var out []Case
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r struct {
			CRD, CR, Version, Mutation, Body, BodyBase64 string
			YAML                                         bool
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		body := []byte(r.Body)
		if r.BodyBase64 != "" {
			if body, err = base64.StdEncoding.DecodeString(r.BodyBase64); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
			}
		}
		crd := crds[r.CRD]
		if crd == nil {
			return nil, fmt.Errorf("%s:%d: CRD %s not in index.json", path, i+1, r.CRD)
		}
		ns := ""
		if crd.Scope == "Namespaced" {
			j := body
			if r.YAML {
				j, _ = sigsyaml.YAMLToJSON(body)
			}
			ns = namespaceOf(j)
		}
		for _, mode := range []string{"Strict", "Warn"} {
			out = append(out, Case{Family: "crvectors", Name: fmt.Sprintf("%s#crvectors:%d:%s", r.CR, i+1, r.Mutation), CRD: r.CRD,
				Group: crd.Group, Version: r.Version, Plural: crd.Plural, Namespace: ns, YAML: r.YAML, Mode: mode, Body: body})
		}
	}
	return out, nil
}
