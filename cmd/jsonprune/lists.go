package main

import (
	"errors"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/yaml11"
)

// yamlList prunes the items of a YAML list read whole.
func (w *worker) yamlList(a *origin, m map[string]any, items []any, dups []yaml11.DuplicateKey) {
	b, u := a.b, a.u
	u.tally.lists++
	asJSON := w.o.output == outJSON
	if asJSON {
		b.out = append(b.out, '{')
		b.out = appendMembers(b.out, m, func(k string) bool { return k < "items" }, false)
		if b.out[len(b.out)-1] != '{' {
			b.out = append(b.out, ',')
		}
		b.out = append(b.out, `"items":[`...)
	}
	n := 0
	for i, it := range items {
		mark := len(b.out)
		if asJSON && n > 0 {
			b.out = append(b.out, ',')
		}
		ia := &origin{b: b, u: u, item: i, pos: a.pos, yaml: true, line: a.line, dups: itemDups(dups, i), root: it}
		w.js = appendJSON(w.js[:0], it)
		if w.object(ia, w.js) {
			n++
		} else {
			b.out = b.out[:mark]
		}
	}
	if asJSON {
		b.out = append(b.out, ']')
		b.out = appendMembers(b.out, m, func(k string) bool { return k > "items" }, true)
		b.out = append(b.out, "}\n"...)
	}
}

// head writes the start of a streamed list.
func (w *worker) head(a *origin, data []byte) {
	var out []byte
	if a.yaml {
		out = w.yamlEnvelope(a, data, true)
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
	a.b.out = w.o.output.head(a.b.out, out)
}

// tail writes the end of a streamed list.
func (w *worker) tail(a *origin, data []byte) {
	const open = `{"items":[`
	var out []byte
	switch {
	case a.yaml:
		out = w.yamlEnvelope(a, data, false)
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
	a.b.out = w.o.output.tail(a.b.out, out)
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
// to the JSON of its start (head) or end.
func (w *worker) yamlEnvelope(a *origin, data []byte, head bool) []byte {
	fallback := []byte("]}")
	if head {
		fallback = []byte(`{"items":[`)
	}
	doc := parseYAML(data, a.pos.line)
	if doc.err != nil {
		a.u.tally.unreadable++
		w.fail(a, nil, doc.err.msg, "", a.pos.offset, doc.err.line, doc.err.col)
		return fallback
	}
	m, ok := doc.value.(map[string]any)
	if !ok && doc.value != nil {
		a.u.tally.unreadable++
		w.fail(a, nil, "the list is not an object", "", a.pos.offset, a.line, 0)
		return fallback
	}
	if _, dup := m["items"]; dup {
		a.u.tally.unreadable++
		w.fail(a, nil, `the list has a second "items"`, "", a.pos.offset, a.line, 0)
	}
	notItems := func(k string) bool { return k != "items" }
	if head {
		out := appendMembers([]byte("{"), m, notItems, false)
		if len(out) > 1 {
			out = append(out, ',')
		}
		return append(out, `"items":[`...)
	}
	out := appendMembers([]byte("]"), m, notItems, true)
	return append(out, '}')
}
