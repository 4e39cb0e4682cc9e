package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(args ...string) (int, string, string) {
	return runStdin("", args...)
}

func runStdin(stdin string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
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
	for _, args := range [][]string{{}, {"--nope"}, {"--crd", "/does/not/exist", "--dump"}} {
		if code, _, _ := runCLI(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

const crdFile = "../../examples/widget-crd.yaml"

func TestPruneExample(t *testing.T) {
	code, out, errOut := runCLI("--crd", crdFile, "../../examples/widget.yaml")
	if code != exitOK || !strings.HasPrefix(out, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"labels":{"app":"demo"},"name":"my-widget","namespace":"default"},"spec":{`) ||
		strings.Contains(out, "hostNetwork") || strings.Count(out, "\n") != 1 {
		t.Errorf("exit %d, out %s", code, out)
	}
	if !strings.Contains(errOut, `Warning: unknown field "spec.hostNetwork"`+"\n") || strings.Count(errOut, "Warning: ") != 7 {
		t.Errorf("stderr %s", errOut)
	}
	code, out, errOut = runCLI("--crd", crdFile, "--field-validation=Strict", "../../examples/widget.yaml")
	if code != exitFindings || out != "" || !strings.HasPrefix(errOut, `error: ../../examples/widget.yaml: document 0: strict decoding error: unknown field "metadata.garbage", unknown field "spec.hostNetwork"`) {
		t.Errorf("Strict: exit %d, out %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCLI("--crd", crdFile, "--field-validation=Ignore", "-o", "none", "../../examples/widget.yaml")
	if code != exitOK || out != "" || errOut != "" {
		t.Errorf("Ignore: exit %d, out %q, stderr %q", code, out, errOut)
	}
}

func TestPruneJSONStream(t *testing.T) {
	in := `{"apiVersion":"example.com/v1","kind":"Widget","spec":{"zz":1}}
{"apiVersion":"v1","kind":"ConfigMap","metadata":{"x":1},"data":{"a":"b"}}
{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":5}}
{"apiVersion":"example.com/v1","kind":"Widget"}
`
	code, out, errOut := runStdin(in, "--crd", crdFile, "--no-defaults")
	want := `{"apiVersion":"example.com/v1","kind":"Widget","spec":{}}
{"apiVersion":"v1","kind":"ConfigMap","metadata":{"x":1},"data":{"a":"b"}}
{"apiVersion":"example.com/v1","kind":"Widget"}
`
	if code != exitOK || out != want {
		t.Errorf("exit %d\n got %s\nwant %s", code, out, want)
	}
	if !strings.Contains(errOut, `Warning: unknown field "spec.zz"`) || !strings.Contains(errOut, "error: -: document 2: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string") {
		t.Errorf("stderr %s", errOut)
	}
	code, _, errOut = runStdin(`{"a":`, "--crd", crdFile)
	if code != exitUsage || !strings.Contains(errOut, "error: -: invalid JSON") {
		t.Errorf("truncated: exit %d, %s", code, errOut)
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--crd", crdFile, "--field-validation=Loud"}, {"--crd", crdFile, "-o", "xml"}, {"--schema", "/nope"}, {"--crd", crdFile, "/does/not/exist"}} {
		if code, _, _ := runCLI(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
