package yaml11

import (
	"bytes"
	"math"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/internal/jsonvalue"
	yaml "go.yaml.in/yaml/v3"
)

// Walker exposes the steps of ToValue to a caller that walks the node tree itself, in the same
// order, without building values (the YAML bridge, which turns the tree into JSON tokens). Called
// at the same points as ToValue calls them (see the package yamlbridge for the order), its
// methods give the same scalars, keys and merge decisions, trip the same limits at the same node
// and return the same errors.
//
// The order ToValue follows, which a caller must follow for the limits to trip identically:
//   - every node about to be decoded is counted (Count): the document node, then its content;
//     a mapping or sequence before its children; a key before its value;
//   - an alias node is counted, then EnterAlias, then its anchor's node is counted and decoded,
//     then LeaveAlias;
//   - a mapping or sequence is entered (Enter) after it is counted and left (Leave) after its
//     last child;
//   - a merge key (IsMerge) is not counted; its value, when it is a mapping or an alias, is
//     counted (and the alias entered) and its pairs are decoded in place; when it is a sequence,
//     the sequence is not counted and its elements are handled so, from the last to the first,
//     each checked just before it is merged (MergeError for anything but a mapping or an alias
//     of one);
//   - a mapping or sequence used as a key is rejected with InvalidKey after being counted.
//
// Errors of go-yaml v2's decoding (a bad tagged scalar, an invalid merge, an invalid key, an alias
// that contains itself, the limits) come back at once, as in ToValue. Two kinds of error the
// reference only meets after decoding the whole document are not returned by the Walker's
// methods but reported through their results: an unsupported key (AppendKey's supported false)
// and a non-finite float (AppendScalar's finite false); the caller finishes the walk and then
// asks ConversionError for the reference's exact error, which depends on the whole document.
type Walker struct {
	c *converter
}

// NewWalker returns a Walker for the document (or node) root, with the scalars written with the
// non-specific tag "!" (see Text.NonSpecificScalars; may be nil).
func NewWalker(root *yaml.Node, nonSpecific map[*yaml.Node]bool, opts Options) *Walker {
	return &Walker{c: &converter{opts: opts.withDefaults(), root: root, ownNodes: -1, nonSpecific: nonSpecific}}
}

// Count is go-yaml v2's bookkeeping at the start of decoding n, with the limits of Options: a
// *LimitError once a limit is exceeded.
func (w *Walker) Count(n *yaml.Node) error { return w.c.count(n) }

// EnterAlias starts the expansion of alias node a: an *Error for an unknown anchor or an anchor
// that contains the alias.
func (w *Walker) EnterAlias(a *yaml.Node) error { return w.c.enterAlias(a) }

// LeaveAlias ends the innermost alias expansion.
func (w *Walker) LeaveAlias() { w.c.leaveAlias() }

// Enter enters a mapping or sequence node: a *LimitError past MaxDepth.
func (w *Walker) Enter(n *yaml.Node) error { return w.c.enter(n) }

// Leave leaves the innermost mapping or sequence.
func (w *Walker) Leave() { w.c.depth-- }

// IsMerge reports whether key node k is a merge key ("<<" plain, tagged !!merge, or written with
// the non-specific tag "!").
func (w *Walker) IsMerge(k *yaml.Node) bool {
	return isMerge(k) || w.c.nonSpecific[k] && k != nil && k.Value == "<<"
}

// MergeError is the error of a merge whose value (or sequence element) n is neither a mapping nor
// an alias of one.
func (w *Walker) MergeError(n *yaml.Node) error {
	return newError(n, "yaml: map merge requires map or sequence of maps as the value")
}

// Mergeable reports whether n may be merged: a mapping, or an alias whose anchor is one (an alias
// without anchor passes: EnterAlias reports it).
func Mergeable(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	switch n.Kind {
	case yaml.MappingNode:
		return true
	case yaml.AliasNode:
		return n.Alias == nil || n.Alias.Kind == yaml.MappingNode
	}
	return false
}

// AppendScalar appends to dst the JSON text of the value scalar node n resolves to (ResolveScalar's
// value, written as encoding/json writes it: strings quoted, int64 in decimal, float64 in
// encoding/json's format, true, false, null; an integer above math.MaxInt64 in decimal, as
// json.Marshal writes go-yaml v2's uint64). For ±Inf and NaN, which json.Marshal rejects after
// decoding, it appends null and reports finite false. err is an *Error of the resolution (a bad
// tagged scalar, invalid base64).
func (w *Walker) AppendScalar(dst []byte, n *yaml.Node) (out []byte, finite bool, err error) {
	s, err := w.c.resolve(n)
	if err != nil {
		return dst, false, err
	}
	switch s.kind {
	case kNull:
		return append(dst, "null"...), true, nil
	case kBool:
		if s.b {
			return append(dst, "true"...), true, nil
		}
		return append(dst, "false"...), true, nil
	case kInt:
		return strconv.AppendInt(dst, s.i, 10), true, nil
	case kUint:
		return strconv.AppendUint(dst, s.u, 10), true, nil
	case kFloat:
		if math.IsInf(s.f, 0) || math.IsNaN(s.f) {
			return append(dst, "null"...), false, nil
		}
		switch v := jsonvalue.RoundTripFloat(s.f).(type) {
		case int64:
			return strconv.AppendInt(dst, v, 10), true, nil
		case float64:
			return jsonvalue.AppendFloat(dst, v), true, nil
		}
	}
	dst, _ = jsontext.AppendQuote(dst, jsonString(s.s))
	return dst, true, nil
}

// AppendKey appends to dst the JSON text (a quoted string) of the object key the scalar key node
// k becomes (as KeyString). supported is false, and nothing is appended, for a null key or an
// integer above math.MaxInt64, which the reference rejects after decoding the document. err is an
// *Error of the resolution.
func (w *Walker) AppendKey(dst []byte, k *yaml.Node) (out []byte, supported bool, err error) {
	s, err := w.c.resolve(k)
	if err != nil {
		return dst, false, err
	}
	jk, _, ok := jsonKey(s)
	if !ok {
		return dst, false, nil
	}
	dst, _ = jsontext.AppendQuote(dst, jk)
	return dst, true, nil
}

// InvalidKey decodes a mapping or sequence node used as a key, as go-yaml v2 does before it
// rejects it (so that an error inside it comes first), and returns the rejection: "yaml: invalid
// map key: …". The key node itself must have been counted.
func (w *Walker) InvalidKey(k *yaml.Node) error {
	if _, err := w.c.decode(k); err != nil {
		return err
	}
	return newError(k, invalidKeyMessage(k, w.c.nonSpecific))
}

// ConversionError converts n (the walked document, or the part of it a walk covered) again with
// ToValue's rules and returns its fatal error (nil if there is none; duplicate keys are not
// fatal). A caller whose walk met an unsupported key or a non-finite float calls it after the
// walk, to get the error the reference reports for the whole document.
func (w *Walker) ConversionError(n *yaml.Node) error {
	c := converter{opts: w.c.opts, root: n, ownNodes: -1, nonSpecific: w.c.nonSpecific}
	if _, err := c.run(n); err != nil {
		if _, dup := err.(*DuplicateKeysError); !dup {
			return err
		}
	}
	return nil
}

// PlainIsString reports whether s, written as an untagged plain scalar, resolves to the string s
// (so that a writer may leave it unquoted for the Kubernetes YAML path): "yes", "1.0", "~", "" and
// "0x1F" do not.
func PlainIsString(s string) bool {
	v := resolvePlain(s)
	return v.kind == kString && v.s == s
}

// Text is the text of a YAML stream, for locating its nodes.
type Text struct {
	src     source
	hasBang bool
}

// NewText returns the Text of data, the stream the nodes were parsed from.
func NewText(data []byte) *Text {
	return &Text{src: source{data: data}, hasBang: bytes.IndexByte(data, '!') >= 0}
}

// LineStarts returns the byte offset of the start of each line (line 1 first), breaking lines as
// the parser does: at LF, CR LF, CR, NEL, LS and PS. The slice is shared; do not modify it.
func (t *Text) LineStarts() []int {
	if t.src.lines == nil {
		t.src.lines = lineStarts(t.src.data)
	}
	return t.src.lines
}

// NonSpecificScalars returns the scalars of document doc written with the non-specific tag "!"
// (which the v3 parser drops and go-yaml v2 keeps: such a scalar is a string, and "! <<" a merge
// key), or nil when there are none.
func (t *Text) NonSpecificScalars(doc *yaml.Node) map[*yaml.Node]bool {
	if !t.hasBang {
		return nil
	}
	return t.src.nonSpecificScalars(doc)
}

// ParserErrorLine returns the line an error of the v3 parser is about: the "line N:" of its text,
// or for a UTF-8 error the line of the first byte of data that is not UTF-8; 0 when unknown.
func ParserErrorLine(err error, data []byte) int { return errorLine(err, data) }

// EmptyDocument reports a document without content (no content, or only comments: "---\n",
// "--- # note"), which Decode skips; a document that says null ("--- ~") is not empty, nor one
// whose empty scalar carries the non-specific tag "!" (nonSpecific as from Text.NonSpecificScalars).
func EmptyDocument(doc *yaml.Node, nonSpecific map[*yaml.Node]bool) bool {
	return isEmptyDocument(doc) && (len(doc.Content) == 0 || !nonSpecific[doc.Content[0]])
}

// Unwind forgets the nesting of an interrupted walk (depth and aliases being expanded) and keeps
// the counts, so that the Walker can serve another walk of a part of the same document whose
// limits are shared.
func (w *Walker) Unwind() {
	w.c.depth, w.c.aliasDepth, w.c.aliasStack = 0, 0, w.c.aliasStack[:0]
}
