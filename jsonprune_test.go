package jsonprune_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/yamlbridge"
)

var strict = decoder.FieldValidation(decoder.Strict)

func widgetSchemas(t *testing.T) *jsonprune.Schemas {
	t.Helper()
	s, err := jsonprune.LoadCRDFiles("examples/widget-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// located renders findings as "line:column: message".
func located(fs []jperrors.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%d:%d: %s\n", f.Line, f.Column, f.Message())
	}
	return b.String()
}

const widgetPruned = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"labels":{"app":"demo"},"name":"my-widget","namespace":"default"},"spec":{"replicas":3,"name":"demo","list":[{"x":"a"}],"mapOfObj":{"k1":{"y":"kept"}},"preserved":{"anything":"goes","known":{"k":"v"}},"embedded":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"a":"b"}},"intOrString":8080,"defaulted":"dflt","nullableDefaulted":"nd"},"status":{"phase":"Ready"}}`

const widgetFindings = `10:3: unknown field "metadata.garbage"
14:3: unknown field "spec.hostNetwork"
17:5: unknown field "spec.list[0].extra"
19:21: unknown field "spec.mapOfObj.k1.z"
22:19: unknown field "spec.preserved.known.extra"
31:3: unknown field "status.surprise"
26:26: unknown field "spec.embedded.metadata.bogus"
`

func TestLoadCRDs(t *testing.T) {
	crd := readFile(t, "examples/widget-crd.yaml")
	s, err := jsonprune.LoadCRDs(crd)
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := s.Set().Lookup("example.com/v1", "Widget"); !ok || e.GVK.Kind != "Widget" {
		t.Fatalf("Lookup: %v %v", e, ok)
	}
	// a non-CRD document beside the CRD is skipped
	mixed := append([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n"), crd...)
	if s, err = jsonprune.LoadCRDs(mixed); err != nil || len(s.Set().Entries()) != 1 {
		t.Fatalf("mixed: %v", err)
	}
	// JSON, two concatenated values, one of them not a CRD
	var v any
	if err := json.Unmarshal(mustYAMLToJSON(t, crd), &v); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(v)
	js = append([]byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n"}}`+"\n"), js...)
	if s, err = jsonprune.LoadCRDs(js); err != nil || len(s.Set().Entries()) != 1 {
		t.Fatalf("JSON: %v", err)
	}
	for _, in := range []string{"", " \n", "# nothing\n", "apiVersion: v1\nkind: ConfigMap\n"} {
		_, err := jsonprune.LoadCRDs([]byte(in))
		if err == nil || err.Error() != "no CustomResourceDefinition in the input" {
			t.Errorf("%q: %v", in, err)
		}
	}
	if _, err := jsonprune.LoadCRDs(nil); err == nil {
		t.Error("nil: no error")
	}
	// a document that says it is a CRD but is broken is an error with its line
	broken := "apiVersion: v1\nkind: ConfigMap\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.b}\nspec: {group: b}\n"
	_, err = jsonprune.LoadCRDs([]byte(broken))
	if want := `line 4: CustomResourceDefinition "a.b": spec.group and spec.names.kind are required`; err == nil || err.Error() != want {
		t.Errorf("broken: %v, want %s", err, want)
	}
}

func mustYAMLToJSON(t *testing.T, y []byte) []byte {
	t.Helper()
	doc, err := yamlbridge.Parse(y)
	if err != nil {
		t.Fatal(err)
	}
	js, err := yamlbridge.AppendJSON(nil, doc.Source())
	if err != nil {
		t.Fatal(err)
	}
	return js
}

const gadgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Gadget, plural: gadgets}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
`

func TestLoadCRDFilesDirectory(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("widget-crd.yaml", string(readFile(t, "examples/widget-crd.yaml")))
	write("kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [widget-crd.yaml]\n")
	write("README.md", "not read")
	write("sub/gadget.yml", gadgetCRD)
	s, err := jsonprune.LoadCRDFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range s.Set().Entries() {
		got = append(got, e.GVK.String())
	}
	if want := "example.com/v1, Kind=Gadget|example.com/v1, Kind=Widget"; strings.Join(got, "|") != want {
		t.Errorf("entries %q, want %q", got, want)
	}
	// a named file without CRDs, a directory without CRDs
	_, err = jsonprune.LoadCRDFiles(filepath.Join(dir, "kustomization.yaml"))
	if want := filepath.Join(dir, "kustomization.yaml") + ": no CustomResourceDefinition"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	empty := t.TempDir()
	if _, err = jsonprune.LoadCRDFiles(empty); err == nil || err.Error() != empty+": no CustomResourceDefinition" {
		t.Errorf("empty dir: %v", err)
	}
	if _, err = jsonprune.LoadCRDFiles(); err == nil {
		t.Error("no path: no error")
	}
	if _, err = jsonprune.LoadCRDFiles(filepath.Join(dir, "missing.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

func TestLoadCRDFilesCompileError(t *testing.T) {
	dir := t.TempDir()
	bad := strings.Replace(gadgetCRD, "{size: {type: integer}}", "{size: {}}", 1)
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), readFile(t, "examples/widget-crd.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.yaml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := jsonprune.LoadCRDFiles(dir)
	want := filepath.Join(dir, "b.yaml") + `: CustomResourceDefinition "gadgets.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	var ce *schemaauto.CRDError
	if !errors.As(err, &ce) || ce.CRD != "gadgets.example.com" {
		t.Errorf("not a *schemaauto.CRDError: %#v", err)
	}
}

func TestPruneYAMLFile(t *testing.T) {
	s := widgetSchemas(t)
	out, err := s.PruneFile("examples/widget.yaml")
	if err != nil || string(out) != widgetPruned {
		t.Fatalf("got %s, %v\nwant %s", out, err, widgetPruned)
	}
	_, err = s.PruneFile("examples/widget.yaml", strict)
	var se *jperrors.StrictError
	if !errors.As(err, &se) || located(se.Findings) != widgetFindings {
		t.Fatalf("strict: %v", err)
	}
	if !strings.HasPrefix(err.Error(), "examples/widget.yaml: strict decoding error: unknown field \"metadata.garbage\"") {
		t.Errorf("strict error: %v", err)
	}
}

func TestValidateYAMLPositions(t *testing.T) {
	s := widgetSchemas(t)
	doc := readFile(t, "examples/widget.yaml")
	fs, err := s.Validate(doc)
	if err != nil || located(fs) != widgetFindings {
		t.Fatalf("got %v\n%s", err, located(fs))
	}
	for _, f := range fs { // the offset is in the input too
		if line, col := jperrors.LineColumn(doc, f.Offset); line != f.Line || col != f.Column {
			t.Errorf("%s: offset %d is %d:%d, finding says %d:%d", f.Path, f.Offset, line, col, f.Line, f.Column)
		}
	}
}

func TestPruneJSONSameAsYAML(t *testing.T) {
	s := widgetSchemas(t)
	doc := readFile(t, "examples/widget.yaml")
	js := mustYAMLToJSON(t, doc)
	out, err := s.Prune(js)
	if err != nil || string(out) != widgetPruned {
		t.Fatalf("got %s, %v", out, err)
	}
	// indented JSON: findings are located in it
	var v any
	if err := json.Unmarshal(js, &v); err != nil {
		t.Fatal(err)
	}
	ind, _ := json.MarshalIndent(v, "", "  ")
	in := append([]byte("\n "), ind...)
	fs, err := s.Validate(in)
	if err != nil || len(fs) != 7 {
		t.Fatalf("%v %d", err, len(fs))
	}
	off := bytes.Index(in, []byte(`"garbage"`))
	line, col := jperrors.LineColumn(in, int64(off))
	if f := fs[0]; f.Path != "metadata.garbage" || f.Offset != int64(off) || f.Line != line || f.Column != col || line != 6 || col != 5 {
		t.Errorf("first finding %+v, want offset %d, %d:%d", f, off, line, col)
	}
}

func TestOneDocumentCalls(t *testing.T) {
	s := widgetSchemas(t)
	two := []byte("apiVersion: example.com/v1\nkind: Widget\n---\n# second\napiVersion: example.com/v1\nkind: Widget\n")
	for name, call := range map[string]func([]byte) error{
		"Prune":    func(b []byte) error { _, err := s.Prune(b); return err },
		"Validate": func(b []byte) error { _, err := s.Validate(b); return err },
		"Decode":   func(b []byte) error { _, err := s.Decode(b); return err },
	} {
		err := call(two)
		if !errors.Is(err, jsonprune.ErrManyDocuments) || err.Error() != "line 5: more than one document (use NewStream to read a stream)" {
			t.Errorf("%s: two documents: %v", name, err)
		}
		for _, in := range [][]byte{nil, {}, []byte(" \n\t"), []byte("# only a comment\n"), []byte("---\n---\n")} {
			if err := call(in); !errors.Is(err, jsonprune.ErrEmpty) || err.Error() != "empty input: no document" {
				t.Errorf("%s(%q): %v", name, in, err)
			}
		}
		// a trailing "---" is no second document
		if err := call([]byte("apiVersion: example.com/v1\nkind: Widget\n---\n")); err != nil {
			t.Errorf("%s: trailing ---: %v", name, err)
		}
		// a broken second document is reported
		if err := call([]byte("apiVersion: example.com/v1\nkind: Widget\n---\na: [\n")); err == nil || !strings.Contains(err.Error(), "line 4") {
			t.Errorf("%s: broken second document: %v", name, err)
		}
	}
	// nil Schemas: errors, no panic
	var none *jsonprune.Schemas
	if _, err := none.Prune([]byte(`{}`)); err == nil {
		t.Error("nil Schemas: no error")
	}
	if _, err := jsonprune.NewDecoder(nil); err == nil {
		t.Error("nil Schemas: no error")
	}
	if _, err := jsonprune.NewStream(nil, strings.NewReader("{}")); err == nil {
		t.Error("nil Schemas: no error")
	}
	if _, err := jsonprune.NewDecoder(s, decoder.MaxDepth(0)); err == nil || err.Error() != "jsonprune: MaxDepth(0): must be between 1 and 10000 (DefaultMaxDepth)" {
		t.Errorf("MaxDepth(0): %v", err)
	}
	if _, err := jsonprune.NewStream(s, nil); err == nil {
		t.Error("nil reader: no error")
	}
	// JSON syntax errors are located
	_, err := s.Prune([]byte("{\"apiVersion\":\"example.com/v1\",\n\"kind\":\"Widget\",\n  \"spec\":{\"a\":tru}}"))
	var de *jperrors.DecodeError
	if !errors.As(err, &de) || de.Line != 3 || de.Column != 18 || de.Offset != 66 {
		t.Errorf("syntax error: %#v", err)
	}
}

func TestNoSchema(t *testing.T) {
	s := widgetSchemas(t)
	cm := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","bogus":1},"data":{"a":"b"}}`
	cmYAML := "# a ConfigMap\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, bogus: 1}\ndata: {a: b}\n"
	for _, in := range []string{cm, cmYAML} {
		out, err := s.Prune([]byte(in), strict)
		if !errors.Is(err, jsonprune.ErrNoSchema) || out != nil {
			t.Errorf("Strict: %s, %v", out, err)
		}
		line := 1
		if in == cmYAML {
			line = 2
		}
		if want := fmt.Sprintf(`line %d: no CRD serves this kind: apiVersion "v1", kind "ConfigMap"`, line); err == nil || err.Error() != want {
			t.Errorf("Strict: %v, want %s", err, want)
		}
		if _, err := s.Validate([]byte(in), strict); !errors.Is(err, jsonprune.ErrNoSchema) {
			t.Errorf("Strict Validate: %v", err)
		}
		// Warn and Ignore: kept whole, metadata normalised, no error, no Entry
		for _, m := range []decoder.Mode{decoder.Warn, decoder.Ignore} {
			obj, err := s.Decode([]byte(in), decoder.FieldValidation(m))
			want := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"b"}}`
			if err != nil || obj.Entry != nil || string(obj.JSON) != want || obj.Kind != "ConfigMap" || obj.APIVersion != "v1" {
				t.Errorf("%v: %+v %v", m, obj, err)
			}
		}
	}
	// a served kind in another version has no schema either
	_, err := s.Prune([]byte(`{"apiVersion":"example.com/v2","kind":"Widget"}`), strict)
	if err == nil || err.Error() != `line 1: no CRD serves this kind: apiVersion "example.com/v2", kind "Widget"` {
		t.Errorf("v2: %v", err)
	}
	// the line is the value's, after blank lines
	_, err = s.Prune([]byte("\n\n  {\"apiVersion\":\"v1\",\"kind\":\"Pod\"}"), strict)
	if err == nil || err.Error() != `line 3: no CRD serves this kind: apiVersion "v1", kind "Pod"` {
		t.Errorf("Pod: %v", err)
	}
	obj, _ := s.Decode([]byte("\n\n  {\"apiVersion\":\"v1\",\"kind\":\"Pod\"}"))
	if obj.Line != 3 || obj.Column != 3 || obj.Offset != 4 || obj.Entry != nil || obj.Err != nil {
		t.Errorf("Pod: %+v", obj)
	}
	// a missing kind is the decoder's error, not ErrNoSchema
	_, err = s.Prune([]byte(`{"apiVersion":"v1"}`), strict)
	if err == nil || errors.Is(err, jsonprune.ErrNoSchema) {
		t.Errorf("no kind: %v", err)
	}
}

func TestDecode(t *testing.T) {
	s := widgetSchemas(t)
	obj, err := s.Decode(readFile(t, "examples/widget.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if obj.Index != 0 || obj.Line != 3 || obj.Column != 1 || obj.Offset != 116 || obj.APIVersion != "example.com/v1" || obj.Kind != "Widget" ||
		obj.Entry == nil || string(obj.JSON) != widgetPruned || located(obj.Findings) != widgetFindings || obj.Err != nil {
		t.Errorf("%+v", obj)
	}
	obj, err = s.Decode(readFile(t, "examples/widget.yaml"), strict)
	if err == nil || obj.Err != err || obj.JSON != nil || len(obj.Findings) != 7 {
		t.Errorf("strict: %+v", obj)
	}
}

func TestDecoderReuse(t *testing.T) {
	d := must(jsonprune.NewDecoder(widgetSchemas(t), decoder.Defaulting(false)))
	var buf []byte
	for i := 0; i < 3; i++ {
		doc := fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"replicas":%d,"x":1}}`, i)
		out, err := d.AppendPrune(buf[:0], []byte(doc))
		if want := fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"replicas":%d}}`, i); err != nil || string(out) != want {
			t.Fatalf("got %s, %v", out, err)
		}
		buf = out
		fs, err := d.Validate([]byte(doc))
		if err != nil || located(fs) != "1:69: unknown field \"spec.x\"\n" {
			t.Fatalf("%v %s", err, located(fs))
		}
	}
}

func TestDecoderOnExample(t *testing.T) {
	d := must(jsonprune.NewDecoder(widgetSchemas(t)))
	doc := readFile(t, "examples/widget.yaml")
	for i := 0; i < 2; i++ {
		out, err := d.Prune(doc)
		if err != nil || string(out) != widgetPruned {
			t.Fatalf("Prune: %s %v", out, err)
		}
		obj, err := d.Decode(doc)
		if err != nil || string(obj.JSON) != widgetPruned || located(obj.Findings) != widgetFindings || obj.Line != 3 {
			t.Fatalf("Decode: %+v", obj)
		}
	}
	d = must(jsonprune.NewDecoder(widgetSchemas(t), strict))
	fs, err := d.Validate(doc)
	var se *jperrors.StrictError
	if !errors.As(err, &se) || located(se.Findings) != widgetFindings || located(fs) != widgetFindings {
		t.Fatalf("Validate, Strict: %v", err)
	}
}

func TestStreamYAML(t *testing.T) {
	s := widgetSchemas(t)
	in := `# leading comment
apiVersion: example.com/v1
kind: Widget
metadata: {name: a}
spec: {foo: 1}
---
---
# the third document, second with content
apiVersion: v1
kind: ConfigMap
metadata: {name: b}
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: c
spec:
  replicas: 1
  bar: 2
  replicas: .inf
`
	st := must(jsonprune.NewStream(s, strings.NewReader(in), strict, decoder.Defaulting(false)))
	var got []string
	for {
		obj, err := st.Next()
		if err == io.EOF {
			break
		}
		if obj == nil {
			t.Fatal(err)
		}
		if obj.Err != err {
			t.Errorf("obj.Err %v, err %v", obj.Err, err)
		}
		got = append(got, fmt.Sprintf("#%d %d:%d@%d %s %s %s %v", obj.Index, obj.Line, obj.Column, obj.Offset, obj.APIVersion, obj.Kind, obj.JSON, err))
		for _, f := range obj.Findings {
			got = append(got, fmt.Sprintf("  %d:%d@%d %s", f.Line, f.Column, f.Offset, f.Message()))
		}
	}
	want := []string{
		`#0 2:1@18 example.com/v1 Widget  strict decoding error: unknown field "spec.foo"`,
		`  5:8@85 unknown field "spec.foo"`,
		`#1 9:1@143 v1 ConfigMap  line 9: no CRD serves this kind: apiVersion "v1", kind "ConfigMap"`,
		// a fatal error; the findings made before it are kept, as the decoder keeps them
		`#2 13:1@198 example.com/v1 Widget  json: unsupported value: +Inf (line 20, column 13, offset 299)`,
		`  20:3@289 duplicate field "spec.replicas"`,
		`  19:3@280 unknown field "spec.bar"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if i := strings.Index(in, ".inf"); i != 299 {
		t.Errorf(".inf is at %d", i)
	}
	if _, err := st.Next(); err != io.EOF {
		t.Errorf("after the end: %v", err)
	}
}

func TestStreamJSON(t *testing.T) {
	s := widgetSchemas(t)
	// values over several lines, concatenated (a stream whose first line
	// holds a whole value is read as JSON Lines: see TestStreamJSONLines)
	in := `{"apiVersion":"example.com/v1","kind":"Widget",
"spec":{"foo":1}}
{"apiVersion":"v1","kind":"ConfigMap",
  "x":1}  {"apiVersion":"example.com/v1","kind":"Widget",
"spec":{"replicas":2,"bar":2}}
{"apiVersion":"example.com/v1","kind":"Widget",
 "metadata":{"name":1}}
{"apiVersion":"example.com/v1","kind":"Widget","spec":{"a":tru}}
`
	st := must(jsonprune.NewStream(s, strings.NewReader(in), decoder.Defaulting(false)))
	var got []string
	for {
		obj, err := st.Next()
		if obj == nil {
			got = append(got, fmt.Sprintf("end: %v", err))
			if _, again := st.Next(); again != err {
				t.Errorf("again: %v", again)
			}
			break
		}
		got = append(got, fmt.Sprintf("#%d %d:%d@%d %s %s %s %v", obj.Index, obj.Line, obj.Column, obj.Offset, obj.APIVersion, obj.Kind, obj.JSON, err))
		for _, f := range obj.Findings {
			got = append(got, fmt.Sprintf("  %d:%d@%d %s", f.Line, f.Column, f.Offset, f.Message()))
		}
	}
	want := []string{
		`#0 1:1@0 example.com/v1 Widget {"apiVersion":"example.com/v1","kind":"Widget","spec":{}} <nil>`,
		`  2:9@56 unknown field "spec.foo"`,
		`#1 3:1@66 v1 ConfigMap {"apiVersion":"v1","kind":"ConfigMap","x":1} <nil>`,
		`#2 4:11@115 example.com/v1 Widget {"apiVersion":"example.com/v1","kind":"Widget","spec":{"replicas":2}} <nil>`,
		`  5:22@184 unknown field "spec.bar"`,
		// a document's fatal error: the stream goes on
		`#3 6:1@194 example.com/v1 Widget  json: cannot unmarshal number into Go struct field ObjectMeta.name of type string (line 7, column 13, offset 254, at /metadata)`,
		// so does a syntax error: it costs its document only (the findings
		// made before it are kept, as for any fatal error)
		`#4 8:1@266 example.com/v1 Widget  invalid JSON: invalid character '}' in literal true (expecting 'e') (line 8, column 63, offset 328, at /spec/a)`,
		`  8:56@321 unknown field "spec.a"`,
		`end: EOF`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := must(jsonprune.NewStream(s, strings.NewReader(" \n"))).Next(); err != jsonprune.ErrEmpty {
		t.Errorf("empty stream: %v", err)
	}
	if _, err := must(jsonprune.NewStream(s, strings.NewReader("# c\n---\n"))).Next(); err != jsonprune.ErrEmpty {
		t.Errorf("empty YAML stream: %v", err)
	}
}

// TestStreamConcatenated: documents concatenated with and without blanks
// between them, each decoded alone (what decoder.Stream's test checked
// before the library had one stream); a truncated last document is an
// error of its own and the stream ends after it.
func TestStreamConcatenated(t *testing.T) {
	const w = `"apiVersion":"example.com/v1","kind":"Widget"`
	in := `{` + w + `,"spec":{"zz":1}}` + "\n" + `{` + w + `,"metadata":{"name":5}}` + "\n\n  " + `{` + w + `}{` + w + `,"x":1}`
	st := must(jsonprune.NewStream(widgetSchemas(t), strings.NewReader(in), decoder.Defaulting(false)))
	var outs, errs []string
	var finds []int
	var last *jsonprune.Object
	for {
		obj, err := st.Next()
		if obj == nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
		last = obj
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		outs = append(outs, string(obj.JSON))
		finds = append(finds, len(obj.Findings))
	}
	if len(outs) != 3 || len(errs) != 1 || last.Index != 3 || finds[0] != 1 || finds[2] != 1 {
		t.Errorf("outs %q\nerrs %q\nlast %d finds %v", outs, errs, last.Index, finds)
	}
	if last.Offset != int64(strings.LastIndex(in, "{"+w)) {
		t.Errorf("offset %d", last.Offset)
	}
	st = must(jsonprune.NewStream(widgetSchemas(t), strings.NewReader(`{`+w+`} {"a":`)))
	if _, err := st.Next(); err != nil {
		t.Fatal(err)
	}
	if obj, err := st.Next(); obj == nil || err == nil || err != obj.Err {
		t.Errorf("truncated document: %v %v", obj, err)
	}
	if _, err := st.Next(); err != io.EOF {
		t.Errorf("after the truncated document: %v", err)
	}
}

// TestStreamLists: JSON Lines (a broken line costs that line only), and
// Lists, JSON and YAML, read item by item, each item by its own kind.
func TestStreamLists(t *testing.T) {
	s := widgetSchemas(t)
	for _, c := range []struct{ name, in, want string }{
		{"JSON Lines", `{"apiVersion":"example.com/v1","kind":"Widget","spec":{"x":1}}
{"apiVersion":"example.com/v1","kind":"Widget","spec":{"replicas":
{"apiVersion":"v1","kind":"ConfigMap"}
`, `#0.-1 1:1@0 Widget {"apiVersion":"example.com/v1","kind":"Widget","spec":{}} <nil>
  1:56@55 unknown field "spec.x"
#1.-1 2:1@63 Widget  invalid JSON: unexpected EOF (line 2, column 67, offset 129, at /spec/replicas)
#2.-1 3:1@130 ConfigMap {"apiVersion":"v1","kind":"ConfigMap"} <nil>
`},
		{"JSON List", `{"apiVersion":"v1","kind":"List","items":[
 {"apiVersion":"example.com/v1","kind":"Widget","spec":{"x":1}},
 {"apiVersion":"v1","kind":"ConfigMap","data":{}}]}
`, `#0.0 2:2@44 Widget {"apiVersion":"example.com/v1","kind":"Widget","spec":{}} <nil>
  2:57@99 unknown field "spec.x"
#0.1 3:2@109 ConfigMap {"apiVersion":"v1","kind":"ConfigMap","data":{}} <nil>
`},
		{"JSON List with a broken envelope", `{"kind":"List" "items":[{"apiVersion":"v1","kind":"ConfigMap"}],}
`, `#0.-1 1:1@0   the List's envelope: invalid JSON before the items (line 1, column 1, offset 0)
#0.0 1:25@24 ConfigMap {"apiVersion":"v1","kind":"ConfigMap"} <nil>
#0.-1 1:63@62   the List's envelope: invalid JSON after the items (line 1, column 63, offset 62)
`},
		{"YAML List", `apiVersion: v1
kind: List
items:
- apiVersion: example.com/v1
  kind: Widget
  spec: {x: 1}
- apiVersion: v1
  kind: ConfigMap
`, `#0.0 4:3@35 Widget {"apiVersion":"example.com/v1","kind":"Widget","spec":{}} <nil>
  6:10@86 unknown field "spec.x"
#0.1 7:3@94 ConfigMap {"apiVersion":"v1","kind":"ConfigMap"} <nil>
`},
	} {
		st := must(jsonprune.NewStream(s, strings.NewReader(c.in), decoder.Defaulting(false)))
		var got strings.Builder
		for {
			obj, err := st.Next()
			if obj == nil {
				if err != io.EOF {
					t.Errorf("%s: end: %v", c.name, err)
				}
				break
			}
			fmt.Fprintf(&got, "#%d.%d %d:%d@%d %s %s %v\n", obj.Index, obj.Item, obj.Line, obj.Column, obj.Offset, obj.Kind, obj.JSON, err)
			for _, f := range obj.Findings {
				fmt.Fprintf(&got, "  %d:%d@%d %s\n", f.Line, f.Column, f.Offset, f.Message())
			}
		}
		if got.String() != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got.String(), c.want)
		}
	}
}

// TestCorpusSameAsLowerLevel checks that the one-call path gives the bytes,
// findings and errors of the lower-level path (schemaauto, decoder,
// yamlbridge) on every custom resource of the shared corpus.
func TestCorpusSameAsLowerLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the corpus comparison is skipped")
	}
	const root = "../shared/corpus"
	index, err := os.ReadFile(filepath.Join(root, "index.json"))
	if err != nil {
		t.Skipf("the shared corpus is missing (%v): skipped", err)
	}
	var idx struct {
		CRs []struct{ File, CRD string }
	}
	if err := json.Unmarshal(index, &idx); err != nil {
		t.Fatal(err)
	}
	type pair struct {
		high *jsonprune.Schemas
		low  *schemaauto.Set
	}
	sets := map[string]pair{}
	n := 0
	for _, cr := range idx.CRs {
		p, ok := sets[cr.CRD]
		if !ok {
			data := readFile(t, filepath.Join(root, cr.CRD))
			crds, err := schemaauto.ParseCRDs(data)
			if err != nil {
				t.Fatalf("%s: %v", cr.CRD, err)
			}
			p.low, err = schemaauto.CompileCRDs(crds)
			if err != nil {
				t.Fatalf("%s: %v", cr.CRD, err)
			}
			if p.high, err = jsonprune.LoadCRDFiles(filepath.Join(root, cr.CRD)); err != nil {
				t.Fatalf("%s: %v", cr.CRD, err)
			}
			sets[cr.CRD] = p
		}
		doc := readFile(t, filepath.Join(root, cr.File))
		for _, mode := range []decoder.Mode{decoder.Warn, decoder.Strict} {
			// the lower-level path
			d := must(decoder.New(p.low, decoder.FieldValidation(mode)))
			ydoc, err := yamlbridge.Parse(doc)
			if err != nil {
				t.Fatalf("%s: %v", cr.File, err)
			}
			want, wantErr := d.AppendPruneSource(nil, ydoc.Source())
			wantFs := d.Result().Findings()
			for i := range wantFs {
				f := &wantFs[i]
				f.Line, f.Column = ydoc.Position(f.Offset)
				f.Offset += ydoc.Offset()
			}
			// the one call
			obj, err := p.high.Decode(doc, decoder.FieldValidation(mode))
			if !bytes.Equal(obj.JSON, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) || fmt.Sprint(obj.Findings) != fmt.Sprint(wantFs) {
				t.Errorf("%s (%v):\n one call: %s %v %v\n lower:    %s %v %v", cr.File, mode, obj.JSON, err, obj.Findings, want, wantErr, wantFs)
			}
			if mode == decoder.Warn {
				out, err := p.high.Prune(doc)
				if !bytes.Equal(out, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Errorf("%s: Prune differs", cr.File)
				}
				// the same document as JSON text
				js, err := yamlbridge.AppendJSON(nil, ydoc.Source())
				if err != nil {
					continue // a document the reference cannot convert either
				}
				want, wantErr := d.AppendPrune(nil, js)
				out, err = p.high.Prune(js)
				if !bytes.Equal(out, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Errorf("%s as JSON:\n one call: %s %v\n lower:    %s %v", cr.File, out, err, want, wantErr)
				}
			}
			n++
		}
	}
	t.Logf("%d documents (%d CRs × Warn, Strict), %d CRDs", n, len(idx.CRs), len(sets))
}

func TestSchemasConcurrent(t *testing.T) {
	s := widgetSchemas(t)
	doc := readFile(t, "examples/widget.yaml")
	done := make(chan error)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 20; i++ {
				out, err := s.Prune(doc)
				if err == nil && string(out) != widgetPruned {
					err = fmt.Errorf("got %s", out)
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// must returns v, panicking on err: for constructors whose options are
// known to be good.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
