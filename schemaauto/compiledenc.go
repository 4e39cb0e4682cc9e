package schemaauto

import (
	"encoding/binary"
	"maps"
	"math"
	"strings"

	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/validate"
)

// This file is the binary encoding of a compiled CRD (the Set CompileCRDs
// makes of one CRD), which the Cache keeps across runs so that a later run
// neither parses nor compiles the CRD (compiled.go reads and writes the
// files). The encoding is private to one build of the package (the cache
// directory is named after the executable's hash) and versioned besides
// (compiledFormat, in the file's header).
//
// What it holds: the CRD's names and versions (what entries and the
// decoder read: served, storage, the status and scale subresources), and
// per version the entry's Skeleton and Violations and its automaton: the
// state table, properties, length index, rendered node paths, defaults
// (their value tree and canonical JSON), unchecked notes, and the value
// rules and validation trees as the validate.Node each was compiled from
// (compiled again on load; identical nodes once per CRD). Schemas are not
// kept: Entry.Schema and Automaton.Node load them on first use.
//
// Integers are varints (encoding/binary); strings and byte strings a
// length then their bytes; values (defaults, keywords, bad values) are
// tagged (see appendValue). Reading checks every index against what it
// indexes, so that no body, whatever its bytes, makes an automaton that
// reads out of range (FuzzDecodeCompiled).

// compiledFormat is the version of the encoding; a file of another is a
// miss.
const compiledFormat = 5 // 2: the value flags of states and properties; 3: DeclaresName; 4: RootReqMask; 5: ValueReqMask

// valueNode is the validate.Node of a schema node as written: what the
// compiler's value rules and the validation trees are compiled from.
func valueNode(s *Schema) validate.Node {
	n := validate.Node{Type: s.Type, Format: s.Format, Nullable: s.Nullable, IntOrString: s.IntOrString,
		Pattern: s.Pattern, Keywords: s.Validations}
	if s.UniqueItems {
		n.Keywords = maps.Clone(s.Validations)
		if n.Keywords == nil {
			n.Keywords = map[string]any{}
		}
		n.Keywords["uniqueItems"] = true
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Schema == nil && !ap.Allows {
		n.AdditionalPropertiesFalse = true
	}
	return n
}

// encoder appends the encoding; ok turns false on anything it cannot
// encode faithfully (then nothing is cached).
type encoder struct {
	b  []byte
	ok bool

	nodes   map[string]int // encoded validate.Node -> index in the node table
	nodeTab [][]byte
	trees   map[*Schema]int // schema -> index in the tree table
	treeTab [][]byte
	scratch []byte
}

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}
func (e *encoder) str(s string) { e.uint(uint64(len(s))); e.b = append(e.b, s...) }

// maxValueDepth bounds the nesting of an encoded value (reading recurses).
const maxValueDepth = 512

// Value tags.
const (
	tagNull byte = iota
	tagFalse
	tagTrue
	tagInt
	tagFloat
	tagString
	tagArray
	tagObject
	tagStrings // []string
	tagNilObject
	tagNilArray
)

// object writes a JSON object that may be nil (decoder.object).
func (e *encoder) object(m map[string]any) {
	e.bool(m != nil)
	if m != nil {
		e.value(m, 0)
	}
}

// value appends a JSON value tree (nil, bool, int64, float64, string,
// []any, []string, map[string]any), its Go types kept.
func (e *encoder) value(v any, depth int) {
	if depth > maxValueDepth {
		e.ok = false
		return
	}
	switch t := v.(type) {
	case nil:
		e.b = append(e.b, tagNull)
	case bool:
		if t {
			e.b = append(e.b, tagTrue)
		} else {
			e.b = append(e.b, tagFalse)
		}
	case int64:
		e.b = append(e.b, tagInt)
		e.int(t)
	case float64:
		e.b = append(e.b, tagFloat)
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(t))
	case string:
		e.b = append(e.b, tagString)
		e.str(t)
	case []any:
		if t == nil {
			e.b = append(e.b, tagNilArray)
			return
		}
		e.b = append(e.b, tagArray)
		e.uint(uint64(len(t)))
		for _, x := range t {
			e.value(x, depth+1)
		}
	case []string:
		e.b = append(e.b, tagStrings)
		e.uint(uint64(len(t)))
		for _, x := range t {
			e.str(x)
		}
	case map[string]any:
		if t == nil {
			e.b = append(e.b, tagNilObject)
			return
		}
		e.b = append(e.b, tagObject)
		e.uint(uint64(len(t)))
		for _, k := range sortedKeys(t) {
			e.str(k)
			e.value(t[k], depth+1)
		}
	default:
		e.ok = false
	}
}

// node returns the index of n in the CRD's node table.
func (e *encoder) node(n validate.Node) int {
	saved := e.b
	e.b = e.scratch[:0]
	e.nodeBytes(n)
	enc := e.b
	e.scratch, e.b = enc, saved
	if i, ok := e.nodes[string(enc)]; ok {
		return i
	}
	e.nodes[string(enc)] = len(e.nodeTab)
	e.nodeTab = append(e.nodeTab, append([]byte(nil), enc...))
	return len(e.nodeTab) - 1
}

// nodeBytes appends the encoding of n, whose bytes are equal for equal
// nodes (a map's keys sorted), and clears e.ok if a keyword's value is of
// a type the encoding does not take.
func (e *encoder) nodeBytes(n validate.Node) {
	e.str(n.Type)
	e.str(n.Format)
	e.bool(n.Nullable)
	e.bool(n.IntOrString)
	e.str(n.Pattern)
	e.bool(n.AdditionalPropertiesFalse)
	e.object(n.Keywords)
}

// tree returns the index of s's validation tree in the CRD's tree table,
// its children's first (a child's index is below its parent's).
func (e *encoder) tree(s *Schema, depth int) int {
	if i, ok := e.trees[s]; ok {
		return i
	}
	if depth > maxValueDepth {
		e.ok = false
		return 0
	}
	ref := func(c *Schema) uint64 {
		if c == nil {
			return 0
		}
		return uint64(e.tree(c, depth+1)) + 1
	}
	var b encoder
	b.uint(uint64(e.node(valueNode(s))))
	if s.ListType != nil {
		b.bool(true)
		b.str(*s.ListType)
	} else {
		b.bool(false)
	}
	if s.ListMapKeys == nil {
		b.bool(false)
	} else {
		b.bool(true)
		b.uint(uint64(len(s.ListMapKeys)))
		for _, k := range s.ListMapKeys {
			b.str(k)
		}
	}
	b.uint(uint64(len(s.Properties)))
	for _, k := range sortedKeys(s.Properties) {
		b.str(k)
		b.uint(ref(s.Properties[k]))
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Schema != nil {
		b.uint(ref(ap.Schema))
	} else {
		b.uint(0)
	}
	b.uint(ref(s.Items))
	for _, l := range [][]*Schema{s.AllOf, s.AnyOf, s.OneOf} {
		b.uint(uint64(len(l)))
		for _, c := range l {
			b.uint(ref(c))
		}
	}
	b.uint(ref(s.Not))
	i := len(e.treeTab)
	e.trees[s] = i
	e.treeTab = append(e.treeTab, b.b)
	return i
}

// encodeCompiled encodes the Set CompileCRDs made of crd alone; ok is
// false when something in it cannot be encoded faithfully.
func encodeCompiled(crd *CRD, set *Set) (body []byte, ok bool) {
	if set == nil || set.lazy != nil || len(set.list) != len(crd.Versions) {
		return nil, false
	}
	e := &encoder{ok: true, nodes: map[string]int{}, trees: map[*Schema]int{}}
	var autos encoder
	autos.ok = true
	for i, en := range set.list {
		if en.CRD != crd || en.Version != crd.Versions[i] {
			return nil, false
		}
		autos.bool(en.Skeleton)
		autos.uint(uint64(len(en.Violations)))
		for _, v := range en.Violations {
			autos.str(string(v.Type))
			autos.str(v.Field)
			autos.str(v.Detail)
			autos.value(v.BadValue, 0)
		}
		e.automaton(&autos, en.Automaton)
	}
	if !autos.ok || !e.ok {
		return nil, false
	}
	// the CRD
	e.b = nil
	e.str(crd.APIVersion)
	e.str(crd.Name)
	e.str(crd.Group)
	e.str(crd.Kind)
	e.str(crd.Plural)
	e.bool(crd.PreserveUnknownFields)
	e.uint(uint64(len(crd.Versions)))
	for _, v := range crd.Versions {
		e.str(v.Name)
		e.bool(v.Served)
		e.bool(v.Storage)
		e.bool(v.StatusSubresource)
		e.bool(v.Scale != nil)
		if v.Scale != nil {
			e.str(v.Scale.SpecReplicasPath)
			e.str(v.Scale.StatusReplicasPath)
			e.str(v.Scale.LabelSelectorPath)
		}
	}
	// the node and tree tables, then the automata
	e.uint(uint64(len(e.nodeTab)))
	for _, n := range e.nodeTab {
		e.b = append(e.b, n...)
	}
	e.uint(uint64(len(e.treeTab)))
	for _, t := range e.treeTab {
		e.b = append(e.b, t...)
	}
	e.b = append(e.b, autos.b...)
	return e.b, e.ok
}

// automaton appends a's encoding to w; the value nodes and trees go to
// e's tables.
func (e *encoder) automaton(w *encoder, a *Automaton) {
	a.renderPaths()
	w.bool(a.prunes)
	w.bool(a.declName)
	w.uint(a.rootReq)
	w.int(int64(a.root))
	w.int(int64(a.meta))
	// which schema node each rule and tree was compiled from
	ruleOf := make([]*Schema, len(a.rules))
	treeOf := make([]*Schema, len(a.trees))
	for i := range a.states {
		st := &a.states[i]
		if st.rules == 0 && st.tree == 0 {
			continue
		}
		s := a.nodes[st.Node].Schema
		if s == nil {
			e.ok = false
			return
		}
		if st.rules != 0 {
			ruleOf[st.rules-1] = s
		}
		if st.tree != 0 {
			if t, err := s.ValidationTree(); err != nil || t != a.trees[st.tree-1] {
				e.ok = false
				return
			}
			treeOf[st.tree-1] = s
		}
	}
	w.uint(uint64(len(a.states)))
	for i := range a.states {
		st := &a.states[i]
		w.b = append(w.b, byte(st.Types))
		w.uint(uint64(st.Flags))
		w.uint(uint64(st.vflags))
		w.uint(uint64(st.propStart))
		w.uint(uint64(st.propEnd))
		w.uint(uint64(st.lenOff))
		w.int(int64(st.Additional))
		w.int(int64(st.Items))
		w.int(int64(st.Default))
		w.int(int64(st.Node))
		w.uint(uint64(st.rules))
		w.bool(st.typeOnly)
		w.b = append(w.b, st.valKinds)
		w.uint(uint64(st.tree))
	}
	w.uint(uint64(len(a.props)))
	for _, p := range a.props {
		w.str(p.Name)
		w.int(int64(p.Target))
		w.int(int64(p.Declared))
		w.b = append(w.b, byte(p.Role))
		w.uint(uint64(p.vflags))
		w.uint(uint64(p.vreq))
	}
	w.uint(uint64(len(a.lenIndex)))
	for _, x := range a.lenIndex {
		w.uint(uint64(x))
	}
	// the paths, each as the length of the prefix it shares with the one
	// before and the rest (most of a path is its parent's, just before
	// it), read when first rendered
	w.uint(uint64(len(a.nodes)))
	var paths encoder
	prev := ""
	for i := range a.nodes {
		p := a.nodes[i].Path
		n := 0
		for n < len(p) && n < len(prev) && p[n] == prev[n] {
			n++
		}
		paths.uint(uint64(n))
		paths.str(p[n:])
		prev = p
	}
	w.str(string(paths.b))
	w.uint(uint64(len(a.defaults)))
	for _, d := range a.defaults {
		if d.json == nil {
			w.bool(false)
			continue
		}
		w.bool(true)
		w.value(d.value, 0)
		w.str(string(d.json))
	}
	w.uint(uint64(len(a.rules)))
	for _, s := range ruleOf {
		if s == nil {
			e.ok = false
			return
		}
		w.uint(uint64(e.node(valueNode(s))))
	}
	w.uint(uint64(len(a.trees)))
	for _, s := range treeOf {
		if s == nil {
			e.ok = false
			return
		}
		w.uint(uint64(e.tree(s, 0)))
	}
	w.uint(uint64(len(a.unchecked)))
	for _, u := range a.unchecked {
		w.str(u)
	}
}

// decoder reads an encoding held in a string: the strings it returns are
// substrings of it (no copies). Any error leaves bad set and zero values.
type decoder struct {
	s   string
	off int
	bad bool
}

func (d *decoder) uint() uint64 {
	if d.bad {
		return 0
	}
	var x uint64
	var s uint
	for i := 0; i < binary.MaxVarintLen64; i++ {
		if d.off >= len(d.s) {
			break
		}
		b := d.s[d.off]
		d.off++
		if b < 0x80 {
			if i == binary.MaxVarintLen64-1 && b > 1 {
				break
			}
			return x | uint64(b)<<s
		}
		x |= uint64(b&0x7f) << s
		s += 7
	}
	d.bad = true
	return 0
}

func (d *decoder) int() int64 {
	u := d.uint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

// count reads a length of things each taking at least one byte.
func (d *decoder) count() int {
	n := d.uint()
	if n > uint64(len(d.s)-d.off) {
		d.bad = true
		return 0
	}
	return int(n)
}

// index reads an index below n.
func (d *decoder) index(n int) int {
	x := d.uint()
	if x >= uint64(n) {
		d.bad = true
		return 0
	}
	return int(x)
}

// u32 reads an unsigned number of 32 bits.
func (d *decoder) u32() uint32 {
	x := d.uint()
	if x > math.MaxUint32 {
		d.bad = true
		return 0
	}
	return uint32(x)
}

// i32 reads a signed number of 32 bits.
func (d *decoder) i32() int32 {
	x := d.int()
	if x < math.MinInt32 || x > math.MaxInt32 {
		d.bad = true
		return 0
	}
	return int32(x)
}

func (d *decoder) byte() byte {
	if d.bad || d.off >= len(d.s) {
		d.bad = true
		return 0
	}
	b := d.s[d.off]
	d.off++
	return b
}

func (d *decoder) bool() bool {
	switch d.byte() {
	case 0:
		return false
	case 1:
		return true
	}
	d.bad = true
	return false
}

func (d *decoder) str() string {
	n := d.count()
	if d.bad {
		return ""
	}
	s := d.s[d.off : d.off+n]
	d.off += n
	return s
}

func (d *decoder) value(depth int) any {
	if depth > maxValueDepth {
		d.bad = true
		return nil
	}
	switch d.byte() {
	case tagNull:
		return nil
	case tagFalse:
		return false
	case tagTrue:
		return true
	case tagInt:
		return d.int()
	case tagFloat:
		if d.off+8 > len(d.s) {
			d.bad = true
			return nil
		}
		var u uint64
		for i := 7; i >= 0; i-- {
			u = u<<8 | uint64(d.s[d.off+i])
		}
		x := math.Float64frombits(u)
		d.off += 8
		return x
	case tagString:
		return d.str()
	case tagArray:
		n := d.count()
		a := make([]any, n)
		for i := range a {
			a[i] = d.value(depth + 1)
		}
		return a
	case tagStrings:
		n := d.count()
		a := make([]string, n)
		for i := range a {
			a[i] = d.str()
		}
		return a
	case tagObject:
		n := d.count()
		m := make(map[string]any, n)
		for range n {
			k := d.str()
			m[k] = d.value(depth + 1)
		}
		return m
	case tagNilObject:
		return map[string]any(nil)
	case tagNilArray:
		return []any(nil)
	}
	d.bad = true
	return nil
}

// node reads a validate.Node.
func (d *decoder) node() validate.Node {
	var n validate.Node
	n.Type = d.str()
	n.Format = d.str()
	n.Nullable = d.bool()
	n.IntOrString = d.bool()
	n.Pattern = d.str()
	n.AdditionalPropertiesFalse = d.bool()
	n.Keywords = d.object()
	return n
}

// object reads what encoder.object wrote: a JSON object, or nil.
func (d *decoder) object() map[string]any {
	if !d.bool() {
		return nil
	}
	m, ok := d.value(0).(map[string]any)
	if !ok || m == nil {
		d.bad = true
	}
	return m
}

// decodeCompiled reads what encodeCompiled wrote: the Set of one CRD,
// whose entries' CRD and versions have no schemas (schemas loads them on
// first use); ok is false for a body it does not read whole.
func decodeCompiled(body string, schemas *crdSchemas) (set *Set, ok bool) {
	d := &decoder{s: body}
	c := &CRD{}
	c.APIVersion = d.str()
	c.Name = d.str()
	c.Group = d.str()
	c.Kind = d.str()
	c.Plural = d.str()
	c.PreserveUnknownFields = d.bool()
	nv := d.count()
	if d.bad || nv == 0 {
		return nil, false
	}
	versions := make([]Version, nv)
	c.Versions = make([]*Version, nv)
	for i := range versions {
		v := &versions[i]
		v.Name = d.str()
		v.Served = d.bool()
		v.Storage = d.bool()
		v.StatusSubresource = d.bool()
		if d.bool() {
			v.Scale = &Scale{SpecReplicasPath: d.str(), StatusReplicasPath: d.str(), LabelSelectorPath: d.str()}
			for j, p := range [3]string{v.Scale.SpecReplicasPath, v.Scale.StatusReplicasPath, v.Scale.LabelSelectorPath} {
				if p != "" {
					v.Scale.segs[j] = strings.Split(strings.TrimPrefix(p, "."), ".")
				}
			}
		}
		c.Versions[i] = v
	}
	// the value rules, compiled once per distinct node
	rules := make([]*validate.Rules, d.count())
	for i := range rules {
		n := d.node()
		if d.bad {
			return nil, false
		}
		r, err := validate.Compile(n)
		if err != nil {
			return nil, false
		}
		rules[i] = r
	}
	trees := d.trees(rules)
	if d.bad {
		return nil, false
	}
	set = &Set{entries: make(map[GroupVersionKind]*Entry, nv), list: make([]*Entry, 0, nv),
		noSchema: map[groupKind]*Automaton{{c.Group, c.Kind}: noSchemaAutomaton(c.PreserveUnknownFields)}}
	entries := make([]Entry, nv)
	for i, v := range c.Versions {
		e := &entries[i]
		*e = Entry{GVK: GroupVersionKind{c.Group, v.Name, c.Kind}, CRD: c, Version: v, scale: v.Scale, status: v.StatusSubresource, schemas: schemas, index: i}
		e.Skeleton = d.bool()
		if n := d.count(); n > 0 {
			e.Violations = make(jperrors.FieldErrors, n)
			for j := range e.Violations {
				e.Violations[j] = &jperrors.FieldError{Type: jperrors.FieldErrorType(d.str()), Field: d.str(), Detail: d.str(), BadValue: d.value(0)}
			}
		}
		e.Automaton = d.automaton(rules, trees)
		if d.bad {
			return nil, false
		}
		e.Automaton.schemas, e.Automaton.version = schemas, i
		if _, dup := set.entries[e.GVK]; dup {
			return nil, false
		}
		set.entries[e.GVK] = e
		set.list = append(set.list, e)
	}
	if d.off != len(d.s) {
		return nil, false
	}
	return set, true
}

// trees reads the tree table.
func (d *decoder) trees(rules []*validate.Rules) []*validate.Tree {
	n := d.count()
	trees := make([]validate.Tree, n)
	out := make([]*validate.Tree, n)
	for i := range trees {
		t := &trees[i]
		out[i] = t
		ref := func() *validate.Tree {
			x := d.index(i + 1)
			if x == 0 {
				return nil
			}
			return out[x-1]
		}
		if r := d.index(len(rules)); !d.bad {
			t.Rules = rules[r]
		}
		if d.bool() {
			t.ListType = d.str()
		}
		if d.bool() {
			t.ListMapKeys = make([]string, d.count())
			for j := range t.ListMapKeys {
				t.ListMapKeys[j] = d.str()
			}
		}
		if np := d.count(); np > 0 {
			t.Properties = make(map[string]*validate.Tree, np)
			for range np {
				k := d.str()
				t.Properties[k] = ref()
			}
		}
		t.AdditionalProperties = ref()
		t.Items = ref()
		for _, l := range []*[]*validate.Tree{&t.AllOf, &t.AnyOf, &t.OneOf} {
			if m := d.count(); m > 0 {
				*l = make([]*validate.Tree, m)
				for j := range *l {
					(*l)[j] = ref()
				}
			}
		}
		t.Not = ref()
		if d.bad {
			return nil
		}
	}
	return out
}

// automaton reads one automaton and checks that every index in it is in
// range: its states, properties, length index, nodes, defaults, rules and
// trees.
func (d *decoder) automaton(rules []*validate.Rules, trees []*validate.Tree) *Automaton {
	a := &Automaton{}
	a.prunes = d.bool()
	a.declName = d.bool()
	a.rootReq = d.uint()
	a.root = StateID(d.i32())
	a.meta = StateID(d.i32())
	a.states = make([]State, d.count())
	for i := range a.states {
		st := &a.states[i]
		st.Types = TypeSet(d.byte())
		f := d.uint()
		if f > math.MaxUint16 {
			d.bad = true
		}
		st.Flags = Flags(f)
		vf := d.uint()
		if vf > math.MaxUint16 {
			d.bad = true
		}
		st.vflags = uint16(vf)
		st.propStart, st.propEnd, st.lenOff = d.u32(), d.u32(), d.u32()
		st.Additional, st.Items = StateID(d.i32()), StateID(d.i32())
		st.Default, st.Node = d.i32(), d.i32()
		st.rules = d.u32()
		st.typeOnly = d.bool()
		st.valKinds = d.byte()
		st.tree = d.u32()
	}
	a.props = makeN[Prop](d.count())
	a.fps = makeN[uint32](len(a.props))
	for i := range a.props {
		p := &a.props[i]
		p.Name = d.str()
		p.Target, p.Declared = StateID(d.i32()), StateID(d.i32())
		p.Role = PropRole(d.byte())
		p.vflags = d.u32()
		if r := d.uint(); r <= math.MaxUint16 {
			p.vreq = uint16(r)
		} else {
			d.bad = true
		}
		a.fps[i] = p.derive()
	}
	a.lenIndex = makeN[uint32](d.count())
	for i := range a.lenIndex {
		a.lenIndex[i] = d.u32()
	}
	a.nodes = make([]NodeInfo, d.count())
	a.encPaths = d.str()
	a.defaults = makeN[defaultValue](d.count())
	for i := range a.defaults {
		if d.bool() {
			a.defaults[i].value = d.value(0)
			a.defaults[i].json = []byte(d.str())
		}
	}
	a.rules = makeN[*validate.Rules](d.count())
	for i := range a.rules {
		if r := d.index(len(rules)); !d.bad {
			a.rules[i] = rules[r]
		}
	}
	a.trees = makeN[*validate.Tree](d.count())
	for i := range a.trees {
		if t := d.index(len(trees)); !d.bad {
			a.trees[i] = trees[t]
		}
	}
	if n := d.count(); n > 0 {
		a.unchecked = make([]string, n)
		for i := range a.unchecked {
			a.unchecked[i] = d.str()
		}
	}
	if d.bad || !a.inRange() {
		d.bad = true
		return nil
	}
	return a
}

// inRange reports whether every index of a is in range, so that no method
// reads out of range.
func (a *Automaton) inRange() bool {
	ns := len(a.states)
	state := func(s StateID, none bool) bool { return s >= 0 && int(s) < ns || none && s == NoState }
	if !state(a.root, false) || !state(a.meta, false) || ns <= int(Keep) {
		return false
	}
	for i := range a.states {
		st := &a.states[i]
		if st.propStart > st.propEnd || int(st.propEnd) > len(a.props) ||
			!state(st.Additional, true) || !state(st.Items, true) ||
			st.Default < -1 || int(st.Default) >= len(a.defaults) ||
			st.Node < 0 || int(st.Node) >= len(a.nodes) ||
			int(st.rules) > len(a.rules) || int(st.tree) > len(a.trees) {
			return false
		}
		if st.Default >= 0 && a.defaults[st.Default].json == nil {
			return false
		}
		ps := a.props[st.propStart:st.propEnd]
		if len(ps) > linearLookupMax {
			// Lookup reads lenIndex[lenOff : lenOff+maxLen+2], offsets
			// within the state's properties
			end := uint64(st.lenOff) + uint64(len(ps[len(ps)-1].Name)) + 2
			if end > uint64(len(a.lenIndex)) {
				return false
			}
			prev := uint32(0)
			for _, x := range a.lenIndex[st.lenOff:end] {
				if x < prev || int(x) > len(ps) {
					return false
				}
				prev = x
			}
		}
	}
	for _, p := range a.props {
		if !state(p.Target, false) || !state(p.Declared, true) {
			return false
		}
	}
	return true
}

// makeN makes a slice of n elements, nil for none (as the compiler leaves
// an empty table).
func makeN[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, n)
}

// decodePaths sets the nodes' paths from their encoding (automaton),
// leaving them empty if it does not read.
func (a *Automaton) decodePaths() {
	d := &decoder{s: a.encPaths}
	prev := ""
	for i := range a.nodes {
		n := d.uint()
		rest := d.str()
		if d.bad || n > uint64(len(prev)) {
			break
		}
		p := prev[:n] + rest
		a.nodes[i].Path, prev = p, p
	}
	a.encPaths = ""
}
