package main

import (
	"errors"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/yamlbridge"
	yaml "go.yaml.in/yaml/v3"
)

// Streamed lists: the text before the items (head) and after them (tail)
// are checked and written around the items; YAML lists read whole are in
// yamldoc.go.

// head writes the start of a streamed list.
func (w *worker) head(a *origin, data []byte) {
	var out []byte
	var doc *yamlbridge.Document
	if a.yaml {
		out, doc = w.yamlEnvelope(a, data, true)
	} else {
		w.js = append(append(w.js[:0], data...), "]}"...)
		v := jsontext.Value(w.js)
		if err := v.Compact(); err != nil {
			w.envelopeError(a, data, err, 0)
			out = []byte(`{"items":[`)
		} else {
			out = v[:len(v)-2]
		}
	}
	if w.o.output == outYAML {
		obj, _ := withoutItems(append(out[:len(out):len(out)], "]}"...))
		w.yamlEnvelopeOut(a, obj, doc, true)
		return
	}
	a.b.out = w.o.output.head(a.b.out, out)
}

// tail writes the end of a streamed list.
func (w *worker) tail(a *origin, data []byte) {
	const open = `{"items":[`
	var out []byte
	var doc *yamlbridge.Document
	switch {
	case a.yaml:
		out, doc = w.yamlEnvelope(a, data, false)
	case len(data) == 0: // a list cut short, reported where
		out = []byte("]}")
	default:
		w.js = append(append(w.js[:0], open...), data...)
		v := jsontext.Value(w.js)
		if err := v.Compact(jsontext.AllowDuplicateNames(false)); err != nil {
			w.envelopeError(a, data, err, len(open))
			out = []byte("]}")
		} else {
			out = v[len(open):]
		}
	}
	if w.o.output == outYAML {
		obj, _ := withoutItems(append([]byte(open), out...))
		w.yamlEnvelopeOut(a, obj, doc, false)
		return
	}
	a.b.out = w.o.output.tail(a.b.out, out)
}

// yamlEnvelopeOut writes the YAML of a list's start or end, whose members
// (without the items) are obj.
func (w *worker) yamlEnvelopeOut(a *origin, obj []byte, doc *yamlbridge.Document, head bool) {
	b := a.b
	if obj == nil {
		obj = []byte("{}")
	}
	var out []byte
	var err error
	if head {
		out, err = w.yw.listStart(b.out, obj, doc)
	} else {
		out, err = w.yw.listEnd(b.out, obj, doc)
	}
	if err != nil {
		a.u.tally.unreadable++
		w.fail(a, nil, "internal error (please report it): writing YAML: "+err.Error(), "", a.pos.offset, a.pos.line, a.pos.col)
		out, obj = b.out, []byte("{}")
		if head {
			out, _ = w.yw.listStart(out, obj, nil)
		} else {
			out, _ = w.yw.listEnd(out, obj, nil)
		}
	}
	b.out = out
}

// envelopeError reports a syntax error in the JSON text of a list around
// its items; shift is the length of the text put before data to check it.
func (w *worker) envelopeError(a *origin, data []byte, err error, shift int) {
	a.u.tally.unreadable++
	msg, off := err.Error(), int64(0)
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		msg = "invalid JSON: " + strings.TrimPrefix(se.Err.Error(), "jsontext: ")
		off = max(0, min(se.ByteOffset-int64(shift), int64(len(data))))
	}
	line, col := jperrors.LineColumn(data, off)
	o, l, c := a.at(off, line, col)
	w.fail(a, nil, msg, "", o, l, c)
}

// yamlEnvelope converts the YAML text of a streamed list around its items
// to the JSON of its start (head: up to "items":[) or end (from "]"), its
// members in the document's order; it returns the parsed document too
// (nil if none), for -o yaml.
func (w *worker) yamlEnvelope(a *origin, data []byte, head bool) ([]byte, *yamlbridge.Document) {
	fallback := []byte("]}")
	if head {
		fallback = []byte(`{"items":[`)
	}
	doc := w.parseYAML(a, data, false)
	if doc == nil {
		return fallback, nil // no members, or a syntax error (reported)
	}
	a.doc = doc
	n := doc.Node
	if len(n.Content) == 1 && n.Content[0].Kind != yaml.MappingNode && a.doc.Source().PeekKind() != 'n' {
		a.u.tally.unreadable++
		w.fail(a, nil, "the list is not an object", "", a.pos.offset, a.pos.line, a.pos.col)
		return fallback, nil
	}
	js, err := yamlbridge.AppendJSON(nil, doc.Source())
	if err != nil {
		a.u.tally.unreadable++
		var de *jperrors.DecodeError
		if !errors.As(err, &de) {
			de = &jperrors.DecodeError{Msg: err.Error()}
		}
		off, line, col := a.at(de.Offset, 0, 0)
		w.fail(a, nil, de.Msg, de.Pointer, off, line, col)
		return fallback, nil
	}
	obj := []byte("{}")
	if len(js) > 0 && js[0] == '{' {
		var ok bool
		if obj, ok = withoutItems(js); !ok {
			obj = []byte("{}")
		}
		if len(obj) != len(js) {
			a.u.tally.unreadable++
			w.fail(a, nil, `the list has a second "items"`, "", a.pos.offset, a.pos.line, a.pos.col)
		}
	}
	inner := obj[1 : len(obj)-1]
	if head {
		out := append([]byte("{"), inner...)
		if len(inner) > 0 {
			out = append(out, ',')
		}
		return append(out, `"items":[`...), doc
	}
	out := []byte("]")
	if len(inner) > 0 {
		out = append(append(out, ','), inner...)
	}
	return append(out, '}'), doc
}
