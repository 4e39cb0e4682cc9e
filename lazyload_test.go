package jsonprune_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune"
)

func TestIndexCRDFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("widget-crd.yaml", string(readFile(t, "examples/widget-crd.yaml")))
	write("kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [widget-crd.yaml]\n")
	write("gadget.yaml", strings.Replace(gadgetCRD, "{size: {type: integer}}", "{size: {}}", 1)) // not structural
	s, err := jsonprune.IndexCRDFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Set().CRDs()); n != 2 {
		t.Errorf("%d CRDs indexed", n)
	}
	// as LoadCRDFiles prunes
	out, err := s.PruneFile("examples/widget.yaml")
	if err != nil || string(out) != widgetPruned {
		t.Fatalf("got %s, %v\nwant %s", out, err, widgetPruned)
	}
	// the CRD that does not compile: the error of its objects
	_, err = s.Prune([]byte(`{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"}}`))
	want := filepath.Join(dir, "gadget.yaml") + `: CustomResourceDefinition "gadgets.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if err := s.Set().CompileAll(); err == nil || !strings.Contains(err.Error(), "gadgets.example.com") {
		t.Errorf("CompileAll: %v", err)
	}
	// a named file without CRDs
	if _, err := jsonprune.IndexCRDFiles(filepath.Join(dir, "kustomization.yaml")); err == nil || !strings.HasSuffix(err.Error(), ": no CustomResourceDefinition") {
		t.Errorf("kustomization: %v", err)
	}
}
