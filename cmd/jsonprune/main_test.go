package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestLintCRD(t *testing.T) {
	code, out, _ := runCLI("--lint-crd", "../../examples/widget-crd.yaml")
	if code != exitOK || !strings.Contains(out, `"widgets.example.com": structural`) {
		t.Errorf("exit %d, out %q", code, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: foos.example.com}
spec:
  group: example.com
  names: {kind: Foo, plural: foos}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, properties: {a: {}}}
`
	if err := os.WriteFile(bad, []byte(crd), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI("--lint-crd", bad)
	want := "  spec.validation.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields\n"
	if code != exitFindings || !strings.HasSuffix(out, want) {
		t.Errorf("exit %d, out %q", code, out)
	}
	// the same CRD compiles by its skeleton, and not without it
	if code, _, errOut := runCLI("--crd", bad, "--dump"); code != exitUsage || !strings.Contains(errOut, "is invalid") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if code, out, _ := runCLI("--crd", bad, "--skeleton", "--dump"); code != exitOK || !strings.Contains(out, "skeleton of a non-structural schema") {
		t.Errorf("exit %d, out %q", code, out)
	}
}

func TestDump(t *testing.T) {
	code, out, _ := runCLI("--crd", "../../examples/widget-crd.yaml", "--dump")
	if code != exitOK || !strings.Contains(out, "# example.com/v1, Kind=Widget") || !strings.Contains(out, `"privileged" → s`) {
		t.Errorf("exit %d, out %.300q", code, out)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--crd", "../../examples/widget-crd.yaml"}, {"--nope"}, {"--crd", "/does/not/exist", "--dump"}} {
		if code, _, _ := runCLI(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
