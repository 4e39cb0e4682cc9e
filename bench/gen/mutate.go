package gen

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mutation is one mutated body.
type Mutation struct {
	// Kind is the mutation family (see Families and SyntaxFamilies), so that a failing
	// comparison names it.
	Kind string `json:"kind"`
	// Detail says what was done where, e.g. `duplicate "replicas" at spec`.
	Detail string `json:"detail"`
	// Syntax is true for the syntax families: Body is then not valid JSON (by design).
	Syntax bool `json:"syntax,omitempty"`
	// Body is the mutated body as raw JSON text.
	Body []byte `json:"-"`
}

// site is a value in the body, with what the schema says about it.
type site struct {
	node     *Node
	schema   *Schema // schema of the value; nil when unknown or schema-less
	path     string  // pruning-style path: a.b[0].c ("" for the root)
	depth    int     // nesting level of the value (the root object is 1)
	parent   *Node   // containing object or array; nil for the root
	index    int     // member or element index in parent
	known    bool    // the key is a property/additionalProperties entry (or the root)
	preserve bool    // an unknown value that is kept (under x-kubernetes-preserve-unknown-fields)
	skip     bool    // pruning is off here: unknown members are kept (preserve-unknown-fields, inherited by items)
	resource bool    // a resource root or embedded resource object
	meta     bool    // the metadata object of a resource
	rootMeta bool    // the root's metadata
	typeMeta bool    // apiVersion or kind of a resource
}

func joinPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// collect walks doc with the root schema and returns every value as a site.
func collect(doc *Node, root *Schema) []*site {
	rs := root
	if rs == nil {
		rs = &Schema{}
	}
	var out []*site
	var walk func(st *site)
	walk = func(st *site) {
		out = append(out, st)
		n, s := st.node, st.schema
		switch n.Kind {
		case Object:
			for i, m := range n.Members {
				k := m.Name()
				c := &site{node: m.Value, path: joinPath(st.path, k), depth: st.depth + 1, parent: n, index: i}
				switch {
				case st.resource && (k == "apiVersion" || k == "kind"):
					c.known, c.typeMeta = true, true
					out = append(out, c)
					continue
				case st.resource && k == "metadata":
					c.known, c.meta, c.rootMeta = true, true, st.parent == nil
					out = append(out, c)
					continue
				}
				switch {
				case s != nil && s.Properties[k] != nil:
					c.schema, c.known = s.Properties[k], true
				case s != nil && s.AdditionalProperties != nil:
					c.schema, c.known = s.apSchema(), true
				case st.skip, st.preserve:
					c.preserve = true
				}
				c.skip = c.schema != nil && c.schema.Preserve
				c.resource = c.schema != nil && c.schema.Embedded && m.Value.Kind == Object
				walk(c)
			}
		case Array:
			for i, e := range n.Elems {
				c := &site{node: e, path: st.path + "[" + strconv.Itoa(i) + "]", depth: st.depth + 1, parent: n, index: i, known: st.known}
				if s != nil {
					c.schema = s.Items
				}
				c.preserve = c.schema == nil && (st.preserve || st.skip)
				c.skip = c.schema != nil && (st.skip || c.schema.Preserve)
				c.resource = c.schema != nil && c.schema.Embedded && e.Kind == Object
				walk(c)
			}
		}
	}
	walk(&site{node: doc, schema: rs, depth: 1, known: true, resource: doc.Kind == Object, skip: rs.Preserve})
	return out
}

// family is one kind of mutation.
type family struct {
	name   string
	syntax bool
	// tree mutates the parsed body in place; text mutates the text. They return a detail and
	// whether the family applied.
	tree func(g *Gen, doc *Node, sites []*site, root *Schema) (string, bool)
	text func(g *Gen, body []byte) ([]byte, string)
}

// families, in a fixed order (the names are the Mutation.Kind tags):
//
//   - keys: unknown-field, unknown-subtree (at any depth, root and embedded resources included),
//     duplicate-key (same spelling, later value differs), duplicate-key-escaped (spelled with
//     \u escapes, e.g. "priv\u0069leged"), escaped-key (respelled, no duplicate), case-variant
//     (Spec, Replicas, apiversion, ...), case-variant-added (next to the original), odd-key
//     ("a.b", "a[0]", "", quotes, backslashes, TAB, LF, NUL, non-ASCII, escaped surrogates, a
//     300-byte key, "metadata"/"kind" again), invalid-utf8-key (raw bad bytes, sometimes two
//     keys that collide once replaced by U+FFFD), many-duplicates (95-134 duplicated keys, past
//     the 100-error cap), many-unknown (95-214 unknown keys), reorder;
//   - strings: invalid-utf8-string, surrogate-escape;
//   - nulls and defaults: null-nullable, null-non-nullable, null-defaulted (properties present
//     or not), drop-defaulted, null-array-element;
//   - types: wrong-type-scalar, wrong-type-array-for-object, wrong-type-object-for-array,
//     wrong-type-scalar-for-container, int-or-string-junk, additional-properties-object (object
//     values in additionalProperties maps), preserve-unknown-content, empty-containers,
//     non-object-body (valid JSON that is not an object);
//   - metadata: metadata-unknown (top level, ownerReferences[0], managedFields[0]),
//     metadata-case-variant, metadata-malformed (fatal types), metadata-timestamp,
//     metadata-ownerreferences, metadata-normalise (values the server re-renders),
//     metadata-null-or-wrong, metadata-duplicate;
//   - embedded resources: embedded-typemeta (apiVersion/kind of bad types or missing),
//     embedded-metadata; root-typemeta (non-string, missing, "a/b/c", other group/version/kind,
//     APIVersion/Kind case variants);
//   - numbers: number (1e3, 1.0, -0, -0.0, 2^63, 1e400, 1e-400, 30-digit integers, ...);
//   - depth: deep-nesting (20 to 5000 levels), depth-limit (total depth exactly 10000 or 10001);
//   - whitespace: random legal whitespace between tokens;
//   - syntax (the only ones that break JSON): syntax-truncate, syntax-trailing-garbage,
//     syntax-trailing-comma, syntax-missing-colon, syntax-control-char, syntax-bom,
//     syntax-single-quote, syntax-bad-escape, syntax-bad-literal, syntax-unbalanced,
//     syntax-empty, syntax-comment.
var families []family

func init() {
	families = []family{
		{name: "unknown-field", tree: mutUnknownField},
		{name: "unknown-subtree", tree: mutUnknownSubtree},
		{name: "duplicate-key", tree: mutDuplicateKey},
		{name: "duplicate-key-escaped", tree: mutDuplicateKeyEscaped},
		{name: "escaped-key", tree: mutEscapedKey},
		{name: "case-variant", tree: mutCaseVariant},
		{name: "case-variant-added", tree: mutCaseVariantAdded},
		{name: "odd-key", tree: mutOddKey},
		{name: "invalid-utf8-key", tree: mutInvalidUTF8Key},
		{name: "invalid-utf8-string", tree: mutInvalidUTF8String},
		{name: "surrogate-escape", tree: mutSurrogate},
		{name: "null-nullable", tree: mutNullWhere("nullable", func(s *Schema) bool { return s.Nullable })},
		{name: "null-non-nullable", tree: mutNullWhere("non-nullable", func(s *Schema) bool { return !s.Nullable && s.Default == nil })},
		{name: "null-defaulted", tree: mutNullWhere("defaulted", func(s *Schema) bool { return s.Default != nil })},
		{name: "drop-defaulted", tree: mutDropDefaulted},
		{name: "null-array-element", tree: mutNullElement},
		{name: "wrong-type-scalar", tree: mutWrongScalar},
		{name: "wrong-type-array-for-object", tree: mutArrayForObject},
		{name: "wrong-type-object-for-array", tree: mutObjectForArray},
		{name: "wrong-type-scalar-for-container", tree: mutScalarForContainer},
		{name: "int-or-string-junk", tree: mutIntOrString},
		{name: "additional-properties-object", tree: mutAPObject},
		{name: "preserve-unknown-content", tree: mutPreserve},
		{name: "metadata-unknown", tree: mutMetaUnknown},
		{name: "metadata-case-variant", tree: mutMetaCase},
		{name: "metadata-malformed", tree: mutMetaMalformed},
		{name: "metadata-timestamp", tree: mutMetaTimestamp},
		{name: "metadata-ownerreferences", tree: mutMetaOwnerRefs},
		{name: "metadata-normalise", tree: mutMetaNormalise},
		{name: "metadata-null-or-wrong", tree: mutMetaWhole},
		{name: "metadata-duplicate", tree: mutMetaDuplicate},
		{name: "embedded-typemeta", tree: mutEmbeddedTypeMeta},
		{name: "embedded-metadata", tree: mutEmbeddedMeta},
		{name: "root-typemeta", tree: mutRootTypeMeta},
		{name: "number", tree: mutNumber},
		{name: "value-boundary", tree: mutValueBoundary},
		{name: "deep-nesting", tree: mutDeepNesting},
		{name: "depth-limit", tree: mutDepthLimit},
		{name: "many-duplicates", tree: mutManyDuplicates},
		{name: "many-unknown", tree: mutManyUnknown},
		{name: "reorder", tree: mutReorder},
		{name: "whitespace"}, // handled in apply: random whitespace when writing
		{name: "empty-containers", tree: mutEmptyContainers},
		{name: "non-object-body", tree: func(g *Gen, doc *Node, _ []*site, _ *Schema) (string, bool) {
			b := pick(g, []string{"null", "[]", "1", `"x"`, "true", `[{"apiVersion":"v1","kind":"K"}]`})
			*doc = *RawNode(b)
			return "body " + b, true
		}},

		{name: "syntax-truncate", syntax: true, text: synTruncate},
		{name: "syntax-trailing-garbage", syntax: true, text: synTrailing},
		{name: "syntax-trailing-comma", syntax: true, text: synTrailingComma},
		{name: "syntax-missing-colon", syntax: true, text: synMissingColon},
		{name: "syntax-control-char", syntax: true, text: synControlChar},
		{name: "syntax-bom", syntax: true, text: func(_ *Gen, b []byte) ([]byte, string) {
			return append([]byte("\xef\xbb\xbf"), b...), "UTF-8 BOM prepended"
		}},
		{name: "syntax-single-quote", syntax: true, text: synSingleQuote},
		{name: "syntax-bad-escape", syntax: true, text: synBadEscape},
		{name: "syntax-bad-literal", syntax: true, text: synBadLiteral},
		{name: "syntax-unbalanced", syntax: true, text: synUnbalanced},
		{name: "syntax-empty", syntax: true, text: func(g *Gen, _ []byte) ([]byte, string) {
			b := pick(g, []string{"", " ", "\n", "\t\r\n"})
			return []byte(b), fmt.Sprintf("body %q", b)
		}},
		{name: "syntax-comment", syntax: true, text: func(_ *Gen, b []byte) ([]byte, string) {
			return append([]byte("/* c */"), b...), "comment before the body"
		}},
	}
}

// Families returns the names of the mutation families (described at the families variable in
// mutate.go) that keep the body valid JSON (invalid UTF-8 bytes aside: invalid-utf8-key and
// invalid-utf8-string write raw invalid bytes, which the reference decoders accept and replace
// with U+FFFD; and depth-limit bodies one level over 10000, which encoding/json rejects).
func Families() []string {
	var out []string
	for _, f := range families {
		if !f.syntax {
			out = append(out, f.name)
		}
	}
	return out
}

// SyntaxFamilies returns the names of the families that make the body invalid JSON on purpose.
func SyntaxFamilies() []string {
	var out []string
	for _, f := range families {
		if f.syntax {
			out = append(out, f.name)
		}
	}
	return out
}

// Apply applies one mutation of the named family to body (a JSON object) for the root schema
// s (nil: no schema). ok is false when the family has nothing to work on in this body.
func (g *Gen) Apply(body []byte, s *Schema, name string) (m Mutation, ok bool, err error) {
	i := slices.IndexFunc(families, func(f family) bool { return f.name == name })
	if i < 0 {
		return Mutation{}, false, fmt.Errorf("gen: unknown mutation family %q", name)
	}
	f := families[i]
	if f.syntax {
		out, detail := f.text(g, body)
		return Mutation{Kind: f.name, Detail: detail, Syntax: true, Body: out}, true, nil
	}
	doc, err := Parse(body)
	if err != nil {
		return Mutation{}, false, err
	}
	if f.name == "whitespace" {
		var b strings.Builder
		doc.write(&b, func(b *strings.Builder) {
			if g.chance(0.3) {
				b.WriteString(pick(g, []string{" ", "\n", "\t", "\r\n", "  "}))
			}
		})
		return Mutation{Kind: f.name, Detail: "random whitespace between tokens", Body: []byte(b.String())}, true, nil
	}
	detail, ok := f.tree(g, doc, collect(doc, s), s)
	if !ok {
		return Mutation{}, false, nil
	}
	return Mutation{Kind: f.name, Detail: detail, Body: doc.Write()}, true, nil
}

// Mutate returns n mutations of body, each from a family picked at random among Families()
// (families that do not apply to the body are skipped).
func (g *Gen) Mutate(body []byte, s *Schema, n int) ([]Mutation, error) {
	return g.mutate(body, s, n, Families())
}

// MutateSyntax returns n mutations from SyntaxFamilies().
func (g *Gen) MutateSyntax(body []byte, n int) ([]Mutation, error) {
	return g.mutate(body, nil, n, SyntaxFamilies())
}

func (g *Gen) mutate(body []byte, s *Schema, n int, names []string) ([]Mutation, error) {
	if _, err := Parse(body); err != nil {
		return nil, err
	}
	var out []Mutation
	for len(out) < n {
		applied := false
		for range 50 {
			m, ok, err := g.Apply(body, s, pick(g, names))
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, m)
				applied = true
				break
			}
		}
		if !applied {
			return out, fmt.Errorf("gen: no mutation family applies to this body")
		}
	}
	return out, nil
}

// ---- helpers ----

func filter(sites []*site, pred func(*site) bool) []*site {
	var out []*site
	for _, s := range sites {
		if pred(s) {
			out = append(out, s)
		}
	}
	return out
}

func isObject(s *site) bool { return s.node.Kind == Object }

// insertAt inserts a member at a random position of object o.
func (g *Gen) insertAt(o *Node, m Member) {
	pos := g.intn(len(o.Members) + 1)
	o.Members = slices.Insert(o.Members, pos, m)
}

// unknownKey returns a key that the schema of an object site does not know.
func (g *Gen) unknownKey(st *site) string {
	for {
		k := pick(g, []string{"zz", "unknownField", "extra", "x-extra", "foo", "bogus", "status2", "specs"}) + strconv.Itoa(g.intn(100))
		// Under additionalProperties every key is known: the new key is an entry then.
		if st.schema == nil || st.schema.AdditionalProperties != nil {
			return k
		}
		if _, known := st.schema.child(k, st.resource); !known {
			return k
		}
	}
}

func (g *Gen) scalar() *Node {
	switch g.intn(5) {
	case 0:
		return Str(pick(g, words))
	case 1:
		return Int(int64(g.intn(1000)))
	case 2:
		return BoolNode(g.chance(0.5))
	case 3:
		return NullNode()
	default:
		return Num("1.5")
	}
}

func where(st *site) string {
	if st.path == "" {
		return "the root"
	}
	return st.path
}

// propSlot is a property of an object site (present or not) with its schema.
type propSlot struct {
	obj  *site
	name string
	s    *Schema
}

// slots lists every property of every schema'd object site, present in the body or not.
func slots(sites []*site, pred func(*Schema) bool) []propSlot {
	var out []propSlot
	for _, st := range sites {
		if st.node.Kind != Object || st.schema == nil {
			continue
		}
		for _, k := range st.schema.Names {
			if st.resource && (k == "apiVersion" || k == "kind" || k == "metadata") {
				continue
			}
			if p := st.schema.Properties[k]; pred(p) {
				out = append(out, propSlot{st, k, p})
			}
		}
	}
	return out
}

// ---- tree families ----

func mutUnknownField(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	objs := filter(sites, func(s *site) bool { return isObject(s) && !s.meta })
	if len(objs) == 0 {
		return "", false
	}
	st := pick(g, objs)
	k := g.unknownKey(st)
	g.insertAt(st.node, Member{Key: Quote(k), Value: g.scalar()})
	return fmt.Sprintf("unknown key %q at %s", k, where(st)), true
}

func mutUnknownSubtree(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	objs := filter(sites, func(s *site) bool { return isObject(s) && !s.meta })
	if len(objs) == 0 {
		return "", false
	}
	st := pick(g, objs)
	k := g.unknownKey(st)
	v := Obj("a", Int(1), "b", Arr(Obj("c", Str("x"), "c2", Obj("d", NullNode()))), "spec", Obj("replicas", Int(1)))
	g.insertAt(st.node, Member{Key: Quote(k), Value: v})
	return fmt.Sprintf("unknown key %q with a subtree at %s", k, where(st)), true
}

// differentValue returns a value different from n (same kind when possible).
func (g *Gen) differentValue(n *Node) *Node {
	switch n.Kind {
	case String:
		return Str(decodeString(n.Text) + "-dup")
	case Number:
		return Int(int64(g.intn(1000)) + 1000)
	case Bool:
		return BoolNode(n.Text != "true")
	case Object:
		c := n.Clone()
		c.Members = append(c.Members, Member{Key: `"dupOnly"`, Value: Int(1)})
		return c
	case Array:
		c := n.Clone()
		c.Elems = append(c.Elems, NullNode())
		return c
	}
	return Str("was-null")
}

// memberSites are values that are object members (not array elements, not the root).
func memberSites(sites []*site) []*site {
	return filter(sites, func(s *site) bool { return s.parent != nil && s.parent.Kind == Object })
}

func mutDuplicateKey(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	ms := memberSites(sites)
	if len(ms) == 0 {
		return "", false
	}
	st := pick(g, ms)
	m := st.parent.Members[st.index]
	pos := st.index + 1 + g.intn(len(st.parent.Members)-st.index)
	st.parent.Members = slices.Insert(st.parent.Members, pos, Member{Key: m.Key, Value: g.differentValue(m.Value)})
	return fmt.Sprintf("duplicate %s at %s", m.Key, where(st)), true
}

// escapeSome spells k with one or all of its ASCII letters as \u escapes.
func (g *Gen) escapeSome(k string) (string, bool) {
	var letters []int
	for i, r := range []rune(k) {
		if r < 0x80 && unicode.IsLetter(r) {
			letters = append(letters, i)
		}
	}
	if len(letters) == 0 {
		return "", false
	}
	all := g.chance(0.25)
	one := pick(g, letters)
	return QuoteEscaped(k, func(i int, r rune) bool { return (all && r < 0x80 && unicode.IsLetter(r)) || i == one }), true
}

func mutDuplicateKeyEscaped(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	ms := memberSites(sites)
	for range 10 {
		if len(ms) == 0 {
			return "", false
		}
		st := pick(g, ms)
		m := st.parent.Members[st.index]
		key, ok := g.escapeSome(m.Name())
		if !ok {
			continue
		}
		pos := st.index + 1 + g.intn(len(st.parent.Members)-st.index)
		st.parent.Members = slices.Insert(st.parent.Members, pos, Member{Key: key, Value: g.differentValue(m.Value)})
		return fmt.Sprintf("duplicate %s spelled %s at %s", m.Key, key, where(st)), true
	}
	return "", false
}

func mutEscapedKey(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	ms := memberSites(sites)
	for range 10 {
		if len(ms) == 0 {
			return "", false
		}
		st := pick(g, ms)
		m := &st.parent.Members[st.index]
		key, ok := g.escapeSome(m.Name())
		if !ok {
			continue
		}
		old := m.Key
		m.Key = key
		return fmt.Sprintf("key %s respelled %s at %s", old, key, where(st)), true
	}
	return "", false
}

// caseVariant returns a different-case spelling of k, or "" if k has no letters.
func (g *Gen) caseVariant(k string) string {
	var vs []string
	r, size := utf8.DecodeRuneInString(k)
	if unicode.IsLower(r) {
		vs = append(vs, string(unicode.ToUpper(r))+k[size:])
	}
	if u := strings.ToUpper(k); u != k {
		vs = append(vs, u)
	}
	if l := strings.ToLower(k); l != k {
		vs = append(vs, l)
	}
	if len(vs) == 0 {
		return ""
	}
	return pick(g, vs)
}

func knownMembers(sites []*site) []*site {
	return filter(memberSites(sites), func(s *site) bool { return s.known && !s.preserve })
}

func mutCaseVariant(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	for _, st := range shuffled(g, knownMembers(sites)) {
		m := &st.parent.Members[st.index]
		v := g.caseVariant(m.Name())
		if v == "" {
			continue
		}
		old := m.Key
		m.Key = Quote(v)
		return fmt.Sprintf("key %s renamed %q at %s", old, v, where(st)), true
	}
	return "", false
}

func mutCaseVariantAdded(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	for _, st := range shuffled(g, knownMembers(sites)) {
		m := st.parent.Members[st.index]
		v := g.caseVariant(m.Name())
		if v == "" {
			continue
		}
		pos := st.index + g.intn(2) // before or after the original
		st.parent.Members = slices.Insert(st.parent.Members, pos, Member{Key: Quote(v), Value: g.differentValue(m.Value)})
		return fmt.Sprintf("key %q added next to %s at %s", v, m.Key, where(st)), true
	}
	return "", false
}

func shuffled[T any](g *Gen, xs []T) []T {
	out := slices.Clone(xs)
	g.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// oddKeys are written with Quote (control characters escaped) unless listed in rawOddKeys.
var oddKeys = []string{"a.b", "a[0]", "[0]", "", " ", ".", "..", "a.", `q"uote`, `back\slash`, "t\tab", "new\nline", "\x01", "\x00nul",
	"ключ", "é", "日本", "😀", "a/b", "~1", "$ref", "__proto__", "metadata", "apiVersion", "kind", "null", "0", "-1",
	strings.Repeat("k", 300)}

// rawOddKeys are key tokens written as is.
var rawOddKeys = []string{`"\u00e9"`, `"\u0041"`, `"\ud83d\ude00"`, `"\ud800"`, `"\udfff"`, `"a\/b"`, `"\u0000"`}

func mutOddKey(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	objs := filter(sites, func(s *site) bool { return isObject(s) && !s.meta })
	if len(objs) == 0 {
		return "", false
	}
	st := pick(g, objs)
	var key string
	if g.chance(0.75) {
		key = Quote(pick(g, oddKeys))
	} else {
		key = pick(g, rawOddKeys)
	}
	// Some odd keys are known ones ("metadata", "kind" at a resource): a duplicate then.
	g.insertAt(st.node, Member{Key: key, Value: g.scalar()})
	return fmt.Sprintf("odd key %s at %s", key, where(st)), true
}

var invalidUTF8 = []string{"\xff", "\xfe", "\xc3", "\xed\xa0\x80", "\xe2\x82", "\x80", "\xc0\xaf"}

func mutInvalidUTF8Key(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	objs := filter(sites, func(s *site) bool { return isObject(s) && !s.meta })
	if len(objs) == 0 {
		return "", false
	}
	st := pick(g, objs)
	a, b := pick(g, invalidUTF8), pick(g, invalidUTF8)
	k1 := "k" + a
	g.insertAt(st.node, Member{Key: Quote(k1), Value: Int(1)})
	if g.chance(0.5) {
		k2 := "k" + b // collides with k1 after U+FFFD replacement when both are one bad sequence
		g.insertAt(st.node, Member{Key: Quote(k2), Value: Int(2)})
		return fmt.Sprintf("keys %q and %q at %s", k1, k2, where(st)), true
	}
	return fmt.Sprintf("key %q at %s", k1, where(st)), true
}

func stringSites(sites []*site) []*site {
	return filter(sites, func(s *site) bool { return s.node.Kind == String && !s.typeMeta })
}

func mutInvalidUTF8String(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	ss := stringSites(sites)
	if len(ss) == 0 {
		return "", false
	}
	st := pick(g, ss)
	v := decodeString(st.node.Text)
	bad := pick(g, invalidUTF8)
	pos := g.intn(len(v) + 1)
	st.node.Text = Quote(v[:pos] + bad + v[pos:])
	return fmt.Sprintf("invalid UTF-8 %q in the string at %s", bad, where(st)), true
}

func mutSurrogate(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	ss := stringSites(sites)
	if len(ss) == 0 {
		return "", false
	}
	st := pick(g, ss)
	esc := pick(g, []string{`\ud800`, `\udfff`, `\ud83d\ude00`, `\ude00\ud83d`, `\ud800\u0041`, `\u00e9`, `\u0000`})
	t := st.node.Text
	st.node.Text = t[:len(t)-1] + esc + `"`
	return fmt.Sprintf("escape %s appended to the string at %s", esc, where(st)), true
}

func mutNullWhere(what string, pred func(*Schema) bool) func(*Gen, *Node, []*site, *Schema) (string, bool) {
	return func(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
		ss := slots(sites, pred)
		if len(ss) == 0 {
			return "", false
		}
		sl := pick(g, ss)
		setMember(sl.obj.node, sl.name, NullNode())
		return fmt.Sprintf("%s field %s set to null", what, joinPath(sl.obj.path, sl.name)), true
	}
}

func mutDropDefaulted(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	ms := filter(memberSites(sites), func(s *site) bool { return s.schema != nil && s.schema.Default != nil })
	if len(ms) == 0 {
		return "", false
	}
	st := pick(g, ms)
	st.parent.Members = slices.Delete(st.parent.Members, st.index, st.index+1)
	return fmt.Sprintf("defaulted field %s removed", st.path), true
}

func mutNullElement(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	as := filter(sites, func(s *site) bool { return s.node.Kind == Array })
	if len(as) == 0 {
		return "", false
	}
	st := pick(g, as)
	pos := g.intn(len(st.node.Elems) + 1)
	st.node.Elems = slices.Insert(st.node.Elems, pos, NullNode())
	return fmt.Sprintf("null element at %s[%d]", st.path, pos), true
}

func replaceOrSet(g *Gen, sites []*site, pred func(*Schema) bool, value func(*Schema) *Node, what string) (string, bool) {
	// Prefer values present in the body, else insert into a slot.
	present := filter(sites, func(s *site) bool { return s.known && s.schema != nil && pred(s.schema) && s.parent != nil })
	if len(present) > 0 && g.chance(0.7) {
		st := pick(g, present)
		*st.node = *value(st.schema)
		return fmt.Sprintf("%s at %s", what, st.path), true
	}
	ss := slots(sites, pred)
	if len(ss) == 0 {
		return "", false
	}
	sl := pick(g, ss)
	setMember(sl.obj.node, sl.name, value(sl.s))
	return fmt.Sprintf("%s at %s", what, joinPath(sl.obj.path, sl.name)), true
}

func mutWrongScalar(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	return replaceOrSet(g, sites, func(s *Schema) bool {
		return s.Type == "integer" || s.Type == "number" || s.Type == "boolean" || s.Type == "string"
	}, func(s *Schema) *Node {
		if s.Type == "string" {
			return pick(g, []*Node{Int(5), BoolNode(true), Num("1.5")})
		}
		return pick(g, []*Node{Str("3"), Str("true"), Str(""), BoolNode(false), Num("2.5")})
	}, "wrong scalar type")
}

func mutArrayForObject(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	return replaceOrSet(g, sites, func(s *Schema) bool { return s.Type == "object" && !s.IntOrString }, func(*Schema) *Node {
		return pick(g, []*Node{Arr(), Arr(Obj("a", Int(1)), Str("s")), Arr(Arr(Obj("x", Int(1))))})
	}, "array where an object is expected")
}

func mutObjectForArray(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	return replaceOrSet(g, sites, func(s *Schema) bool { return s.Type == "array" }, func(*Schema) *Node {
		return pick(g, []*Node{Obj(), Obj("0", Obj("x", Str("a"))), Obj("items", Arr(Int(1)))})
	}, "object where an array is expected")
}

func mutScalarForContainer(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	return replaceOrSet(g, sites, func(s *Schema) bool { return s.Type == "object" || s.Type == "array" }, func(*Schema) *Node {
		return pick(g, []*Node{Str("x"), Int(0), BoolNode(true), Num("1e3")})
	}, "scalar where a container is expected")
}

func mutIntOrString(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	return replaceOrSet(g, sites, func(s *Schema) bool { return s.IntOrString }, func(*Schema) *Node {
		return pick(g, []*Node{Obj("a", Int(1)), Arr(Int(1), Obj("b", Int(2))), Num("1.5"), BoolNode(true), Num("1e3"), Str("")})
	}, "odd int-or-string value")
}

func mutAPObject(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	objs := filter(sites, func(s *site) bool { return isObject(s) && s.schema != nil && s.schema.AdditionalProperties != nil })
	if len(objs) == 0 {
		return "", false
	}
	st := pick(g, objs)
	k := pick(g, []string{"k", "a.b", "x[0]", "entry"}) + strconv.Itoa(g.intn(10))
	g.insertAt(st.node, Member{Key: Quote(k), Value: Obj("n", Int(1), "o", Obj("deep", Str("v")), "l", Arr(Obj("e", Int(1)), Int(2)))})
	return fmt.Sprintf("object value under additionalProperties key %q at %s", k, where(st)), true
}

func mutPreserve(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	objs := filter(sites, func(s *site) bool {
		return isObject(s) && (s.skip || s.preserve)
	})
	if len(objs) == 0 {
		return "", false
	}
	st := pick(g, objs)
	k := "free" + strconv.Itoa(g.intn(100))
	g.insertAt(st.node, Member{Key: Quote(k), Value: g.anyValue(2)})
	return fmt.Sprintf("free content %q under preserve-unknown-fields at %s", k, where(st)), true
}

// rootMeta returns the root metadata object, creating it if needed (and if the root is an
// object).
func rootMeta(doc *Node) *Node {
	if doc.Kind != Object {
		return nil
	}
	m := doc.Lookup("metadata")
	if m == nil || m.Kind != Object {
		m = Obj("name", Str("gen"))
		setMember(doc, "metadata", m)
	}
	return m
}

func mutMetaUnknown(g *Gen, doc *Node, _ []*site, _ *Schema) (string, bool) {
	m := rootMeta(doc)
	if m == nil {
		return "", false
	}
	switch g.intn(4) {
	case 0:
		setMember(m, "ownerReferences", Arr(Obj("apiVersion", Str("v1"), "kind", Str("ConfigMap"), "name", Str("o"), "uid", Str("u1"), "extra", Int(1))))
		return "ownerReferences[0] with an extra key", true
	case 1:
		setMember(m, "managedFields", Arr(Obj("manager", Str("m"), "operation", Str("Apply"), "bogus", Int(1), "fieldsType", Str("FieldsV1"), "fieldsV1", Obj("f:spec", Obj("x", Int(1))))))
		return "managedFields[0] with an unknown key", true
	default:
		k := pick(g, []string{"foo", "zz", "x.y", "spec", "status", "uidd", "label"})
		g.insertAt(m, Member{Key: Quote(k), Value: g.scalar()})
		return fmt.Sprintf("unknown metadata key %q", k), true
	}
}

func mutMetaCase(g *Gen, doc *Node, _ []*site, _ *Schema) (string, bool) {
	m := rootMeta(doc)
	if m == nil {
		return "", false
	}
	k := pick(g, []string{"Name", "Labels", "Namespace", "NAME", "generateName2", "Annotations", "UID"})
	v := Str("x")
	if k == "Labels" || k == "Annotations" {
		v = Obj("a", Str("b"))
	}
	g.insertAt(m, Member{Key: Quote(k), Value: v})
	return fmt.Sprintf("metadata key %q", k), true
}

var metaMalformed = []struct {
	key, value string
}{
	{"labels", `{"a":1}`}, {"labels", `[]`}, {"labels", `"x"`}, {"annotations", `{"a":{}}`}, {"name", `5`}, {"name", `{}`},
	{"namespace", `true`}, {"finalizers", `"x"`}, {"finalizers", `[1]`}, {"generation", `1.5`}, {"generation", `"1"`},
	{"generation", `1e400`}, {"deletionGracePeriodSeconds", `"x"`}, {"uid", `1`}, {"ownerReferences", `{}`},
	{"ownerReferences", `[{"controller":"yes"}]`}, {"managedFields", `[{"time":"noon"}]`}, {"resourceVersion", `7`},
}

func mutMetaMalformed(g *Gen, doc *Node, _ []*site, _ *Schema) (string, bool) {
	m := rootMeta(doc)
	if m == nil {
		return "", false
	}
	c := pick(g, metaMalformed)
	setMember(m, c.key, RawNode(c.value))
	return fmt.Sprintf("metadata.%s = %s", c.key, c.value), true
}

func mutMetaTimestamp(g *Gen, doc *Node, _ []*site, _ *Schema) (string, bool) {
	m := rootMeta(doc)
	if m == nil {
		return "", false
	}
	k := pick(g, []string{"creationTimestamp", "deletionTimestamp"})
	v := pick(g, []string{`"yesterday"`, `"2020-01-01T01:02:03.999+02:00"`, `"2020-01-01"`, `null`, `5`, `"2020-01-01T00:00:00Z"`,
		`"2020-01-01T00:00:00.123456789Z"`, `""`, `"2020-13-01T00:00:00Z"`, `"0001-01-01T00:00:00Z"`})
	setMember(m, k, RawNode(v))
	return fmt.Sprintf("metadata.%s = %s", k, v), true
}

func mutMetaOwnerRefs(g *Gen, doc *Node, _ []*site, _ *Schema) (string, bool) {
	m := rootMeta(doc)
	if m == nil {
		return "", false
	}
	v := pick(g, []string{`[{"uid":"u"}]`, `[null]`, `[]`, `[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","controller":true,"blockOwnerDeletion":false,"x":1}]`,
		`[{"apiVersion":"v1","kind":"K","name":"n","uid":"u"},{"apiVersion":"v1","kind":"K","name":"n","uid":"u"}]`, `[{"Kind":"K"}]`})
	setMember(m, "ownerReferences", RawNode(v))
	return "metadata.ownerReferences = " + v, true
}

func mutMetaNormalise(g *Gen, doc *Node, _ []*site, _ *Schema) (string, bool) {
	m := rootMeta(doc)
	if m == nil {
		return "", false
	}
	c := pick(g, []struct{ k, v string }{{"labels", "null"}, {"annotations", "{}"}, {"finalizers", "[]"}, {"generation", "2.0"},
		{"generation", "1e1"}, {"annotations", `{"a":null}`}, {"labels", "{}"}, {"generateName", `""`}, {"managedFields", "[]"},
		{"finalizers", `["a","a"]`}, {"generation", "-0"}})
	setMember(m, c.k, RawNode(c.v))
	return fmt.Sprintf("metadata.%s = %s", c.k, c.v), true
}

func mutMetaWhole(g *Gen, doc *Node, _ []*site, _ *Schema) (string, bool) {
	if doc.Kind != Object {
		return "", false
	}
	v := pick(g, []string{"null", `"x"`, "[]", "{}", "1", "DELETE"})
	if v == "DELETE" {
		doc.Members = slices.DeleteFunc(doc.Members, func(m Member) bool { return m.Name() == "metadata" })
		return "metadata removed", true
	}
	setMember(doc, "metadata", RawNode(v))
	return "metadata = " + v, true
}

func mutMetaDuplicate(g *Gen, doc *Node, _ []*site, _ *Schema) (string, bool) {
	m := rootMeta(doc)
	if m == nil || len(m.Members) == 0 {
		return "", false
	}
	i := g.intn(len(m.Members))
	mem := m.Members[i]
	m.Members = slices.Insert(m.Members, i+1+g.intn(len(m.Members)-i), Member{Key: mem.Key, Value: g.differentValue(mem.Value)})
	return "duplicate metadata key " + mem.Key, true
}

// embeddedSites lists the embedded-resource objects present in the body and the embedded
// property slots that are absent.
func embeddedTargets(g *Gen, sites []*site) (*Node, string, bool) {
	present := filter(sites, func(s *site) bool { return s.resource && s.parent != nil })
	if len(present) > 0 && g.chance(0.7) {
		st := pick(g, present)
		return st.node, st.path, true
	}
	ss := slots(sites, func(s *Schema) bool { return s.Embedded })
	if len(ss) == 0 {
		if len(present) == 0 {
			return nil, "", false
		}
		st := pick(g, present)
		return st.node, st.path, true
	}
	sl := pick(g, ss)
	o := Obj("apiVersion", Str("v1"), "kind", Str("ConfigMap"), "metadata", Obj("name", Str("e")))
	setMember(sl.obj.node, sl.name, o)
	return o, joinPath(sl.obj.path, sl.name), true
}

func mutEmbeddedTypeMeta(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	o, p, ok := embeddedTargets(g, sites)
	if !ok {
		return "", false
	}
	k := pick(g, []string{"apiVersion", "kind"})
	v := pick(g, []string{"5", "{}", "null", "true", "[]", `""`, "DELETE"})
	if v == "DELETE" {
		o.Members = slices.DeleteFunc(o.Members, func(m Member) bool { return m.Name() == k })
		return fmt.Sprintf("%s.%s removed", p, k), true
	}
	setMember(o, k, RawNode(v))
	return fmt.Sprintf("%s.%s = %s", p, k, v), true
}

func mutEmbeddedMeta(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	o, p, ok := embeddedTargets(g, sites)
	if !ok {
		return "", false
	}
	v := pick(g, []string{`{"name":"n","foo":1}`, `{"name":5}`, `null`, `"x"`, `{"labels":{"a":1}}`, `{"Name":"n"}`,
		`{"creationTimestamp":null,"name":"n"}`, `{"ownerReferences":[{"uid":"u","x":1}]}`, `{"name":"a","name":"b"}`})
	setMember(o, "metadata", RawNode(v))
	return fmt.Sprintf("%s.metadata = %s", p, v), true
}

func mutRootTypeMeta(g *Gen, doc *Node, _ []*site, _ *Schema) (string, bool) {
	if doc.Kind != Object {
		return "", false
	}
	av, kind := "", ""
	if n := doc.Lookup("apiVersion"); n != nil && n.Kind == String {
		av = decodeString(n.Text)
	}
	if n := doc.Lookup("kind"); n != nil && n.Kind == String {
		kind = decodeString(n.Text)
	}
	type change struct{ k, v string }
	cs := []change{{"kind", "5"}, {"apiVersion", "5"}, {"apiVersion", "{}"}, {"kind", "null"}, {"kind", "DELETE"},
		{"apiVersion", "DELETE"}, {"apiVersion", `"a/b/c"`}, {"apiVersion", `""`}, {"kind", `""`},
		{"APIVersion", `"a/b/c"`}, {"Kind", Quote(kind)}, {"APIVersion", Quote(av)}, {"apiVersion", `"v1"`}}
	if parts := strings.SplitN(av, "/", 2); len(parts) == 2 && parts[0] != "" {
		grp, ver := parts[0], parts[1]
		cs = append(cs, change{"apiVersion", Quote(strings.ToUpper(grp[:1]) + grp[1:] + "/" + ver)},
			change{"apiVersion", Quote(grp)}, change{"apiVersion", Quote(grp + "/v999")})
	}
	if kind != "" {
		cs = append(cs, change{"kind", Quote(strings.ToLower(kind))}, change{"kind", Quote(kind + "List")})
	}
	c := pick(g, cs)
	switch {
	case c.v == "DELETE":
		doc.Members = slices.DeleteFunc(doc.Members, func(m Member) bool { return m.Name() == c.k })
		return c.k + " removed", true
	case c.k == "APIVersion" || c.k == "Kind":
		g.insertAt(doc, Member{Key: Quote(c.k), Value: RawNode(c.v)})
		return fmt.Sprintf("%s = %s added", c.k, c.v), true
	}
	setMember(doc, c.k, RawNode(c.v))
	return fmt.Sprintf("%s = %s", c.k, c.v), true
}

var numberLiterals = []string{"1e3", "1E3", "1.0", "-0", "-0.0", "0.0", "9223372036854775807", "9223372036854775808",
	"-9223372036854775808", "-9223372036854775809", "123456789012345678901234567890", "1e400", "-1e400", "1e-400",
	"1.5e300", "0.1", "1E+2", "1e-7", "100000000000000000000", "4.9e-324", "1.7976931348623157e308", "2.0"}

func mutNumber(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	lit := pick(g, numberLiterals)
	nums := filter(sites, func(s *site) bool { return s.node.Kind == Number && s.parent != nil })
	if len(nums) > 0 && g.chance(0.6) {
		st := pick(g, nums)
		st.node.Text = lit
		return fmt.Sprintf("number %s at %s", lit, st.path), true
	}
	d, ok := replaceOrSet(g, sites, func(s *Schema) bool { return s.Type == "integer" || s.Type == "number" || s.IntOrString },
		func(*Schema) *Node { return Num(lit) }, "number "+lit)
	if ok {
		return d, true
	}
	objs := filter(sites, func(s *site) bool { return isObject(s) && !s.meta })
	if len(objs) == 0 {
		return "", false
	}
	st := pick(g, objs)
	k := g.unknownKey(st)
	g.insertAt(st.node, Member{Key: Quote(k), Value: Num(lit)})
	return fmt.Sprintf("number %s under unknown key %q at %s", lit, k, where(st)), true
}

// nested returns n levels of arrays or objects around a scalar.
func (g *Gen) nested(n int) *Node {
	var open, close string
	switch g.intn(3) {
	case 0:
		open, close = "[", "]"
	case 1:
		open, close = `{"a":`, "}"
	default:
		open, close = `[{"a":`, "}]"
		return RawNode(strings.Repeat(open, n/2) + strings.Repeat("[", n%2) + "1" + strings.Repeat("]", n%2) + strings.Repeat(close, n/2))
	}
	return RawNode(strings.Repeat(open, n) + "1" + strings.Repeat(close, n))
}

// deepTarget prefers a preserve-unknown-fields object (content is kept), else any object.
func deepTarget(g *Gen, sites []*site) *site {
	objs := filter(sites, func(s *site) bool {
		return isObject(s) && (s.skip || s.preserve) && !s.meta
	})
	if len(objs) == 0 || g.chance(0.3) {
		objs = filter(sites, func(s *site) bool { return isObject(s) && !s.meta })
	}
	if len(objs) == 0 {
		return nil
	}
	return pick(g, objs)
}

func mutDeepNesting(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	st := deepTarget(g, sites)
	if st == nil {
		return "", false
	}
	n := pick(g, []int{20, 100, 1000, 5000})
	k := "deep" + strconv.Itoa(g.intn(10))
	g.insertAt(st.node, Member{Key: Quote(k), Value: g.nested(n)})
	return fmt.Sprintf("%d nested levels under %q at %s", n, k, where(st)), true
}

// DepthLimit is the JSON nesting limit of the reference decoders (every '[' or '{' counts,
// the root included).
const DepthLimit = 10000

func mutDepthLimit(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	st := deepTarget(g, sites)
	if st == nil {
		return "", false
	}
	total := DepthLimit + g.intn(2) // exactly at the limit, or one over
	n := total - st.depth
	if n < 1 {
		return "", false
	}
	k := "deep"
	open, close := "[", "]"
	if g.chance(0.5) {
		open, close = `{"a":`, "}"
	}
	// The inner scalar adds no level: n brackets below an object at depth d reach d+n.
	g.insertAt(st.node, Member{Key: Quote(k), Value: RawNode(strings.Repeat(open, n) + "1" + strings.Repeat(close, n))})
	return fmt.Sprintf("nesting to total depth %d (%s) under %q at %s", total, open, k, where(st)), true
}

func mutManyDuplicates(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	st := deepTarget(g, sites)
	if st == nil {
		return "", false
	}
	n := 95 + g.intn(40)
	for i := range n {
		k := Quote(fmt.Sprintf("d%03d", i))
		st.node.Members = append(st.node.Members, Member{Key: k, Value: Int(1)}, Member{Key: k, Value: Int(2)})
	}
	return fmt.Sprintf("%d duplicated keys at %s", n, where(st)), true
}

func mutManyUnknown(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	objs := filter(sites, func(s *site) bool {
		return isObject(s) && !s.meta && s.schema != nil && !s.skip && s.schema.AdditionalProperties == nil
	})
	if len(objs) == 0 {
		return "", false
	}
	st := pick(g, objs)
	n := 95 + g.intn(120)
	for i := range n {
		k := fmt.Sprintf("u%03d", i)
		if _, known := st.schema.child(k, st.resource); !known {
			st.node.Members = append(st.node.Members, Member{Key: Quote(k), Value: Int(int64(i))})
		}
	}
	return fmt.Sprintf("%d unknown keys at %s", n, where(st)), true
}

func mutReorder(g *Gen, doc *Node, sites []*site, _ *Schema) (string, bool) {
	objs := filter(sites, func(s *site) bool { return isObject(s) && len(s.node.Members) > 1 })
	if len(objs) == 0 {
		return "", false
	}
	st := objs[0] // the root first, often: kind/apiVersion after the content
	if g.chance(0.5) {
		st = pick(g, objs)
	}
	g.r.Shuffle(len(st.node.Members), func(i, j int) { st.node.Members[i], st.node.Members[j] = st.node.Members[j], st.node.Members[i] })
	return "members shuffled at " + where(st), true
}

func mutEmptyContainers(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	cs := filter(sites, func(s *site) bool {
		return s.parent != nil && !s.typeMeta && (s.node.Kind == Object || s.node.Kind == Array)
	})
	if len(cs) == 0 {
		return "", false
	}
	st := pick(g, cs)
	if st.node.Kind == Object {
		*st.node = *Obj()
	} else {
		*st.node = *Arr()
	}
	return "emptied " + st.path, true
}

// ---- syntax families ----

func synTruncate(g *Gen, b []byte) ([]byte, string) {
	if len(b) < 2 {
		return []byte{}, "truncated to nothing"
	}
	n := 1 + g.intn(len(b)-1)
	return slices.Clone(b[:n]), fmt.Sprintf("truncated to %d of %d bytes", n, len(b))
}

func synTrailing(g *Gen, b []byte) ([]byte, string) {
	t := pick(g, []string{"x", "{}", `{"kind":"Other"}`, "]", "}", ",", "null", " 1", "\x00"})
	return append(slices.Clone(b), t...), fmt.Sprintf("trailing %q", t)
}

// tokenPositions returns the offsets of structural characters outside strings.
func tokenPositions(b []byte, want string) []int {
	var out []int
	in := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && strings.IndexByte(want, c) >= 0:
			out = append(out, i)
		}
	}
	return out
}

func synTrailingComma(g *Gen, b []byte) ([]byte, string) {
	ps := tokenPositions(b, "}]")
	if len(ps) == 0 {
		return append(slices.Clone(b), ','), "trailing comma"
	}
	p := pick(g, ps)
	return slices.Insert(slices.Clone(b), p, ','), fmt.Sprintf("comma before offset %d", p)
}

func synMissingColon(g *Gen, b []byte) ([]byte, string) {
	ps := tokenPositions(b, ":")
	if len(ps) == 0 {
		return append(slices.Clone(b), ':'), "stray colon"
	}
	p := pick(g, ps)
	return slices.Delete(slices.Clone(b), p, p+1), fmt.Sprintf("colon at offset %d removed", p)
}

// stringStarts returns the offsets just after opening quotes.
func stringStarts(b []byte) []int {
	var out []int
	in := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			if !in {
				out = append(out, i+1)
			}
			in = !in
		}
	}
	return out
}

func synControlChar(g *Gen, b []byte) ([]byte, string) {
	ps := stringStarts(b)
	c := pick(g, []byte{'\t', '\n', 0x01, 0x00, 0x1f})
	if len(ps) == 0 {
		return append(slices.Clone(b), c), "control character appended"
	}
	p := pick(g, ps)
	return slices.Insert(slices.Clone(b), p, c), fmt.Sprintf("raw %q in the string at offset %d", c, p)
}

func synSingleQuote(g *Gen, b []byte) ([]byte, string) {
	ps := stringStarts(b)
	if len(ps) == 0 {
		return append([]byte("'"), b...), "single quote"
	}
	p := pick(g, ps) - 1
	out := slices.Clone(b)
	out[p] = '\''
	return out, fmt.Sprintf("single quote at offset %d", p)
}

func synBadEscape(g *Gen, b []byte) ([]byte, string) {
	ps := stringStarts(b)
	e := pick(g, []string{`\x`, `\u12G`, `\uZZZZ`, `\'`, `\a`, `\U0001F600`})
	if len(ps) == 0 {
		return append(slices.Clone(b), e...), "bad escape appended"
	}
	p := pick(g, ps)
	return slices.Insert(slices.Clone(b), p, []byte(e)...), fmt.Sprintf("escape %s at offset %d", e, p)
}

func synBadLiteral(g *Gen, b []byte) ([]byte, string) {
	ps := tokenPositions(b, ":")
	lit := pick(g, []string{"01", "NaN", "Infinity", "-Infinity", "+1", ".5", "1.", "1e", "0x1F", "tru", "nul", "True", "undefined", "--1"})
	if len(ps) == 0 {
		return []byte(lit), "body " + lit
	}
	p := pick(g, ps) + 1
	// Replace the value's first token character run by inserting the literal before it: the
	// result is "key":LIT<old value>, invalid either way.
	return slices.Insert(slices.Clone(b), p, []byte(lit+",\"x\":")...), fmt.Sprintf("literal %s at offset %d", lit, p)
}

func synUnbalanced(g *Gen, b []byte) ([]byte, string) {
	ps := tokenPositions(b, "{}[]")
	if len(ps) == 0 {
		return append(slices.Clone(b), '}'), "extra }"
	}
	p := pick(g, ps)
	out := slices.Clone(b)
	old := out[p]
	out[p] = map[byte]byte{'{': '[', '[': '{', '}': ']', ']': '}'}[old]
	return out, fmt.Sprintf("%q at offset %d replaced by %q", old, p, out[p])
}

// boundaryNumber is a number at or next to one of a schema's numeric keywords (minimum,
// maximum, multipleOf), or a plain edge value without them.
func (g *Gen) boundaryNumber(s *Schema) (string, string) {
	type cand struct{ lit, why string }
	var cs []cand
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	if s.Minimum != nil {
		m := *s.Minimum
		cs = append(cs, cand{f(m), "minimum"}, cand{f(m - 1), "minimum-1"}, cand{f(m + 1), "minimum+1"}, cand{f(m - 0.5), "minimum-0.5"})
	}
	if s.Maximum != nil {
		m := *s.Maximum
		cs = append(cs, cand{f(m), "maximum"}, cand{f(m + 1), "maximum+1"}, cand{f(m - 1), "maximum-1"}, cand{f(m + 0.5), "maximum+0.5"})
	}
	if s.MultipleOf != nil && *s.MultipleOf != 0 {
		m := *s.MultipleOf
		cs = append(cs, cand{f(3 * m), "3×multipleOf"}, cand{f(3*m + 1), "3×multipleOf+1"}, cand{f(m / 2), "multipleOf/2"}, cand{"0", "zero"})
	}
	if len(cs) == 0 {
		for _, l := range []string{"0", "-1", "1", "2147483647", "2147483648", "-2147483649", "0.5"} {
			cs = append(cs, cand{l, "edge"})
		}
	}
	c := pick(g, cs)
	if s.Type == "integer" && strings.ContainsAny(c.lit, ".eE") && g.chance(0.7) {
		if x, err := strconv.ParseFloat(c.lit, 64); err == nil && x > -1e15 && x < 1e15 {
			c.lit = strconv.FormatInt(int64(x), 10) // mostly stay an integer
		}
	}
	return c.lit, c.why
}

// boundaryString is a string at or next to a schema's length bounds (in runes, some of them
// multi-byte), a near miss of its enum or pattern, or a value in or out of its format.
func (g *Gen) boundaryString(s *Schema) (*Node, string) {
	rep := func(n int64) string {
		if n < 0 {
			n = 0
		}
		if n > 4096 {
			n = 4096
		}
		if g.chance(0.3) {
			return strings.Repeat("é", int(n)) // two bytes, one rune
		}
		return strings.Repeat("a", int(n))
	}
	type cand struct {
		n   *Node
		why string
	}
	var cs []cand
	if s.MinLength != nil {
		cs = append(cs, cand{Str(rep(*s.MinLength)), "minLength"}, cand{Str(rep(*s.MinLength - 1)), "minLength-1"})
	}
	if s.MaxLength != nil {
		cs = append(cs, cand{Str(rep(*s.MaxLength)), "maxLength"}, cand{Str(rep(*s.MaxLength + 1)), "maxLength+1"})
	}
	if len(s.Enum) > 0 {
		e := pick(g, s.Enum)
		var str string
		if json.Unmarshal(e, &str) == nil {
			cs = append(cs, cand{Str(str + "x"), "enum near miss"}, cand{Str(strings.ToUpper(str)), "enum case"}, cand{RawNode(string(e)), "enum member"})
		}
	}
	if s.Pattern != "" || s.Format != "" {
		for _, v := range []string{"", "a", "A-b", "a.b", "-a", "1", "100Mi", "0.5", "1e3", "abc-", "x_y", "ü", "2024-01-02T03:04:05Z",
			"2024-01-02", "10.0.0.1", "::1", "0f1b2c3d-0000-4000-8000-000000000000", "a@b.c", "http://x", "1h30m"} {
			cs = append(cs, cand{Str(v), "pattern/format probe"})
		}
	}
	if len(cs) == 0 {
		cs = append(cs, cand{Str(""), "empty"}, cand{Str(rep(64)), "64 runes"}, cand{Str(rep(254)), "254 runes"})
	}
	c := pick(g, cs)
	return c.n, c.why
}

// mutValueBoundary sets a value next to the value keywords of its schema: numbers at and
// around minimum/maximum/multipleOf, strings at and around minLength/maxLength (in runes),
// enum near misses, pattern and format probes, arrays at and around minItems/maxItems,
// objects without a required member or at min/maxProperties; plain edge values where the
// schema has no such keyword.
func mutValueBoundary(g *Gen, _ *Node, sites []*site, _ *Schema) (string, bool) {
	typed := func(s *Schema) bool {
		return s.Type == "integer" || s.Type == "number" || s.Type == "string" || s.IntOrString ||
			(s.Type == "array" && (s.MinItems != nil || s.MaxItems != nil)) ||
			(s.Type == "object" && (len(s.Required) > 0 || s.MinProperties != nil || s.MaxProperties != nil))
	}
	// objects: drop a required member, or change the count
	objs := filter(sites, func(st *site) bool {
		return isObject(st) && st.parent != nil && st.known && st.schema != nil && st.schema.Type == "object" &&
			(len(st.schema.Required) > 0 || st.schema.MinProperties != nil || st.schema.MaxProperties != nil)
	})
	if len(objs) > 0 && g.chance(0.3) {
		st := pick(g, objs)
		if len(st.schema.Required) > 0 && g.chance(0.5) {
			r := pick(g, st.schema.Required)
			st.node.Members = slices.DeleteFunc(st.node.Members, func(m Member) bool { return m.Name() == r })
			return fmt.Sprintf("required %q dropped at %s", r, st.path), true
		}
		if g.chance(0.5) && len(st.node.Members) > 0 {
			st.node.Members = st.node.Members[:len(st.node.Members)-1]
			return fmt.Sprintf("one member fewer at %s", st.path), true
		}
		g.insertAt(st.node, Member{Key: Quote(g.unknownKey(st)), Value: Str("v")})
		return fmt.Sprintf("one member more at %s", st.path), true
	}
	return replaceOrSet(g, sites, typed, func(s *Schema) *Node {
		switch {
		case s.Type == "array":
			n := int64(0)
			if s.MinItems != nil && (s.MaxItems == nil || g.chance(0.5)) {
				n = *s.MinItems + int64(g.intn(3)) - 1
			} else if s.MaxItems != nil {
				n = *s.MaxItems + int64(g.intn(3)) - 1
			}
			n = max(0, min(n, 1000))
			a := Arr()
			for i := range n {
				if s.Items != nil && s.Items.Type == "string" {
					a.Elems = append(a.Elems, Str(fmt.Sprint("e", i)))
				} else if s.Items != nil && (s.Items.Type == "integer" || s.Items.Type == "number") {
					a.Elems = append(a.Elems, Int(i))
				} else {
					a.Elems = append(a.Elems, Obj())
				}
			}
			return a
		case s.Type == "object":
			return Obj()
		case s.Type == "string":
			n, _ := g.boundaryString(s)
			return n
		case s.IntOrString && g.chance(0.5):
			n, _ := g.boundaryString(s)
			return n
		}
		lit, _ := g.boundaryNumber(s)
		return Num(lit)
	}, "value at a keyword boundary")
}
