package yaml11

import (
	"errors"
	"reflect"
	"testing"
)

func TestDecodeStreams(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []any
	}{
		{"empty input", "", nil},
		{"comments only", "# a comment\n\n# another\n", nil},
		{"empty documents give no value", "---\n---\n# note\n---\n", nil},
		{"explicit nulls do", "--- ~\n--- null\n--- !!null\n---\n", []any{nil, nil, nil}},
		{"three documents", "a: 1\n---\nb: yes\n---\n- 1.0\n", []any{
			map[string]any{"a": int64(1)}, map[string]any{"b": true}, []any{int64(1)},
		}},
		{"empty ones skipped between", "a: 1\n---\n# only\n---\nb: 2\n...\n", []any{
			map[string]any{"a": int64(1)}, map[string]any{"b": int64(2)},
		}},
		{"scalar documents", "--- 1\n--- on\n--- '1'\n", []any{int64(1), true, "1"}},
		{"empty string document is a value", "--- ''\n", []any{""}},
		{"CRLF", "a: 1\r\nb:\r\n  - x\r\n", []any{map[string]any{"a": int64(1), "b": []any{"x"}}}},
		{"BOM", "\ufeffa: 1\n", []any{map[string]any{"a": int64(1)}}},
		// go-yaml v2 keeps the non-specific tag "!" and makes the scalar a string; the v3 Node API
		// drops it, Decode finds it in the text.
		{"non-specific tag", "- \"12\"\n- 12\n- ! 12\n- &a ! yes\n- ! &b 3\n- [! 1, !  2]\n- ! <<\n", []any{
			[]any{"12", int64(12), "12", "yes", "3", []any{"1", "2"}, "<<"},
		}},
		{"non-specific tag on a merge key, plain or quoted: still a merge", "a: {x: 1}\n! <<: {x: 2}\n! '<<': {z: 3}\n", []any{
			map[string]any{"a": map[string]any{"x": int64(1)}, "x": int64(2), "z": int64(3)},
		}},
		{"non-specific tag on an empty document", "--- !\n", []any{""}},
		{"non-specific tag after multi-byte characters", "- é: ! 1\n  ü: 1\n", []any{
			[]any{map[string]any{"é": "1", "ü": int64(1)}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode([]byte(tt.src), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestDecodeDuplicatesAcrossDocuments(t *testing.T) {
	src := "a: 1\na: 2\n---\n---\nb:\n  c: 1\n  c: 2\n"
	got, err := Decode([]byte(src), Options{})
	want := []any{map[string]any{"a": int64(2)}, map[string]any{"b": map[string]any{"c": int64(2)}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v", got)
	}
	var de *DuplicateKeysError
	if !errors.As(err, &de) || len(de.Duplicates) != 2 {
		t.Fatalf("got %v", err)
	}
	if d := de.Duplicates[0]; d.Document != 0 || d.Line != 2 {
		t.Errorf("first %+v", d)
	}
	if d := de.Duplicates[1]; d.Document != 2 || d.Line != 7 || !reflect.DeepEqual(d.Path, []string{"b"}) {
		t.Errorf("second %+v", d)
	}
	if err.Error() != "yaml: unmarshal errors:\n  line 2: key \"a\" already set in map\n  line 7: key \"c\" already set in map" {
		t.Errorf("text %q", err.Error())
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
		line            int
		values          int
	}{
		{"invalid UTF-8", "a: 1\nb: \xff\n", "yaml: invalid leading UTF-8 octet", 2, 0},
		{"invalid UTF-8 continuation", "a: \xc3\x28\n", "yaml: invalid trailing UTF-8 octet", 1, 0},
		{"syntax error with its line", "a: 1\nb: 2\n\nc: @x\n", "yaml: line 4: found character that cannot start any token", 4, 0},
		{"unknown anchor", "a: *nope\n", "yaml: unknown anchor 'nope' referenced", 0, 0},
		{"a later document's error keeps the earlier values", "a: 1\n---\nb: [\n", "yaml: line 3: did not find expected node content", 3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode([]byte(tt.src), Options{})
			var se *SyntaxError
			if !errors.As(err, &se) || err.Error() != tt.want || se.Line != tt.line {
				t.Fatalf("got %v (%+v), want %q at line %d", err, se, tt.want, tt.line)
			}
			if len(got) != tt.values {
				t.Errorf("%d values", len(got))
			}
		})
	}

	// A conversion error stops the stream too, and comes alone: an error that is a
	// *DuplicateKeysError means that every document was decoded.
	for _, src := range []string{"a: 1\na: 2\n---\nb: .inf\n---\nc: 1\n", "a: 1\na: 2\n---\nb: [\n"} {
		got, err := Decode([]byte(src), Options{})
		var de *DuplicateKeysError
		if len(got) != 1 || err == nil || errors.As(err, &de) {
			t.Errorf("%q: got %#v, %v", src, got, err)
		}
	}
}
