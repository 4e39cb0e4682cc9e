package yaml11

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestWalkerScalars: AppendScalar writes ResolveScalar's value as JSON, and AppendKey KeyString's
// key.
func TestWalkerScalars(t *testing.T) {
	texts := []string{"1.0", "1e3", "2.50", "0x1F", "0777", "0o17", "0b101", "1_000", "+1", "-0", "-0.0",
		"12345678901234567890", "9223372036854775808", "1e400", "1e-400", "1:20", "2001-12-14", "y", "no",
		"~", "null", "''", `"a\"b"`, "!!binary aGVsbG8=", "!!str 1", "!!float 1", "1e21", "1e-7", "0.1",
		"4611686018427387904.0", "é", "<<", ".5", "!!int 0x10", "-.inf", "18446744073709551615"}
	w := NewWalker(nil, nil, Options{})
	for _, text := range texts {
		n := scalarNode(t, text)
		want, werr := ResolveScalar(n)
		got, finite, err := w.AppendScalar(nil, n)
		if werr != nil {
			if err == nil && finite {
				t.Errorf("%s: ResolveScalar fails (%v), AppendScalar gives %s", text, werr, got)
			}
			continue
		}
		if err != nil || !finite {
			t.Errorf("%s: %v", text, err)
			continue
		}
		var v any
		dec := json.NewDecoder(strings.NewReader(string(got)))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Errorf("%s: %s is not JSON", text, got)
			continue
		}
		if num, ok := v.(json.Number); ok {
			if i, err := num.Int64(); err == nil && !strings.ContainsAny(string(num), ".eE") {
				v = i
			} else {
				f, _ := num.Float64()
				v = f
			}
		}
		if !sameValue(v, want) {
			t.Errorf("%s: AppendScalar %s, ResolveScalar %#v", text, got, want)
		}
		k := keyNode(t, text)
		wantKey, kerr := KeyString(k)
		gotKey, ok, err := w.AppendKey(nil, k)
		if kerr != nil {
			if ok && err == nil {
				t.Errorf("%s: KeyString fails (%v), AppendKey gives %s", text, kerr, gotKey)
			}
			continue
		}
		var s string
		if !ok || err != nil || json.Unmarshal(gotKey, &s) != nil || s != wantKey {
			t.Errorf("%s: AppendKey %s %v %v, KeyString %q", text, gotKey, ok, err, wantKey)
		}
	}
	if _, finite, err := w.AppendScalar(nil, scalarNode(t, ".nan")); finite || err != nil {
		t.Error(".nan is finite")
	}
	if _, ok, err := w.AppendKey(nil, keyNode(t, "~")); ok || err != nil {
		t.Error("a null key is supported")
	}
	if _, _, err := w.AppendScalar(nil, scalarNode(t, "!!int x")); err == nil {
		t.Error("a bad tag is accepted")
	}
}

// TestWalkerErrors: the Walker's errors are ToValue's.
func TestWalkerErrors(t *testing.T) {
	doc := parse(t, "a: &a [1, 2]\n? {k: v}\n: 1\n")
	w := NewWalker(doc, nil, Options{})
	if err := w.InvalidKey(doc.Content[0].Content[2]); err == nil || err.Error() != `yaml: invalid map key: map[interface {}]interface {}{"k":"v"}` {
		t.Errorf("InvalidKey: %v", err)
	}
	if err := w.MergeError(doc.Content[0].Content[1]); err.Error() != "yaml: map merge requires map or sequence of maps as the value" {
		t.Errorf("MergeError: %v", err)
	}
	if !Mergeable(parse(t, "{a: 1}").Content[0]) || Mergeable(doc.Content[0].Content[1]) {
		t.Error("Mergeable")
	}
	doc = parse(t, "a: ~\n~: 1\nb: .inf\n")
	w = NewWalker(doc, nil, Options{})
	if err := w.ConversionError(doc); err == nil || !strings.HasPrefix(err.Error(), "unsupported map key") {
		t.Errorf("ConversionError: %v", err)
	}
	if err := w.ConversionError(parse(t, "a: 1\na: 2\n")); err != nil {
		t.Errorf("duplicates are not fatal: %v", err)
	}
	// limits, through Count and EnterAlias
	doc = parse(t, "a: &a [x]\nb: *a\n")
	w = NewWalker(doc, nil, Options{MaxAliasNodes: 1})
	alias := doc.Content[0].Content[3]
	if err := w.EnterAlias(alias); err != nil {
		t.Fatal(err)
	}
	err := w.Count(alias.Alias)
	if err == nil {
		err = w.Count(alias.Alias.Content[0])
	}
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "MaxAliasNodes" || le.Alias != "a" {
		t.Errorf("Count: %v", err)
	}
	w.LeaveAlias()
	w.Unwind()
	w = NewWalker(doc, nil, Options{MaxDepth: 1})
	if err := w.Enter(doc.Content[0]); err != nil {
		t.Fatal(err)
	}
	if err := w.Enter(doc.Content[0].Content[1]); err == nil {
		t.Error("MaxDepth")
	}
	w.Leave()
}

func TestTextHelpers(t *testing.T) {
	data := []byte("a: ! 12\nb: 12\n---\n--- # c\n--- ~\n")
	text := NewText(data)
	if got := text.LineStarts(); len(got) != 6 || got[1] != 8 {
		t.Errorf("LineStarts %v", got)
	}
	doc := parse(t, string(data[:14]))
	ns := text.NonSpecificScalars(doc)
	if len(ns) != 1 || !ns[doc.Content[0].Content[1]] {
		t.Errorf("NonSpecificScalars %v", ns)
	}
	if NewText([]byte("a: 1\n")).NonSpecificScalars(doc) != nil {
		t.Error("no '!' but non-specific scalars")
	}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	var empties []bool
	for {
		var n yaml.Node
		if dec.Decode(&n) != nil {
			break
		}
		empties = append(empties, EmptyDocument(&n, nil))
	}
	if len(empties) != 4 || empties[0] || !empties[1] || !empties[2] || empties[3] {
		t.Errorf("EmptyDocument %v", empties)
	}
	var n yaml.Node
	err := yaml.Unmarshal([]byte("a: 1\nb: [\n"), &n)
	if line := ParserErrorLine(err, nil); line != 2 {
		t.Errorf("ParserErrorLine %d (%v)", line, err)
	}
	for s, want := range map[string]bool{"plain": true, "yes": false, "1.0": false, "~": false, "": false, "0x1F": false, "1:20": true, "<<": true} {
		if PlainIsString(s) != want {
			t.Errorf("PlainIsString(%q) != %v", s, want)
		}
	}
}
