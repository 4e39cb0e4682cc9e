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

// TestStringsByRules: where a tree's strings are decided by its own
// Rules' string checks, Validate agrees with them on every probe.
func TestStringsByRules(t *testing.T) {
	rules := func(n Node) *Rules {
		r, err := Compile(n)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	intOrString := Node{IntOrString: true, Pattern: `^[0-9]+[a-z]?$`, Keywords: map[string]any{"maxLength": int64(4)}}
	typed := func(typ string) *Tree { return &Tree{Rules: rules(Node{Type: typ})} }
	trees := []struct {
		t    *Tree
		want bool
	}{
		{&Tree{Rules: rules(intOrString), AnyOf: []*Tree{typed("integer"), typed("string")}}, true},
		{&Tree{Rules: rules(intOrString), AnyOf: []*Tree{typed("integer"), {Rules: rules(Node{Type: "string", Pattern: "^a"})}}}, false},
		{&Tree{Rules: rules(intOrString), OneOf: []*Tree{typed("integer"), typed("string")}}, true},
		{&Tree{Rules: rules(intOrString), OneOf: []*Tree{typed("string"), typed("string")}}, false},
		{&Tree{Rules: rules(intOrString), Not: typed("integer")}, true},
		{&Tree{Rules: rules(intOrString), Not: typed("string")}, false},
		{&Tree{Rules: rules(Node{Type: "integer"}), AnyOf: []*Tree{typed("integer"), typed("string")}}, false},
		{&Tree{Rules: rules(Node{Type: "string", Keywords: map[string]any{"enum": []any{"a"}}}), AnyOf: []*Tree{typed("string")}}, false},
	}
	for i, tc := range trees {
		got := tc.t.StringsByRules()
		if got != tc.want {
			t.Errorf("tree %d: StringsByRules %v, want %v", i, got, tc.want)
		}
		if !got {
			continue
		}
		minLen, maxLen, m, _ := tc.t.Rules.StringChecks()
		for _, s := range append(probes, "12", "12a", "123a", "1234a") {
			n := int64(utf8.RuneCountInString(s))
			pass := (minLen < 0 || n >= minLen) && (maxLen < 0 || n <= maxLen) && (m == nil || m.Match([]byte(s)))
			if valid := len(tc.t.Validate("", s)) == 0; valid != pass {
				t.Errorf("tree %d, %q: Validate %v, string checks %v", i, s, valid, pass)
			}
		}
	}
}
