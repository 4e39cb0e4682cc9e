package yamlbridge

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/yaml11"
	"github.com/jsonprune/jsonprune/schemaauto"
	yaml "go.yaml.in/yaml/v3"
)

// billionLaughs is the classic alias bomb: 9 levels of 9 aliases, 9^9 (387 million) scalars
// once expanded, from a document of 96 nodes.
func billionLaughs() string {
	var b strings.Builder
	b.WriteString("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n")
	b.WriteString(`a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	for c := 'b'; c <= 'i'; c++ {
		fmt.Fprintf(&b, "%c: &%c [", c, c)
		for j := range 9 {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "*%c", c-1)
		}
		b.WriteString("]\n")
	}
	b.WriteString("spec: {strList: *i}\n")
	return b.String()
}

// mergeBomb repeats merges of merges: 10 levels of 10 merged maps of 10 keys.
func mergeBomb() string {
	var b strings.Builder
	b.WriteString("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n")
	b.WriteString("m0: &m0 {k0: 0, k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7, k8: 8, k9: 9}\n")
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "m%d: &m%d {<<: [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "*m%d", i-1)
		}
		b.WriteString("]}\n")
	}
	b.WriteString("spec: {preserved: *m10}\n")
	return b.String()
}

// countingSource counts the tokens read.
type countingSource struct {
	*Source
	tokens int
}

func (c *countingSource) ReadToken() (jsontext.Token, error) { c.tokens++; return c.Source.ReadToken() }
func (c *countingSource) ReadValue() (jsontext.Value, error) { c.tokens++; return c.Source.ReadValue() }

// TestAliasBomb: a billion laughs fails after a bounded number of tokens (counted work, not
// time) and allocations, with an error that names the limit, the line and the alias; so does a
// bomb of merge keys. With the project's limits switched off, go-yaml v2's own rule (which the
// reference applies) still stops it, later.
func TestAliasBomb(t *testing.T) {
	set := widgetSet()
	for _, tt := range []struct {
		name, src string
		opts      []Option
		maxTokens int
		limit     string
		line      int
	}{
		{"billion laughs", billionLaughs(), nil, 2_000, "[MaxAliasRatio]", 4},
		{"billion laughs, v2's rule only", billionLaughs(), []Option{MaxAliasNodes(-1), MaxAliasRatio(-1)}, 20_000, "[go-yaml v2 alias ratio]", 4},
		{"billion laughs, node count only", billionLaughs(), []Option{MaxAliasNodes(500), MaxAliasRatio(-1)}, 1_000, "[MaxAliasNodes]", 4},
		{"merge keys", mergeBomb(), nil, 2_000, "[MaxAliasRatio]", 4},
	} {
		doc, err := Parse([]byte(tt.src), tt.opts...)
		if err != nil {
			t.Fatal(err)
		}
		d := must(decoder.New(set))
		src := &countingSource{Source: doc.Source()}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err = d.AppendPruneSource(nil, src)
		runtime.ReadMemStats(&after)
		var de *jperrors.DecodeError
		var le *yaml11.LimitError
		if !errors.As(err, &de) || !errors.As(err, &le) {
			t.Fatalf("%s: got %v", tt.name, err)
		}
		if !strings.Contains(de.Msg, "document contains excessive aliasing") || !strings.HasSuffix(de.Msg, tt.limit) ||
			de.Line != tt.line {
			t.Errorf("%s: error %q at line %d", tt.name, de.Msg, de.Line)
		}
		// the same limit, at the same node, as internal/yaml11's conversion
		o := newOptions(tt.opts)
		if _, verr := yaml11.ToValue(doc.Node, o.limits); verr == nil || verr.Error() != de.Msg {
			t.Errorf("%s: yaml11.ToValue fails with %v", tt.name, verr)
		}
		if src.tokens > tt.maxTokens {
			t.Errorf("%s: %d tokens read before the error, more than %d", tt.name, src.tokens, tt.maxTokens)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
			t.Errorf("%s: %d bytes allocated", tt.name, alloc)
		}
		t.Logf("%s: %d tokens, %d bytes allocated: %s", tt.name, src.tokens, after.TotalAlloc-before.TotalAlloc, de.Msg)
	}
}

// TestAliasesWithinLimits: documents that alias a lot, but less than the limits, decode; the
// limits can be raised.
func TestAliasesWithinLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString(head + "defs: &d [a, b, c, d, e, f, g, h, i]\nspec:\n  strList: &l [x]\n  preserved:\n")
	for i := range 80 {
		fmt.Fprintf(&b, "    k%d: *d\n", i) // 800 aliased nodes: under the floor of 1000
	}
	doc, err := Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if err := must(decoder.New(widgetSet())).ValidateSource(doc.Source()); err != nil {
		t.Fatal(err)
	}
	bomb := billionLaughs()
	doc, err = Parse([]byte(bomb), MaxAliasNodes(-1), MaxAliasRatio(-1))
	if err != nil {
		t.Fatal(err)
	}
	if err := must(decoder.New(widgetSet())).ValidateSource(doc.Source()); err == nil {
		t.Error("go-yaml v2's rule does not apply")
	}
}

// TestDepthLimit: nesting beyond MaxDepth is an error with the reference's limit.
func TestDepthLimit(t *testing.T) {
	set := schemaauto.PassThrough()
	for _, depth := range []int{5, 10000, 10001} {
		src := head + "spec: {preserved: " + strings.Repeat("[", depth-2) + strings.Repeat("]", depth-2) + "}\n"
		doc, err := Parse([]byte(src))
		if err != nil {
			if depth <= 10000 {
				t.Fatalf("depth %d: %v", depth, err)
			}
			t.Logf("depth %d: the parser stops it: %v", depth, err)
			continue
		}
		err = must(decoder.NewForAutomaton(set)).ValidateSource(doc.Source())
		if (err != nil) != (depth > 10000) {
			t.Errorf("depth %d: %v", depth, err)
		}
	}
	doc, err := Parse([]byte(head+"spec: {preserved: [[[1]]]}\n"), decoder.MaxDepth(4))
	if err != nil {
		t.Fatal(err)
	}
	err = must(decoder.NewForAutomaton(set)).ValidateSource(doc.Source())
	var de *jperrors.DecodeError
	if !errors.As(err, &de) || de.Msg != "yaml: line 4: exceeded max depth of 4 [MaxDepth]" || de.Line != 4 || de.Column != 21 {
		t.Errorf("got %#v", err)
	}
}

// TestBadOptionValues: a bad option value is the error of the first read,
// never clamped; the decoder's MaxDepth is the bridge's.
func TestBadOptionValues(t *testing.T) {
	text := []byte("a: [[1]]\n")
	for _, c := range []struct {
		opt  Option
		want string
	}{
		{MaxAliasNodes(0), "jsonprune: MaxAliasNodes(0): must not be 0 (positive: a limit, negative: no limit)"},
		{MaxAliasRatio(0), "jsonprune: MaxAliasRatio(0): must not be 0 or NaN (positive: a limit, negative: no limit)"},
		{decoder.MaxDepth(-1), "jsonprune: MaxDepth(-1): must be between 1 and 10000 (DefaultMaxDepth)"},
	} {
		if _, err := Parse(text, c.opt); err == nil || err.Error() != c.want {
			t.Errorf("Parse: got %v, want %s", err, c.want)
		}
		var n yaml.Node
		if err := yaml.Unmarshal(text, &n); err != nil {
			t.Fatal(err)
		}
		if _, err := NewSource(&n, text, c.opt).ReadToken(); err == nil || err.Error() != c.want {
			t.Errorf("NewSource: got %v, want %s", err, c.want)
		}
	}
	if _, err := Parse(text, decoder.MaxDepth(2)); err != nil {
		t.Fatal(err)
	}
	doc, _ := Parse(text)
	if _, err := AppendJSON(nil, doc.Source()); err != nil {
		t.Errorf("default depth: %v", err)
	}
	doc, _ = Parse(text, decoder.MaxDepth(2))
	if _, err := AppendJSON(nil, doc.Source()); err == nil || !strings.Contains(err.Error(), "exceeded max depth of 2") {
		t.Errorf("MaxDepth(2) on 3 levels: %v", err)
	}
}
