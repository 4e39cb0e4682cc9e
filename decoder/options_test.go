package decoder

import (
	"slices"
	"strings"
	"testing"
)

// TestOptionsKeepFastPath: MaxDepth other than the default and
// AllowInvalidUTF8(true) decode the usual document on the fast path (the
// scanner reads it to its end), and every document, usual or not, as the
// slow path does: the same output, error and findings.
func TestOptionsKeepFastPath(t *testing.T) {
	set := widgetSet(t)
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	head := `{"apiVersion":"example.com/v1","kind":"Widget",`
	docs := []string{
		head + `"metadata":{"name":"w"},"spec":{"replicas":1,"list":[{"x":"a","junk":1}],"anyVal":{"a":[1,2]}}}`,
		// deep values read whole: unknown, preserved, metadata, walked
		head + `"spec":{"junk":` + nest(20) + `}}`,
		head + `"spec":{"anyVal":` + nest(20) + `}}`,
		head + `"metadata":{"name":"w","labels":` + nest(20) + `}}`,
		head + `"spec":{"list":[{"x":"a"}],"obj":{"deep":{"a":` + nest(20) + `}}}}`,
		head + `"spec":{"junk":` + nest(5) + `}}`,
		// escapes, invalid UTF-8, lone surrogates, names colliding once
		// invalid bytes become U+FFFD
		head + `"spec":{"name":"\u0041\n","anyVal":{"s":"\u00e9"}}}`,
		head + "\"spec\":{\"name\":\"a\xffb\",\"anyVal\":{\"s\":\"\xfe\"}}}",
		head + `"spec":{"name":"\ud800","anyVal":{"\udc00":1}}}`,
		head + "\"spec\":{\"anyVal\":{\"k\xff\":1,\"k\xfe\":2}}}",
		head + "\"metadata\":{\"name\":\"w\",\"labels\":{\"a\xff\":\"b\"}}}",
		head + `"spec":{"junk":1,"junk":2}}`,
		`{"a":1,}`,
	}
	for _, c := range []struct {
		name string
		opts []Option
	}{
		{"MaxDepth(9999)", []Option{MaxDepth(9999)}},
		{"MaxDepth(12)", []Option{MaxDepth(12)}},
		{"AllowInvalidUTF8", []Option{AllowInvalidUTF8(true)}},
		{"both", []Option{AllowInvalidUTF8(true), MaxDepth(12)}},
	} {
		fast, slow, jt := must(New(set, c.opts...)), must(New(set, c.opts...)), must(New(set, c.opts...))
		slow.forceSlow, jt.noScan = true, true
		if !scannerAccepts(fast, []byte(docs[0])) {
			t.Errorf("%s: the usual document leaves the scanner", c.name)
		}
		for i, doc := range docs {
			name := c.name + "/" + string(rune('a'+i))
			got, errGot := fast.AppendPrune(nil, []byte(doc))
			for _, other := range []*Decoder{slow, jt} {
				want, errWant := other.AppendPrune(nil, []byte(doc))
				if string(got) != string(want) || errText(errGot) != errText(errWant) {
					t.Errorf("%s: fast path %s (%v)\nother path %s (%v)", name, got, errGot, want, errWant)
					continue
				}
				if fa, fb := fast.Result().Findings(), other.Result().Findings(); errGot == nil && !slices.Equal(fa, fb) {
					t.Errorf("%s: fast path findings %+v\nother path %+v", name, fa, fb)
				}
			}
		}
	}
	// a document deeper than MaxDepth inside a value read whole is refused
	// at the right place
	_, err := must(New(set, MaxDepth(12))).AppendPrune(nil, []byte(docs[1]))
	if err == nil || !strings.Contains(err.Error(), "exceeded max depth of 12") {
		t.Errorf("MaxDepth(12) on 22 levels: %v", err)
	}
	if _, err := must(New(set, MaxDepth(12))).AppendPrune(nil, []byte(docs[5])); err != nil {
		t.Errorf("MaxDepth(12) on 7 levels: %v", err)
	}
}

// TestNilSetAndYAMLHint: a Decoder without a set keeps every document whole
// (no panic), and YAML given as JSON gets a hint in its syntax error.
func TestNilSetAndYAMLHint(t *testing.T) {
	d := must(New(nil, FieldValidation(Strict)))
	doc := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","x":1},"spec":{"a":1}}`
	out, err := d.AppendPrune(nil, []byte(doc))
	if err == nil || !strings.Contains(err.Error(), `unknown field "metadata.x"`) || d.Result().Pruned {
		t.Errorf("nil set, Strict: %s, %v, pruned %v", out, err, d.Result().Pruned)
	}
	d = must(New(nil))
	out, err = d.AppendPrune(nil, []byte(doc))
	if want := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"a":1}}`; err != nil || string(out) != want {
		t.Errorf("nil set: %s, %v; want %s", out, err, want)
	}
	err = must(New(widgetSet(t))).Validate([]byte("apiVersion: example.com/v1\nkind: Widget\n"))
	want := "invalid JSON: invalid character 'a' at start of value (the document is not JSON: read YAML with package yamlbridge, or with jsonprune.Schemas, which reads both) (line 1, column 1, offset 0)"
	if err == nil || err.Error() != want {
		t.Errorf("YAML as JSON:\n got %v\nwant %s", err, want)
	}
	if err := must(New(widgetSet(t))).Validate([]byte(`{"a":}`)); err == nil || strings.Contains(err.Error(), "YAML") {
		t.Errorf("broken JSON: %v", err)
	}
}

// TestBadOptionValues: a bad option value is an error of New, never clamped.
func TestBadOptionValues(t *testing.T) {
	for _, c := range []struct {
		opt  Option
		want string
	}{
		{MaxDepth(0), "jsonprune: MaxDepth(0): must be between 1 and 10000 (DefaultMaxDepth)"},
		{MaxDepth(10001), "jsonprune: MaxDepth(10001): must be between 1 and 10000 (DefaultMaxDepth)"},
		{MaxFindings(0), "jsonprune: MaxFindings(0): must be at least 1"},
		{MaxDocumentSize(-1), "jsonprune: MaxDocumentSize(-1): must not be negative (0: no limit)"},
		{FieldValidation(Mode(7)), "jsonprune: FieldValidation(7): not a Mode: Warn, Strict or Ignore"},
	} {
		if _, err := New(nil, Defaulting(false), c.opt); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
		if _, err := NewForAutomaton(nil, c.opt); err == nil || err.Error() != c.want {
			t.Errorf("NewForAutomaton: got %v, want %s", err, c.want)
		}
	}
	for _, o := range []Option{MaxDepth(1), MaxDepth(DefaultMaxDepth), MaxFindings(1), MaxDocumentSize(0), FieldValidation(Ignore)} {
		if _, err := New(nil, o); err != nil {
			t.Error(err)
		}
	}
}

// TestResultOwnDocument: a document's Result does not depend on the
// documents decoded before it. A root without a kind was pruned against
// the previous document's schema (its kind was left over), with that
// schema's findings beside the fatal error.
func TestResultOwnDocument(t *testing.T) {
	noKind := []byte(`{"apiVersion":"example.com/v1","metadata":{},"spec":{"junk":1}}`)
	for _, widget := range []string{
		`{"kind":"Widget","apiVersion":"example.com/v1","spec":{"junk":1}}`, // the general pre-scan
		`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"junk":1}}`, // the plain one
	} {
		fresh, used := must(New(widgetSet(t))), must(New(widgetSet(t)))
		used.Validate([]byte(widget))
		if used.Result().Kind() != "Widget" || used.Result().APIVersion() != "example.com/v1" {
			t.Errorf("type meta %q %q", used.Result().APIVersion(), used.Result().Kind())
		}
		errFresh, errUsed := fresh.Validate(noKind), used.Validate(noKind)
		if errText(errFresh) != errText(errUsed) || fresh.Result().Pruned != used.Result().Pruned ||
			!slices.Equal(fresh.Result().Findings(), used.Result().Findings()) || used.Result().Kind() != "" {
			t.Errorf("after a Widget: %v, pruned %v, %v, kind %q\nfresh: %v, pruned %v, %v", errUsed, used.Result().Pruned,
				used.Result().Findings(), used.Result().Kind(), errFresh, fresh.Result().Pruned, fresh.Result().Findings())
		}
	}
}
