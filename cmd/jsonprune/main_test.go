package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	code := run(args, strings.NewReader(stdin), &out, &errb)
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
	if code, _, errOut := runCLI("--crd", bad, "--dump"); code != exitUsage || !strings.Contains(errOut, "is invalid") {
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
		{nil, "Usage:"},
		{[]string{"--nope"}, "error: flag provided but not defined: -nope\n"},
		{[]string{"--crd", "/does/not/exist", "--dump"}, "error: stat /does/not/exist: no such file or directory\n"},
		{[]string{"--crd", crdFile, "--field-validation=Loud"}, `error: --field-validation must be Strict, Warn or Ignore, not "Loud"`},
		{[]string{"--crd", crdFile, "-o", "xml"}, `error: -o must be json, ndjson or none, not "xml"`},
		{[]string{"--crd", crdFile, "-o", "yaml"}, "error: -o yaml is not supported yet: it comes with the YAML bridge; use -o json, ndjson or none\n"},
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
	yamlList := "apiVersion: v1\nitems:\n- apiVersion: example.com/v1\n  kind: Widget\n  metadata: {name: w, namespace: ns}\n  spec:\n    replicas: 1\n    zz: 2\n    list: [{x: a, q: 1}]\n" +
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm, bogus: 1}\n  data: {a: b}\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
	sorted := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},"spec":{"list":[{"x":"a"}],"replicas":1}}`
	sortedCM := `{"apiVersion":"v1","data":{"a":"b"},"kind":"ConfigMap","metadata":{"bogus":1,"name":"cm"}}`
	for _, threshold := range []int{1 << 20, 10} {
		func() {
			defer func(n int) { listThreshold = n }(listThreshold)
			listThreshold = threshold
			code, out, errOut = runStdin(yamlList, "--crd", crdFile, "--no-defaults")
			check(t, "yaml", code, out, errOut, exitOK, `{"apiVersion":"v1","items":[`+sorted+","+sortedCM+tail, widgetWarn)
			code, out, errOut = runStdin(yamlList, "--crd", crdFile, "--no-defaults", "-o", "ndjson", "--field-validation=Strict")
			check(t, "yaml Strict", code, out, errOut, exitFindings, sortedCM+"\n", "error: -: document 0, item 0: "+widgetErr+"\n")
		}()
	}
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
	wantErr := `Warning: unknown field "spec.bogus"
Warning: line 12: key "replicas" already set in map
error: -: document 2: yaml: line 16: did not find expected ',' or ']'
error: -: document 4: yaml: cannot decode !!str ` + "`x`" + ` as a !!int (line 23, column 18)
`
	check(t, "Warn", code, out, errOut, exitUsage, wantOut, wantErr)

	code, out, errOut = runStdin(in, "--crd", crdFile, "--no-defaults", "--field-validation=Strict", "-o", "none")
	wantErr = `error: -: document 0: Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.bogus"
error: -: document 1: Widget in version "v1" cannot be handled as a Widget: strict decoding error: yaml: unmarshal errors:\n  line 12: key "replicas" already set in map
error: -: document 2: yaml: line 16: did not find expected ',' or ']'
error: -: document 4: yaml: cannot decode !!str ` + "`x`" + ` as a !!int (line 23, column 18)
`
	check(t, "Strict", code, out, errOut, exitUsage, "", wantErr)

	code, out, errOut = runStdin(in, "--crd", crdFile, "--no-defaults", "--field-validation=Ignore", "-o", "ndjson")
	check(t, "Ignore", code, out, errOut, exitUsage, wantOut, "error: -: document 2: yaml: line 16: did not find expected ',' or ']'\n"+
		"error: -: document 4: yaml: cannot decode !!str `x` as a !!int (line 23, column 18)\n")
}

func TestReport(t *testing.T) {
	report := filepath.Join(t.TempDir(), "r.jsonl")
	in := widgetJSON + "\n" + `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":true}}` + "\n"
	code, _, _ := runStdin(in, "--crd", crdFile, "-q", "--report", report, "-o", "none")
	got, _ := os.ReadFile(report)
	want := `{"input":"-","doc":0,"apiVersion":"example.com/v1","kind":"Widget","namespace":"ns","name":"w","type":"unknown","path":"spec.list[0].q","pointer":"/spec/list/0/q","message":"unknown field \"spec.list[0].q\"","line":1,"column":134,"offset":133}
{"input":"-","doc":0,"apiVersion":"example.com/v1","kind":"Widget","namespace":"ns","name":"w","type":"unknown","path":"spec.zz","pointer":"/spec/zz","message":"unknown field \"spec.zz\"","line":1,"column":110,"offset":109}
{"input":"-","doc":1,"apiVersion":"example.com/v1","kind":"Widget","type":"error","path":"","pointer":"/metadata","message":"Widget in version \"v1\" cannot be handled as a Widget: json: cannot unmarshal bool into Go struct field ObjectMeta.name of type string","line":2,"column":59,"offset":201}
`
	if code != exitFindings || string(got) != want {
		t.Errorf("exit %d, report:\n%s\nwant:\n%s", code, got, want)
	}

	// YAML: lines are the document's until the YAML bridge; duplicates
	// have their own lines; list items say which
	code, out, _ := runStdin("# c\napiVersion: v1\nkind: List\nitems:\n- apiVersion: example.com/v1\n  kind: Widget\n  spec: {a: 1, a: 2, list: [{x: a, x: b}]}\n", "--crd", crdFile, "--report", "-", "-o", "none", "-q")
	want = `{"input":"-","doc":0,"item":0,"apiVersion":"example.com/v1","kind":"Widget","type":"duplicate","path":"spec.a","pointer":"/spec/a","message":"line 7: key \"a\" already set in map","line":7,"column":19,"offset":0}
{"input":"-","doc":0,"item":0,"apiVersion":"example.com/v1","kind":"Widget","type":"duplicate","path":"spec.list[0].x","pointer":"/spec/list/0/x","message":"line 7: key \"x\" already set in map","line":7,"column":39,"offset":0}
{"input":"-","doc":0,"item":0,"apiVersion":"example.com/v1","kind":"Widget","type":"unknown","path":"spec.a","pointer":"/spec/a","message":"unknown field \"spec.a\"","line":2,"column":0,"offset":0}
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
