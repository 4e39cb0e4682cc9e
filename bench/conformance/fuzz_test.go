package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/bench/gen"
	"github.com/jsonprune/jsonprune/bench/oracle"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// FuzzDifferential is the differential fuzz target against the real
// Kubernetes code: a structural schema generated from the fuzz bytes
// (nested objects, arrays, maps, preserve-unknown-fields, embedded
// resources, int-or-string, nullable, defaults) becomes a CRD; the API
// server's CRD validation (oracle) and schemaauto must agree on whether it is
// acceptable; if it is, an instance of it generated from the seed and the
// bench/gen mutations of that instance (unknown fields at every depth,
// duplicates, case variants, escaped keys, nulls, wrong types, metadata junk,
// embedded resources...) are decoded by the API server's chain (oracle) and
// by jsonprune, which must give the same kept object, the same findings in
// the same order and the same fatal error (compareOne, with its intended
// differences: syntax error texts, invalid UTF-8 by default). The schemas
// carry value validations too (enum, pattern, format, bounds, multipleOf,
// lengths, item and property counts, required), and the instance and each
// mutation are also validated by the API server's schema validator and by
// decoder.Validation(true), which must report the same 422 causes
// (compareValidation, as the corpus validation differential compares
// them: as multisets, since the server orders sibling keys by Go map
// iteration).
//
//	cd bench && go test -run '^$' -fuzz '^FuzzDifferential$' -fuzztime 1h ./conformance/
func FuzzDifferential(f *testing.F) {
	for i := range 48 {
		s := make([]byte, 48)
		for j := range s {
			s[j] = byte(i*31 + j*j*7 + j)
		}
		f.Add(s, int64(i), uint8(i%4), uint8(i))
	}
	f.Add([]byte{}, int64(1), uint8(2), uint8(0))
	f.Fuzz(func(t *testing.T, schemaSeed []byte, seed int64, nMut, flags uint8) {
		sg := &schemaGen{b: schemaSeed}
		spec := sg.node(0, false)
		root := map[string]any{"type": "object", "properties": map[string]any{"spec": spec}}
		if flags&1 != 0 {
			root["properties"].(map[string]any)["status"] = sg.node(1, false)
		}
		crd, err := json.Marshal(map[string]any{
			"apiVersion": "apiextensions.k8s.io/v1",
			"kind":       "CustomResourceDefinition",
			"metadata":   map[string]any{"name": "widgets.fuzz.example.com"},
			"spec": map[string]any{
				"group": "fuzz.example.com",
				"names": map[string]any{"kind": "Widget", "listKind": "WidgetList", "plural": "widgets", "singular": "widget"},
				"scope": "Namespaced",
				"versions": []any{map[string]any{
					"name": "v1", "served": true, "storage": true,
					"schema": map[string]any{"openAPIV3Schema": root},
				}},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		violations, err := oracle.CRDViolations(crd)
		if err != nil {
			t.Fatalf("oracle: %v\n%s", err, crd)
		}
		crds, err := schemaauto.ParseCRDs(crd)
		if err != nil {
			t.Fatalf("schemaauto cannot read the CRD: %v\n%s", err, crd)
		}
		set, err := schemaauto.CompileCRDs(crds)
		if (len(violations) > 0) != (err != nil) {
			t.Fatalf("the API server's violations %q, schemaauto %v\n%s", violations, err, crd)
		}
		if len(violations) > 0 {
			return
		}
		o, err := oracle.NewCRDecoder(crd)
		if err != nil {
			t.Fatalf("oracle: %v\n%s", err, crd)
		}
		s := side{o, set}
		sch := schemaFor(t, o, "v1")
		if sch == nil {
			t.Fatalf("no schema for v1\n%s", crd)
		}
		g := gen.New(seed)
		body := g.Instance(sch, "fuzz.example.com/v1", "Widget")
		mode := [...]string{"Warn", "Strict", "Ignore", "Warn"}[flags>>1&3]
		c := &comparison{intended: map[string]int{}}
		c.compareOne(t, "instance", s, body, mode)
		muts, err := g.Mutate(body, sch, int(nMut%8))
		if err != nil {
			t.Fatalf("gen: %v", err)
		}
		for _, m := range muts {
			c.compareOne(t, "["+m.Kind+": "+m.Detail+"]\nCRD: "+string(crd), s, m.Body, mode)
		}
		// value validation: the API server's schema validator (and list
		// types) against decoder.Validation(true), on the instance and each
		// mutation, compared as the corpus validation differential does
		// (compareValidation: multisets, the server's order of sibling keys
		// being Go map order)
		v := validatorsOf(t, crd)["v1"]
		if v == nil {
			t.Fatalf("no reference validator for v1\n%s", crd)
		}
		vc := &valComparison{}
		if validatable(set, body) {
			vc.compareValidation(t, "instance\nCRD: "+string(crd)+"\nbody: "+string(body), s, v, body)
		}
		for _, m := range muts {
			if validatable(set, m.Body) {
				vc.compareValidation(t, "["+m.Kind+": "+m.Detail+"]\nCRD: "+string(crd)+"\nbody: "+string(m.Body), s, v, m.Body)
			}
		}
		for _, d := range vc.diffs {
			t.Error(d)
		}
	})
}

// validatable reports whether the server would run the schema step on
// body and jsonprune validate all of it: its apiVersion and kind are the
// fuzz CRD's (for any other TypeMeta the server's create path stops at
// its TypeMeta check, 8a, compared by metadata_test.go, and never runs
// the schema step: customResourceValidator.Validate returns first; and a
// kind no CRD serves is no schema to jsonprune), and jsonprune has no
// fatal error on it (such as invalid UTF-8, refused by default: the
// decode differential, compareOne, compares fatal errors with their
// documented differences; the errors found before one are partial).
func validatable(set *schemaauto.Set, body []byte) bool {
	var tm struct {
		APIVersion any `json:"apiVersion"`
		Kind       any `json:"kind"`
	}
	if json.Unmarshal(body, &tm) != nil || tm.APIVersion != "fuzz.example.com/v1" || tm.Kind != "Widget" {
		return false
	}
	d := must(decoder.New(set, decoder.FieldValidation(decoder.Ignore), decoder.Validation(true)))
	_, err := d.AppendPrune(nil, body)
	var inv *jperrors.InvalidError
	return err == nil || errors.As(err, &inv)
}

// schemaGen builds a structural schema (as a JSON value) from bytes; when
// the bytes run out it reads zeros, which make leaves.
type schemaGen struct {
	b []byte
	n int // nodes made
}

func (g *schemaGen) byte() byte {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return c
}

// propNames are the names properties are drawn from: plain ones, the names
// the reference treats specially at a resource root, case variants, and
// names with characters that paths and pointers escape.
var propNames = []string{"a", "b", "replicas", "name", "items", "apiVersion", "kind", "metadata",
	"Kind", "x.y", "a/b", "t~1", "spec", "list", "m", "z"}

func (g *schemaGen) node(depth int, underPreserve bool) map[string]any {
	g.n++
	c := g.byte()
	if depth >= 4 || g.n > 40 {
		c %= 5 // leaves only
	}
	var n map[string]any
	switch c % 12 {
	case 0:
		n = map[string]any{"type": "string"}
		if g.byte()%4 == 0 {
			n["default"] = "dflt"
		}
	case 1:
		n = map[string]any{"type": "integer"}
		if g.byte()%4 == 0 {
			n["default"] = 7
		}
	case 2:
		n = map[string]any{"type": "number"}
	case 3:
		n = map[string]any{"type": "boolean"}
	case 4:
		n = map[string]any{"x-kubernetes-int-or-string": true}
	case 5, 6, 7:
		n = map[string]any{"type": "object"}
		props := map[string]any{}
		for range int(g.byte() % 5) {
			props[propNames[int(g.byte())%len(propNames)]] = g.node(depth+1, false)
		}
		if len(props) > 0 || c%12 == 5 {
			n["properties"] = props
		}
		if c%12 == 7 {
			n["x-kubernetes-preserve-unknown-fields"] = true
		}
		if g.byte()%5 == 0 && len(props) > 0 {
			n["default"] = map[string]any{}
		}
	case 8:
		n = map[string]any{"type": "array", "items": g.node(depth+1, false)}
	case 9:
		n = map[string]any{"type": "object", "additionalProperties": g.node(depth+1, false)}
	case 10:
		n = map[string]any{"type": "object", "x-kubernetes-embedded-resource": true}
		props := map[string]any{}
		for range int(g.byte() % 3) {
			props[propNames[int(g.byte())%len(propNames)]] = g.node(depth+1, false)
		}
		if len(props) > 0 {
			n["properties"] = props
		}
		if len(props) == 0 || g.byte()%2 == 0 {
			n["x-kubernetes-preserve-unknown-fields"] = true
		}
	case 11:
		n = map[string]any{"type": "array", "x-kubernetes-preserve-unknown-fields": true,
			"items": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
	}
	if g.byte()%4 == 0 {
		n["nullable"] = true
	}
	if _, defaulted := n["default"]; !defaulted && g.byte()%2 == 0 {
		g.valueKeywords(n)
	}
	return n
}

// patterns and formats the generated schemas draw from: the corpus's
// usual shapes (DNS labels, quantities, int-or-string) and a few others.
var (
	fuzzPatterns = []string{`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`, `^[0-9]+(Mi|Gi)?$`, `^(a|b|dflt)$`, `.`, `^$`,
		`^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`,
		`^\d+(\.\d+)?%?$`, `[A-Z]`, `^é+$`}
	fuzzFormats = []string{"date-time", "date", "uuid", "ipv4", "ipv6", "hostname", "byte", "email", "duration", "int32", "uri", "cidr", "mac"}
)

// valueKeywords adds value validations of n's type to n (a node without a
// default: a default that fails them is refused with the CRD, which
// schemaauto does not check).
func (g *schemaGen) valueKeywords(n map[string]any) {
	c := g.byte()
	switch n["type"] {
	case "string":
		if c&1 != 0 {
			n["maxLength"] = int(g.byte() % 6)
		}
		if c&2 != 0 {
			n["minLength"] = int(g.byte() % 4)
		}
		if c&4 != 0 {
			n["pattern"] = fuzzPatterns[int(g.byte())%len(fuzzPatterns)]
		}
		if c&8 != 0 {
			n["format"] = fuzzFormats[int(g.byte())%len(fuzzFormats)]
		}
		if c&16 != 0 {
			n["enum"] = []any{"a", "b", "x", "é"}[:1+g.byte()%4]
		}
	case "integer", "number":
		if c&1 != 0 {
			n["minimum"] = int(g.byte()%5) - 2
			n["exclusiveMinimum"] = c&8 != 0
		}
		if c&2 != 0 {
			n["maximum"] = int(g.byte() % 10)
			n["exclusiveMaximum"] = c&16 != 0
		}
		if c&4 != 0 {
			n["multipleOf"] = []any{2, 3, 0.5, 1.5}[g.byte()%4]
		}
		if c&32 != 0 {
			n["enum"] = []any{0, 1, 7, 1.5}[:1+g.byte()%4]
		}
	case "array":
		if c&1 != 0 {
			n["minItems"] = int(g.byte() % 3)
		}
		if c&2 != 0 {
			n["maxItems"] = int(g.byte() % 4)
		}
	case "object":
		if props, ok := n["properties"].(map[string]any); ok && len(props) > 0 && c&1 != 0 {
			var req []any
			for _, name := range slices.Sorted(maps.Keys(props)) { // the same bytes, the same schema
				if g.byte()%2 == 0 {
					req = append(req, name)
				}
			}
			if len(req) > 0 {
				n["required"] = req
			}
		}
		if c&2 != 0 {
			n["minProperties"] = int(g.byte() % 3)
		}
		if c&4 != 0 {
			n["maxProperties"] = int(g.byte() % 4)
		}
	default:
		if n["x-kubernetes-int-or-string"] == true && c&1 != 0 {
			n["pattern"] = fuzzPatterns[int(g.byte())%len(fuzzPatterns)]
		}
	}
}

// TestFuzzDifferentialSchemas keeps the generator honest: its seeds give
// schemas of every shape, and most are acceptable CRDs.
func TestFuzzDifferentialSchemas(t *testing.T) {
	shapes := map[string]int{}
	for i := range 200 {
		s := make([]byte, 48)
		for j := range s {
			s[j] = byte(i*31 + j*j*7 + j)
		}
		js, _ := json.Marshal((&schemaGen{b: s}).node(0, false))
		for _, k := range []string{"x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource",
			"x-kubernetes-int-or-string", "additionalProperties", "nullable", "default", "items"} {
			if strings.Contains(string(js), `"`+k+`"`) {
				shapes[k]++
			}
		}
	}
	for k, n := range shapes {
		if n == 0 {
			t.Errorf("no generated schema has %s", k)
		}
	}
	if len(shapes) < 7 {
		t.Errorf("shapes %v", shapes)
	}
	t.Log(fmt.Sprint(shapes))
}
