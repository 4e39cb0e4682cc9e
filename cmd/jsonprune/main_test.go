package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/internal/yaml11"
)

// In-process tests of the command line: run() with its flags, on small
// inputs, checking stdout, stderr and the exit status exactly. The
// end-to-end tests (e2e_test.go) run the built binary on larger dumps.

const crdFile = "../../examples/widget-crd.yaml"

func runCLI(args ...string) (int, string, string) {
	return runStdin("", args...)
}

func runStdin(stdin string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	// the tests below check kubectl's plain form of the messages; the
	// located form has tests of its own (e2e_located_test.go)
	// and they are about pruning and findings: value validation, on by
	// default, has tests of its own (--validate, e2e_validate_test.go)
	code := run(append([]string{"--kubectl", "--no-validate"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// check compares a run's exit status, stdout and stderr.
func check(t *testing.T, name string, code int, out, errOut string, wantCode int, wantOut, wantErr string) {
	t.Helper()
	if code != wantCode || out != wantOut || errOut != wantErr {
		t.Errorf("%s: exit %d (want %d)\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s", name, code, wantCode, out, wantOut, errOut, wantErr)
	}
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLintCRD(t *testing.T) {
	code, out, _ := runCLI("--lint-crd", crdFile)
	if code != exitOK || !strings.Contains(out, `"widgets.example.com": structural`) {
		t.Errorf("exit %d, out %q", code, out)
	}
	bad := writeFile(t, "bad.yaml", `apiVersion: apiextensions.k8s.io/v1
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
`)
	code, out, _ = runCLI("--lint-crd", bad)
	want := "  spec.validation.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields\n"
	if code != exitFindings || !strings.HasSuffix(out, want) {
		t.Errorf("exit %d, out %q", code, out)
	}
	// the same CRD compiles by its skeleton, and not without it
	if code, _, errOut := runCLI("--crd", bad, "--dump"); code != exitUsage || !strings.Contains(errOut, "is not structural") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if code, out, _ := runCLI("--crd", bad, "--skeleton", "--dump"); code != exitOK || !strings.Contains(out, "skeleton of a non-structural schema") {
		t.Errorf("exit %d, out %q", code, out)
	}
}

func TestDump(t *testing.T) {
	code, out, _ := runCLI("--crd", crdFile, "--dump")
	if code != exitOK || !strings.Contains(out, "# example.com/v1, Kind=Widget") || !strings.Contains(out, `"privileged" → s`) {
		t.Errorf("exit %d, out %.300q", code, out)
	}
}

func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		err  string
	}{
		{nil, "error: no schema: give the CustomResourceDefinitions with --crd FILE|DIR (or one OpenAPI schema with --schema FILE)\n"},
		{[]string{"--nope"}, "error: flag provided but not defined: -nope\n"},
		{[]string{"--crd", "/does/not/exist", "--dump"}, "error: --crd /does/not/exist: no such file or directory\n  hint: --crd takes"},
		{[]string{"--crd", crdFile, "--field-validation=Loud"}, `error: --field-validation must be Strict, Warn or Ignore, not "Loud"`},
		{[]string{"--crd", crdFile, "-o", "xml"}, `error: -o must be json, ndjson, yaml or none, not "xml"`},
		{[]string{"--crd", crdFile, "--compress", "bz2"}, `error: --compress must be gzip or zstd, not "bz2"`},
		{[]string{"--crd", crdFile, "--report", "-"}, "error: --report - writes to stdout: use it with -o none\n"},
		{[]string{"--crd", crdFile, "--schema", crdFile}, "error: --crd and --schema exclude each other\n"},
		{[]string{"--crd", crdFile, "-j", "0"}, "error: -j must be at least 1\n"},
		{[]string{"--crd", crdFile, "--max-doc-size", "1Ti"}, `error: --max-doc-size: not a size: "1Ti"`},
		{[]string{"--crd", crdFile, "--progress", "often"}, `error: --progress must be auto, always or never, not "often"`},
		{[]string{"--schema", "/nope"}, "error: /nope: open /nope: no such file or directory\n"},
		{[]string{"--crd", crdFile, "--report", "/no/such/dir/r.jsonl"}, "error: --report: open /no/such/dir/r.jsonl: no such file or directory\n"},
	} {
		code, out, errOut := runCLI(c.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, c.err) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errOut, c.err)
		}
	}
	code, out, _ := runCLI("--help")
	if code != exitOK || !strings.Contains(out, "--field-validation MODE") {
		t.Errorf("--help: exit %d, %q", code, out)
	}
}

// widget is a Widget with unknown fields, as JSON and YAML.
const (
	widgetJSON = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},"spec":{"replicas":1,"zz":2,"list":[{"x":"a","q":1}]}}`
	widgetOut  = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},"spec":{"replicas":1,"list":[{"x":"a"}]}}`
	widgetWarn = "Warning: unknown field \"spec.list[0].q\"\nWarning: unknown field \"spec.zz\"\n"
	widgetErr  = `Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.list[0].q", unknown field "spec.zz"`
	configMap  = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","bogus":1},"data":{"a":"b"}}`
)

func TestModes(t *testing.T) {
	in := widgetJSON + "\n" + configMap + "\n"
	code, out, errOut := runStdin(in, "--crd", crdFile, "--no-defaults")
	check(t, "Warn", code, out, errOut, exitOK, widgetOut+"\n"+configMap+"\n", widgetWarn)

	code, out, errOut = runStdin(in, "--crd", crdFile, "--no-defaults", "--field-validation=strict")
	check(t, "Strict", code, out, errOut, exitFindings, configMap+"\n", "error: -: document 0: "+widgetErr+"\n")

	code, out, errOut = runStdin(in, "--crd", crdFile, "--no-defaults", "--field-validation", "Ignore")
	check(t, "Ignore", code, out, errOut, exitOK, widgetOut+"\n"+configMap+"\n", "")

	code, out, errOut = runStdin(in, "--crd", crdFile, "--no-defaults", "-q", "-o", "none")
	check(t, "quiet", code, out, errOut, exitOK, "", "")

	// defaults and null pruning
	code, out, _ = runStdin(`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"replicas":null}}`, "--crd", crdFile)
	if want := `{"apiVersion":"example.com/v1","kind":"Widget","spec":{"defaulted":"dflt","nullableDefaulted":"nd"}}` + "\n"; code != exitOK || out != want {
		t.Errorf("defaults: exit %d, %s", code, out)
	}
	code, out, _ = runStdin(`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"replicas":null}}`, "--crd", crdFile, "--no-defaults", "--no-null-pruning")
	if want := `{"apiVersion":"example.com/v1","kind":"Widget","spec":{"replicas":null}}` + "\n"; code != exitOK || out != want {
		t.Errorf("--no-null-pruning: exit %d, %s", code, out)
	}
}

func TestSchema(t *testing.T) {
	schema := writeFile(t, "schema.yaml", "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      a: {type: string}\n")
	in := `{"apiVersion":"x.io/v1","kind":"Thing","metadata":{"name":"t"},"spec":{"a":"1","b":2}}` + "\n" + `{"apiVersion":"v1","kind":"ConfigMap","data":{"k":"v"}}` + "\n"
	code, out, errOut := runStdin(in, "--schema", schema)
	check(t, "Warn", code, out, errOut, exitOK, `{"apiVersion":"x.io/v1","kind":"Thing","metadata":{"name":"t"},"spec":{"a":"1"}}`+"\n"+`{"apiVersion":"v1","kind":"ConfigMap"}`+"\n",
		"Warning: unknown field \"spec.b\"\nWarning: unknown field \"data\"\n")
	code, out, errOut = runStdin(in, "--schema", schema, "--field-validation=Strict")
	check(t, "Strict", code, out, errOut, exitFindings, "", `error: -: document 0: Thing in version "v1" cannot be handled as a Thing: strict decoding error: unknown field "spec.b"`+"\n"+
		`error: -: document 1: ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "data"`+"\n")
}

func TestExample(t *testing.T) {
	code, out, errOut := runCLI("--crd", crdFile, "../../examples/widget.yaml")
	if code != exitOK || !strings.HasPrefix(out, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"labels":{"app":"demo"},"name":"my-widget","namespace":"default"},"spec":{`) ||
		strings.Contains(out, "hostNetwork") || strings.Count(out, "\n") != 1 {
		t.Errorf("exit %d, out %s", code, out)
	}
	if !strings.Contains(errOut, `Warning: unknown field "spec.hostNetwork"`+"\n") || strings.Count(errOut, "Warning: ") != 7 {
		t.Errorf("stderr %s", errOut)
	}
	code, out, errOut = runCLI("--crd", crdFile, "--field-validation=Strict", "../../examples/widget.yaml")
	want := `error: ../../examples/widget.yaml: document 0: Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "metadata.garbage", unknown field "spec.hostNetwork", ` +
		`unknown field "spec.list[0].extra", unknown field "spec.mapOfObj.k1.z", unknown field "spec.preserved.known.extra", unknown field "status.surprise", unknown field "spec.embedded.metadata.bogus"` + "\n"
	check(t, "Strict", code, out, errOut, exitFindings, "", want)
}

func TestJSONStream(t *testing.T) {
	in := strings.Join([]string{
		`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"zz":1}}`,
		configMap,
		`null`,
		`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":5}}`,
		`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"a":`,
		`[1]`,
		`{"apiVersion":"example.com/v2","kind":"Widget","metadata":{"name":"v2"},"spec":{"a":1}}`,
		`{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"preserved": {"a": [1, 2]}}}`,
	}, "\n") + "\n"
	code, out, errOut := runStdin(in, "--crd", crdFile, "--no-defaults")
	wantOut := `{"apiVersion":"example.com/v1","kind":"Widget","spec":{}}
` + configMap + `
{"apiVersion":"example.com/v2","kind":"Widget","metadata":{"name":"v2"}}
{"apiVersion":"example.com/v1","kind":"Widget","spec":{"preserved":{"a":[1,2]}}}
`
	wantErr := `Warning: unknown field "spec.zz"
error: -: document 3: Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string (line 4, column 59, offset 218, at /metadata)
error: -: document 4: invalid JSON: unexpected EOF (line 5, column 60, offset 289, at /spec/a)
error: -: document 5: couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" } (line 6, column 1, offset 290)
Warning: version v2 is not served by widgets.example.com; served: v1
Warning: unknown field "spec"
`
	check(t, "stream", code, out, errOut, exitUsage, wantOut, wantErr)

	// concatenated values without newlines; a fatal error alone exits 1
	code, out, errOut = runStdin(`{"apiVersion":"example.com/v1","kind":"Widget"}{"apiVersion":"example.com/v1","kind":"Widget","metadata":[]}`, "--crd", crdFile, "--no-defaults")
	check(t, "concatenated", code, out, errOut, exitFindings, `{"apiVersion":"example.com/v1","kind":"Widget"}`+"\n",
		"error: -: document 1: Widget in version \"v1\" cannot be handled as a Widget: json: cannot unmarshal array into Go value of type v1.ObjectMeta (line 1, column 106, offset 105, at /metadata)\n")
}

func TestLists(t *testing.T) {
	list := "{\n  \"apiVersion\": \"v1\",\n  \"items\": [\n    " + widgetJSON + ",\n    " + configMap + "\n  ],\n  \"kind\": \"List\",\n  \"metadata\": {\"resourceVersion\": \"\"}\n}\n"
	tail := `],"kind":"List","metadata":{"resourceVersion":""}}` + "\n"
	code, out, errOut := runStdin(list, "--crd", crdFile, "--no-defaults")
	check(t, "json", code, out, errOut, exitOK, `{"apiVersion":"v1","items":[`+widgetOut+","+configMap+tail, widgetWarn)

	code, out, errOut = runStdin(list, "--crd", crdFile, "--no-defaults", "-o", "ndjson", "--field-validation=Strict")
	check(t, "ndjson Strict", code, out, errOut, exitFindings, configMap+"\n", "error: -: document 0, item 0: "+widgetErr+"\n")

	code, out, errOut = runStdin(list, "--crd", crdFile, "--no-defaults", "--field-validation=Strict")
	check(t, "json Strict", code, out, errOut, exitFindings, `{"apiVersion":"v1","items":[`+configMap+tail, "error: -: document 0, item 0: "+widgetErr+"\n")

	// a broken list still makes valid JSON of what could be read
	code, out, errOut = runStdin(`{"items":[{"apiVersion":"v1","kind":"A"} {"apiVersion":"v1","kind":"B"}], "kind": List}`, "--crd", crdFile)
	check(t, "broken", code, out, errOut, exitUsage, `{"items":[{"apiVersion":"v1","kind":"A"},{"apiVersion":"v1","kind":"B"}]}`+"\n",
		"error: -: document 0: invalid JSON: a comma is missing between two items of the list (line 1, column 42, offset 41)\n"+
			"error: -: document 0: invalid JSON: invalid character 'L' at start of value (line 1, column 83, offset 82)\n")

	// the same list in YAML, read whole and streamed, gives the same output
	// as in JSON: the decoder reads the YAML nodes, in the document's order
	// (before the YAML bridge, YAML was read into maps: keys came sorted)
	yamlList := "apiVersion: v1\nitems:\n- apiVersion: example.com/v1\n  kind: Widget\n  metadata: {name: w, namespace: ns}\n  spec:\n    replicas: 1\n    zz: 2\n    list: [{x: a, q: 1}]\n" +
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm, bogus: 1}\n  data: {a: b}\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
	for _, threshold := range []int{1 << 20, 10} {
		func() {
			defer func(n int) { listThreshold = n }(listThreshold)
			listThreshold = threshold
			code, out, errOut = runStdin(yamlList, "--crd", crdFile, "--no-defaults")
			check(t, "yaml", code, out, errOut, exitOK, `{"apiVersion":"v1","items":[`+widgetOut+","+configMap+tail, widgetWarn)
			code, out, errOut = runStdin(yamlList, "--crd", crdFile, "--no-defaults", "-o", "ndjson", "--field-validation=Strict")
			check(t, "yaml Strict", code, out, errOut, exitFindings, configMap+"\n", "error: -: document 0, item 0: "+widgetErr+"\n")
		}()
	}

	// any object with items is a list (WidgetList too), in YAML as in JSON;
	// its members keep their order, items where they were
	widgetList := "kind: WidgetList\napiVersion: example.com/v1\nitems:\n- apiVersion: example.com/v1\n  kind: Widget\n  spec: {zz: 1}\nmetadata: {continue: x}\n"
	code, out, errOut = runStdin(widgetList, "--crd", crdFile, "--no-defaults")
	check(t, "WidgetList", code, out, errOut, exitOK, `{"kind":"WidgetList","apiVersion":"example.com/v1","items":[{"apiVersion":"example.com/v1","kind":"Widget","spec":{}}],"metadata":{"continue":"x"}}`+"\n",
		"Warning: unknown field \"spec.zz\"\n")

	// an item without kind: the API server's message quotes the item as JSON
	// (as it would for the JSON input), at the item's YAML position
	code, out, errOut = runStdin("kind: List\nitems:\n- apiVersion: example.com/v1\n  spec: {a: 1}\n", "--crd", crdFile)
	check(t, "kind missing", code, out, errOut, exitFindings, `{"kind":"List","items":[]}`+"\n",
		`error: -: document 0, item 0: Object 'Kind' is missing in '{"apiVersion":"example.com/v1","spec":{"a":1}}' (line 3, column 3, offset 20)`+"\n")
	// an error of the YAML path anywhere in a list read whole costs the
	// whole list, as the API server converts the whole document first
	code, out, errOut = runStdin("kind: List\nitems:\n- {apiVersion: v1, kind: A, x: .inf}\n- {apiVersion: v1, kind: B}\n", "--crd", crdFile)
	check(t, ".inf", code, out, errOut, exitFindings, "", "error: -: document 0: json: unsupported value: +Inf (line 3, column 32, offset 49)\n")
}

func TestYAML(t *testing.T) {
	in := `# a comment
apiVersion: example.com/v1
kind: Widget
metadata: {name: a}
spec: {replicas: 1, bogus: 2}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: b}
spec:
  replicas: 1
  replicas: 2
--- # empty: not counted
---
apiVersion: example.com/v1
kind: Widget
spec: {replicas: [1
---
~
---
apiVersion: example.com/v1
kind: Widget
spec: {replicas: !!int x}
...
apiVersion: example.com/v1
kind: Widget
metadata: {name: f}
`
	code, out, errOut := runStdin(in, "--crd", crdFile, "--no-defaults")
	wantOut := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a"},"spec":{"replicas":1}}
{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"b"},"spec":{"replicas":2}}
{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"f"}}
`
	// duplicate keys are reported as for JSON (the reference's YAML text
	// lumps them: "yaml: unmarshal errors:\n  line 12: key \"replicas\"
	// already set in map"); YAML errors have their offset too
	wantErr := `Warning: unknown field "spec.bogus"
Warning: duplicate field "spec.replicas"
error: -: document 2: yaml: line 16: did not find expected ',' or ']'
error: -: document 4: yaml: cannot decode !!str ` + "`x`" + ` as a !!int (line 23, column 18, offset 356)
`
	check(t, "Warn", code, out, errOut, exitUsage, wantOut, wantErr)

	code, out, errOut = runStdin(in, "--crd", crdFile, "--no-defaults", "--field-validation=Strict", "-o", "none")
	wantErr = `error: -: document 0: Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.bogus"
error: -: document 1: Widget in version "v1" cannot be handled as a Widget: strict decoding error: duplicate field "spec.replicas"
error: -: document 2: yaml: line 16: did not find expected ',' or ']'
error: -: document 4: yaml: cannot decode !!str ` + "`x`" + ` as a !!int (line 23, column 18, offset 356)
`
	check(t, "Strict", code, out, errOut, exitUsage, "", wantErr)

	code, out, errOut = runStdin(in, "--crd", crdFile, "--no-defaults", "--field-validation=Ignore", "-o", "ndjson")
	check(t, "Ignore", code, out, errOut, exitUsage, wantOut, "error: -: document 2: yaml: line 16: did not find expected ',' or ']'\n"+
		"error: -: document 4: yaml: cannot decode !!str `x` as a !!int (line 23, column 18, offset 356)\n")
}

func TestReport(t *testing.T) {
	report := filepath.Join(t.TempDir(), "r.jsonl")
	in := widgetJSON + "\n" + `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":true}}` + "\n"
	code, _, _ := runStdin(in, "--crd", crdFile, "-q", "--report", report, "-o", "none")
	got, _ := os.ReadFile(report)
	want := `{"input":"-","doc":0,"apiVersion":"example.com/v1","kind":"Widget","namespace":"ns","name":"w","type":"unknown","severity":"warning","path":"spec.list[0].q","pointer":"/spec/list/0/q","message":"unknown field \"spec.list[0].q\"","line":1,"column":134,"offset":133}
{"input":"-","doc":0,"apiVersion":"example.com/v1","kind":"Widget","namespace":"ns","name":"w","type":"unknown","severity":"warning","path":"spec.zz","pointer":"/spec/zz","message":"unknown field \"spec.zz\"","line":1,"column":110,"offset":109}
{"input":"-","doc":1,"apiVersion":"example.com/v1","kind":"Widget","type":"error","severity":"error","path":"","pointer":"/metadata","message":"Widget in version \"v1\" cannot be handled as a Widget: json: cannot unmarshal bool into Go struct field ObjectMeta.name of type string","line":2,"column":59,"offset":201}
`
	if code != exitFindings || string(got) != want {
		t.Errorf("exit %d, report:\n%s\nwant:\n%s", code, got, want)
	}

	// YAML: every finding at its key's own line, column and offset (with the
	// YAML bridge; before it, findings had their document's first line),
	// duplicates as for JSON; list items say which
	code, out, _ := runStdin("# c\napiVersion: v1\nkind: List\nitems:\n- apiVersion: example.com/v1\n  kind: Widget\n  spec: {a: 1, a: 2, list: [{x: a, x: b}]}\n", "--crd", crdFile, "--report", "-", "-o", "none", "-q")
	want = `{"input":"-","doc":0,"item":0,"apiVersion":"example.com/v1","kind":"Widget","type":"duplicate","severity":"warning","path":"spec.a","pointer":"/spec/a","message":"duplicate field \"spec.a\"","line":7,"column":16,"offset":96}
{"input":"-","doc":0,"item":0,"apiVersion":"example.com/v1","kind":"Widget","type":"duplicate","severity":"warning","path":"spec.list[0].x","pointer":"/spec/list/0/x","message":"duplicate field \"spec.list[0].x\"","line":7,"column":36,"offset":116}
{"input":"-","doc":0,"item":0,"apiVersion":"example.com/v1","kind":"Widget","type":"unknown","severity":"warning","path":"spec.a","pointer":"/spec/a","message":"unknown field \"spec.a\"","line":7,"column":10,"offset":90}
`
	if code != exitOK || out != want {
		t.Errorf("YAML: exit %d, report:\n%s\nwant:\n%s", code, out, want)
	}
}

func TestSummary(t *testing.T) {
	in := widgetJSON + "\n" + widgetJSON + "\n" + configMap + "\n" + `{"apiVersion":"example.com/v1","kind":"Widget","spec":{"list":[{"q":1},{"q":2}]}}`
	code, out, errOut := runStdin(in, "--crd", crdFile, "--summary", "-o", "none", "-q", "--top", "2")
	want := `Summary: 4 documents in 1 input (458 B)
  objects:                  4
  pruned by a schema:       3
  passed through (no CRD):  1
    of built-in kinds:      1
  not decodable:            0
  unreadable:               0
  with findings:            3 (6 unknown fields, 0 duplicate fields)
Objects by kind:
           3  example.com/v1 Widget  (3 would lose fields)
           1  v1 ConfigMap  (passed through: no CRD)
Most frequent unknown fields (2 of 2), which the API server drops (objects, kind, field):
           3  example.com/v1 Widget  spec.list[*].q
           2  example.com/v1 Widget  spec.zz
`
	check(t, "summary", code, out, errOut, exitOK, "", want)
}

func TestInputs(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "a.json"), []byte(configMap), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("not read"), 0o644)
	os.WriteFile(filepath.Join(dir, "sub", "c.yaml"), []byte("apiVersion: v1\nkind: Secret\n"), 0o644)
	// flags after inputs; a missing input is reported in its turn
	code, out, errOut := runCLI(dir, filepath.Join(dir, "missing.json"), "--crd", crdFile, "-o", "ndjson")
	check(t, "dir", code, out, errOut, exitUsage, configMap+"\n", "error: "+filepath.Join(dir, "missing.json")+": no such file or directory\n")
	code, out, _ = runCLI("-R", "-f", dir, "--crd", crdFile)
	if code != exitOK || out != configMap+"\n"+`{"apiVersion":"v1","kind":"Secret"}`+"\n" {
		t.Errorf("-R: exit %d, %q", code, out)
	}
	// values glued to short flags, as kubectl takes them
	code, out, _ = runCLI("-f"+filepath.Join(dir, "a.json"), "--crd", crdFile, "-ondjson", "-j1")
	if code != exitOK || out != configMap+"\n" {
		t.Errorf("-ondjson: exit %d, %q", code, out)
	}
	// "--" ends the flags
	code, _, errOut = runCLI("--crd", crdFile, "--", "-o")
	if code != exitUsage || errOut != "error: -o: no such file or directory\n" {
		t.Errorf("--: exit %d, %q", code, errOut)
	}
}

func TestHelpers(t *testing.T) {
	for js, want := range map[string]bool{`{"a":1}`: false, `{"a": 1}`: true, `{"a":" \" "}`: false, "[1,\n2]": true, `"\\"`: false} {
		if hasSpace([]byte(js)) != want {
			t.Errorf("hasSpace(%s) != %v", js, want)
		}
	}
	if got := string(appendClean(nil, "a\tb\nc\x01é\xff")); got != `a\tb\nc\x01é\xff` {
		t.Errorf("appendClean: %s", got)
	}
	if got := normalizePath("spec.a[0].b[12].c"); got != "spec.a[*].b[*].c" {
		t.Errorf("normalizePath: %s", got)
	}
	if got := shiftLines("yaml: line 3: oops line 4", 10); got != "yaml: line 13: oops line 4" {
		t.Errorf("shiftLines: %s", got)
	}
	for s, want := range map[string]int{"12": 12, "2Ki": 2048, "1Mi": 1 << 20, "1Gi": 1 << 30} {
		if got, err := parseSize(s); err != nil || got != want {
			t.Errorf("parseSize(%s) = %d, %v", s, got, err)
		}
	}
}

// -o yaml: pruned documents as multi-document YAML, in input order; they
// read back (on the Kubernetes YAML path) as the -o json output.

// yamlDocs reads a YAML stream as the Kubernetes YAML path reads it, each
// document rendered as JSON with sorted keys (numbers as numbers).
func yamlDocs(t *testing.T, text string) []string {
	t.Helper()
	vals, err := yaml11.Decode([]byte(text), yaml11.Options{})
	if err != nil {
		t.Fatalf("the YAML output does not read back: %v\n%s", err, text)
	}
	var out []string
	for _, v := range vals {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// jsonDocs reads -o json output (one document per line) the same way.
func jsonDocs(t *testing.T, text string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if l == "" {
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("-o json line %q: %v", l, err)
		}
		b, _ := json.Marshal(v)
		out = append(out, string(b))
	}
	return out
}

// checkYAMLOutput runs the same input with -o yaml and -o json: same exit
// status and stderr, and the YAML reads back as the JSON. It returns the
// YAML.
func checkYAMLOutput(t *testing.T, name, in string, args ...string) string {
	t.Helper()
	codeY, outY, errY := runStdin(in, append(args, "-o", "yaml")...)
	codeJ, outJ, errJ := runStdin(in, append(args, "-o", "json")...)
	if codeY != codeJ || errY != errJ {
		t.Errorf("%s: -o yaml exit %d, stderr\n%s\n-o json exit %d, stderr\n%s", name, codeY, errY, codeJ, errJ)
	}
	y, j := yamlDocs(t, outY), jsonDocs(t, outJ)
	if strings.Join(y, "\n") != strings.Join(j, "\n") {
		t.Errorf("%s: -o yaml reads back as\n%s\n-o json gives\n%s\nYAML:\n%s", name, strings.Join(y, "\n"), strings.Join(j, "\n"), outY)
	}
	if strings.HasPrefix(outY, "---") || strings.Contains(outY, "---\n---") {
		t.Errorf("%s: \"---\" goes between documents only:\n%s", name, outY)
	}
	return outY
}

func TestOutputYAMLFromJSON(t *testing.T) {
	in := strings.Join([]string{
		widgetJSON,
		configMap, // passed through
		`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":5}}`, // refused
		`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"s"},"spec":{"preserved":{"y":"yes","n":"1.0","t":"~","e":"","m":"a: b","big":1e300,"f":1.5,"z":null,"l":[]}}}`,
		`{"apiVersion":"v1","kind":"List","items":[` + widgetJSON + `,` + configMap + `],"metadata":{"resourceVersion":""}}`,
		`{"apiVersion":"v1","kind":"List","items":[` + widgetJSON + `]}`, // empty in Strict mode
	}, "\n") + "\n"
	for _, mode := range []string{"Warn", "Strict", "Ignore"} {
		out := checkYAMLOutput(t, "json "+mode, in, "--crd", crdFile, "--field-validation", mode)
		if mode == "Warn" && !strings.HasPrefix(out, `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  namespace: ns
spec:
  replicas: 1
  list:
    - x: a
  defaulted: dflt
  nullableDefaulted: nd
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  bogus: 1
data:
  a: b
---
`) {
			t.Errorf("json Warn:\n%s", out)
		}
		if mode == "Strict" && !strings.HasSuffix(out, "---\napiVersion: v1\nkind: List\nitems: []\n") {
			t.Errorf("json Strict: a list without items written:\n%s", out)
		}
	}
}

func TestOutputYAMLFromYAML(t *testing.T) {
	in := `# a comment
apiVersion: example.com/v1
kind: Widget
metadata: {name: a}
spec:
  replicas: 1 # one
  bogus: 2
  list:
  - x: 'yes'
    q: 1
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  name: cm2 # a duplicate: the last wins
data: {a: "1.0", b: ~}
---
~
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: [1]}
---
apiVersion: v1
kind: List
items:
- apiVersion: example.com/v1
  kind: Widget
  spec: {replicas: 2, zz: 3}
- &cm
  apiVersion: v1
  kind: ConfigMap
  data: {k: v}
- *cm
---
apiVersion: example.com/v1
kind: WidgetList
items: []
`
	want := `# a comment
apiVersion: example.com/v1
kind: Widget
metadata: {name: a}
spec:
  replicas: 1 # one
  list:
  - x: 'yes'
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm2 # a duplicate: the last wins
data: {a: "1.0", b: ~}
---
apiVersion: v1
kind: List
items:
- apiVersion: example.com/v1
  kind: Widget
  spec: {replicas: 2}
- &cm
  apiVersion: v1
  kind: ConfigMap
  data: {k: v}
- *cm
---
apiVersion: example.com/v1
kind: WidgetList
items: []
`
	for _, mode := range []string{"Warn", "Strict", "Ignore"} {
		for _, threshold := range []int{1 << 20, 10} { // lists read whole, and streamed
			func() {
				defer func(n int) { listThreshold = n }(listThreshold)
				listThreshold = threshold
				out := checkYAMLOutput(t, "yaml "+mode, in, "--crd", crdFile, "--no-defaults", "--field-validation", mode)
				if mode != "Strict" && threshold > 10 && out != want {
					t.Errorf("yaml %s:\n%s\nwant:\n%s", mode, out, want)
				}
			}()
		}
	}
}

// TestOutputYAMLJobs: -j 1 and -j 4 write the same YAML, over many batches.
func TestOutputYAMLJobs(t *testing.T) {
	objs := genDump(3000)
	for name, in := range map[string]string{"yaml": dumpYAML(objs), "ndjson": dumpNDJSON(objs), "list": dumpJSONList(objs), "yamllist": dumpYAMLList(objs)} {
		var first string
		for _, j := range []string{"1", "4"} {
			code, out, errOut := runStdin(in, "--crd", crdFile, "-q", "-o", "yaml", "-j", j)
			if code != exitFindings || out == "" {
				t.Fatalf("%s -j %s: exit %d, stderr %.300s", name, j, code, errOut)
			}
			if j == "1" {
				first = out
			} else if out != first {
				t.Errorf("%s: -j 4 differs from -j 1: %s", name, diffLines(out, first))
			}
		}
	}
}

// TestTypeMetaNotPassedThrough: an object the decoder refuses before it
// could choose the CRD is never written untouched when its kind is served,
// nor when its apiVersion or kind is not a string (issue 14, defects 1 and
// 2: the command line used to pass both through, exit 0).
func TestTypeMetaNotPassedThrough(t *testing.T) {
	for _, c := range []struct{ name, in, wantErr string }{
		{"invalid UTF-8 in a key ahead of apiVersion", "{\"k\xff\":1,\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"spec\":{\"junk\":1}}",
			"error: -: document 0: invalid JSON: invalid UTF-8 (line 1, column 4, offset 3)\n"},
		{"a lone surrogate in a key ahead of kind", `{"apiVersion":"example.com/v1","k\ud800":1,"kind":"Widget","spec":{"junk":1}}`,
			""},
		{"apiVersion a number", `{"apiVersion":5,"kind":"Widget","spec":{"junk":1}}`,
			// as the API server wraps it for the kind the URL names (issue 14, defect 2)
			"error: -: document 0: the object provided is unrecognized (must be of type Widget): couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string ({\"apiVersion\":5,\"kind\":\"Widget ...) (line 1, column 2, offset 1)\n"},
		{"apiVersion an object", `{"apiVersion":{"a":1},"kind":"Widget"}`, ""},
	} {
		code, out, errOut := runStdin(c.in, "--crd", crdFile)
		if code == exitOK || out != "" || errOut == "" {
			t.Errorf("%s: exit %d, written %q, stderr %q", c.name, code, out, errOut)
		}
		if c.wantErr != "" && errOut != c.wantErr {
			t.Errorf("%s: stderr\n%s\nwant\n%s", c.name, errOut, c.wantErr)
		}
	}
	// with --allow-invalid-utf8 the key is read as the server reads it: the
	// object is pruned and the key reported
	code, out, errOut := runStdin("{\"k\xff\":1,\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\"}", "--crd", crdFile, "--allow-invalid-utf8", "--no-defaults")
	if want := `{"apiVersion":"example.com/v1","kind":"Widget"}` + "\n"; code != exitOK || out != want || !strings.Contains(errOut, "unknown field \"k\ufffd\"") {
		t.Errorf("--allow-invalid-utf8: exit %d, %q, %q", code, out, errOut)
	}
	// a kind no CRD serves, with a malformed metadata, still passes through
	code, out, _ = runStdin(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":5}}`, "--crd", crdFile)
	if code != exitOK || out != `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":5}}`+"\n" {
		t.Errorf("ConfigMap with a malformed metadata: exit %d, %q", code, out)
	}
}
