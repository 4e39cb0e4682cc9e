package yamlbridge

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	yaml "go.yaml.in/yaml/v3"
)

// TestStream reads a stream with empty, comments-only and null documents, and checks each
// document's index, text and the stream positions of its findings.
func TestStream(t *testing.T) {
	src := "# leading comment\n" + head + "spec: {bogus: 1}\n" + // document 0, lines 1-5
		"---\n" + // 1: empty
		"--- # just a comment\n# and another\n" + // 2: comments only
		"---\n" + head + "spec:\n  other: 2\n...\n" + // 3, lines 9-15
		"--- ~\n" + // 4: null
		"---\n- a\n" // 5
	r := NewReader([]byte(src))
	set := widgetSet()
	type want struct {
		index, line int
		text        string
		result      string
		position    string // of the first finding or of the error, in the stream
	}
	wants := []want{
		{0, 1, "# leading comment\n" + head + "spec: {bogus: 1}\n", `unknown field "spec.bogus"`, "5:8"},
		{3, 9, "---\n" + head + "spec:\n  other: 2\n...\n", `unknown field "spec.other"`, "14:3"},
		{4, 16, "--- ~\n", "Object 'Kind' is missing in '--- ~\n'", "16:1"},
		{5, 17, "---\n- a\n", "couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }", "17:1"},
	}
	for _, w := range wants {
		doc, err := r.Next()
		if err != nil {
			t.Fatalf("document %d: %v", w.index, err)
		}
		if doc.Index != w.index || doc.Line() != w.line || string(doc.Text()) != w.text {
			t.Errorf("document %d: index %d, line %d, text %q", w.index, doc.Index, doc.Line(), doc.Text())
		}
		if string(src[doc.Offset():int(doc.Offset())+len(doc.Text())]) != w.text {
			t.Errorf("document %d: offset %d", w.index, doc.Offset())
		}
		d := must(decoder.New(set))
		_, err = d.AppendPruneSource(nil, doc.Source())
		var result string
		var off int64
		if err != nil {
			de := err.(*jperrors.DecodeError)
			result, off = de.Msg, de.Offset
		} else {
			f := d.Result().Findings()[0]
			result, off = f.Message(), f.Offset
		}
		line, col := doc.Position(off)
		if result != w.result || located("", line, col) != " @"+w.position {
			t.Errorf("document %d: %s at %d:%d, want %s at %s", w.index, result, line, col, w.result, w.position)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the last document: %v", err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("again: %v", err)
	}
}

// TestStreamSyntaxError: the documents before a syntax error are read; the error says where, and
// ends the stream.
func TestStreamSyntaxError(t *testing.T) {
	r := NewReader([]byte("a: 1\n---\nb: 2\n---\nc: [\n"))
	for i := 0; i < 2; i++ {
		if _, err := r.Next(); err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
	}
	_, err := r.Next()
	var de *jperrors.DecodeError
	if !errors.As(err, &de) || de.Msg != "yaml: line 5: did not find expected node content" || de.Line != 5 || de.Offset != 18 {
		t.Fatalf("got %#v", err)
	}
	if _, err2 := r.Next(); err2 != err {
		t.Errorf("the error is not sticky: %v", err2)
	}
	for _, tt := range []struct{ src, msg string }{
		{"a: 1\nb: \xff\n", "yaml: invalid leading UTF-8 octet"},
		{"a: *nope\n", "yaml: unknown anchor 'nope' referenced"},
		{"a: b: c\n", "yaml: mapping values are not allowed in this context"},
	} {
		_, err := Parse([]byte(tt.src))
		if !errors.As(err, &de) || !strings.Contains(de.Msg, tt.msg) {
			t.Errorf("%q: got %v, want %q", tt.src, err, tt.msg)
		}
	}
	if _, err := Parse([]byte("# nothing\n---\n")); err != io.EOF {
		t.Errorf("a stream without content: %v", err)
	}
}

// TestList: the items of a List are sources of their own; RewriteItems writes the List back with
// each item pruned.
func TestList(t *testing.T) {
	src := `apiVersion: v1
kind: List
items: # two widgets
- apiVersion: example.com/v1
  kind: Widget
  metadata: {name: a}
  spec: {replicas: 1, bogus: 1}
- &w2
  apiVersion: example.com/v1
  kind: Widget
  metadata: {name: b}
  spec: {name: n}
`
	doc, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !doc.IsList() {
		t.Fatal("not a List")
	}
	items := doc.Items()
	if len(items) != 2 {
		t.Fatalf("%d items", len(items))
	}
	d := must(decoder.New(widgetSet()))
	var pruned [][]byte
	var findings []string
	for _, it := range items {
		out, err := d.AppendPruneSource(nil, it)
		if err != nil {
			t.Fatal(err)
		}
		pruned = append(pruned, out)
		for _, f := range d.Result().Findings() {
			line, col := doc.Position(f.Offset)
			findings = append(findings, located(f.Message(), line, col))
		}
	}
	if want := []string{`unknown field "spec.bogus" @7:23`}; strings.Join(findings, "|") != strings.Join(want, "|") {
		t.Errorf("findings %q", findings)
	}
	n, err := doc.RewriteItems(pruned)
	if err != nil {
		t.Fatal(err)
	}
	out, err := AppendNode(nil, n)
	if err != nil {
		t.Fatal(err)
	}
	want := `apiVersion: v1
kind: List
items: # two widgets
- apiVersion: example.com/v1
  kind: Widget
  metadata: {name: a}
  spec: {replicas: 1, defaulted: dflt, nullableDefaulted: nd}
- &w2
  apiVersion: example.com/v1
  kind: Widget
  metadata: {name: b}
  spec: {name: n, defaulted: dflt, nullableDefaulted: nd}
`
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	if _, err := doc.RewriteItems(pruned[:1]); err == nil {
		t.Error("RewriteItems accepted a short list")
	}
	for _, notList := range []string{head, "kind: List\nitems: {}\n", "kind: List\n", "- a\n", "kind: ThingList\nitems: ~\n"} {
		doc, err := Parse([]byte(notList))
		if err != nil {
			t.Fatal(err)
		}
		if doc.IsList() || doc.Items() != nil {
			t.Errorf("%q is a List", notList)
		}
		if _, err := doc.RewriteItems(nil); err == nil {
			t.Errorf("%q: RewriteItems works", notList)
		}
	}
	// kubectl's rule: any kind with an items sequence
	for _, list := range []string{"kind: WidgetList\nitems: [{a: 1}]\n", "items: []\n"} {
		doc, err := Parse([]byte(list))
		if err != nil {
			t.Fatal(err)
		}
		if !doc.IsList() {
			t.Errorf("%q is not a list", list)
		}
	}
	// kind and items through merge keys and aliases
	doc, err = Parse([]byte("base: &b {kind: List}\nis: &is [1, 2]\n<<: *b\nitems: *is\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Items()) != 2 {
		t.Error("a List through a merge key and an alias is not seen")
	}
}

// TestTypeMeta: the root's apiVersion and kind as the decoder's pre-scan finds them in JSON.
func TestTypeMeta(t *testing.T) {
	tests := []struct {
		src, av, kind               string
		hasAV, hasKind, obj, avNull bool
	}{
		{"apiVersion: v1\nkind: K\n", "v1", "K", true, true, true, false},
		{"kind: A\nkind: B\n", "", "B", false, true, true, false},
		{"kind: A\nkind: ''\n", "", "", false, false, true, false},
		{"kind: A\nkind: 1\n", "", "", false, false, true, false},
		{"apiVersion: a\napiVersion: ~\n", "", "", false, false, true, true},
		{"apiVersion: ~\napiVersion: a\n", "a", "", true, false, true, false},
		{"v: &v null\napiVersion: *v\n", "", "", false, false, true, true},
		{"apiVersion: 'null'\n", "null", "", true, false, true, false},
		{"apiVersion: 1\n", "", "", false, false, true, false},
		{"\"apiVersion\": x\n'kind': z\n", "x", "z", true, true, true, false},
		{"Kind: K\nAPIVERSION: v\n", "", "", false, false, true, false},
		{"b: &b {kind: Merged, apiVersion: m/v1}\n<<: *b\n", "m/v1", "Merged", true, true, true, false},
		{"kind: Explicit\n<<: {kind: Merged}\n", "", "Merged", false, true, true, false},
		{"<<: [{kind: First}, {kind: Second}]\n", "", "First", false, true, true, false},
		{"k: &k kind\n*k : Aliased\n", "", "Aliased", false, true, true, false},
		{"v: &v V\nkind: *v\n", "", "V", false, true, true, false},
		{"kind: !!str 12\n", "", "12", false, true, true, false},
		{"kind: yes\n", "", "", false, false, true, false},
		{"- kind: K\n", "", "", false, false, false, false},
		{"--- ~\n", "", "", false, false, false, false},
		{"--- &r {kind: K}\n", "", "K", false, true, true, false},
	}
	for _, tt := range tests {
		doc, err := Parse([]byte(tt.src))
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		tm := doc.Source().TypeMeta()
		if string(tm.APIVersion) != tt.av || string(tm.Kind) != tt.kind || tm.HasAPIVersion != tt.hasAV || tm.HasKind != tt.hasKind || tm.IsObject != tt.obj || tm.APIVersionNull != tt.avNull {
			t.Errorf("%q: got %+v", tt.src, tm)
		}
	}
}

// TestTokens reads a document token by token.
func TestTokens(t *testing.T) {
	doc, err := Parse([]byte("a: [1, 2.5, x, true, false, ~, 18446744073709551615]\nb: {c: d}\n"))
	if err != nil {
		t.Fatal(err)
	}
	src := doc.Source()
	var got []string
	for {
		tok, err := src.ReadToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, tok.String())
	}
	want := "{ a [ 1 2.5 x true false null 18446744073709551615 ] b { c d } }"
	if strings.Join(got, " ") != want {
		t.Errorf("tokens %q", strings.Join(got, " "))
	}
	if k := src.PeekKind(); k != 0 {
		t.Errorf("PeekKind at the end: %v", k)
	}
	// ReadValue of a whole value, and offsets
	src = doc.Source()
	if k := src.PeekKind(); k != '{' {
		t.Fatalf("first kind %v", k)
	}
	src.ReadToken()
	name, _ := src.ReadValue()
	if string(name) != `"a"` || src.LastOffset() != 0 || src.InputOffset() != 3 {
		t.Errorf("name %s at %d, next at %d", name, src.LastOffset(), src.InputOffset())
	}
	v, err := src.ReadValue()
	if err != nil || string(v) != `[1,2.5,"x",true,false,null,18446744073709551615]` {
		t.Errorf("array %s %v", v, err)
	}
	src.ReadValue()
	v, err = src.ReadValue()
	if err != nil || string(v) != `{"c":"d"}` || !jsontext.Value(v).IsValid() {
		t.Errorf("object %s %v", v, err)
	}
	if _, err := src.ReadValue(); err == nil {
		t.Error("ReadValue at '}' works")
	}
	if string(src.Document()) != string(doc.Text()) || src.Node() != doc.Node {
		t.Error("Document or Node")
	}
}

// TestNewSource reads a node the caller parsed.
func TestNewSource(t *testing.T) {
	text := []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {é: 1}\n")
	var n yaml.Node
	if err := yaml.Unmarshal(text, &n); err != nil {
		t.Fatal(err)
	}
	d := must(decoder.New(widgetSet()))
	if err := d.ValidateSource(NewSource(&n, text, decoder.MaxDepth(3))); err != nil {
		t.Fatal(err)
	}
	f := d.Result().Findings()
	if len(f) != 1 || f[0].Line != 4 || f[0].Column != 8 {
		t.Errorf("findings %v", f)
	}
	// the depth limit applies
	err := d.ValidateSource(NewSource(&n, text, decoder.MaxDepth(1)))
	if err == nil || !strings.Contains(err.Error(), "exceeded max depth of 1") {
		t.Errorf("depth: %v", err)
	}
}

// TestAppendJSON writes documents as JSON, without a schema.
func TestAppendJSON(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a: 1\nb: [x, {c: ~}]\n", `{"a":1,"b":["x",{"c":null}]}`},
		{"a: 1\nb: 2\na: 3\n", `{"b":2,"a":3}`},
		{"b: &b {x: 1, z: 2}\nc:\n  <<: *b\n  x: 3\n", `{"b":{"x":1,"z":2},"c":{"z":2,"x":3}}`},
		{"--- 1.0\n", `1`},
		{"[]\n", `[]`},
	}
	for _, tt := range tests {
		doc, err := Parse([]byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		got, err := AppendJSON([]byte("x"), doc.Source())
		if err != nil || string(got) != "x"+tt.want {
			t.Errorf("%q: got %s, %v", tt.src, got, err)
		}
	}
	doc, _ := Parse([]byte("a: .inf\n"))
	if got, err := AppendJSON([]byte("x"), doc.Source()); err == nil || string(got) != "x" {
		t.Errorf("non-finite: %s %v", got, err)
	}
}
