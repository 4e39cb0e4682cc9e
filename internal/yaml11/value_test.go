package yaml11

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func toValue(t testing.TB, src string, opts Options) (any, error) {
	t.Helper()
	return ToValue(parse(t, src), opts)
}

type dup struct {
	line      int
	key       string
	path      string
	converted bool
}

func dupsOf(t testing.TB, err error) []dup {
	t.Helper()
	if err == nil {
		return nil
	}
	var de *DuplicateKeysError
	if !errors.As(err, &de) {
		t.Fatalf("unexpected error %v", err)
	}
	var out []dup
	for _, d := range de.Duplicates {
		out = append(out, dup{d.Line, d.Key, strings.Join(d.Path, "/"), d.Converted})
	}
	return out
}

func TestToValueDuplicates(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		want  any
		dups  []dup
		error string // DuplicateKeysError text, when not just the dups rendered
	}{
		{
			name: "plain duplicate, last wins",
			src:  "spec:\n  replicas: 1\n  replicas: 2\n",
			want: map[string]any{"spec": map[string]any{"replicas": int64(2)}},
			dups: []dup{{3, `"replicas"`, "spec", false}},
		},
		{
			name:  "every duplicate of the document in one error, nested first",
			src:   "a: {b: 1, b: 2}\nc:\n- {d: 1, d: 2}\na: 3\n1: x\n0x1: z\n",
			want:  map[string]any{"a": int64(3), "c": []any{map[string]any{"d": int64(2)}}, "1": "z"},
			dups:  []dup{{1, `"b"`, "a", false}, {3, `"d"`, "c/0", false}, {4, `"a"`, "", false}, {6, "1", "", false}},
			error: "yaml: unmarshal errors:\n  line 1: key \"b\" already set in map\n  line 3: key \"d\" already set in map\n  line 4: key \"a\" already set in map\n  line 6: key 1 already set in map",
		},
		{
			name: "block mapping value: the line of the value",
			src:  "b:\n  c: 1\nb:\n  d: 3\n",
			want: map[string]any{"b": map[string]any{"d": int64(3)}},
			dups: []dup{{4, `"b"`, "", false}},
		},
		{
			name: "triple",
			src:  "a: 1\na: 2\na: 3\n",
			want: map[string]any{"a": int64(3)},
			dups: []dup{{2, `"a"`, "", false}, {3, `"a"`, "", false}},
		},
		{
			name: "float and bool keys render bare",
			src:  "1.5: a\n1.5: b\nfalse: c\nno: d\n",
			want: map[string]any{"1.5": "b", "false": "d"},
			dups: []dup{{2, "1.5", "", false}, {4, "false", "", false}},
		},
		{
			name: "explicit key overriding a merged key (Y18)",
			src:  "base: &b\n  replicas: 1\nspec:\n  <<: *b\n  replicas: 2\n",
			want: map[string]any{"base": map[string]any{"replicas": int64(1)}, "spec": map[string]any{"replicas": int64(2)}},
			dups: []dup{{5, `"replicas"`, "spec", false}},
		},
		{
			name: "merged key overriding an earlier explicit key: go-yaml v2 sets keys in order",
			src:  "a: 1\n<<: {a: 2}\n",
			want: map[string]any{"a": int64(2)},
			dups: []dup{{2, `"a"`, "", false}},
		},
		{
			name: "two merged maps sharing a key (D07): the first map wins, line in the anchor (Y19)",
			src:  "b: &b {x: 1}\nc: &c {x: 2, z: 3}\nd:\n  <<: [*b, *c]\n",
			want: map[string]any{"b": map[string]any{"x": int64(1)}, "c": map[string]any{"x": int64(2), "z": int64(3)}, "d": map[string]any{"x": int64(1), "z": int64(3)}},
			dups: []dup{{1, `"x"`, "d", false}},
		},
		{
			name: "merge, explicit override and inline maps together",
			src:  "- &a {x: 1}\n- <<: [*a, {w: 1}]\n  w: 2\n",
			want: []any{map[string]any{"x": int64(1)}, map[string]any{"x": int64(1), "w": int64(2)}},
			dups: []dup{{3, `"w"`, "1", false}},
		},
		{
			name: "a duplicate inside an anchor is reported for every expansion",
			src:  "a: &a {k: 1, k: 2}\nb: *a\nc: *a\n",
			want: map[string]any{"a": map[string]any{"k": int64(2)}, "b": map[string]any{"k": int64(2)}, "c": map[string]any{"k": int64(2)}},
			dups: []dup{{1, `"k"`, "a", false}, {1, `"k"`, "b", false}, {1, `"k"`, "c", false}},
		},
		{
			name:  `"1" and 1 collide after conversion: document order, last wins, reported as Converted`,
			src:   "1: a\n\"1\": b\n",
			want:  map[string]any{"1": "b"},
			dups:  []dup{{2, `"1"`, "", true}},
			error: "yaml: unmarshal errors:\n  line 2: key \"1\" already set in map",
		},
		{
			name: `the other order`,
			src:  "\"1\": a\n1: b\n",
			want: map[string]any{"1": "b"},
			dups: []dup{{2, "1", "", true}},
		},
		{
			name: "a YAML duplicate behind a conversion collision is still a YAML duplicate",
			src:  "1: a\n\"1\": b\n1: c\n1.0: d\n",
			want: map[string]any{"1": "d"},
			dups: []dup{{2, `"1"`, "", true}, {3, "1", "", false}, {4, "1", "", true}},
		},
		{
			name: "y and on",
			src:  "y: 1\non: 2\n",
			want: map[string]any{"true": int64(2)},
			dups: []dup{{2, "true", "", false}},
		},
		{
			name: ".nan keys are never equal in YAML but collide in JSON",
			src:  ".nan: 1\n.nan: 2\n",
			want: map[string]any{".nan": int64(2)},
			dups: []dup{{2, "NaN", "", true}},
		},
		{
			name: "!!binary keys made equal by U+FFFD",
			src:  "? !!binary /w==\n: 1\n? !!binary /g==\n: 2\n",
			want: map[string]any{"\uFFFD": int64(2)},
			dups: []dup{{4, `"\xfe"`, "", true}},
		},
		{
			name: "!!binary key equal to a plain key is a YAML duplicate",
			src:  "hello: 1\n!!binary aGVsbG8=: 2\n",
			want: map[string]any{"hello": int64(2)},
			dups: []dup{{2, `"hello"`, "", false}},
		},
		{
			name: "a non-finite value overwritten by a duplicate is no error",
			src:  "a: .inf\na: 1\n",
			want: map[string]any{"a": int64(1)},
			dups: []dup{{2, `"a"`, "", false}},
		},
		{
			name: "quoted << is a plain key",
			src:  "'<<': {a: 1}\n",
			want: map[string]any{"<<": map[string]any{"a": int64(1)}},
		},
		{
			name: "!!merge tagged merge key",
			src:  "!!merge <<: {a: 1}\n",
			want: map[string]any{"a": int64(1)},
		},
		{
			name: "tags on collections are ignored",
			src:  "a: !!str {b: 1}\nc: !foo [1]\n",
			want: map[string]any{"a": map[string]any{"b": int64(1)}, "c": []any{int64(1)}},
		},
		{
			name: "empty document",
			src:  "",
			want: nil,
		},
		{
			name: "alias as a key",
			src:  "a: &k on\n*k : 1\n",
			want: map[string]any{"a": true, "true": int64(1)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := toValue(t, tt.src, Options{})
			if got := dupsOf(t, err); !reflect.DeepEqual(got, tt.dups) {
				t.Errorf("duplicates\n got %+v\nwant %+v", got, tt.dups)
			}
			if !reflect.DeepEqual(v, tt.want) {
				t.Errorf("value\n got %#v\nwant %#v", v, tt.want)
			}
			if tt.error != "" && err.Error() != tt.error {
				t.Errorf("error %q", err.Error())
			}
		})
	}
}

func TestToValueFatal(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"null key, with its last value", "~: 1\n~: {b: [1, 2.5, yes, ~]}\n", `unsupported map key of type: %!s(<nil>), key: <nil>, value: map[interface {}]interface {}{"b":[]interface {}{1, 2.5, true, interface {}(nil)}}`},
		{"null key", "? ~\n: a\n", `unsupported map key of type: %!s(<nil>), key: <nil>, value: "a"`},
		{"null key around a null key: the outer one", "~: {~: 1}\n", `unsupported map key of type: %!s(<nil>), key: <nil>, value: map[interface {}]interface {}{interface {}(nil):1}`},
		{"uint64 key", "18446744073709551615: a\n", `unsupported map key of type: uint64, key: 0xffffffffffffffff, value: "a"`},
		{"complex key", "? {a: 1}\n: x\n", `yaml: invalid map key: map[interface {}]interface {}{"a":1}`},
		{"sequence key", "? [1, 2]\n: x\n", `yaml: invalid map key: []interface {}{1, 2}`},
		{"merge of a scalar", "<<: 1\n", "yaml: map merge requires map or sequence of maps as the value"},
		{"merge of null", "<<: ~\n", "yaml: map merge requires map or sequence of maps as the value"},
		{"merge of a sequence alias", "a: &a [1]\nb:\n  <<: *a\n", "yaml: map merge requires map or sequence of maps as the value"},
		{"merge of a sequence holding a scalar", "<<: [{a: 1}, 3]\n", "yaml: map merge requires map or sequence of maps as the value"},
		{"cycle", "a: &a [*a]\n", "yaml: anchor 'a' value contains itself"},
		{"merge cycle", "a: &a {<<: *a}\n", "yaml: anchor 'a' value contains itself"},
		{"key cycle", "&a {*a : 1}\n", "yaml: anchor 'a' value contains itself"},
		{"tag error", "a: !!int x\n", "yaml: cannot decode !!str `x` as a !!int"},
		{"binary", "a: !!binary '%'\n", "yaml: !!binary value contains invalid base64 data"},
		{"+Inf", "a: .inf\n", "json: unsupported value: +Inf"},
		{"first non-finite in sorted key order", "b: .nan\na: [1, -.inf]\n", "json: unsupported value: -Inf"},
		// Precedence: go-yaml v2's errors (anywhere) before key conversion errors before json.Marshal's.
		{"decode error after a null key", "~: 1\nb: !!int x\n", "yaml: cannot decode !!str `x` as a !!int"},
		{"null key before a non-finite value", "a: .inf\n~: 1\n", `unsupported map key of type: %!s(<nil>), key: <nil>, value: 1`},
		{"complex key error before its own content's", "? {a: !!int x}\n: 1\n", "yaml: cannot decode !!str `x` as a !!int"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := toValue(t, tt.src, Options{})
			var e *Error
			if !errors.As(err, &e) || err.Error() != tt.want {
				t.Fatalf("got %#v, %v\nwant %q", v, err, tt.want)
			}
			if v != nil {
				t.Errorf("value %#v with a fatal error", v)
			}
			if e.Line == 0 && !strings.HasPrefix(tt.want, "json:") {
				t.Errorf("no position in %+v", e)
			}
		})
	}
}

// billionLaughs builds the classic alias bomb: levels of ten aliases of the level below.
func billionLaughs(levels int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// TestAliasBomb: a billion-laughs document fails after a bounded amount of work. The bound is
// checked on the converter's own counters (nodes decoded), not on time.
func TestAliasBomb(t *testing.T) {
	for _, opts := range []Options{{}, {MaxAliasNodes: -1, MaxAliasRatio: -1}} {
		doc := parse(t, billionLaughs(9)) // 10^9 nodes if expanded
		c := converter{opts: opts.withDefaults(), root: doc, ownNodes: -1}
		_, err := c.run(doc)
		var le *LimitError
		if !errors.As(err, &le) {
			t.Fatalf("%+v: got %v", opts, err)
		}
		if c.decoded > 20_000 {
			t.Errorf("%+v: stopped only after %d nodes", opts, c.decoded)
		}
		if !strings.Contains(err.Error(), "excessive aliasing") || le.Line == 0 || le.Alias == "" {
			t.Errorf("%+v: error %q (%+v)", opts, err, le)
		}
		t.Logf("%+v: %v after %d nodes", opts, err, c.decoded)
	}
}

// anchorDoc is a document of about own nodes that expands an anchor of width scalars n times.
func anchorDoc(width, n, filler int) string {
	var b strings.Builder
	b.WriteString("anchor: &a [")
	for i := range width {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("x")
	}
	b.WriteString("]\nfiller: [")
	for i := range filler {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("f")
	}
	b.WriteString("]\nuses:\n")
	for range n {
		b.WriteString("- *a\n")
	}
	return b.String()
}

func TestAliasLimits(t *testing.T) {
	// 10 expansions of a 600-node anchor in a document of about 1,630 nodes: 6,010 aliased nodes,
	// 79% of the decoded ones, so go-yaml v2 accepts it; so do the defaults (ratio 3.7).
	src := anchorDoc(600, 10, 1000)
	if _, err := toValue(t, src, Options{}); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	_, err := toValue(t, src, Options{MaxAliasNodes: 5000})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "MaxAliasNodes" || le.Alias != "a" || le.AliasLine != 12 || le.Line != 1 {
		t.Errorf("MaxAliasNodes: %v (%+v)", err, le)
	}
	_, err = toValue(t, src, Options{MaxAliasRatio: 2})
	if !errors.As(err, &le) || le.Limit != "MaxAliasRatio" || !strings.Contains(err.Error(), "line ") {
		t.Errorf("MaxAliasRatio: %v", err)
	}

	// 20 expansions of a 150-node anchor in a document of 178 nodes: go-yaml v2 accepts it
	// (3,020 of 3,218 decoded nodes, 94%), the default ratio of 10 does not.
	src = anchorDoc(150, 20, 0)
	_, err = toValue(t, src, Options{})
	if !errors.As(err, &le) || le.Limit != "MaxAliasRatio" {
		t.Errorf("default ratio: %v", err)
	}
	if _, err := toValue(t, src, Options{MaxAliasRatio: -1}); err != nil {
		t.Errorf("ratio off: %v", err)
	}

	// go-yaml v2's own rule applies whatever the options: 60 expansions of a 150-node anchor
	// (9,060 of 9,278 decoded nodes, 97.7%) pass; 150 expansions of a 1000-node anchor cross 99%
	// at about the 111th.
	off := Options{MaxAliasNodes: -1, MaxAliasRatio: -1}
	if _, err := toValue(t, anchorDoc(150, 60, 0), off); err != nil {
		t.Errorf("v2 rule, 60: %v", err)
	}
	_, err = toValue(t, anchorDoc(1000, 150, 0), off)
	if !errors.As(err, &le) || le.Limit != "go-yaml v2 alias ratio" {
		t.Errorf("v2 rule, 200: %v", err)
	}
}

func TestAllowedAliasShare(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want float64
	}{{0, 0.99}, {400_000, 0.99}, {2_200_000, 0.545}, {4_000_000, 0.10}, {10_000_000, 0.10}} {
		if got := allowedAliasShare(tt.n); fmt.Sprintf("%.4f", got) != fmt.Sprintf("%.4f", tt.want) {
			t.Errorf("%d: %v", tt.n, got)
		}
	}
}

func nested(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

func TestDepthLimit(t *testing.T) {
	// The reference accepts 10000 levels (the parser's limit too).
	if _, err := toValue(t, nested(10000), Options{}); err != nil {
		t.Fatalf("10000 levels: %v", err)
	}
	// Aliases can go deeper than the text: 6000 + 6000 levels.
	src := "a: &a " + nested(6000) + "\nb: " + strings.Repeat("[", 5999) + "*a" + strings.Repeat("]", 5999) + "\n"
	_, err := toValue(t, src, Options{})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "MaxDepth" || le.Line != 1 || le.Alias != "a" || le.AliasLine != 2 ||
		!strings.HasPrefix(err.Error(), "yaml: line 1: exceeded max depth of 10000") {
		t.Fatalf("got %v (%+v)", err, le)
	}
	if _, err := toValue(t, src, Options{MaxDepth: -1}); err != nil {
		t.Errorf("no limit: %v", err)
	}
	_, err = toValue(t, "a: {b: {c: 1}}\n", Options{MaxDepth: 3})
	if err != nil {
		t.Errorf("3 levels at MaxDepth 3: %v", err)
	}
	_, err = toValue(t, "a: {b: {c: [1]}}\n", Options{MaxDepth: 3})
	if !errors.As(err, &le) || le.Column != 12 {
		t.Errorf("4 levels at MaxDepth 3: %v", err)
	}
}

func TestToValueHandBuiltNodes(t *testing.T) {
	// Nodes not made by the parser must not panic.
	doc := parse(t, "a: 1\n")
	m := doc.Content[0]
	m.Content = append(m.Content, m.Content[0]) // odd number of children
	if _, err := ToValue(doc, Options{}); err == nil {
		t.Error("odd mapping accepted")
	}
	doc = parse(t, "b: &b 1\na: *b\n")
	doc.Content[0].Content[3].Alias = nil
	if _, err := ToValue(doc, Options{}); err == nil || !strings.Contains(err.Error(), "unknown anchor 'b'") {
		t.Errorf("alias without anchor: %v", err)
	}
	doc = parse(t, "- 1\n")
	doc.Content[0].Content[0] = nil
	if _, err := ToValue(doc, Options{}); err == nil {
		t.Error("nil child accepted")
	}
	if _, err := ToValue(nil, Options{}); err == nil {
		t.Error("nil node accepted")
	}
}
