package main

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/yamlbridge"
	yaml "go.yaml.in/yaml/v3"
)

// YAML documents go through the YAML bridge: each document text the
// stream.Reader cuts is parsed by yamlbridge.Parse, and the decoder reads its
// nodes as tokens (AppendPruneSource, ValidateSource). Findings are those of
// the same document in JSON (`unknown field "spec.x"`, one `duplicate field
// "spec.x"` per duplicate key), at their own YAML lines and columns: the
// bridge's offsets are in the document's text, which starts at column 1 of
// the unit's first line (u.pos).

// pruneYAML prunes a YAML document, or an item of a streamed YAML list.
func (w *worker) pruneYAML(a *origin, text []byte) {
	u := a.u
	if u.kind == unitItem && u.indent < len(text) && text[u.indent] == '-' {
		text[u.indent] = ' ' // the item is a document of its own
	}
	doc := w.parseYAML(a, text, true)
	if doc == nil {
		return
	}
	a.doc = doc
	if u.kind == unitDoc && w.yamlList(a) {
		return
	}
	a.src = doc.Source()
	w.object(a, nil)
}

// parseYAML parses the text of one document, and reports a syntax error
// (obj: counting it as an object). It returns nil on an error, and for a
// text without content (an empty document is skipped, as kubectl skips it).
func (w *worker) parseYAML(a *origin, text []byte, obj bool) *yamlbridge.Document {
	doc, err := yamlbridge.Parse(text)
	if err == nil {
		return doc
	}
	if err == io.EOF {
		if obj {
			a.u.tally.empty++
		}
		return nil
	}
	if obj {
		a.u.tally.objects++
	}
	a.u.tally.unreadable++
	shift := a.pos.line - 1
	var de *jperrors.DecodeError
	if !errors.As(err, &de) {
		w.fail(a, nil, err.Error(), "", a.pos.offset, a.pos.line, 0)
		return nil
	}
	line := de.Line
	if line > 0 {
		line += shift
	}
	w.fail(a, nil, shiftLines(de.Msg, shift), "", a.pos.offset+de.Offset, line, de.Column)
	return nil
}

var yamlLinePrefix = regexp.MustCompile(`^yaml: line (\d+):`)

// shiftLines rewrites the "yaml: line N:" of a parser message from the
// document's numbering to the input's.
func shiftLines(msg string, shift int) string {
	m := yamlLinePrefix.FindStringSubmatchIndex(msg)
	if m == nil || shift == 0 {
		return msg
	}
	n, _ := strconv.Atoi(msg[m[2]:m[3]])
	return msg[:m[2]] + strconv.Itoa(n+shift) + msg[m[3]:]
}

// yamlList prunes the items of a YAML document read whole that is a list
// (a mapping with an "items" sequence, as kubectl reads it), each by its
// own kind; it returns false when the document is not a list.
func (w *worker) yamlList(a *origin) bool {
	doc := a.doc
	root := rootMapping(doc.Node)
	if root == nil || !listCandidate(root) {
		return false
	}
	js, err := yamlbridge.AppendJSON(nil, doc.Source())
	if err != nil {
		return false // decoded as an object, which reports the error
	}
	before, items, after, ok := splitList(js)
	if !ok {
		return false
	}
	srcs := doc.Items()
	if len(srcs) != len(items) {
		return false
	}
	b, u := a.b, a.u
	u.tally.lists++
	form := w.o.output
	asJSON := form == outJSON || form == outYAML // -o yaml: rewritten from the JSON
	listStart := len(b.out)
	if asJSON {
		b.out = appendListStart(b.out, before)
	}
	var spans []span // -o yaml: each item's output, {-1,-1} when not written
	n := 0
	for i, src := range srcs {
		mark := len(b.out)
		if asJSON && n > 0 {
			b.out = append(b.out, ',')
		}
		start := len(b.out)
		ia := &origin{b: b, u: u, item: i, pos: a.pos, yaml: true, doc: doc, src: src, js: items[i], jsDone: true, inList: form == outYAML}
		if w.object(ia, nil) {
			n++
			spans = append(spans, span{start, len(b.out)})
		} else {
			b.out = b.out[:mark]
			spans = append(spans, span{-1, -1})
		}
	}
	if asJSON {
		b.out = append(b.out, ']')
		b.out = append(b.out, after...) // -o yaml: the JSON of the list written
	}
	switch form {
	case outJSON:
		b.out = append(b.out, '\n')
	case outYAML:
		// the JSON for the rewrite keeps the items not written, so that the
		// others keep their place; they are dropped from the result
		w.js = appendListStart(w.js[:0], before)
		for i, s := range spans {
			if i > 0 {
				w.js = append(w.js, ',')
			}
			if s.start < 0 {
				w.js = append(w.js, items[i]...)
			} else {
				w.js = append(w.js, b.out[s.start:s.end]...)
			}
		}
		w.js = append(append(w.js, ']'), after...)
		out, err := w.yw.list(b.out[:listStart], w.js, doc, spans, b.out[listStart:])
		if err != nil {
			b.out = b.out[:listStart]
			u.tally.unreadable++
			w.fail(a, nil, "internal error (please report it): writing YAML: "+err.Error(), "", a.pos.offset, a.pos.line, a.pos.col)
			return true
		}
		b.out = out
	}
	return true
}

// appendListStart appends the JSON of a list up to its items: the members
// before "items" (before, from "{"), then "items":[.
func appendListStart(dst, before []byte) []byte {
	dst = append(dst, before...)
	if len(before) > 1 {
		dst = append(dst, ',')
	}
	return append(dst, `"items":[`...)
}

// rootMapping is the top-level mapping of a document, or nil.
func rootMapping(doc *yaml.Node) *yaml.Node {
	if doc == nil || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	return doc.Content[0]
}

// listCandidate reports whether a top-level mapping may be a list: it has
// an "items" key, or a merge key that may bring one.
func listCandidate(root *yaml.Node) bool {
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind == yaml.ScalarNode && (k.Value == "items" || k.Value == "<<") {
			return true
		}
	}
	return false
}

// splitList cuts the compact JSON of a document into the text before its
// "items" member (from "{", without a trailing comma), the items, and the
// text after the items array (to the closing "}"); ok is false when it has
// no items array.
func splitList(js []byte) (before []byte, items []jsontext.Value, after []byte, ok bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(js), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if dec.PeekKind() != '{' {
		return nil, nil, nil, false
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, nil, nil, false
	}
	for dec.PeekKind() == '"' {
		nameAt := dec.InputOffset()
		name, err := dec.ReadToken()
		if err != nil {
			return nil, nil, nil, false
		}
		if name.String() != "items" || dec.PeekKind() != '[' {
			if dec.SkipValue() != nil {
				return nil, nil, nil, false
			}
			continue
		}
		dec.ReadToken()
		items = []jsontext.Value{}
		for dec.PeekKind() != ']' {
			v, err := dec.ReadValue()
			if err != nil {
				return nil, nil, nil, false
			}
			end := dec.InputOffset()
			items = append(items, jsontext.Value(js[end-int64(len(v)):end]))
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, nil, nil, false
		}
		return js[:nameAt], items, js[dec.InputOffset():], true
	}
	return nil, nil, nil, false
}

// withoutItems returns a JSON object without its members named "items".
func withoutItems(js []byte) ([]byte, bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(js), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if dec.PeekKind() != '{' {
		return nil, false
	}
	dec.ReadToken()
	out := []byte{'{'}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadValue()
		if err != nil {
			return nil, false
		}
		name = append(jsontext.Value(nil), name...)
		v, err := dec.ReadValue()
		if err != nil {
			return nil, false
		}
		if u, err := jsontext.AppendUnquote(nil, name); err == nil && string(u) == "items" {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, name...), ':'), v...)
	}
	return append(out, '}'), true
}
