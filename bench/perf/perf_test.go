package perf

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/bench/oracle"
	"github.com/jsonprune/jsonprune/decoder"
	"github.com/jsonprune/jsonprune/schemaauto"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	sigsyaml "sigs.k8s.io/yaml"
)

const corpusRoot = "../../../shared/corpus"

// input is a set of documents of one CRD version.
type input struct {
	docs   [][]byte
	size   int64
	set    *schemaauto.Set
	schema *structuralschema.Structural // the reference's structural schema
	val    *refValidator                // the reference's create-path validation
}

func compileBoth(b testing.TB, crd []byte, version string) (*schemaauto.Set, *structuralschema.Structural) {
	crds, err := schemaauto.ParseCRDs(crd)
	if err != nil {
		b.Fatal(err)
	}
	set, err := schemaauto.CompileCRDs(crds)
	if err != nil {
		b.Fatal(err)
	}
	o, err := oracle.NewCRDecoder(crd)
	if err != nil {
		b.Fatal(err)
	}
	return set, o.Schema(version)
}

// widget returns the Widget CRD of examples/.
func widget(b testing.TB) (*schemaauto.Set, *structuralschema.Structural) {
	crd, err := os.ReadFile("../../examples/widget-crd.yaml")
	if err != nil {
		b.Fatal(err)
	}
	return compileBoth(b, crd, "v1")
}

// synthetic is a Widget of about size bytes whose list items carry an
// unknown member in the proportion unknownPct.
func synthetic(size, unknownPct int) []byte {
	var sb strings.Builder
	sb.WriteString(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default","labels":{"app":"demo"}},"spec":{"list":[`)
	for i := 0; sb.Len() < size; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		if i%100 < unknownPct {
			sb.WriteString(`{"x":"value-` + strconv.Itoa(i) + `","unknownField":{"nested":[1,2,3],"s":"some text here"}}`)
		} else {
			sb.WriteString(`{"x":"value-` + strconv.Itoa(i) + `"}`)
		}
	}
	sb.WriteString(`],"replicas":3,"name":"n"}}`)
	return []byte(sb.String())
}

var corpusInputs = sync.OnceValues(func() (map[string]*input, error) {
	idx, err := os.ReadFile(filepath.Join(corpusRoot, "index.json"))
	if err != nil {
		return nil, err
	}
	var index struct {
		CRs []struct{ File, CRD, Version string } `json:"crs"`
	}
	if err := json.Unmarshal(idx, &index); err != nil {
		return nil, err
	}
	out := map[string]*input{}
	return out, func() error {
		for _, cr := range index.CRs {
			key := cr.CRD + "@" + cr.Version
			in := out[key]
			if in == nil {
				crd, err := os.ReadFile(filepath.Join(corpusRoot, cr.CRD))
				if err != nil {
					return err
				}
				crds, err := schemaauto.ParseCRDs(crd)
				if err != nil {
					return err
				}
				set, err := schemaauto.CompileCRDs(crds)
				if err != nil {
					return err
				}
				o, err := oracle.NewCRDecoder(crd)
				if err != nil {
					return err
				}
				val, err := newRefValidator(crd, cr.Version)
				if err != nil {
					return err
				}
				in = &input{set: set, schema: o.Schema(cr.Version), val: val}
				out[key] = in
			}
			y, err := os.ReadFile(filepath.Join(corpusRoot, cr.File))
			if err != nil {
				return err
			}
			body, err := sigsyaml.YAMLToJSON(y)
			if err != nil {
				return err
			}
			in.docs = append(in.docs, body)
			in.size += int64(len(body))
		}
		return nil
	}()
})

// reference is the reference pipeline (oracle.Pipeline).
var reference = oracle.Pipeline

// benchAll runs every contender on the same documents.
func benchAll(b *testing.B, docs [][]byte, size int64, set *schemaauto.Set, s *structuralschema.Structural) {
	b.Run("jsonprune-prune-bytes", func(b *testing.B) {
		d := must(decoder.New(set))
		buf := make([]byte, 0, 1<<20)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range docs {
				buf, _ = d.AppendPrune(buf[:0], doc)
			}
		}
	})
	b.Run("jsonprune-prune-reader", func(b *testing.B) {
		// streamed from a reader to a writer: B/op is what memory grows by
		d := must(decoder.New(set))
		var rd bytes.Reader
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range docs {
				rd.Reset(doc)
				d.PruneReader(io.Discard, &rd)
			}
		}
	})
	b.Run("jsonprune-decode-map", func(b *testing.B) {
		d := must(decoder.New(set))
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range docs {
				d.DecodeMap(doc)
			}
		}
	})
	b.Run("jsonprune-validate", func(b *testing.B) {
		d := must(decoder.New(set))
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range docs {
				d.Validate(doc)
			}
		}
	})
	b.Run("reference-bytes", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range docs {
				reference(doc, s, true)
			}
		}
	})
	b.Run("reference-map", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range docs {
				reference(doc, s, false)
			}
		}
	})
	b.Run("floor-jsontext-token-copy", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		var rd, out bytes.Buffer
		dec := jsontext.NewDecoder(&rd)
		enc := jsontext.NewEncoder(&out)
		for b.Loop() {
			for _, doc := range docs {
				rd = *bytes.NewBuffer(doc)
				dec.Reset(&rd)
				out.Reset()
				enc.Reset(&out)
				for {
					tok, err := dec.ReadToken()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					enc.WriteToken(tok)
				}
			}
		}
	})
	b.Run("floor-jsontext-validate", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range docs {
				jsontext.Value(doc).IsValid()
			}
		}
	})
}

// BenchmarkCorpus runs the contenders on every corpus CR, grouped into one
// run (each CR against its own CRD version).
func BenchmarkCorpus(b *testing.B) {
	ins, err := corpusInputs()
	if err != nil {
		b.Skipf("SKIP: the shared corpus is not available at %s: %v", corpusRoot, err)
	}
	// one merged set and a per-document schema for the reference
	var docs [][]byte
	var size int64
	var schemas []*structuralschema.Structural
	var vals []*refValidator
	var allCRDs []*schemaauto.CRD
	seen := map[string]bool{} // the corpus holds some CRDs twice (same names)
	for _, in := range ins {
		for _, e := range in.set.Entries() {
			if !seen[e.CRD.Name] {
				seen[e.CRD.Name] = true
				allCRDs = append(allCRDs, e.CRD)
			}
		}
		for _, d := range in.docs {
			docs = append(docs, d)
			schemas = append(schemas, in.schema)
			vals = append(vals, in.val)
			size += int64(len(d))
		}
	}
	set, err := schemaauto.CompileCRDs(allCRDs)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("all", func(b *testing.B) { benchCorpus(b, docs, schemas, vals, size, set) })
}

func benchCorpus(b *testing.B, docs [][]byte, schemas []*structuralschema.Structural, vals []*refValidator, size int64, set *schemaauto.Set) {
	b.Run("jsonprune-prune-bytes", func(b *testing.B) {
		d := must(decoder.New(set))
		buf := make([]byte, 0, 1<<20)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range docs {
				buf, _ = d.AppendPrune(buf[:0], doc)
			}
		}
	})
	b.Run("jsonprune-decode-map", func(b *testing.B) {
		d := must(decoder.New(set))
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range docs {
				d.DecodeMap(doc)
			}
		}
	})
	b.Run("reference-bytes", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for i, doc := range docs {
				reference(doc, schemas[i], true)
			}
		}
	})
	b.Run("reference-map", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for i, doc := range docs {
				reference(doc, schemas[i], false)
			}
		}
	})
	// value validation: jsonprune's Validation(true) in its one pass, and
	// the reference chain followed by the API server's create-path
	// validation of the object (refValidator), bytes out for both
	b.Run("jsonprune-prune-validate-bytes", func(b *testing.B) {
		d := must(decoder.New(set, decoder.Validation(true)))
		buf := make([]byte, 0, 1<<20)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range docs {
				buf, _ = d.AppendPrune(buf[:0], doc)
			}
		}
	})
	b.Run("reference-validate-bytes", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for i, doc := range docs {
				referenceValidate(doc, schemas[i], vals[i])
			}
		}
	})
}

// BenchmarkLarge runs the contenders on a ~100 KB Widget with 0%, 10% and
// 50% unknown list items, and on a ~10 MB Widget.
func BenchmarkLarge(b *testing.B) {
	set, s := widget(b)
	for _, c := range []struct {
		name      string
		size, pct int
	}{{"100KB-unknown0", 100 << 10, 0}, {"100KB-unknown10", 100 << 10, 10}, {"100KB-unknown50", 100 << 10, 50}, {"10MB-unknown10", 10 << 20, 10}} {
		doc := synthetic(c.size, c.pct)
		b.Run(c.name, func(b *testing.B) { benchAll(b, [][]byte{doc}, int64(len(doc)), set, s) })
	}
}

// TestReferenceAgrees checks that the benchmark's reference function and
// jsonprune agree on the benchmark inputs, so that the figures compare
// equal work.
func TestReferenceAgrees(t *testing.T) {
	set, s := widget(t)
	for _, pct := range []int{0, 10, 50} {
		doc := synthetic(20<<10, pct)
		want, wantN := reference(doc, s, true)
		d := must(decoder.New(set))
		got, err := d.AppendPrune(nil, doc)
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		json.Unmarshal(got, &g)
		json.Unmarshal(want, &w)
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(w)
		if !bytes.Equal(gj, wj) || d.Result().Len() != wantN {
			t.Errorf("%d%% unknown: jsonprune and the reference differ (%d vs %d findings)", pct, d.Result().Len(), wantN)
		}
	}
}

// must returns v, panicking on err: for constructors whose options are
// known to be good.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
