package perf

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/bench/oracle"
	"github.com/jsonprune/jsonprune/decoder"
	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/validate"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
)

// This file benchmarks value validation on two synthetic inputs, a
// junctor-heavy and a list-heavy one (the corpus junctor benchmark is
// BenchmarkJunctorCorpus in bench/conformance), with every contender in
// one run:
//
//   - jsonprune-tree: validate.Tree (Schema.ValidationTree) on the
//     reference's decoded object: the schema step, then Tree.ListTypes;
//   - reference: the API server's validator on the same object,
//     apiservervalidation.ValidateCustomResource, then
//     listtype.ValidateListSetsAndMaps;
//   - jsonprune-decoder-validate and jsonprune-decoder-novalidate: the
//     whole decoder (decode, prune, default) on the bytes with validation
//     on and off: the difference is what validation costs in the pass,
//     allocations included.
//
// Every document is valid (TestJunctorListInputsValid).

const junctorListCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gadgets.example.com"},"spec":{"group":"example.com","scope":"Namespaced",
"names":{"plural":"gadgets","singular":"gadget","kind":"Gadget","listKind":"GadgetList"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
"junctors":{"type":"object","properties":{
  "port":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]},
  "mode":{"type":"string","oneOf":[{"enum":["a","b"]},{"enum":["c"]}]},
  "size":{"type":"integer","allOf":[{"minimum":0},{"maximum":100}],"not":{"enum":[13]}},
  "target":{"type":"object","properties":{"name":{"type":"string"},"ref":{"type":"string"}},
    "oneOf":[{"required":["name"]},{"required":["ref"]}]},
  "rules":{"type":"array","items":{"type":"object",
    "properties":{"k":{"type":"string","maxLength":16},"v":{"type":"integer"},"w":{"type":"string"}},
    "anyOf":[{"required":["k"]},{"required":["v"]}],
    "not":{"required":["w"]}}}}},
"lists":{"type":"object","properties":{
  "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
  "nums":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"integer"}},
  "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port","protocol"],
    "items":{"type":"object","required":["port","protocol"],"properties":{
      "port":{"type":"integer"},"protocol":{"type":"string"},"name":{"type":"string"}}}},
  "byName":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
    "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"value":{"type":"string"}}}}}}
}}}}]}}`

// junctorDoc is a valid Gadget whose junctors part has n rules.
func junctorDoc(n int) []byte {
	var sb strings.Builder
	sb.WriteString(`{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g","namespace":"default"},"junctors":{"port":"http","mode":"c","size":42,"target":{"ref":"r"},"rules":[`)
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		if i%2 == 0 {
			fmt.Fprintf(&sb, `{"k":"key-%d","v":%d}`, i, i)
		} else {
			fmt.Fprintf(&sb, `{"v":%d}`, i)
		}
	}
	sb.WriteString(`]}}`)
	return []byte(sb.String())
}

// listDoc is a valid Gadget whose lists part has n items in each list.
func listDoc(n int) []byte {
	var sb strings.Builder
	sb.WriteString(`{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g","namespace":"default"},"lists":{"tags":[`)
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Quote("tag-" + strconv.Itoa(i)))
	}
	sb.WriteString(`],"nums":[`)
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(i))
	}
	sb.WriteString(`],"ports":[`)
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"port":%d,"protocol":"%s","name":"p%d"}`, 1000+i/2, [2]string{"TCP", "UDP"}[i%2], i)
	}
	sb.WriteString(`],"byName":[`)
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"name":"n%d","value":"v"}`, i)
	}
	sb.WriteString(`]}}`)
	return []byte(sb.String())
}

// junctorListSides holds every contender's compiled form of the CRD.
type junctorListSides struct {
	set  *schemaauto.Set
	tree *validate.Tree
	sv   apiservervalidation.SchemaValidator
	ss   *structuralschema.Structural
	o    *oracle.CRDecoder
}

func newJunctorListSides(tb testing.TB) *junctorListSides {
	crd := []byte(junctorListCRD)
	crds, err := schemaauto.ParseCRDs(crd)
	if err != nil {
		tb.Fatal(err)
	}
	set, err := schemaauto.CompileCRDs(crds)
	if err != nil {
		tb.Fatal(err)
	}
	tree, err := crds[0].Version("v1").Schema.ValidationTree()
	if err != nil {
		tb.Fatal(err)
	}
	internal, _, err := oracle.DecodeCRD(crd)
	if err != nil {
		tb.Fatal(err)
	}
	props := internal.Spec.Validation.OpenAPIV3Schema
	sv, _, err := apiservervalidation.NewSchemaValidator(props)
	if err != nil {
		tb.Fatal(err)
	}
	o, err := oracle.NewCRDecoder(crd)
	if err != nil {
		tb.Fatal(err)
	}
	return &junctorListSides{set: set, tree: tree, sv: sv, ss: o.Schema("v1"), o: o}
}

// object is the reference's decoded (pruned, defaulted) object of doc.
func (s *junctorListSides) object(tb testing.TB, doc []byte) map[string]any {
	res, err := s.o.Decode(doc, oracle.CROptions{FieldValidation: "Ignore"})
	if err != nil || res.Object == nil {
		tb.Fatalf("reference decode: %v %+v", err, res)
	}
	return res.Object
}

var junctorListInputs = []struct {
	name string
	doc  func() []byte
}{
	{"junctors-8", func() []byte { return junctorDoc(8) }},
	{"junctors-256", func() []byte { return junctorDoc(256) }},
	{"lists-16", func() []byte { return listDoc(16) }},
	{"lists-1024", func() []byte { return listDoc(1024) }},
}

// TestJunctorListInputsValid: every benchmark input is valid for both
// validators and for the decoder (so the benchmarks measure valid
// documents).
func TestJunctorListInputsValid(t *testing.T) {
	s := newJunctorListSides(t)
	d := must(decoder.New(s.set, decoder.Validation(true)))
	for _, in := range junctorListInputs {
		doc := in.doc()
		obj := s.object(t, doc)
		if errs := s.tree.Validate("", obj); len(errs) > 0 {
			t.Errorf("%s: jsonprune tree: %v", in.name, errs)
		}
		if errs := s.tree.ListTypes("", obj); len(errs) > 0 {
			t.Errorf("%s: jsonprune list types: %v", in.name, errs)
		}
		if errs := apiservervalidation.ValidateCustomResource(nil, obj, s.sv); len(errs) > 0 {
			t.Errorf("%s: reference: %v", in.name, errs)
		}
		if errs := listtype.ValidateListSetsAndMaps(nil, s.ss, obj); len(errs) > 0 {
			t.Errorf("%s: reference list types: %v", in.name, errs)
		}
		if err := d.Validate(doc); err != nil {
			t.Errorf("%s: decoder: %v", in.name, err)
		}
	}
}

// BenchmarkJunctorList runs the contenders on each synthetic input
// (junctors-N: N array items each under anyOf and not, plus int-or-string,
// oneOf, allOf and not on scalars and an object; lists-N: two set lists
// and two map lists of N items each).
//
//	cd bench && go test -run '^$' -bench BenchmarkJunctorList -benchmem -count 6 ./perf/
func BenchmarkJunctorList(b *testing.B) {
	s := newJunctorListSides(b)
	for _, in := range junctorListInputs {
		doc := in.doc()
		obj := s.object(b, doc)
		b.Run(in.name+"/jsonprune-tree", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.tree.Validate("", obj)
				s.tree.ListTypes("", obj)
			}
		})
		b.Run(in.name+"/reference", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				apiservervalidation.ValidateCustomResource(nil, obj, s.sv)
				listtype.ValidateListSetsAndMaps(nil, s.ss, obj)
			}
		})
		for _, v := range []bool{true, false} {
			name := map[bool]string{true: "/jsonprune-decoder-validate", false: "/jsonprune-decoder-novalidate"}[v]
			b.Run(in.name+name, func(b *testing.B) {
				d := must(decoder.New(s.set, decoder.Validation(v)))
				b.SetBytes(int64(len(doc)))
				b.ReportAllocs()
				for b.Loop() {
					d.Validate(doc)
				}
			})
		}
	}
}
