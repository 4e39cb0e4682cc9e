package validate

import (
	"testing"
	"unicode/utf8"
)

// TestStringChecks: where StringChecks or StringEnum describe a node's
// check of strings, they give Check's verdict on every probe.
func TestStringChecks(t *testing.T) {
	nodes := []Node{
		{Type: "string"},
		{Type: "string", Keywords: map[string]any{"maxLength": int64(3)}},
		{Type: "string", Keywords: map[string]any{"minLength": int64(1), "maxLength": int64(63)}, Pattern: `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`},
		{Type: "string", Pattern: `^[a-z]+$`},
		{Type: "string", Pattern: `^(`}, // invalid: every string fails
		{Type: "string", Keywords: map[string]any{"maxLength": int64(-1)}},
		{Type: "string", Keywords: map[string]any{"enum": []any{"a", "b", "é"}}},
		{Type: "string", Keywords: map[string]any{"enum": []any{"a", int64(1)}}},
		{Type: "string", Keywords: map[string]any{"enum": []any{"a"}, "maxLength": int64(3)}},
		{Type: "string", Format: "date-time"},
		{Type: "integer"},
		{IntOrString: true, Keywords: map[string]any{"maxLength": int64(2)}},
		{Type: "string", Nullable: true, Keywords: map[string]any{"minLength": int64(2)}},
		{Keywords: map[string]any{"minLength": int64(2), "maximum": int64(3)}},
	}
	described := 0
	for i, n := range nodes {
		r, err := Compile(n)
		if err != nil {
			t.Fatal(err)
		}
		minLen, maxLen, m, ok := r.StringChecks()
		strs, eok := r.StringEnum()
		if ok && eok {
			t.Errorf("node %d: both StringChecks and StringEnum", i)
		}
		if ok || eok {
			described++
		}
		for _, s := range probes {
			want := r.Check(Scalar{Kind: String, Str: []byte(s)})
			switch {
			case ok:
				n := int64(utf8.RuneCountInString(s))
				got := (minLen < 0 || n >= minLen) && (maxLen < 0 || n <= maxLen) && (m == nil || m.Match([]byte(s)))
				if got != want {
					t.Errorf("node %d, %q: StringChecks %v, Check %v", i, s, got, want)
				}
			case eok:
				got := false
				for _, e := range strs {
					got = got || e == s
				}
				if got != want {
					t.Errorf("node %d, %q: StringEnum %v, Check %v", i, s, got, want)
				}
			}
		}
	}
	if described < 8 {
		t.Errorf("only %d nodes described", described)
	}
}
