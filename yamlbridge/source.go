package yamlbridge

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/yaml11"
	yaml "go.yaml.in/yaml/v3"
)

// Source presents one YAML document (or one node of it, such as an item of a List) as the token
// stream the decoder reads (decoder.TokenSource): mappings are objects, sequences arrays, keys
// names, scalars JSON values, all resolved as the Kubernetes YAML path resolves them (package
// internal/yaml11). It walks the node tree lazily, following aliases and merge keys in place:
// nothing is copied, and memory is bounded by the nesting of the document.
//
// A Source is read once; ask its Document for another one to read the document again.
type Source struct {
	root *yaml.Node // the node the walk starts at (a DocumentNode, or a node inside one)
	text []byte     // Document(): offsets refer to it
	base int64      // offset of text in the stream pos indexes
	pos  *positions // line and column to offset
	w    *yaml11.Walker

	frames []frame
	cur    []cursor   // the merge cursors of every open object (frame.curBase)
	value  *yaml.Node // a member value to start next, after its name
	state  uint8

	// the prepared token: kind 0 when none is
	kind   jsontext.Kind
	raw    []byte
	tokOff int64

	last        int64 // LastOffset
	err         error // sticky: the error, or io.EOF after the last token
	deferred    bool  // an unsupported key or a non-finite float was met
	deferredOff int64 // where the first of them is

	bufs [4][]byte // names and scalars; each ReadValue result stays valid for three more reads
	bi   int
}

var _ decoder.TokenSource = (*Source)(nil)

const (
	stateNew uint8 = iota
	stateWalk
	stateDone
)

// frame is an open mapping or sequence.
type frame struct {
	node    *yaml.Node
	obj     bool
	alias   bool  // reached through an alias: the expansion ends with it
	i       int   // sequence: next element
	curBase int   // object: its cursors are cur[curBase:]
	off     int64 // offset of the node, for the end delimiter
}

// cursor reads the pairs of a mapping, or the maps of a merge sequence, of an open object in
// go-yaml v2's order: a merge key's maps are read in place of the merge key, a merge sequence's
// from the last to the first.
type cursor struct {
	m     *yaml.Node // the mapping whose pairs are read, or nil
	i     int
	seq   *yaml.Node // the merge sequence whose elements are merged, from j down to 0
	j     int
	alias bool // m was reached through an alias (merged): the expansion ends with m
}

func newSource(root *yaml.Node, text []byte, base int64, pos *positions, w *yaml11.Walker) *Source {
	return &Source{root: root, text: text, base: base, pos: pos, w: w}
}

// NewSource returns a Source over node n (a DocumentNode from yaml.Unmarshal, or any node of one)
// parsed from text, with the default limits; offsets are byte offsets in text. Reader is the usual
// way to get Sources; NewSource serves callers that parse YAML themselves.
func NewSource(n *yaml.Node, text []byte, opts ...Option) *Source {
	o := newOptions(opts)
	t := yaml11.NewText(text)
	s := newSource(n, text, 0, newPositions(text, t), yaml11.NewWalker(n, t.NonSpecificScalars(n), o.limits))
	if o.err != nil {
		s.err, s.state = o.err, stateDone // the first read returns it
	}
	return s
}

// Node returns the node the Source reads.
func (s *Source) Node() *yaml.Node { return s.root }

// Document returns the text of the document: offsets refer to it.
func (s *Source) Document() []byte { return s.text }

// LastOffset returns the offset in Document of the last token read.
func (s *Source) LastOffset() int64 { return s.last }

// InputOffset returns the offset in Document of the next token (of the last one at the end).
func (s *Source) InputOffset() int64 {
	s.prepare()
	if s.kind != 0 {
		return s.tokOff
	}
	return s.last
}

// PeekKind returns the kind of the next token: '{', '}', '[', ']', '"', '0', 't', 'f', 'n', or 0
// at the end and on an error (which the next read returns).
func (s *Source) PeekKind() jsontext.Kind {
	s.prepare()
	return s.kind
}

// ReadToken reads the next token. At the end it returns io.EOF; on an error, a
// *jperrors.DecodeError with the reference's text and the position of the node at fault.
func (s *Source) ReadToken() (jsontext.Token, error) {
	s.prepare()
	switch s.kind {
	case 0:
		return jsontext.Token{}, s.err
	case '{':
		s.consume()
		return jsontext.BeginObject, nil
	case '}':
		s.consume()
		return jsontext.EndObject, nil
	case '[':
		s.consume()
		return jsontext.BeginArray, nil
	case ']':
		s.consume()
		return jsontext.EndArray, nil
	case 'n':
		s.consume()
		return jsontext.Null, nil
	case 't', 'f':
		b := s.kind == 't'
		s.consume()
		return jsontext.Bool(b), nil
	case '"':
		raw := s.raw
		s.consume()
		str, err := jsontext.AppendUnquote(nil, raw)
		if err != nil {
			return jsontext.Token{}, err
		}
		return jsontext.String(string(str)), nil
	}
	raw := s.raw
	s.consume()
	if i, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return jsontext.Int(i), nil
	}
	if u, err := strconv.ParseUint(string(raw), 10, 64); err == nil {
		return jsontext.Uint(u), nil
	}
	f, _ := strconv.ParseFloat(string(raw), 64)
	return jsontext.Float(f), nil
}

// ReadValue reads the next name or scalar as JSON text (valid until the fourth read after it);
// at an object or array it reads the whole value, rendered as JSON text with its members in
// go-yaml v2's order, duplicate names included.
func (s *Source) ReadValue() (jsontext.Value, error) {
	s.prepare()
	switch s.kind {
	case 0:
		return nil, s.err
	case '{', '[':
		return s.readComposite()
	case '}', ']':
		return nil, &jperrors.DecodeError{Offset: s.tokOff, Msg: fmt.Sprintf("yamlbridge: ReadValue at '%c'", s.kind)}
	}
	raw := s.raw
	s.consume()
	return raw, nil
}

// readComposite renders the object or array starting at the next token.
func (s *Source) readComposite() (jsontext.Value, error) {
	var out []byte
	depth := 0
	for {
		k := s.PeekKind()
		switch k {
		case 0:
			return nil, s.err
		case '{', '[':
			if n := len(out); n > 0 && out[n-1] != '{' && out[n-1] != '[' && out[n-1] != ':' {
				out = append(out, ',')
			}
			out = append(out, byte(k))
			depth++
			s.consume()
		case '}', ']':
			out = append(out, byte(k))
			depth--
			s.consume()
		default:
			if n := len(out); n > 0 && out[n-1] != '{' && out[n-1] != '[' && out[n-1] != ':' {
				out = append(out, ',')
			}
			out = append(out, s.raw...)
			isName := s.isName()
			s.consume()
			if isName {
				out = append(out, ':')
			}
		}
		if depth == 0 {
			return out, nil
		}
	}
}

// isName reports whether the prepared token is a member name.
func (s *Source) isName() bool {
	return s.kind == '"' && s.value != nil
}

func (s *Source) consume() {
	s.last = s.tokOff
	s.kind = 0
}

// buf returns an empty buffer for the next name or scalar.
func (s *Source) buf() []byte {
	s.bi = (s.bi + 1) % len(s.bufs)
	return s.bufs[s.bi][:0]
}

func (s *Source) token(k jsontext.Kind, raw []byte, off int64) {
	if raw != nil {
		s.bufs[s.bi] = raw
	}
	s.kind, s.raw, s.tokOff = k, raw, off
}

// offsetOf is the offset of node n in Document.
func (s *Source) offsetOf(n *yaml.Node) int64 {
	if n == nil {
		return s.last
	}
	return s.at(n.Line, n.Column)
}

// at is the offset of a line and column of the stream in Document.
func (s *Source) at(line, column int) int64 {
	off := s.pos.offset(line, column) - s.base
	return max(0, min(off, int64(len(s.text))))
}

// fail makes err the Source's error: a *jperrors.DecodeError with err's text, located at the
// node the error names, or else at n.
func (s *Source) fail(err error, n *yaml.Node) {
	off := s.offsetOf(n)
	var ye *yaml11.Error
	var le *yaml11.LimitError
	switch {
	case errors.As(err, &ye) && ye.Line > 0:
		off = s.at(ye.Line, ye.Column)
	case errors.As(err, &ye) && s.deferred:
		off = s.deferredOff // a non-finite float: the reference gives no position
	case errors.As(err, &le) && le.Line > 0:
		off = s.at(le.Line, le.Column)
	}
	de := &jperrors.DecodeError{Offset: off, Msg: err.Error(), Err: err}
	de.Line, de.Column = jperrors.LineColumn(s.text, off)
	s.err, s.kind, s.state = de, 0, stateDone
}

// prepare computes the next token, unless one is ready or the walk is over.
func (s *Source) prepare() {
	if s.kind != 0 || s.state == stateDone {
		return
	}
	if s.state == stateNew {
		s.state = stateWalk
		s.w.Unwind()
		n := s.root
		if n.Kind == yaml.DocumentNode {
			// the document node is counted, then its content (ToValue's order)
			if err := s.w.Count(n); err != nil {
				s.fail(err, n)
				return
			}
			if len(n.Content) != 1 {
				s.token('n', append(s.buf(), "null"...), 0)
				return
			}
			n = n.Content[0]
		}
		s.start(n)
		return
	}
	if v := s.value; v != nil {
		s.value = nil
		s.start(v)
		return
	}
	if len(s.frames) == 0 {
		s.finish()
		return
	}
	f := &s.frames[len(s.frames)-1]
	if !f.obj {
		if f.i < len(f.node.Content) {
			e := f.node.Content[f.i]
			f.i++
			s.start(e)
			return
		}
		s.end(']')
		return
	}
	k, v, err := s.nextPair(f)
	if err != nil {
		s.fail(err, nil)
		return
	}
	if k == nil {
		s.end('}')
		return
	}
	s.name(k, v)
}

// finish ends the walk: io.EOF, or the error the reference reports for a document that holds an
// unsupported key or a non-finite float.
func (s *Source) finish() {
	if s.deferred {
		err := s.w.ConversionError(s.root)
		if err == nil {
			// cannot happen: ToValue fails on what the walk deferred
			err = errors.New("yamlbridge: the document cannot be converted to JSON")
		}
		s.fail(err, nil)
		return
	}
	s.state, s.err = stateDone, io.EOF
}

// start counts a value node and makes its first token.
func (s *Source) start(n *yaml.Node) {
	if err := s.w.Count(n); err != nil {
		s.fail(err, n)
		return
	}
	t, alias := n, false
	if n.Kind == yaml.AliasNode {
		if err := s.w.EnterAlias(n); err != nil {
			s.fail(err, n)
			return
		}
		t, alias = n.Alias, true
		if err := s.w.Count(t); err != nil {
			s.fail(err, t)
			return
		}
	}
	off := s.offsetOf(n)
	switch t.Kind {
	case yaml.ScalarNode:
		raw, finite, err := s.w.AppendScalar(s.buf(), t)
		if err != nil {
			s.fail(err, t)
			return
		}
		if !finite {
			s.deferAt(off)
		}
		if alias {
			s.w.LeaveAlias()
		}
		k := jsontext.Kind(raw[0])
		if k == '-' || k >= '0' && k <= '9' {
			k = '0'
		}
		s.token(k, raw, off)
	case yaml.MappingNode, yaml.SequenceNode:
		if err := s.w.Enter(t); err != nil {
			s.fail(err, t)
			return
		}
		obj := t.Kind == yaml.MappingNode
		if obj && len(t.Content)%2 != 0 {
			s.fail(fmt.Errorf("yamlbridge: mapping node with an odd number of children"), t)
			return
		}
		s.frames = append(s.frames, frame{node: t, obj: obj, alias: alias, curBase: len(s.cur), off: off})
		if obj {
			s.cur = append(s.cur, cursor{m: t})
			s.token('{', nil, off)
		} else {
			s.token('[', nil, off)
		}
	default:
		s.fail(fmt.Errorf("yamlbridge: unexpected node kind %d", t.Kind), t)
	}
}

func (s *Source) deferAt(off int64) {
	if !s.deferred {
		s.deferred, s.deferredOff = true, off
	}
}

// end closes the innermost mapping or sequence.
func (s *Source) end(k jsontext.Kind) {
	f := s.frames[len(s.frames)-1]
	s.frames = s.frames[:len(s.frames)-1]
	s.cur = s.cur[:f.curBase]
	s.w.Leave()
	if f.alias {
		s.w.LeaveAlias()
	}
	s.token(k, nil, max(s.last, f.off))
}

// nextPair returns the next pair of the object of frame f in go-yaml v2's order, expanding merge
// keys; k is nil at the end of the object.
func (s *Source) nextPair(f *frame) (k, v *yaml.Node, err error) {
	for len(s.cur) > f.curBase {
		c := &s.cur[len(s.cur)-1]
		if c.seq != nil {
			if c.j < 0 {
				s.cur = s.cur[:len(s.cur)-1]
				continue
			}
			e := c.seq.Content[c.j]
			c.j--
			if !yaml11.Mergeable(e) {
				return nil, nil, s.w.MergeError(e)
			}
			if err := s.mergeOne(e); err != nil {
				return nil, nil, err
			}
			continue
		}
		if c.i >= len(c.m.Content) {
			alias := c.alias
			s.cur = s.cur[:len(s.cur)-1]
			if alias {
				s.w.LeaveAlias()
			}
			continue
		}
		k, v := c.m.Content[c.i], c.m.Content[c.i+1]
		c.i += 2
		if s.w.IsMerge(k) {
			if err := s.merge(v); err != nil {
				return nil, nil, err
			}
			continue
		}
		return k, v, nil
	}
	return nil, nil, nil
}

// merge starts merging the value of a merge key.
func (s *Source) merge(v *yaml.Node) error {
	switch {
	case v == nil:
		return s.w.MergeError(v)
	case v.Kind == yaml.SequenceNode:
		s.cur = append(s.cur, cursor{seq: v, j: len(v.Content) - 1})
		return nil
	case yaml11.Mergeable(v):
		return s.mergeOne(v)
	}
	return s.w.MergeError(v)
}

// mergeOne starts merging a mapping, or the mapping an alias refers to.
func (s *Source) mergeOne(n *yaml.Node) error {
	if err := s.w.Count(n); err != nil {
		return err
	}
	if n.Kind != yaml.AliasNode {
		if len(n.Content)%2 != 0 {
			return fmt.Errorf("yamlbridge: mapping node with an odd number of children")
		}
		s.cur = append(s.cur, cursor{m: n})
		return nil
	}
	if err := s.w.EnterAlias(n); err != nil {
		return err
	}
	if err := s.w.Count(n.Alias); err != nil {
		return err
	}
	if len(n.Alias.Content)%2 != 0 {
		return fmt.Errorf("yamlbridge: mapping node with an odd number of children")
	}
	s.cur = append(s.cur, cursor{m: n.Alias, alias: true})
	return nil
}

// name makes the token of key k, and remembers v as the value to start next.
func (s *Source) name(k, v *yaml.Node) {
	if err := s.w.Count(k); err != nil {
		s.fail(err, k)
		return
	}
	t, alias := k, false
	if k.Kind == yaml.AliasNode {
		if err := s.w.EnterAlias(k); err != nil {
			s.fail(err, k)
			return
		}
		t, alias = k.Alias, true
		if err := s.w.Count(t); err != nil {
			s.fail(err, t)
			return
		}
	}
	off := s.offsetOf(k)
	var raw []byte
	switch t.Kind {
	case yaml.ScalarNode:
		var ok bool
		var err error
		raw, ok, err = s.w.AppendKey(s.buf(), t)
		if err != nil {
			s.fail(err, t)
			return
		}
		if !ok {
			// null or an integer above MaxInt64: the document fails after the walk
			s.deferAt(off)
			raw = append(raw, `"\u0000unsupported key"`...)
		}
	case yaml.MappingNode, yaml.SequenceNode:
		s.fail(s.w.InvalidKey(t), t)
		return
	default:
		s.fail(fmt.Errorf("yamlbridge: unexpected node kind %d", t.Kind), t)
		return
	}
	if alias {
		s.w.LeaveAlias()
	}
	s.value = v
	s.token('"', raw, off)
}

// TypeMeta returns the root's "apiVersion" and "kind" strings as the decoder's pre-scan finds
// them in JSON text: the last occurrence in go-yaml v2's order (merged keys included) wins,
// apiVersion counts when it is a string, kind when it is a non-empty string. It reads the root
// mapping's pairs without counting them against the limits, within a budget of its own (the walk
// itself enforces the limits and reports them).
func (s *Source) TypeMeta() decoder.TypeMeta {
	var tm decoder.TypeMeta
	root := rootValue(s.root)
	if root == nil || root.Kind != yaml.MappingNode {
		return tm
	}
	tm.IsObject = true
	var scratch []byte
	budget := typeMetaBudget
	eachPair(root, s.w, &budget, func(k, v *yaml.Node) bool {
		if k.Kind == yaml.AliasNode {
			k = k.Alias
		}
		if k == nil || k.Kind != yaml.ScalarNode {
			return true
		}
		var ok bool
		var err error
		scratch, ok, err = s.w.AppendKey(scratch[:0], k)
		if err != nil || !ok {
			return true
		}
		isAV := string(scratch) == `"apiVersion"`
		if !isAV && string(scratch) != `"kind"` {
			return true
		}
		str, isString := scalarString(s.w, v, &scratch)
		if isAV {
			tm.HasAPIVersion = isString
			tm.APIVersionNull = !isString && isNullScalar(s.w, v, &scratch)
			if isString {
				tm.APIVersion = append(tm.APIVersion[:0], str...)
			}
		} else {
			tm.HasKind = isString && len(str) > 0
			if tm.HasKind {
				tm.Kind = append(tm.Kind[:0], str...)
			}
		}
		return true
	})
	if !tm.HasAPIVersion {
		tm.APIVersion = nil
	}
	if !tm.HasKind {
		tm.Kind = nil
	}
	return tm
}

// typeMetaBudget bounds the pairs TypeMeta and the List helpers visit (merge keys can repeat a
// mapping many times); past it they stop, and the walk reports the limit it exceeds.
const typeMetaBudget = 100_000

// rootValue is the content of a document node (through an alias), or n itself.
func rootValue(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.DocumentNode {
		if len(n.Content) != 1 {
			return nil
		}
		n = n.Content[0]
	}
	if n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// eachPair calls f with the pairs of mapping m in go-yaml v2's order (merged pairs in place of
// their merge key) until f returns false or budget pairs were visited. Invalid merges and alias
// cycles are skipped: the walk reports them.
func eachPair(m *yaml.Node, w *yaml11.Walker, budget *int, f func(k, v *yaml.Node) bool) bool {
	var active map[*yaml.Node]bool // the mappings being merged (against cycles)
	var fill func(m *yaml.Node) bool
	mergeOne := func(m *yaml.Node) bool {
		if m == nil || m.Kind != yaml.MappingNode || active[m] {
			return true
		}
		if active == nil {
			active = map[*yaml.Node]bool{}
		}
		active[m] = true
		defer delete(active, m)
		return fill(m)
	}
	fill = func(m *yaml.Node) bool {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if *budget--; *budget < 0 {
				return false
			}
			k, v := m.Content[i], m.Content[i+1]
			if !w.IsMerge(k) {
				if !f(k, v) {
					return false
				}
				continue
			}
			switch v.Kind {
			case yaml.AliasNode:
				if !mergeOne(v.Alias) {
					return false
				}
			case yaml.MappingNode:
				if !mergeOne(v) {
					return false
				}
			case yaml.SequenceNode:
				for j := len(v.Content) - 1; j >= 0; j-- {
					e := v.Content[j]
					if e.Kind == yaml.AliasNode {
						e = e.Alias
					}
					if !mergeOne(e) {
						return false
					}
				}
			}
		}
		return true
	}
	return fill(m)
}

// scalarString resolves v (through an alias) and returns its string, if it is one.
// isNullScalar reports whether v (an alias is followed) is a scalar that reads as null.
func isNullScalar(w *yaml11.Walker, v *yaml.Node, scratch *[]byte) bool {
	if v.Kind == yaml.AliasNode {
		v = v.Alias
	}
	if v == nil || v.Kind != yaml.ScalarNode {
		return false
	}
	raw, _, err := w.AppendScalar((*scratch)[:0], v)
	*scratch = raw
	return err == nil && string(raw) == "null"
}

func scalarString(w *yaml11.Walker, v *yaml.Node, scratch *[]byte) ([]byte, bool) {
	if v.Kind == yaml.AliasNode {
		v = v.Alias
	}
	if v == nil || v.Kind != yaml.ScalarNode {
		return nil, false
	}
	raw, finite, err := w.AppendScalar((*scratch)[:0], v)
	*scratch = raw
	if err != nil || !finite || len(raw) == 0 || raw[0] != '"' {
		return nil, false
	}
	str, err := jsontext.AppendUnquote(nil, raw)
	if err != nil {
		return nil, false
	}
	return str, true
}
