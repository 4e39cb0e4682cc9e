package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/yaml11"
	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/yamlbridge"
	yaml "go.yaml.in/yaml/v3"
)

// FuzzJSONAndYAML checks that a document gives the same result whether it
// is sent as JSON or as YAML. The JSON document (any valid JSON text) is
// rendered as YAML with go.yaml.in/yaml/v3, every string and key
// double-quoted so that the YAML spells the same document; the YAML is read
// back the Kubernetes way (internal/yaml11) and marshalled to JSON, as the
// API server's YAML path does; both are decoded against the fixture's
// schemas. The kept object must be the same, with the same unknown fields,
// and the JSON document has duplicate-field findings exactly when the YAML
// one has duplicate keys. Numbers are compared by value: YAML turns an
// integral float such as 1.0 into an integer (sigs.k8s.io/yaml's
// YAMLToJSON marshals go-yaml v2's float64 1 as 1, which
// sigs.k8s.io/json's PreserveInts decoding reads back as int64).
//
// Input that is not JSON is used to generate a Widget document.
//
// Documents whose spellings differ in the reference too are skipped:
// numbers beyond float64 (fatal in JSON, strings in YAML), and root names
// that equal apiVersion or kind only ignoring case (the YAML path sorts the
// keys, which changes the case-insensitive pre-scan's last occurrence).
func FuzzJSONAndYAML(f *testing.F) {
	fx := mustFixture(f)
	for _, d := range widgetDocs {
		f.Add([]byte(d))
	}
	for _, d := range kepWidgetDocs() {
		f.Add([]byte(d))
	}
	for _, d := range exampleDocs(f) {
		f.Add(d)
	}
	for _, d := range corpusCRs(f, fx, 3, 10) {
		f.Add(d)
	}
	for _, s := range []string{`{` + widgetTM + `,"spec":{"ratio":1.0,"replicas":-0.0,"name":"y","list":[{"x":"on"}],"labelsLike":{"y":"n","<<":"m"}}}`,
		`{` + widgetTM + `,"spec":{"name":"\u0085\u2028\u2029\ufeff\t\r\n #:-? ","ключ":"~"}}`, `null`, `"str"`, `[]`} {
		f.Add([]byte(s))
	}
	set := fx.set
	widget := widgetAutomaton(f)
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !jsontext.Value(doc).IsValid(jsontext.AllowDuplicateNames(true)) {
			// not JSON: the bytes generate a Widget
			doc = genFromAutomaton(&byteSource{b: doc}, widget, `"example.com/v1"`, `"Widget"`)
		}
		tree, err := parseTree(doc)
		if err != nil {
			t.Fatalf("valid JSON does not parse: %v", err)
		}
		if !tree.finiteNumbers() || caseVariantTypeMeta(tree) {
			return
		}
		y, err := renderYAML(tree)
		if err != nil {
			t.Fatalf("rendering as YAML: %v", err)
		}
		values, err := yaml11.Decode(y, yaml11.Options{})
		var dupErr *yaml11.DuplicateKeysError
		if err != nil && !errors.As(err, &dupErr) {
			t.Fatalf("the YAML spelling does not decode: %v\nJSON: %s\nYAML:\n%s", err, doc, y)
		}
		if len(values) != 1 {
			t.Fatalf("the YAML spelling has %d documents\nYAML:\n%s", len(values), y)
		}
		if !equalValues(values[0], tree.toAny(), true) {
			t.Fatalf("the YAML spelling is another value:\nJSON: %s\nYAML:\n%s\nvalue: %#v", doc, y, values[0])
		}
		fromYAML, err := json.Marshal(values[0])
		if err != nil {
			t.Fatal(err)
		}

		dj := must(decoder.New(set))
		mj, errJ := dj.DecodeMap(doc)
		fj := dj.Result().Findings()
		checkBridge(t, set, doc, y, mj, errJ, fj, tree)
		dy := must(decoder.New(set))
		my, errY := dy.DecodeMap(fromYAML)
		fy := dy.Result().Findings()
		if tolerateDupFatal && errY != nil {
			if _, dup := tree.duplicate(""); dup {
				return // TestRegressionDuplicateDropsLaterFatal
			}
		}
		if (errJ == nil) != (errY == nil) {
			t.Fatalf("JSON: %v\nYAML: %v\nJSON text: %s\nfrom YAML: %s", errJ, errY, doc, fromYAML)
		}
		if errJ != nil {
			if a, b := fatalText(errJ), fatalText(errY); a != b && !tree.integralFloats() {
				t.Fatalf("different errors:\nJSON: %s\nYAML: %s", a, b)
			}
			return
		}
		if !equalValues(any(mj), any(my), true) {
			t.Fatalf("different objects:\nJSON: %v\nYAML: %v\ndocument: %s", mj, my, doc)
		}
		jdups := false
		var ju, yu []string
		for _, f := range fj {
			if f.Type == jperrors.DuplicateField {
				jdups = true
				continue
			}
			ju = append(ju, f.Path)
		}
		for _, f := range fy {
			if f.Type == jperrors.DuplicateField {
				t.Fatalf("duplicate in marshalled JSON: %v", f)
			}
			yu = append(yu, f.Path)
		}
		if strings.Join(ju, "\n") != strings.Join(yu, "\n") {
			t.Fatalf("different unknown fields:\nJSON: %q\nYAML: %q\ndocument: %s", ju, yu, doc)
		}
		if ydups := dupErr != nil && realDuplicates(dupErr); jdups != ydups {
			t.Fatalf("JSON duplicates %v, YAML duplicate keys %v (%v)\ndocument: %s", jdups, ydups, dupErr, doc)
		}
	})
}

// checkBridge decodes the YAML spelling y of the JSON document doc through
// the YAML bridge (the decoder reading YAML nodes as tokens) and checks that
// it gives what doc gives: the same object (numbers by value), the same
// findings (type, path and message, in the same order, duplicates
// included) and the same fatal error text.
func checkBridge(t *testing.T, set *schemaauto.Set, doc, y []byte, mj map[string]any, errJ error, fj []jperrors.Finding, tree *jvalue) {
	t.Helper()
	ydoc, err := yamlbridge.Parse(y)
	if err != nil {
		t.Fatalf("the bridge cannot read the YAML spelling: %v\nYAML:\n%s", err, y)
	}
	d := must(decoder.New(set))
	m, errY := d.DecodeMapSource(ydoc.Source())
	if (errJ == nil) != (errY == nil) {
		t.Fatalf("bridge:\nJSON: %v\nYAML: %v\nJSON text: %s\nYAML:\n%s", errJ, errY, doc, y)
	}
	if errJ != nil {
		if a, b := fatalText(errJ), fatalText(errY); a != b && !tree.integralFloats() {
			t.Fatalf("bridge: different errors:\nJSON: %s\nYAML: %s\nJSON text: %s", a, b, doc)
		}
		return
	}
	if !equalValues(any(mj), any(m), true) {
		t.Fatalf("bridge: different objects:\nJSON: %v\nYAML: %v\ndocument: %s", mj, m, doc)
	}
	fy := d.Result().Findings()
	text := func(fs []jperrors.Finding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Type.String()+" "+f.Path+" "+f.Message())
		}
		return out
	}
	if a, b := text(fj), text(fy); strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatalf("bridge: different findings:\nJSON: %q\nYAML: %q\ndocument: %s", a, b, doc)
	}
}

// realDuplicates reports whether a YAML duplicate-key error lists a key
// written twice (not two keys made equal by conversion).
func realDuplicates(e *yaml11.DuplicateKeysError) bool {
	for _, d := range e.Duplicates {
		if !d.Converted {
			return true
		}
	}
	return false
}

// fatalText is a fatal error's message, without the document that "Object
// 'Kind' is missing in '...'" quotes.
func fatalText(err error) string {
	var de *jperrors.DecodeError
	if !errors.As(err, &de) {
		return err.Error()
	}
	if i := strings.Index(de.Msg, "Object 'Kind' is missing in"); i >= 0 {
		return de.Msg[:i+len("Object 'Kind' is missing in")]
	}
	return de.Msg
}

// caseVariantTypeMeta reports a root member named apiVersion or kind in
// another case.
func caseVariantTypeMeta(v *jvalue) bool {
	if v.kind != '{' {
		return false
	}
	for _, n := range v.names {
		if (strings.EqualFold(n, "apiVersion") && n != "apiVersion") || (strings.EqualFold(n, "kind") && n != "kind") {
			return true
		}
	}
	return false
}

// renderYAML spells the JSON value as YAML: block style near the root, flow
// style below (so that deep documents stay small), strings and keys
// double-quoted, numbers and literals plain.
func renderYAML(v *jvalue) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(yamlNode(v, 0)); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func yamlNode(v *jvalue, depth int) *yaml.Node {
	var style yaml.Style
	if depth > 8 {
		style = yaml.FlowStyle
	}
	switch v.kind {
	case '{':
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: style}
		for i, name := range v.names {
			n.Content = append(n.Content,
				&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: name},
				yamlNode(v.values[i], depth+1))
		}
		return n
	case '[':
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: style}
		for _, e := range v.values {
			n.Content = append(n.Content, yamlNode(e, depth+1))
		}
		return n
	case '"':
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: v.str}
	case 'n':
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case 't', 'f':
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: string(v.raw)}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Value: string(v.raw)}
}
