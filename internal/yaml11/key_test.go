package yaml11

import (
	"errors"
	"reflect"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// keyNode parses "text: v" and returns the key node.
func keyNode(t testing.TB, text string) *yaml.Node {
	t.Helper()
	doc := parse(t, text+": v\n")
	return doc.Content[0].Content[0]
}

// TestKeyStringReference covers the key conversion of sigs.k8s.io/yaml's convertToJSONableObject
// and the YAML 1.1 boolean keys of go-yaml v2's resolve (go.yaml.in/yaml/v2, resolve.go).
func TestKeyStringReference(t *testing.T) {
	tests := []struct{ key, want string }{
		// ints with Itoa
		{"1", "1"}, {"0x1", "1"}, {"-7", "-7"}, {"0777", "511"}, {"0b11", "3"}, {"1_000", "1000"},
		// floats at float32 precision, 'g' format
		{"16777217.0", "1.6777216e+07"}, {"1.10", "1.1"}, {"1e3", "1000"},
		{"100000000000000000000", "1e+20"}, {"0.1", "0.1"}, {"1.0", "1"}, {"2.5", "2.5"},
		{"1.0000001", "1.0000001"}, {"1.00000001", "1"}, {".inf", ".inf"}, {"-.Inf", "-.inf"}, {".NaN", ".nan"},
		// bools, including the YAML 1.1 spellings of go-yaml v2's resolve
		{"y", "true"}, {"Y", "true"}, {"yes", "true"}, {"on", "true"}, {"true", "true"},
		{"n", "false"}, {"no", "false"}, {"off", "false"}, {"false", "false"}, {"OFF", "false"},
		// strings as they are
		{"replicas", "replicas"}, {`"y"`, "y"}, {"'1'", "1"}, {"1e400", "1e400"}, {"2001-12-14", "2001-12-14"},
		{"!!str on", "on"}, {"!!binary aGVsbG8=", "hello"}, {"<<x", "<<x"}, {"é", "é"},
	}
	for _, tt := range tests {
		got, err := KeyString(keyNode(t, tt.key))
		if err != nil || got != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.key, got, err, tt.want)
		}
	}
}

func TestKeyStringErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"~: a", "unsupported map key of type: %!s(<nil>), key: <nil>"},
		{"null: a", "unsupported map key of type: %!s(<nil>), key: <nil>"},
		{"18446744073709551615: a", "unsupported map key of type: uint64, key: 0xffffffffffffffff"},
		{"? {a: 1}\n: x", `yaml: invalid map key: map[interface {}]interface {}{"a":1}`},
		{"? [1, yes]\n: x", `yaml: invalid map key: []interface {}{1, true}`},
		{"!!int x: a", "yaml: cannot decode !!str `x` as a !!int"},
	}
	for _, tt := range tests {
		doc := parse(t, tt.src+"\n")
		_, err := KeyString(doc.Content[0].Content[0])
		var e *Error
		if !errors.As(err, &e) || err.Error() != tt.want {
			t.Errorf("%q: got %v, want %q", tt.src, err, tt.want)
		}
	}
	if _, err := KeyString(nil); err == nil {
		t.Error("nil key accepted")
	}
}

func TestKeyStringAlias(t *testing.T) {
	doc := parse(t, "a: &k on\n*k : 1\n")
	got, err := KeyString(doc.Content[0].Content[2])
	if err != nil || got != "true" {
		t.Fatalf("got %q, %v", got, err)
	}
}

// TestKeyGotcha: go-yaml v2's resolve (go.yaml.in/yaml/v2, resolve.go), which sigs.k8s.io/yaml
// uses, makes the plain keys y, n, on... booleans.
func TestKeyGotcha(t *testing.T) {
	v, err := ToValue(parse(t, "properties:\n  y: {type: string}\n  n: {type: integer}\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"properties": map[string]any{
		"true":  map[string]any{"type": "string"},
		"false": map[string]any{"type": "integer"},
	}}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("got %#v", v)
	}

	// S42: y and on together are a duplicate, reported on the line of the later key.
	src := "spec:\n  properties:\n    y: {type: string}\n    on: {type: integer}\n"
	v, err = ToValue(parse(t, src), Options{})
	var de *DuplicateKeysError
	if !errors.As(err, &de) {
		t.Fatalf("got %v", err)
	}
	if got := err.Error(); got != "yaml: unmarshal errors:\n  line 4: key true already set in map" {
		t.Errorf("error %q", got)
	}
	d := de.Duplicates[0]
	if d.Key != "true" || !reflect.DeepEqual(d.Path, []string{"spec", "properties"}) || d.Converted || d.Line != 4 || d.Column != 9 {
		t.Errorf("duplicate %+v", d)
	}
	props := v.(map[string]any)["spec"].(map[string]any)["properties"].(map[string]any)
	if !reflect.DeepEqual(props, map[string]any{"true": map[string]any{"type": "integer"}}) {
		t.Errorf("last value should win: %#v", props)
	}
}
