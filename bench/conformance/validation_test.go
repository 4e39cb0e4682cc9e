package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/bench/gen"
	"github.com/jsonprune/jsonprune/bench/oracle"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
)

// This file holds the decoder's value validation (decoder.Validation: the
// API server's OpenAPI schema step, 8c in reference/kubernetes-validation.md)
// to the real validator: apiextensions' NewSchemaValidator built from the
// CRD version's openAPIV3Schema as written, run by ValidateCustomResource
// on the object the reference chain decoded, pruned and defaulted (with
// status dropped where the version has the status subresource, as a create
// does). Errors are compared as multisets: the server orders the errors of
// sibling keys by Go map iteration.
//
// A schema that uses what the decoder does not check yet (junctors, list
// types, CEL: Automaton.Unchecked) is compared too; a difference there is
// counted apart, as "unchecked", and must be explained by one of them.

// validator is the reference validator of one CRD version.
type validator struct {
	sv        apiservervalidation.SchemaValidator
	version   string
	status    bool
	unchecked []string
}

func validatorsOf(t *testing.T, data []byte) map[string]*validator {
	internal, _, err := oracle.DecodeCRD(data)
	if err != nil {
		t.Fatal(err)
	}
	crds, err := schemaauto.ParseCRDs(data)
	if err != nil {
		t.Fatal(err)
	}
	set, err := schemaauto.CompileCRDs(crds)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*validator{}
	for _, v := range internal.Spec.Versions {
		var props *apiextensions.JSONSchemaProps
		if internal.Spec.Validation != nil {
			props = internal.Spec.Validation.OpenAPIV3Schema
		}
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			props = v.Schema.OpenAPIV3Schema
		}
		if props == nil {
			continue
		}
		sv, _, err := apiservervalidation.NewSchemaValidator(props)
		if err != nil {
			t.Fatalf("NewSchemaValidator: %v", err)
		}
		status := internal.Spec.Subresources != nil && internal.Spec.Subresources.Status != nil ||
			v.Subresources != nil && v.Subresources.Status != nil
		val := &validator{sv: sv, status: status, version: v.Name}
		if e, ok := set.LookupGVK(schemaauto.GroupVersionKind{Group: internal.Spec.Group, Version: v.Name, Kind: internal.Spec.Names.Kind}); ok && e.Automaton != nil {
			val.unchecked = e.Automaton.Unchecked()
		}
		out[v.Name] = val
	}
	return out
}

type valComparison struct {
	compared, identical, withErrors, unchecked int
	lists, listErrors, listIdentical           int
	diffs                                      []string
}

// compareValidation validates body with both and compares the schema
// step's errors.
func (c *valComparison) compareValidation(t *testing.T, name string, s side, v *validator, body []byte) {
	res, err := s.oracle.Decode(body, oracle.CROptions{FieldValidation: "Ignore"})
	if err != nil || res.Object == nil || res.Fatal != "" || res.GroupVersionMismatch != "" {
		return
	}
	obj := res.Object
	if v.status {
		delete(obj, "status")
	}
	if _, ok := obj["metadata"]; !ok {
		// the server's object always has metadata by validation time (it
		// sets uid, creationTimestamp...): the real server never reports
		// "metadata: Required value" (bench/apiserver)
		obj["metadata"] = map[string]any{}
	}
	var want []string
	for _, e := range apiservervalidation.ValidateCustomResource(nil, obj, v.sv) {
		want = append(want, e.Error())
	}
	var wantLists []string
	if st := s.oracle.Schema(v.version); st != nil {
		for _, e := range listtype.ValidateListSetsAndMaps(nil, st, obj) {
			wantLists = append(wantLists, e.Error())
		}
	}
	d := must(decoder.New(s.set, decoder.FieldValidation(decoder.Ignore), decoder.Validation(true)))
	_, derr := d.AppendPrune(nil, body)
	var got, gotLists []string
	if inv := d.Result().Invalid(); inv != nil {
		for _, e := range inv.Errors {
			switch e.Step { // metadata_test.go holds the other steps
			case jperrors.StepSchema:
				got = append(got, e.Error())
			case jperrors.StepListType:
				gotLists = append(gotLists, e.Error())
			}
		}
	} else if derr != nil {
		return // a fatal error of jsonprune's: the decode differential covers it
	}
	c.lists++
	c.listErrors += len(wantLists)
	slices.Sort(wantLists)
	slices.Sort(gotLists)
	if slices.Equal(wantLists, gotLists) {
		c.listIdentical++
	} else if len(c.diffs) < 20 {
		c.diffs = append(c.diffs, fmt.Sprintf("%s (list types):\n  server   %q\n  jsonprune %q", name, wantLists, gotLists))
	}
	c.compared++
	if len(want) > 0 {
		c.withErrors++
	}
	slices.Sort(want)
	slices.Sort(got)
	if slices.Equal(want, got) {
		c.identical++
		return
	}
	if len(v.unchecked) > 0 {
		c.unchecked++
		return
	}
	if len(c.diffs) < 20 {
		c.diffs = append(c.diffs, fmt.Sprintf("%s:\n  server   %q\n  jsonprune %q", name, want, got))
	}
}

func (c *valComparison) report(t *testing.T, what string) {
	t.Logf("%s: schema step: %d compared (%d with errors), %d identical, %d differ where the schema has CEL rules (not checked), %d other differences; list types: %d compared (%d errors), %d identical",
		what, c.compared, c.withErrors, c.identical, c.unchecked, c.compared-c.identical-c.unchecked, c.lists, c.listErrors, c.listIdentical)
	for _, d := range c.diffs {
		t.Error(d)
	}
}

// TestValidationCorpusDifferential validates every corpus CR, as written
// and with its values mutated (each scalar replaced, with some
// probability, by a value of another type or at a boundary), and
// instances generated from every corpus schema, mutated the same way.
func TestValidationCorpusDifferential(t *testing.T) {
	pairs, sides := loadPairs(t)
	vals := map[string]map[string]*validator{}
	for crd := range sides {
		data, err := os.ReadFile(filepath.Join(corpusRoot, crd))
		if err != nil {
			t.Fatal(err)
		}
		vals[crd] = validatorsOf(t, data)
	}
	var asIs, mutated, generated valComparison
	for i, p := range pairs {
		v := vals[p.crd][versionOf(p.body)]
		if v == nil {
			continue
		}
		asIs.compareValidation(t, p.name, sides[p.crd], v, p.body)
		r := rand.New(rand.NewPCG(uint64(i), 7))
		for k := range 3 {
			mutated.compareValidation(t, fmt.Sprintf("%s (mutation %d)", p.name, k), sides[p.crd], v, mutateValues(r, p.body))
		}
	}
	i := 0
	for _, crd := range slices.Sorted(maps.Keys(sides)) { // the same seeds each run
		s := sides[crd]
		for _, version := range slices.Sorted(maps.Keys(vals[crd])) {
			v := vals[crd][version]
			sch := schemaFor(t, s.oracle, version)
			if sch == nil {
				continue
			}
			g := gen.New(int64(i))
			i++
			r := rand.New(rand.NewPCG(uint64(i), 11))
			for k := range 4 {
				body := g.Instance(sch, s.oracle.Group+"/"+version, s.oracle.Kind)
				generated.compareValidation(t, fmt.Sprintf("%s %s instance %d", crd, version, k), s, v, mutateValues(r, body))
			}
		}
	}
	asIs.report(t, "corpus as written")
	mutated.report(t, "corpus, values mutated")
	generated.report(t, "generated instances, values mutated")
}

// mutateValues replaces scalars below the root's apiVersion, kind and
// metadata with values at keyword boundaries or of another type.
func mutateValues(r *rand.Rand, body []byte) []byte {
	var v map[string]any
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return body
	}
	repl := []any{"x", "", "ABC", json.Number("-1"), json.Number("0"), json.Number("1.5"), json.Number("2147483648"),
		json.Number("1e3"), true, nil, []any{}, map[string]any{}, "0f1b2c3d-0000-4000-8000-000000000000",
		"2024-01-02T03:04:05Z", "10.0.0.1", strings.Repeat("y", 300), json.Number("3")}
	var walk func(x any) any
	walk = func(x any) any {
		switch t := x.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(t)) { // the same mutations each run
				t[k] = walk(t[k])
			}
			if r.IntN(8) == 0 {
				t["extra"+fmt.Sprint(r.IntN(3))] = repl[r.IntN(len(repl))]
			}
			return t
		case []any:
			for i, e := range t {
				t[i] = walk(e)
			}
			if r.IntN(6) == 0 {
				t = append(t, repl[r.IntN(len(repl))])
			}
			return t
		default:
			if r.IntN(4) == 0 {
				return repl[r.IntN(len(repl))]
			}
			return x
		}
	}
	for _, k := range slices.Sorted(maps.Keys(v)) {
		if k != "apiVersion" && k != "kind" && k != "metadata" {
			v[k] = walk(v[k])
		}
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}
