package conformance

// YAML prune throughput: jsonprune's bridge + decoder against the reference's YAML path
// (sigs.k8s.io/yaml's strict YAML-to-JSON, then the pruning functions the API server runs), on
// the same documents. Run with
//
//	cd bench && go test -run '^$' -bench YAML -benchmem ./conformance/

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jsonprune/jsonprune/bench/oracle"
	"github.com/jsonprune/jsonprune/decoder"
	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/yamlbridge"
	yaml "go.yaml.in/yaml/v3"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	sigsyaml "sigs.k8s.io/yaml"
)

// yamlInputs are documents, each with the reference's structural schema, and one set for
// jsonprune.
type yamlInputs struct {
	docs    [][]byte
	schemas []*structuralschema.Structural
	set     *schemaauto.Set
	size    int64
}

var yamlCorpus = sync.OnceValues(func() (*yamlInputs, error) {
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
	in := &yamlInputs{}
	oracles := map[string]*oracle.CRDecoder{}
	var crds []*schemaauto.CRD
	for _, cr := range index.CRs {
		o := oracles[cr.CRD]
		if o == nil {
			data, err := os.ReadFile(filepath.Join(corpusRoot, cr.CRD))
			if err != nil {
				return nil, err
			}
			if o, err = oracle.NewCRDecoder(data); err != nil {
				return nil, err
			}
			oracles[cr.CRD] = o
			parsed, err := schemaauto.ParseCRDs(data)
			if err != nil {
				return nil, err
			}
			crds = append(crds, parsed...)
		}
		y, err := os.ReadFile(filepath.Join(corpusRoot, cr.File))
		if err != nil {
			return nil, err
		}
		in.docs = append(in.docs, y)
		in.schemas = append(in.schemas, o.Schema(cr.Version))
		in.size += int64(len(y))
	}
	in.set, err = schemaauto.CompileCRDs(crds)
	return in, err
})

// syntheticYAML is a Widget of about size bytes of block YAML whose list items carry an unknown
// member in the proportion unknownPct.
func syntheticYAML(size, unknownPct int) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: default\n  labels:\n    app: demo\nspec:\n  replicas: 3\n  name: n\n  list:\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "  - x: value-%d\n", i)
		if i%100 < unknownPct {
			b.WriteString("    unknownField:\n      nested: [1, 2, 3]\n      s: some text here\n")
		}
	}
	return []byte(b.String())
}

// referenceYAML is the reference's YAML path (oracle.PipelineYAML).
var referenceYAML = oracle.PipelineYAML

// benchYAML runs the contenders on the same YAML documents.
func benchYAML(b *testing.B, in *yamlInputs) {
	b.Run("jsonprune-bridge-prune", func(b *testing.B) {
		d := must(decoder.New(in.set))
		buf := make([]byte, 0, 1<<20)
		b.SetBytes(in.size)
		b.ReportAllocs()
		for b.Loop() {
			for _, y := range in.docs {
				doc, err := yamlbridge.Parse(y)
				if err != nil {
					b.Fatal(err)
				}
				buf, _ = d.AppendPruneSource(buf[:0], doc.Source())
			}
		}
	})
	b.Run("jsonprune-bridge-prune-yaml-out", func(b *testing.B) {
		d := must(decoder.New(in.set))
		buf := make([]byte, 0, 1<<20)
		b.SetBytes(in.size)
		b.ReportAllocs()
		for b.Loop() {
			for _, y := range in.docs {
				doc, err := yamlbridge.Parse(y)
				if err != nil {
					b.Fatal(err)
				}
				buf, err = d.AppendPruneSource(buf[:0], doc.Source())
				if err == nil {
					doc.AppendYAML(nil, buf)
				}
			}
		}
	})
	b.Run("reference-yaml-strict-prune", func(b *testing.B) {
		b.SetBytes(in.size)
		b.ReportAllocs()
		for b.Loop() {
			for i, y := range in.docs {
				referenceYAML(y, in.schemas[i])
			}
		}
	})
	b.Run("floor-yaml-v3-parse", func(b *testing.B) {
		b.SetBytes(in.size)
		b.ReportAllocs()
		for b.Loop() {
			for _, y := range in.docs {
				var n yaml.Node
				yaml.Unmarshal(y, &n)
			}
		}
	})
	b.Run("floor-sigs-yaml-strict-to-json", func(b *testing.B) {
		b.SetBytes(in.size)
		b.ReportAllocs()
		for b.Loop() {
			for _, y := range in.docs {
				sigsyaml.YAMLToJSONStrict(y)
			}
		}
	})
}

// BenchmarkYAMLCorpus prunes every corpus CR, as YAML, each against its CRD.
func BenchmarkYAMLCorpus(b *testing.B) {
	in, err := yamlCorpus()
	if err != nil {
		b.Skipf("SKIP: the shared corpus is not available at %s: %v", corpusRoot, err)
	}
	benchYAML(b, in)
}

// BenchmarkYAMLLarge prunes one ~100 KB and one ~1 MB YAML Widget with 10% unknown list items.
func BenchmarkYAMLLarge(b *testing.B) {
	s := widgetSide(b)
	version := s.oracle.Schema("v1")
	for _, size := range []int{100 << 10, 1 << 20} {
		y := syntheticYAML(size, 10)
		in := &yamlInputs{docs: [][]byte{y}, schemas: []*structuralschema.Structural{version}, set: s.set, size: int64(len(y))}
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) { benchYAML(b, in) })
	}
}

// TestYAMLBenchmarkAgrees checks that the benchmark's contenders agree on its inputs (same pruned
// object, same number of findings), so that the figures compare equal work.
func TestYAMLBenchmarkAgrees(t *testing.T) {
	s := widgetSide(t)
	for _, pct := range []int{0, 10, 50} {
		y := syntheticYAML(20<<10, pct)
		want, wantN := referenceYAML(y, s.oracle.Schema("v1"))
		doc, err := yamlbridge.Parse(y)
		if err != nil {
			t.Fatal(err)
		}
		d := must(decoder.New(s.set))
		got, err := d.AppendPruneSource(nil, doc.Source())
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		json.Unmarshal(got, &g)
		json.Unmarshal(want, &w)
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(w)
		if string(gj) != string(wj) || d.Result().Len() != wantN {
			t.Errorf("%d%% unknown: jsonprune and the reference differ (%d vs %d findings)", pct, d.Result().Len(), wantN)
		}
	}
}
