package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// End-to-end tests of issue 15's hints and of --crd given a directory that
// mixes CRDs with other manifests.

func TestE2EHints(t *testing.T) {
	for _, c := range []struct{ name, in, err, hint string }{
		{"tabs in YAML indentation", "apiVersion: example.com/v1\nkind: Widget\nspec:\n\treplicas: 3\n",
			"<stdin>:4:1: error: yaml: line 4: found character that cannot start any token",
			"  hint: YAML does not allow tabs in indentation: indent with spaces"},
		{"a Helm template", "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  labels:\n{{ include \"labels\" . | indent 4 }}\n",
			"<stdin>:6:1: error: yaml: line 6: could not find expected ':'",
			"  hint: this looks like a Helm or Go template ({{ ... }}): render it first (helm template ...) and check what it renders"},
		{"a JSON array at the top level", `[{"apiVersion":"example.com/v1","kind":"Widget"}]`,
			"<stdin>:1:1: error: couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct",
			`  hint: the document is an array: a manifest is an object with apiVersion and kind (a List is an object whose "items" is the array)`},
		{"a scalar at the top level", "just some text\n",
			"<stdin>:1:1: error: couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct",
			"  hint: the document is not an object: a manifest is an object with apiVersion and kind"},
	} {
		r := runBinary(t, strings.NewReader(c.in), "--crd", crdFile, "-o", "none")
		lines := strings.Split(strings.TrimSuffix(r.err, "\n"), "\n")
		if r.code == exitOK || len(lines) != 2 || !strings.HasPrefix(lines[0], c.err) || lines[1] != c.hint {
			t.Errorf("%s: exit %d, stderr\n%s\nwant\n%s ...\n%s", c.name, r.code, r.err, c.err, c.hint)
		}
		// the report has the hint; --kubectl does not print it
		r = runBinary(t, strings.NewReader(c.in), "--crd", crdFile, "-o", "none", "--report", "-", "--kubectl")
		if strings.Contains(r.err, "hint:") || !strings.Contains(r.out, `"hint":"`) {
			t.Errorf("%s: --kubectl stderr %q, report %s", c.name, r.err, r.out)
		}
	}
}

func TestE2ESchemaHints(t *testing.T) {
	// a missing --crd: one line, not the usage
	r := runBinary(t, strings.NewReader("{}"), "-o", "none", "manifests/")
	if r.code != exitUsage || r.err != "error: no schema: give the CustomResourceDefinitions with --crd FILE|DIR (or one OpenAPI schema with --schema FILE)\nRun jsonprune --help for usage.\n" {
		t.Errorf("no --crd: exit %d, %q", r.code, r.err)
	}
	// the path --crd could not read
	r = runBinary(t, nil, "--crd", "/no/such/crds", "x.yaml")
	if r.code != exitUsage || !strings.HasPrefix(r.err, "error: --crd /no/such/crds: no such file or directory\n  hint: --crd takes a CustomResourceDefinition manifest") {
		t.Errorf("unreadable --crd: exit %d, %q", r.code, r.err)
	}
	// a CRD that is not structural: one violation a line, and the flags
	bad := writeFile(t, "bad.yaml", `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: foos.example.com}
spec:
  group: example.com
  names: {kind: Foo, plural: foos}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a: {}
          b: {type: object, properties: {c: {}}}
`)
	// CRDs compile on first use: a CRD no input needs is not reported (a
	// run with --lint-crd or --dump checks them all)...
	r = runBinary(t, strings.NewReader("{}"), "--crd", bad, "-o", "none")
	if r.code != exitFindings || strings.Contains(r.err, "structural") {
		t.Errorf("unused non-structural CRD: exit %d, stderr\n%s", r.code, r.err)
	}
	// ...and one that an object needs is, once, and the run exits 2
	r = runBinary(t, strings.NewReader(`{"apiVersion":"example.com/v1","kind":"Foo","metadata":{"name":"a"}}`+"\n"+
		`{"apiVersion":"example.com/v1","kind":"Foo","metadata":{"name":"b"}}`), "--crd", bad, "-o", "none")
	lines := strings.Split(strings.TrimSuffix(r.err, "\n"), "\n")
	if r.code != exitUsage || len(lines) != 6 || strings.Count(r.err, "is not structural") != 1 || lines[0] != `error: CustomResourceDefinition "foos.example.com" is not structural; the API server refuses it:` ||
		!strings.HasSuffix(lines[1], ".openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields") ||
		!strings.HasSuffix(lines[2], ".openAPIV3Schema.properties[b].properties[c].type: Required value: must not be empty for specified object fields") ||
		!strings.Contains(lines[3], "--skeleton") || !strings.Contains(lines[3], "--lint-crd") {
		t.Errorf("non-structural: exit %d, stderr\n%s", r.code, r.err)
	}
}

// TestE2ECRDDirectory: --crd DIR takes a GitOps repository as it is: it
// skips the documents that are not CRDs and the files that do not parse,
// and says how many with -v and in the summary.
func TestE2ECRDDirectory(t *testing.T) {
	dir := t.TempDir()
	crd, err := os.ReadFile(crdFile)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"crds/widget.yaml":         string(crd),
		"apps/deploy.yaml":         "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: s}\n",
		"apps/mixed.yaml":          "apiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n---\n" + strings.ReplaceAll(strings.ReplaceAll(string(crd), "Widget", "Gadget"), "widget", "gadget"),
		"charts/x/templates/a.yml": "apiVersion: v1\nkind: ConfigMap\ndata:\n{{ toYaml .Values.data | indent 2 }}\n",
		"values.json":              `{"replicas": 3}`,
		"README.md":                "not read",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := `{"apiVersion":"example.com/v1","kind":"Gadget","spec":{"zz":1}}`
	r := runBinary(t, strings.NewReader(in), "--crd", dir, "-o", "none", "-v", "--summary")
	for _, want := range []string{
		"--crd: " + filepath.Join(dir, "apps/deploy.yaml") + ": skipped 2 documents that are not a CustomResourceDefinition\n",
		"--crd: " + filepath.Join(dir, "apps/mixed.yaml") + ": skipped 1 document that is not a CustomResourceDefinition\n",
		"--crd: skipped " + filepath.Join(dir, "charts/x/templates/a.yml") + ": yaml: line 4: could not find expected ':'",
		"--crd: 2 CustomResourceDefinitions from 5 files (skipped: 4 documents not a CRD, 1 file that did not parse)\n",
		"  CRDs:                     2 CustomResourceDefinitions from 5 files (skipped: 4 documents not a CRD, 1 file that did not parse)\n",
		`<stdin>:1:56: warning: Gadget: unknown field "spec.zz"`,
	} {
		if !strings.Contains(r.err, want) {
			t.Errorf("stderr has no %q:\n%s", want, r.err)
		}
	}
	if r.code != exitOK {
		t.Errorf("exit %d", r.code)
	}
	// a directory without any CRD is an error
	r = runBinary(t, strings.NewReader(in), "--crd", filepath.Join(dir, "apps", "deploy.yaml"), "-o", "none")
	if r.code != exitUsage || !strings.Contains(r.err, "no CustomResourceDefinition in it") {
		t.Errorf("no CRD: exit %d, %q", r.code, r.err)
	}
}

// TestE2EProgressLoading: the progress display says what it does while
// the CRDs load, and clears the line.
func TestE2EProgressLoading(t *testing.T) {
	r := runBinary(t, strings.NewReader(`{"apiVersion":"example.com/v1","kind":"Widget"}`), "--crd", crdFile, "-o", "none", "--progress=always")
	if r.code != exitOK || !strings.HasPrefix(r.err, "loading CRDs from "+crdFile+"...\r\033[K") {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
}
