package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/fieldpath"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// FuzzSchemaAndDocument generates a structural schema and a document from
// fuzz bytes (or reads them literally when a seed starts with '{'), compiles
// the schema (schemaauto.ParseSchema, Compile) and decodes the document
// with decoder.NewForAutomaton. Besides the invariants of checkDocument, it
// compares the decoder with the automaton's value-level statement of the
// reference (Automaton.PruneValue, the null-pruning rule, DefaultValue):
// same kept object (metadata aside, which only the decoder normalises), and
// the same pruned paths in the same order.
//
// flags: bit 0 Defaulting(false), bit 1 NullPruning(false), bit 2 compile
// with AllowSkeleton(true).
func FuzzSchemaAndDocument(f *testing.F) {
	for _, k := range kepSchemas {
		f.Add([]byte(k.schema), []byte(`{"apiVersion":"ex.com/v1","kind":"Ex",`+k.doc[1:]), byte(0))
		f.Add([]byte(k.schema), []byte(`{"apiVersion":"ex.com/v1","kind":"Ex",`+k.doc[1:]), byte(3))
	}
	for i := range 64 {
		// generated schemas and documents from simple byte patterns
		s := bytes.Repeat([]byte{byte(i), byte(i * 7), byte(i * 13), byte(255 - i)}, 16)
		d := bytes.Repeat([]byte{byte(i * 3), byte(i * 5), byte(i*11 + 1)}, 24)
		f.Add(s, d, byte(i%8))
	}
	f.Fuzz(func(t *testing.T, schemaSeed, docSeed []byte, flags byte) {
		var schemaJSON []byte
		var gs *gschema
		if len(schemaSeed) > 0 && schemaSeed[0] == '{' {
			schemaJSON = schemaSeed
		} else {
			gs = genSchema(&byteSource{b: schemaSeed}, 0, true)
			var err error
			if schemaJSON, err = json.Marshal(gs.render()); err != nil {
				t.Fatal(err)
			}
		}
		s, err := schemaauto.ParseSchema(schemaJSON)
		if err != nil {
			return
		}
		a, err := schemaauto.Compile(s, schemaauto.AllowSkeleton(flags&4 != 0))
		if err != nil {
			var ns *schemaauto.NonStructuralError
			if !errors.As(err, &ns) && gs != nil {
				// generated schemas are well-formed: only structural
				// violations (and defaults that do not fit) may refuse them
				if !strings.Contains(err.Error(), "default") {
					t.Fatalf("Compile: %T %v\nschema: %s", err, err, schemaJSON)
				}
			}
			return
		}
		var doc []byte
		if len(docSeed) > 0 && docSeed[0] == '{' {
			doc = docSeed
		} else {
			if gs == nil {
				gs = &gschema{typ: "object", preserve: true}
			}
			doc = genDocument(&byteSource{b: docSeed}, gs)
		}
		var opts []decoder.Option
		if flags&1 != 0 {
			opts = append(opts, decoder.Defaulting(false))
		}
		if flags&2 != 0 {
			opts = append(opts, decoder.NullPruning(false))
		}
		tg := &target{fixed: a, opts: opts, nullDefaults: hasNullDefault(a)}
		res := checkDocument(t, tg, doc)
		if res.err == nil {
			compareWithValuePruning(t, a, doc, res, flags&1 == 0, flags&2 == 0)
		}
	})
}

// compareWithValuePruning checks the decoder's output and pruned paths
// against the automaton's value-level algorithms on the input's value:
// PruneValue, then null pruning, then DefaultValue, metadata left out.
func compareWithValuePruning(t *testing.T, a *schemaauto.Automaton, doc []byte, res result, defaults, nulls bool) {
	t.Helper()
	in, err := parseTree(doc)
	if err != nil {
		t.Fatalf("the decoder accepted a document that does not parse: %v", err)
	}
	v := in.toAny()
	// where the metadata of resources are (pointers), in the input
	metas := map[string]bool{}
	metaPointers(a, a.Root(), v, "", metas)

	unknown := a.PruneValue(v, a.Root())
	if nulls && a.Prunes() {
		pruneNulls(a, a.Root(), v)
	}
	if defaults {
		v = a.DefaultValue(v, a.Root())
	}
	stripMeta(a, a.Root(), v)
	got := res.tree.toAny()
	stripMeta(a, a.Root(), got)
	if !equalValues(got, v, false) {
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(v)
		t.Fatalf("the decoder and the value algorithms disagree (metadata aside):\ndecoder: %s\nvalues:  %s\ninput:   %s", gj, wj, doc)
	}

	// pruned paths: the decoder's unknown fields outside metadata
	var pruned []string
	for _, f := range res.findings {
		if f.Type != jperrors.UnknownField || underMeta(f.Pointer, metas) {
			continue
		}
		pruned = append(pruned, f.Path)
	}
	if tolerateLeadingEmptyKey {
		for i := range pruned {
			pruned[i] = strings.TrimLeft(pruned[i], ".")
		}
		for i := range unknown {
			unknown[i] = strings.TrimLeft(unknown[i], ".")
		}
		slices.Sort(pruned)
		slices.Sort(unknown)
	}
	if strings.Join(pruned, "\n") != strings.Join(unknown, "\n") {
		t.Fatalf("pruned paths differ:\ndecoder:    %q\nPruneValue: %q\ninput: %s", pruned, unknown, doc)
	}
}

// metaPointers records the JSON Pointers of the metadata members of every
// resource (the root and embedded resources) in v.
func metaPointers(a *schemaauto.Automaton, s schemaauto.StateID, v any, ptr string, out map[string]bool) {
	walkStates(a, s, v, ptr, func(p schemaauto.Prop, ptr string, _ map[string]any) bool {
		if p.Role == schemaauto.RoleMetadata {
			out[ptr] = true
			return false
		}
		return true
	})
}

// stripMeta deletes the metadata member of every resource in v.
func stripMeta(a *schemaauto.Automaton, s schemaauto.StateID, v any) {
	walkStates(a, s, v, "", func(p schemaauto.Prop, _ string, parent map[string]any) bool {
		if p.Role == schemaauto.RoleMetadata {
			delete(parent, p.Name)
			return false
		}
		return true
	})
}

// walkStates walks the value v in state s; at each property it calls visit
// (with the member's pointer and its object), descending if visit says so.
// Members that are not properties go to the additionalProperties state;
// kept values (Keep, preserve-unknown-fields) are not descended into.
func walkStates(a *schemaauto.Automaton, s schemaauto.StateID, v any, ptr string, visit func(p schemaauto.Prop, ptr string, parent map[string]any) bool) {
	if s == schemaauto.NoState || s == schemaauto.Keep || s == schemaauto.Drop {
		return
	}
	st := a.State(s)
	switch x := v.(type) {
	case map[string]any:
		props := a.Props(s)
		for _, k := range sortedKeys(x) {
			p := string(fieldpath.AppendPointerToken([]byte(ptr), []byte(k)))
			if i := a.Lookup(s, []byte(k)); i >= 0 {
				if visit(props[i], p, x) {
					walkStates(a, props[i].Target, x[k], p, visit)
				}
			} else if st.Additional != schemaauto.NoState {
				walkStates(a, st.Additional, x[k], p, visit)
			}
		}
	case []any:
		for i, e := range x {
			walkStates(a, st.Items, e, ptr+"/"+strconv.Itoa(i), visit)
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func underMeta(ptr string, metas map[string]bool) bool {
	for m := range metas {
		if ptr == m || strings.HasPrefix(ptr, m+"/") {
			return true
		}
	}
	return false
}

// pruneNulls is the reference's PruneNonNullableNullsWithoutDefaults
// (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting/prunenulls.go)
// on the automaton: a null member whose schema is
// neither nullable nor defaulted is deleted; members without a schema keep
// their nulls; null array elements are never removed. apiVersion, kind and
// metadata of a resource follow their declared schema; metadata is left to
// the decoder's ObjectMeta step (and stripped before comparing).
func pruneNulls(a *schemaauto.Automaton, s schemaauto.StateID, v any) {
	if s == schemaauto.NoState || s == schemaauto.Keep || s == schemaauto.Drop {
		return
	}
	st := a.State(s)
	switch x := v.(type) {
	case map[string]any:
		props := a.Props(s)
		for _, k := range sortedKeys(x) {
			target, ns := schemaauto.NoState, schemaauto.NoState
			if i := a.Lookup(s, []byte(k)); i >= 0 {
				p := props[i]
				if p.Role == schemaauto.RoleMetadata {
					continue
				}
				target, ns = p.Target, p.Target
				if p.Role != schemaauto.RoleProperty {
					target, ns = schemaauto.NoState, p.Declared
				}
			} else if st.Additional != schemaauto.NoState {
				target, ns = st.Additional, st.Additional
			}
			if x[k] == nil {
				if ns > schemaauto.Keep {
					nst := a.State(ns)
					if nst.Flags&schemaauto.Nullable == 0 && nst.Default < 0 {
						delete(x, k)
					}
				}
				continue
			}
			pruneNulls(a, target, x[k])
		}
	case []any:
		for _, e := range x {
			pruneNulls(a, st.Items, e)
		}
	}
}

// ---------------------------------------------------------------------------
// Generation from fuzz bytes.

// byteSource hands out choices from fuzz bytes; past the end every choice
// is 0, which always picks the smallest option, so generation ends.
type byteSource struct {
	b []byte
	i int
}

func (s *byteSource) byte() byte {
	if s.i >= len(s.b) {
		return 0
	}
	s.i++
	return s.b[s.i-1]
}

func (s *byteSource) intn(n int) int { return int(s.byte()) % n }

// chance is true with probability 1/n (false past the end).
func (s *byteSource) chance(n int) bool { return s.i < len(s.b) && s.intn(n) == n-1 }

func pick[T any](s *byteSource, xs []T) T { return xs[s.intn(len(xs))] }

// gschema is a generated schema node.
type gschema struct {
	typ         string // "", object, array, string, integer, number, boolean
	props       []gprop
	additional  *gschema
	apBool      *bool
	items       *gschema
	preserve    bool
	embedded    bool
	intOrString bool
	nullable    bool
	def         any
	hasDef      bool
}

type gprop struct {
	name string
	s    *gschema
}

var propNames = []string{"a", "b", "c", "spec", "name", "x.y", "apiVersion", "kind", "metadata", "", "ключ", "a[0]", "list", "m", "status", "deep"}

const maxSchemaDepth = 5

// genSchema generates a schema node; the root is an object.
func genSchema(src *byteSource, depth int, root bool) *gschema {
	kinds := 12
	if depth >= maxSchemaDepth {
		kinds = 5 // scalars only
	}
	k := src.intn(kinds)
	if root {
		// additionalProperties is forbidden at the root
		k = pick(src, []int{5, 5, 5, 10})
	}
	s := &gschema{}
	switch k {
	case 0:
		s.typ = "string"
	case 1:
		s.typ = "integer"
	case 2:
		s.typ = "number"
	case 3:
		s.typ = "boolean"
	case 4:
		s.intOrString = true
	case 5, 10: // object with properties (10: and preserve-unknown-fields)
		s.typ = "object"
		s.props = genProps(src, depth)
		if root {
			s.props = rootProps(src, s.props)
		}
		s.preserve = k == 10
	case 6: // map
		s.typ = "object"
		s.additional = genSchema(src, depth+1, false)
		s.preserve = src.chance(4)
	case 7:
		s.typ = "array"
		s.items = genSchema(src, depth+1, false)
		s.preserve = src.chance(4)
	case 8: // anything
		s.preserve = true
		if src.chance(3) {
			s.typ = "object"
		}
	case 9: // embedded resource
		s.typ = "object"
		s.embedded = true
		s.preserve = src.chance(2)
		s.props = genProps(src, depth)
		if len(s.props) == 0 {
			s.preserve = true
		}
	case 11: // additionalProperties: true or false
		s.typ = "object"
		b := src.chance(2)
		s.apBool = &b
	}
	if !root {
		s.nullable = src.chance(4)
		if src.chance(4) {
			s.def, s.hasDef = genDefault(src, s), true
		}
	}
	return s
}

// rootProps drops the properties apiVersion, kind and metadata the root may
// only declare in restricted forms, and sometimes declares them so.
func rootProps(src *byteSource, props []gprop) []gprop {
	props = slices.DeleteFunc(props, func(p gprop) bool {
		return p.name == "apiVersion" || p.name == "kind" || p.name == "metadata"
	})
	if src.chance(4) {
		props = append(props, gprop{"apiVersion", &gschema{typ: "string"}}, gprop{"kind", &gschema{typ: "string"}})
	}
	if src.chance(4) {
		props = append(props, gprop{"metadata", &gschema{typ: "object"}})
	}
	return props
}

func genProps(src *byteSource, depth int) []gprop {
	n := src.intn(5)
	var props []gprop
	seen := map[string]bool{}
	for range n {
		name := pick(src, propNames)
		if seen[name] {
			continue
		}
		seen[name] = true
		props = append(props, gprop{name, genSchema(src, depth+1, false)})
	}
	return props
}

// genDefault makes a default value, usually of the node's type.
func genDefault(src *byteSource, s *gschema) any {
	if src.chance(8) {
		return pick(src, []any{nil, "s", 1.0, true, map[string]any{}, []any{}})
	}
	switch {
	case s.intOrString:
		return pick(src, []any{"80%", 8080.0})
	case s.typ == "string":
		return pick(src, []any{"d", "", "ключ"})
	case s.typ == "integer":
		return pick(src, []any{7.0, 0.0, -1.0})
	case s.typ == "number":
		return pick(src, []any{1.5, 0.0})
	case s.typ == "boolean":
		return src.chance(2)
	case s.typ == "array":
		return []any{}
	case s.typ == "object" || s.typ == "":
		m := map[string]any{}
		for _, p := range s.props {
			if src.chance(2) {
				m[p.name] = genDefault(src, p.s)
			}
		}
		if src.chance(4) {
			m["unknownInDefault"] = 1.0
		}
		if s.embedded && src.chance(2) {
			m["apiVersion"], m["kind"] = "v1", "K"
		}
		return m
	}
	return nil
}

// render gives the schema as a JSON value for ParseSchema.
func (s *gschema) render() map[string]any {
	m := map[string]any{}
	if s.typ != "" {
		m["type"] = s.typ
	}
	if len(s.props) > 0 {
		props := map[string]any{}
		for _, p := range s.props {
			props[p.name] = p.s.render()
		}
		m["properties"] = props
	}
	if s.additional != nil {
		m["additionalProperties"] = s.additional.render()
	} else if s.apBool != nil {
		m["additionalProperties"] = *s.apBool
	}
	if s.items != nil {
		m["items"] = s.items.render()
	}
	if s.preserve {
		m["x-kubernetes-preserve-unknown-fields"] = true
	}
	if s.embedded {
		m["x-kubernetes-embedded-resource"] = true
	}
	if s.intOrString {
		m["x-kubernetes-int-or-string"] = true
	}
	if s.nullable {
		m["nullable"] = true
	}
	if s.hasDef {
		m["default"] = s.def
	}
	return m
}

// genDocument writes a document for the schema as JSON text, so that it
// can hold what a value cannot: duplicate names, odd spellings of numbers
// and strings, whitespace.
func genDocument(src *byteSource, root *gschema) []byte {
	g := &docGen{src: src}
	g.b = append(g.b, '{')
	n := 0
	if !src.chance(16) {
		g.member(&n, "apiVersion", func() { g.b = append(g.b, pick(src, []string{`"ex.com/v1"`, `"v1"`, `"a/b"`})...) })
		g.member(&n, "kind", func() { g.b = append(g.b, pick(src, []string{`"Ex"`, `"K"`})...) })
	} else {
		g.member(&n, "kind", func() { g.b = append(g.b, `"Ex"`...) })
	}
	if src.chance(2) {
		g.member(&n, "metadata", func() { g.metadata() })
	}
	g.objectMembers(root, &n, 0)
	g.b = append(g.b, '}')
	return g.b
}

type docGen struct {
	src *byteSource
	b   []byte
}

const maxDocDepth = 8

var (
	unknownNames = []string{"u", "zz", "a", "b", "apiVersion", "kind", "metadata", "", "k.1", "ключ", "a\\\"b", "\\u0041"}
	strValues    = []string{`""`, `"v"`, `"\u00e9\ud83d\ude00"`, `"a\"b\\c"`, `"\u0000"`, `"ключ"`, `"80%"`, `"2020-01-01T00:00:00Z"`}
	numValues    = []string{`0`, `1`, `-0`, `7`, `1.5`, `-0.0`, `1e3`, `1E+2`, `1.0`, `9223372036854775808`, `12345678901234567890123`, `1e-400`, `-1`}
	metaValues   = []string{
		`{"name":"n","namespace":"ns","labels":{"a":"b"},"annotations":{"x":"y"}}`,
		`{"name":"n","bogus":1}`,
		`null`,
		`{}`,
		`{"creationTimestamp":"2020-01-01T01:02:03+02:00","generation":2.0}`,
		`{"finalizers":["f",null],"ownerReferences":[{"uid":"u","extra":1},null]}`,
		`{"managedFields":[{"manager":"m","fieldsV1":{"f:a":{}},"x":1}]}`,
		`{"annotations":{"a":null},"labels":null,"finalizers":[]}`,
		`{"generateName":"g-","uid":"u","resourceVersion":"1","selfLink":"/x","deletionGracePeriodSeconds":0}`,
		`{"name":"a","name":"b"}`,
	}
	// badMetaValues are fatal: malformed metadata
	badMetaValues = []string{`{"name":5}`, `"str"`, `{"labels":{"a":1}}`, `[]`, `{"creationTimestamp":"yesterday"}`}
)

// member writes one member "name": value, with a comma when needed.
func (g *docGen) member(n *int, name string, value func()) {
	if *n > 0 {
		g.b = append(g.b, ',')
	}
	*n++
	if g.src.chance(8) {
		g.b = append(g.b, " \n\t"...)
	}
	g.b = append(g.b, '"')
	g.b = append(g.b, name...) // names are pre-escaped
	g.b = append(g.b, '"', ':')
	value()
}

// quoteName escapes a schema property name for the document.
func quoteName(s string) string {
	q, _ := json.Marshal(s)
	return string(q[1 : len(q)-1])
}

// value writes a value for schema node s (nil: no schema).
func (g *docGen) value(s *gschema, depth int) {
	src := g.src
	switch c := src.intn(12); {
	case c == 0 && s != nil:
		g.b = append(g.b, "null"...)
		return
	case c == 1 || s == nil || depth >= maxDocDepth:
		g.any(depth)
		return
	}
	switch {
	case s.intOrString:
		if src.chance(2) {
			g.b = append(g.b, pick(src, numValues)...)
		} else {
			g.b = append(g.b, pick(src, strValues)...)
		}
	case s.typ == "string":
		g.b = append(g.b, pick(src, strValues)...)
	case s.typ == "integer", s.typ == "number":
		g.b = append(g.b, pick(src, numValues)...)
	case s.typ == "boolean":
		g.b = append(g.b, pick(src, []string{"true", "false"})...)
	case s.typ == "array":
		g.b = append(g.b, '[')
		for i := range src.intn(4) {
			if i > 0 {
				g.b = append(g.b, ',')
			}
			g.value(s.items, depth+1)
		}
		g.b = append(g.b, ']')
	case s.typ == "object" || len(s.props) > 0 || s.additional != nil:
		g.b = append(g.b, '{')
		n := 0
		if s.embedded {
			if src.chance(2) {
				g.member(&n, "apiVersion", func() { g.b = append(g.b, pick(src, []string{`"v1"`, `"g/v1"`, `5`, `null`, `""`})...) })
			}
			if src.chance(2) {
				g.member(&n, "kind", func() { g.b = append(g.b, pick(src, []string{`"K"`, `{}`, `null`})...) })
			}
			if src.chance(2) {
				g.member(&n, "metadata", func() { g.metadata() })
			}
		}
		g.objectMembers(s, &n, depth+1)
		g.b = append(g.b, '}')
	default:
		g.any(depth)
	}
}

// objectMembers writes members for object schema s: some of its
// properties, map entries, unknown names, duplicates.
func (g *docGen) objectMembers(s *gschema, n *int, depth int) {
	src := g.src
	var written []string
	count := src.intn(6)
	for range count {
		switch c := src.intn(8); {
		case c < 4 && len(s.props) > 0:
			p := pick(src, s.props)
			name := quoteName(p.name)
			written = append(written, name)
			g.member(n, name, func() { g.value(p.s, depth) })
		case c < 6 && s.additional != nil:
			name := pick(src, []string{"k1", "k.2", "", "ключ", "metadata"})
			written = append(written, name)
			g.member(n, name, func() { g.value(s.additional, depth) })
		case c == 6 && len(written) > 0:
			// a duplicate
			name := pick(src, written)
			var ps *gschema
			for _, p := range s.props {
				if quoteName(p.name) == name {
					ps = p.s
				}
			}
			if ps == nil {
				ps = s.additional
			}
			g.member(n, name, func() { g.value(ps, depth) })
		default:
			name := pick(src, unknownNames)
			if depth == 0 && (name == "apiVersion" || name == "kind") {
				name = "u"
			}
			written = append(written, name)
			g.member(n, name, func() { g.any(depth) })
		}
	}
}

// any writes a value of no particular schema.
func (g *docGen) any(depth int) {
	src := g.src
	c := src.intn(8)
	if depth >= maxDocDepth && c >= 5 {
		c = 0
	}
	switch c {
	case 0:
		g.b = append(g.b, pick(src, []string{"null", "true", "false"})...)
	case 1, 2:
		g.b = append(g.b, pick(src, numValues)...)
	case 3, 4:
		g.b = append(g.b, pick(src, strValues)...)
	case 5, 6:
		g.b = append(g.b, '{')
		n := 0
		for range src.intn(4) {
			g.member(&n, pick(src, unknownNames), func() { g.any(depth + 1) })
		}
		g.b = append(g.b, '}')
	case 7:
		g.b = append(g.b, '[')
		for i := range src.intn(4) {
			if i > 0 {
				g.b = append(g.b, ',')
			}
			g.any(depth + 1)
		}
		g.b = append(g.b, ']')
	}
}

func (g *docGen) metadata() {
	if g.src.chance(16) {
		g.b = append(g.b, pick(g.src, badMetaValues)...)
		return
	}
	g.b = append(g.b, pick(g.src, metaValues)...)
}

// genFromAutomaton writes a document for automaton a (of the CRD apiVersion
// and kind given), guided by its states: properties, map entries, items and
// types, with unknown names, nulls, duplicates and wrong types mixed in.
func genFromAutomaton(src *byteSource, a *schemaauto.Automaton, apiVersion, kind string) []byte {
	g := &docGen{src: src}
	g.b = append(g.b, '{')
	n := 0
	g.member(&n, "apiVersion", func() { g.b = append(g.b, apiVersion...) })
	g.member(&n, "kind", func() { g.b = append(g.b, kind...) })
	g.stateMembers(a, a.Root(), &n, 0)
	g.b = append(g.b, '}')
	return g.b
}

func (g *docGen) stateValue(a *schemaauto.Automaton, s schemaauto.StateID, depth int) {
	src := g.src
	if s == schemaauto.NoState || s == schemaauto.Keep || s == schemaauto.Drop || depth >= maxDocDepth || src.chance(12) {
		g.any(depth)
		return
	}
	if s == a.ObjectMeta() {
		g.metadata()
		return
	}
	st := a.State(s)
	if st.Types&schemaauto.TypeNull != 0 && src.chance(6) {
		g.b = append(g.b, "null"...)
		return
	}
	switch t := st.Types; {
	case t&schemaauto.TypeObject != 0 && (len(a.Props(s)) > 0 || st.Additional != schemaauto.NoState || t == schemaauto.TypeObject):
		g.b = append(g.b, '{')
		n := 0
		g.stateMembers(a, s, &n, depth+1)
		g.b = append(g.b, '}')
	case t&schemaauto.TypeArray != 0:
		g.b = append(g.b, '[')
		for i := range src.intn(4) {
			if i > 0 {
				g.b = append(g.b, ',')
			}
			g.stateValue(a, st.Items, depth+1)
		}
		g.b = append(g.b, ']')
	case t&schemaauto.TypeString != 0 && (t&schemaauto.TypeInteger == 0 || src.chance(2)):
		g.b = append(g.b, pick(src, strValues)...)
	case t&(schemaauto.TypeInteger|schemaauto.TypeNumber) != 0:
		g.b = append(g.b, pick(src, numValues)...)
	case t&schemaauto.TypeBoolean != 0:
		g.b = append(g.b, pick(src, []string{"true", "false"})...)
	default:
		g.any(depth)
	}
}

func (g *docGen) stateMembers(a *schemaauto.Automaton, s schemaauto.StateID, n *int, depth int) {
	src := g.src
	st := a.State(s)
	props := a.Props(s)
	var written []string
	for range src.intn(7) {
		switch c := src.intn(8); {
		case c < 5 && len(props) > 0:
			p := pick(src, props)
			name := quoteName(p.Name)
			written = append(written, name)
			if p.Role == schemaauto.RoleAPIVersion || p.Role == schemaauto.RoleKind {
				if depth == 0 {
					continue // the document's own, written already
				}
				g.member(n, name, func() { g.b = append(g.b, pick(src, []string{`"v1"`, `"K"`, `5`, `null`})...) })
				continue
			}
			g.member(n, name, func() { g.stateValue(a, p.Target, depth) })
		case c < 6 && st.Additional != schemaauto.NoState:
			name := pick(src, []string{"k1", "k.2", "", "ключ", "y"})
			written = append(written, name)
			g.member(n, name, func() { g.stateValue(a, st.Additional, depth) })
		case c == 6 && len(written) > 0 && depth > 0:
			name := pick(src, written)
			g.member(n, name, func() { g.any(depth) })
		default:
			name := pick(src, unknownNames)
			if depth == 0 && (name == "apiVersion" || name == "kind") {
				name = "u"
			}
			written = append(written, name)
			g.member(n, name, func() { g.any(depth) })
		}
	}
}
