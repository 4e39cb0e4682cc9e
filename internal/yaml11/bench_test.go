package yaml11

import (
	"os"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

const largeCRD = "corpus/crds/argo-workflows/argoproj.io_workflows.yaml"

// BenchmarkToValueLargeCRD converts the parsed nodes of a 2.8 MB CRD (conversion only).
func BenchmarkToValueLargeCRD(b *testing.B) {
	data, err := os.ReadFile(requireShared(b, largeCRD))
	if err != nil {
		b.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ToValue(&doc, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeLargeCRD parses and converts the same CRD (bytes to values).
func BenchmarkDecodeLargeCRD(b *testing.B) {
	data, err := os.ReadFile(requireShared(b, largeCRD))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
