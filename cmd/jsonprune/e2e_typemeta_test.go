package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// End-to-end tests of issue 14's defects 3 to 5: the command line reads an
// object's apiVersion and kind from the decoder only, and Strict messages
// are the API server's texts.

// gadgetCRD serves example.com Gadget in v1 (spec.a) and v2 (spec.b).
const gadgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Gadget, plural: gadgets, singular: gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {a: {type: string}}}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {b: {type: string}}}
`

// TestE2ETypeMetaLastWins (issue 14, defect 3): of two apiVersion members
// the last one chooses the schema and is the one the message names, as the
// API server decodes with the last.
func TestE2ETypeMetaLastWins(t *testing.T) {
	crd := writeFile(t, "gadget.yaml", gadgetCRD)
	in := `{"apiVersion":"example.com/v1","apiVersion":"example.com/v2","kind":"Gadget","metadata":{"name":"g","name":"h"},"spec":{"a":"x","b":"y"}}` + "\n"
	r := runBinary(t, strings.NewReader(in), "--crd", crd, "--field-validation=Strict", "--kubectl", "-o", "none")
	want := `error: -: document 0: Gadget in version "v2" cannot be handled as a Gadget: strict decoding error: duplicate field "apiVersion", duplicate field "metadata.name", unknown field "spec.a"` + "\n"
	if r.code != exitFindings || r.err != want {
		t.Errorf("Strict: exit %d, stderr\n%s\nwant\n%s", r.code, r.err, want)
	}
	// Warn: pruned by v2's schema; the report names v2 and the last name
	rep := filepath.Join(t.TempDir(), "r.jsonl")
	r = runBinary(t, strings.NewReader(in), "--crd", crd, "--report", rep, "--no-defaults")
	if want := `{"apiVersion":"example.com/v2","kind":"Gadget","metadata":{"name":"h"},"spec":{"b":"y"}}` + "\n"; r.code != exitOK || r.out != want {
		t.Errorf("Warn: exit %d, out %s want %s", r.code, r.out, want)
	}
	data, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"apiVersion":"example.com/v2","kind":"Gadget","name":"h"`) || strings.Contains(string(data), `example.com/v1`) {
		t.Errorf("report:\n%s", data)
	}
}

// TestE2ETypeMetaCaseVariant (issue 14, defect 4): a member whose name is
// apiVersion in another case, after a valid apiVersion, is what the API
// server's version/kind pre-scan reads (case-insensitive, last wins): its
// error is wrapped as the handler wraps an object without a kind.
func TestE2ETypeMetaCaseVariant(t *testing.T) {
	in := `{"apiVersion":"example.com/v1","kind":"Widget","APIVersion":"a/b/c","spec":{"zz":1}}`
	for _, mode := range []string{"Warn", "Strict", "Ignore"} {
		r := runBinary(t, strings.NewReader(in), "--crd", crdFile, "--field-validation="+mode, "--kubectl")
		want := `error: -: document 0: the object provided is unrecognized (must be of type Widget): unexpected GroupVersion string: a/b/c ({"apiVersion":"example.com/v1" ...) (line 1, column 48, offset 47)` + "\n"
		if r.code != exitFindings || r.out != "" || r.err != want {
			t.Errorf("%s: exit %d, out %q, stderr\n%s\nwant\n%s", mode, r.code, r.out, r.err, want)
		}
	}
	// in YAML the pre-scan reads JSON marshalled from a map: sorted names,
	// "APIVersion" before "apiVersion", so the valid one wins
	r := runBinary(t, strings.NewReader("apiVersion: example.com/v1\nkind: Widget\nAPIVersion: a/b/c\n"), "--crd", crdFile, "--kubectl", "--no-defaults")
	if r.code != exitOK || r.out != `{"apiVersion":"example.com/v1","kind":"Widget"}`+"\n" || r.err != "Warning: unknown field \"APIVersion\"\n" {
		t.Errorf("YAML: exit %d, out %q, stderr %q", r.code, r.out, r.err)
	}
	// "apiversion" sorts after "apiVersion": the bad one wins; the summary
	// of a body that does not start with '{' is in hex
	r = runBinary(t, strings.NewReader("apiVersion: example.com/v1\nkind: Widget\napiversion: a/b/c\n"), "--crd", crdFile, "--kubectl")
	if want := fmt.Sprintf("error: -: document 0: the object provided is unrecognized (must be of type Widget): unexpected GroupVersion string: a/b/c (%x ...)", "apiVersion: example.com/v1\nkin"); r.code != exitFindings || !strings.HasPrefix(r.err, want) {
		t.Errorf("YAML apiversion: exit %d, stderr\n%s\nwant prefix\n%s", r.code, r.err, want)
	}
}

// TestE2EDuplicatesPastTheCap (issue 14, defect 5): the API server lists
// at most 100 duplicate fields and drops the others without a word; the
// message is its text, the count is in the report and the summary.
func TestE2EDuplicatesPastTheCap(t *testing.T) {
	var spec []string
	for i := range 150 {
		spec = append(spec, fmt.Sprintf(`"f%d":1,"f%d":2`, i, i))
	}
	in := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{` + strings.Join(spec, ",") + "}}\n"
	rep := filepath.Join(t.TempDir(), "r.jsonl")
	r := runBinary(t, strings.NewReader(in), "--crd", crdFile, "--field-validation=Strict", "--kubectl", "--report", rep, "--summary", "-o", "none")
	line, _, _ := strings.Cut(r.err, "\n")
	if r.code != exitFindings || strings.Contains(line, "more") || strings.Count(line, "duplicate field") != 100 ||
		!strings.HasSuffix(line, `unknown field "spec.f99"`) {
		t.Errorf("exit %d, stderr %.300s ... %s", r.code, line, line[max(0, len(line)-200):])
	}
	if !strings.Contains(r.err, "not listed:               50 (duplicate fields past the API server's 100 a document)") {
		t.Errorf("summary:\n%s", r.err[len(line):])
	}
	data, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"type":"omitted"`) || !strings.Contains(string(data), `"count":50`) {
		t.Errorf("report has no omitted record:\n%.500s", data[max(0, len(data)-500):])
	}
}

func readFileString(name string) (string, error) {
	b, err := os.ReadFile(name)
	return string(b), err
}
