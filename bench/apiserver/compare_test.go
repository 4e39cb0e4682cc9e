package apiserver

import (
	"encoding/json"
	"strings"
	"testing"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

func TestDiff(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want string // "" or a prefix of the difference
	}{
		{`{"a":1,"b":[1.0,"x"]}`, `{"b":[1,"x"],"a":1}`, ""},
		{`{"a":1e3}`, `{"a":1000}`, ""},
		{`{"a":1}`, `{"a":2}`, ".a: server 1, jsonprune 2"},
		{`{"a":1}`, `{}`, ".a: server 1, jsonprune has no member"},
		{`{}`, `{"a":null}`, ".a: server has no member"},
		{`{"a":[1]}`, `{"a":[1,1]}`, ".a: server [1]"},
		{`{"a":"1"}`, `{"a":1}`, `.a: server "1", jsonprune 1`},
	} {
		got := diff("", reparse([]byte(c.a)), reparse([]byte(c.b)))
		if c.want == "" && got != "" || c.want != "" && !strings.HasPrefix(got, c.want) {
			t.Errorf("diff(%s, %s) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}

func TestSummarizeData(t *testing.T) {
	if got := summarizeData([]byte(`{"apiVersion":5,"kind":"ReferenceGrant"}`), 30); got != `{"apiVersion":5,"kind":"Refere ...` {
		t.Errorf("JSON: %q", got)
	}
	if got := summarizeData([]byte("---\n{}"), 30); got != "2d2d2d0a7b7d" {
		t.Errorf("YAML: %q", got)
	}
	if got := summarizeData(nil, 30); got != "<empty>" {
		t.Errorf("empty: %q", got)
	}
}

func TestLumped(t *testing.T) {
	fs := []jperrors.Finding{
		{Type: jperrors.DuplicateField, Path: "kind", Pointer: "/kind", Line: 2},
		{Type: jperrors.DuplicateField, Path: "spec.a/b", Pointer: "/spec/a~1b", Line: 7},
		{Type: jperrors.UnknownField, Path: "spec.x", Pointer: "/spec/x", Line: 9},
	}
	want := "yaml: unmarshal errors:\n  line 2: key \"kind\" already set in map\n  line 7: key \"a/b\" already set in map, unknown field \"spec.x\""
	if got := lumpedStrict(fs); got != want {
		t.Errorf("lumpedStrict = %q, want %q", got, want)
	}
	if got := lumped(fs); len(got) != 3 || got[1] != `line 7: key "a/b" already set in map` || got[2] != `unknown field "spec.x"` {
		t.Errorf("lumped = %q", got)
	}
}

func TestRecorderHeaders(t *testing.T) {
	// de-duplicated and escaped as the server's recorder does
	got := recorderHeaders([]string{`unknown field "a"`, `unknown field "a"`, `duplicate field "b"`})
	want := []string{`299 - "unknown field \"a\""`, `299 - "duplicate field \"b\""`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("recorderHeaders = %q, want %q", got, want)
	}
}

func TestNormalizeJSONPrune(t *testing.T) {
	v := reparse([]byte(`{"apiVersion":"g/v1","kind":"K","metadata":{"name":"n","uid":"x","selfLink":"/s",
		"ownerReferences":[{"uid":"u","name":"a"},{"uid":"u","name":"b"},{"uid":"w"}]},"status":{"s":1}}`))
	NormalizeJSONPrune(v, &Case{Namespace: "ns"}, true)
	b, _ := json.Marshal(v)
	want := `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"n","namespace":"ns","ownerReferences":[{"name":"a","uid":"u"},{"uid":"w"}]}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestTypeMetaError(t *testing.T) {
	for msg, want := range map[string]bool{
		"couldn't get version/kind; json parse error: x":                                                  true,
		"unexpected GroupVersion string: a/b/c":                                                           true,
		"Object 'Kind' is missing in '{}'":                                                                true,
		"yaml: line 2: found invalid Unicode":                                                             true,
		"json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64": false,
	} {
		if typeMetaError(msg) != want {
			t.Errorf("typeMetaError(%q) = %v", msg, !want)
		}
	}
}
