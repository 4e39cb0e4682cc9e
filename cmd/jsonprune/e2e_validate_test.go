package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EValidate: with --validate, an object the API server would refuse
// for its values is not written, its 422 message is an error at its first
// error's place, each error a located note, the unknown fields still
// warnings (Warn mode), the summary counts it by reason, and the exit
// status is 1; a valid object is written; without the flag nothing changes.
func TestE2EValidate(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte(`apiVersion: example.com/v1
kind: Widget
metadata:
  name: Big_Widget
spec:
  replicas: "3"
  replcas: 2
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: ok
spec:
  replicas: 3
`), 0o644)
	crd := filepath.Join("..", "..", "examples", "widget-crd.yaml")
	r := runBinary(t, nil, "--crd", crd, "--validate", "--summary", bad) // (runBinary adds --no-validate)
	for _, want := range []string{
		`bad.yaml:7:3: warning: Widget Big_Widget: unknown field "spec.replcas"`,
		`bad.yaml:3:1: error: Widget Big_Widget: Widget.example.com "Big_Widget" is invalid: [metadata.name: Invalid value: "Big_Widget"`,
		`bad.yaml:6:13: note: spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`,
		`invalid (values):         1 (Invalid 1, TypeInvalid 1)`,
	} {
		if !strings.Contains(r.err+r.out, want) {
			t.Errorf("missing %q in\n%s%s", want, r.err, r.out)
		}
	}
	if r.code != 1 || strings.Contains(r.out, "Big_Widget\n") || !strings.Contains(r.out, `"name":"ok"`) {
		t.Errorf("exit %d, output %q", r.code, r.out)
	}
	r = runBinary(t, nil, "--crd", crd, "-o", "none", bad) // --no-validate
	if r.code != 0 || strings.Contains(r.err, "invalid") {
		t.Errorf("--no-validate: exit %d, %q", r.code, r.err)
	}
	// the default: validation on
	cmd := exec.Command(binary, "--crd", crd, "-o", "none", bad)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), `is invalid`) {
		t.Errorf("default: %v, %s", err, out)
	}
}

// TestLintCRDValues: --lint-crd reports the CRD-time checks of values with
// the API server's messages (a default that does not validate, DEF08; a
// pattern that does not compile, PAT09, once) and its warnings.
func TestLintCRDValues(t *testing.T) {
	crd := filepath.Join(t.TempDir(), "crd.yaml")
	os.WriteFile(crd, []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              a: {type: string, maxLength: 3, default: "toolong"}
              c: {type: string, format: UUID}
`), 0o644)
	code, out, _ := runCLI("--lint-crd", crd)
	for _, want := range []string{
		`warning: unrecognized format "UUID"`,
		`spec.validation.openAPIV3Schema.properties[spec].properties[a].default: Too long: may not be more than 3 bytes`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if code != exitFindings {
		t.Errorf("exit %d", code)
	}
}

// TestE2EUncheckedOnce: what value validation does not check (CEL rules) is
// said once per CRD version and run, however many objects and workers use
// it.
func TestE2EUncheckedOnce(t *testing.T) {
	dir := t.TempDir()
	crd := filepath.Join(dir, "crd.yaml")
	os.WriteFile(crd, []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: self.a > 0
            properties:
              a: {type: integer}
`), 0o644)
	var in strings.Builder
	for i := range 50 {
		in.WriteString("---\napiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t" + itoa(i) + "}\nspec: {a: 1}\n")
	}
	objs := filepath.Join(dir, "things.yaml")
	os.WriteFile(objs, []byte(in.String()), 0o644)
	for _, j := range []string{"1", "4"} {
		r := runBinary(t, nil, "--crd", crd, "--validate", "-o", "none", "-j", j, objs)
		if n := strings.Count(r.err, "value validation does not check"); n != 1 || r.code != 0 {
			t.Errorf("-j %s: the note %d times, exit %d:\n%s", j, n, r.code, r.err)
		}
	}
}
