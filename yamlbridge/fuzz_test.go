package yamlbridge

import (
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/decoder"
	"github.com/jsonprune/jsonprune/internal/yaml11"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// FuzzBridge checks, for any input, that nothing panics and that:
//   - the bridge's JSON (AppendJSON) is the value internal/yaml11 converts the document to, or
//     the bridge fails with internal/yaml11's error;
//   - the decoder reads every document without panicking;
//   - a document rewritten with a changed value (members whose name starts with "b" removed)
//     reads back as that value.
func FuzzBridge(f *testing.F) {
	for _, tt := range trickyCases {
		f.Add(tt.yaml)
	}
	for _, c := range rewriteCases {
		f.Add(c.in)
	}
	f.Add(billionLaughs())
	f.Add(mergeBomb())
	f.Add("a: &a {b: 1, c: [&x 2, *x]}\nd:\n  <<: [*a, {b: 3, e: 4}]\n  b2: *a\n---\n- *a\n")
	f.Add("? [a]\n: 1\n")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}

		r := NewReader([]byte(src))
		pass := must(decoder.NewForAutomaton(schemaauto.PassThrough()))
		for range 4 {
			doc, err := r.Next()
			if err != nil {
				return
			}
			pass.ValidateSource(doc.Source())
			j, err := AppendJSON(nil, doc.Source())
			if strings.Contains(src, "!") || doc.Index > 0 {
				// internal/yaml11.ToValue sees no "!" tags; later documents may alias earlier ones
				if err == nil {
					checkRewrite(t, doc, j)
				}
				continue
			}
			want, werr := yaml11.ToValue(doc.Node, yaml11.Options{})
			var dups *yaml11.DuplicateKeysError
			if errors.As(werr, &dups) {
				werr = nil
			}
			if (err == nil) != (werr == nil) || err != nil && !strings.HasPrefix(err.Error(), werr.Error()) {
				t.Fatalf("%q: bridge %v, yaml11 %v", src, err, werr)
			}
			if err != nil {
				continue
			}
			var got any
			if err := json.Unmarshal(j, &got); err != nil {
				t.Fatalf("%q: %s is not JSON: %v", src, j, err)
			}
			wj, _ := json.Marshal(want)
			var w any
			json.Unmarshal(wj, &w)
			if !reflect.DeepEqual(got, w) {
				t.Fatalf("%q:\nbridge %s\nyaml11 %s", src, j, wj)
			}
			checkRewrite(t, doc, j)
		}
	})
}

// checkRewrite rewrites doc with its value less the members whose name starts with "b", and
// checks that the YAML reads back as that value.
func checkRewrite(t *testing.T, doc *Document, j []byte) {
	v, err := parseValue(j)
	if err != nil {
		t.Fatal(err)
	}
	v = dropB(v)
	var out []byte
	switch v.(type) {
	case *object:
		n, err := doc.rewriter().doc(doc.Node, v)
		if err != nil {
			t.Fatal(err)
		}
		if out, err = AppendNode(nil, n); err != nil {
			t.Fatalf("encode: %v", err)
		}
	default:
		return
	}
	back, err := yaml11.Decode(out, yaml11.Options{MaxAliasNodes: -1, MaxAliasRatio: -1})
	var dups *yaml11.DuplicateKeysError
	if err != nil && !errors.As(err, &dups) || len(back) != 1 {
		if err == io.EOF {
			return
		}
		t.Fatalf("the rewritten document does not read back: %v\n%s", err, out)
	}
	if dups != nil {
		for _, d := range dups.Duplicates {
			if !d.Converted {
				t.Fatalf("the rewritten document has a duplicate key: %v\n%s", err, out)
			}
		}
	}
	if !equalValue(back[0], v) {
		t.Fatalf("the rewritten document reads as %#v, not as the value\n%s", back[0], out)
	}
}

func dropB(v any) any {
	switch t := v.(type) {
	case *object:
		o := &object{}
		for i, k := range t.keys {
			if strings.HasPrefix(k, "b") {
				continue
			}
			o.keys = append(o.keys, k)
			o.vals = append(o.vals, dropB(t.vals[i]))
		}
		return o
	case []any:
		a := make([]any, len(t))
		for i, e := range t {
			a[i] = dropB(e)
		}
		return a
	}
	return v
}
