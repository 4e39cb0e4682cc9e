package yaml11

import (
	"bytes"
	"errors"
	"io"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// FuzzToValue checks that no input makes the package panic, that the work stays bounded, and a
// few invariants of the results.
func FuzzToValue(f *testing.F) {
	for _, s := range []string{
		"a: 1\n", "y: 1\non: 2\n", "1: a\n\"1\": b\n", "? ~\n: a\n", "? {a: 1}\n: x\n",
		"a: &a {x: 1}\nb:\n  <<: *a\n  x: 2\n", "b: &b {x: 1}\nc: &c {x: 2}\nd:\n  <<: [*b, *c]\n",
		"a: &a [*a]\n", "a: .inf\nb: !!int x\n", "- ! 12\n- !!binary aGVsbG8=\n", "--- 1\n--- ~\n---\n",
		"a: 1e400\nb: 0x1F\nc: 0777\nd: 1_000\ne: 2001-12-14\n", billionLaughs(4),
		"&a {*a : 1}\n", "<<: [{a: 1}, 3]\n", "18446744073709551615: x\n", "a: [.nan, -.inf]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := Options{MaxAliasNodes: 20_000}
		values, err := Decode(data, opts)
		var de *DuplicateKeysError
		if errors.As(err, &de) {
			for _, d := range de.Duplicates {
				if d.Line < 1 || d.Key == "" {
					t.Fatalf("bad duplicate %+v", d)
				}
			}
		}
		for _, v := range values {
			checkJSONValue(t, v)
		}
		// ToValue on every parsed document (as a caller with nodes would).
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for range 20 {
			var doc yaml.Node
			if err := dec.Decode(&doc); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return
			}
			c := converter{opts: opts.withDefaults(), root: &doc, ownNodes: -1}
			v, err := c.run(&doc)
			if c.aliased > opts.MaxAliasNodes+1 {
				t.Fatalf("%d aliased nodes past the limit", c.aliased)
			}
			if err == nil || errors.As(err, &de) {
				checkJSONValue(t, v)
			}
			for _, n := range doc.Content {
				if n.Kind == yaml.ScalarNode {
					_, _ = ResolveScalar(n)
					_, _ = KeyString(n)
				}
			}
		}
	})
}

// checkJSONValue fails unless v is made of the JSON value types only, without non-finite floats
// or strings that are not UTF-8.
func checkJSONValue(t *testing.T, v any) {
	t.Helper()
	switch v := v.(type) {
	case nil, bool, int64:
	case float64:
		if _, bad := firstNonFinite(v); bad {
			t.Fatalf("non-finite %v", v)
		}
	case string:
		if jsonString(v) != v {
			t.Fatalf("string %q is not UTF-8", v)
		}
	case []any:
		for _, e := range v {
			checkJSONValue(t, e)
		}
	case map[string]any:
		for k, e := range v {
			if jsonString(k) != k {
				t.Fatalf("key %q is not UTF-8", k)
			}
			checkJSONValue(t, e)
		}
	default:
		t.Fatalf("type %T in a value", v)
	}
}
