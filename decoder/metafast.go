package decoder

import (
	"bytes"
	"slices"
	"strconv"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/internal/objectmeta"
)

// The fast path of ObjectMeta: metadata made only of the common fields in
// their canonical forms (strings, integral generation, string maps whose
// keys have no escapes, a canonical creationTimestamp) is normalised
// straight from its raw bytes, without building a value, in the
// reference's key order. Strings are written as they were spelled (the
// value tree path re-quotes them minimally; the two are the same JSON).
// Anything else goes to internal/objectmeta, which does all of the
// reference's ObjectMeta handling.

// the metadata fields of the fast path: a set of indexes into
// objectmeta.ObjectMeta.Fields (sorted as encoding/json renders them)
const fastMetaFields = 1<<objectmeta.FieldAnnotations | 1<<objectmeta.FieldCreationTimestamp |
	1<<objectmeta.FieldFinalizers | 1<<objectmeta.FieldGenerateName | 1<<objectmeta.FieldGeneration |
	1<<objectmeta.FieldLabels | 1<<objectmeta.FieldName | 1<<objectmeta.FieldNamespace |
	1<<objectmeta.FieldOwnerReferences | 1<<objectmeta.FieldResourceVersion | 1<<objectmeta.FieldSelfLink |
	1<<objectmeta.FieldUID

const numMetaFields = objectmeta.NumObjectMetaFields

// metaField returns the index of the metadata field name if the fast path
// reads it, else -1.
func metaField(name []byte) int {
	f := objectmeta.ObjectMeta.Index(name)
	if f < 0 || fastMetaFields&(1<<f) == 0 {
		return -1
	}
	return f
}

type kv struct {
	key, value jsontext.Value // raw, without escapes
	field      int
}

// fastMeta writes the normalised form of raw metadata to d.buf (when
// write) and reports whether it could; on false nothing was written.
func (d *Decoder) fastMeta(raw jsontext.Value, write bool) bool {
	if raw.Kind() == 'n' {
		if write {
			d.buf = append(d.buf, "{}"...) // metadata: null is {}
		}
		return true
	}
	if raw.Kind() != '{' || !d.readFastMeta(raw) {
		return false
	}
	if write {
		d.appendFastMeta()
	}
	return true
}

// readFastMeta reads the fields of raw metadata into d.meta (fields, kvs,
// owners) and reports whether they are all of the fast path's forms. raw
// was read whole by the scanner or by jsontext, which checked it (grammar,
// UTF-8, no duplicate names): its tokens are only found.
func (d *Decoder) readFastMeta(raw jsontext.Value) bool {
	sub := &d.meta.rawToks
	sub.reset(raw)
	if _, err := sub.ReadToken(); err != nil {
		return false
	}
	d.meta.fields = [numMetaFields]jsontext.Value{}
	d.meta.kvs, d.meta.owners = d.meta.kvs[:0], d.meta.owners[:0]
	for sub.PeekKind() != '}' {
		name, err := sub.ReadValue()
		if err != nil || bytes.IndexByte(name, '\\') >= 0 {
			return false
		}
		f := metaField(name[1 : len(name)-1])
		ok := f >= 0
		switch {
		case !ok:
		case f == objectmeta.FieldLabels || f == objectmeta.FieldAnnotations || f == objectmeta.FieldFinalizers:
			ok = d.readFastCollection(sub, f, name)
		case f == objectmeta.FieldOwnerReferences:
			if ok = d.fastOwnerRefs(sub); ok && len(d.meta.owners) > 0 {
				d.meta.fields[f] = name
			}
		default:
			ok = d.readFastScalar(sub, f)
		}
		if !ok {
			return false
		}
	}
	return true
}

// readFastCollection reads labels or annotations (a map of strings whose
// keys have no escapes) or finalizers (a list of strings) into d.meta.kvs;
// the field is present (name) when it is not empty.
func (d *Decoder) readFastCollection(sub *rawTokens, f int, name jsontext.Value) bool {
	open, end := jsontext.Kind('{'), jsontext.Kind('}')
	if f == objectmeta.FieldFinalizers {
		open, end = '[', ']'
	}
	if sub.PeekKind() != open {
		return false
	}
	sub.ReadToken()
	n := 0
	for sub.PeekKind() != end {
		var k jsontext.Value
		if open == '{' {
			var err error
			if k, err = sub.ReadValue(); err != nil || bytes.IndexByte(k, '\\') >= 0 {
				return false
			}
		}
		if sub.PeekKind() != '"' {
			return false
		}
		v, err := sub.ReadValue() // escapes are fine: written verbatim
		if err != nil {
			return false
		}
		d.meta.kvs = append(d.meta.kvs, kv{k, v, f})
		n++
	}
	sub.ReadToken()
	if n > 0 {
		d.meta.fields[f] = name // marks the field as present
	}
	return true
}

// readFastScalar reads a string field, an integral generation or a
// creationTimestamp in its canonical form; zero values are absent.
func (d *Decoder) readFastScalar(sub *rawTokens, f int) bool {
	v, err := sub.ReadValue()
	if err != nil {
		return false
	}
	return d.fastScalar(f, v)
}

// fastScalar takes the value v of field f (a string field, generation or
// creationTimestamp) if it is of the fast path's forms.
func (d *Decoder) fastScalar(f int, v jsontext.Value) bool {
	switch f {
	case objectmeta.FieldGeneration:
		if v.Kind() != '0' || bytes.ContainsAny(v, ".eE") {
			return false
		}
		g, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return false
		}
		if g == 0 {
			return true
		}
	case objectmeta.FieldCreationTimestamp:
		if v.Kind() != '"' || len(v) != 22 || v[20] != 'Z' {
			return false // only the canonical form 2006-01-02T15:04:05Z
		}
		t, err := time.Parse(time.RFC3339, string(v[1:21]))
		if err != nil {
			return false
		}
		if t.IsZero() {
			return true
		}
	default: // strings, escapes written verbatim
		if v.Kind() != '"' {
			return false
		}
		if len(v) == 2 {
			return true
		}
	}
	d.meta.fields[f] = v
	return true
}

// appendFastMeta writes the metadata readFastMeta read, as the reference
// renders ObjectMeta: fields in their order, map keys sorted, finalizers in
// theirs.
func (d *Decoder) appendFastMeta() {
	slices.SortStableFunc(d.meta.kvs, func(a, b kv) int {
		if a.field != b.field {
			return a.field - b.field
		}
		return bytes.Compare(a.key, b.key) // finalizers (nil keys) keep their order
	})
	base := len(d.buf)
	d.buf = append(d.buf, '{')
	d.meta.spans, d.meta.indexed = objectmeta.FieldSpans{}, true
	first := true
	for f, v := range d.meta.fields {
		if v == nil {
			continue
		}
		if !first {
			d.buf = append(d.buf, ',')
		}
		first = false
		d.buf = append(d.buf, '"')
		d.buf = append(d.buf, objectmeta.ObjectMeta.Fields[f].Name...)
		d.buf = append(d.buf, '"', ':')
		start := len(d.buf) - base
		switch f {
		case objectmeta.FieldOwnerReferences:
			d.appendOwnerRefs()
		case objectmeta.FieldFinalizers, objectmeta.FieldLabels, objectmeta.FieldAnnotations:
			d.appendFastCollection(f)
		default:
			d.buf = append(d.buf, v...)
		}
		d.meta.spans[f] = [2]int{start, len(d.buf) - base}
	}
	d.buf = append(d.buf, '}')
}

// appendFastCollection writes the list or map of field f from d.meta.kvs.
func (d *Decoder) appendFastCollection(f int) {
	open, end := byte('{'), byte('}')
	if f == objectmeta.FieldFinalizers {
		open, end = '[', ']'
	}
	d.buf = append(d.buf, open)
	n := 0
	for _, e := range d.meta.kvs {
		if e.field != f {
			continue
		}
		if n > 0 {
			d.buf = append(d.buf, ',')
		}
		n++
		if e.key != nil {
			d.buf = append(d.buf, e.key...)
			d.buf = append(d.buf, ':')
		}
		d.buf = append(d.buf, e.value...)
	}
	d.buf = append(d.buf, end)
}

// ownerRef is one ownerReferences entry of the fast path: raw values, by
// index in objectmeta.OwnerReference.Fields.
type ownerRef [objectmeta.NumOwnerReferenceFields]jsontext.Value

// fastOwnerRefs reads ownerReferences: an array of objects whose keys are
// OwnerReference fields with string or bool values (null bools are unset).
func (d *Decoder) fastOwnerRefs(sub *rawTokens) bool {
	if sub.PeekKind() != '[' {
		return false
	}
	sub.ReadToken()
	for sub.PeekKind() != ']' {
		if sub.PeekKind() != '{' {
			return false
		}
		sub.ReadToken()
		var o ownerRef
		for sub.PeekKind() != '}' {
			name, err := sub.ReadValue()
			if err != nil {
				return false
			}
			v, err := sub.ReadValue()
			if err != nil {
				return false
			}
			i := objectmeta.OwnerReference.Index(name[1 : len(name)-1]) // an escape matches no name
			if i < 0 {
				return false
			}
			switch t, k := objectmeta.OwnerReference.Fields[i].Type, v.Kind(); {
			case t == objectmeta.BoolPtr && (k == 't' || k == 'f'):
				o[i] = v
			case t == objectmeta.BoolPtr && k == 'n':
				o[i] = nil
			case t == objectmeta.String && k == '"':
				o[i] = v
			default:
				return false
			}
		}
		sub.ReadToken()
		d.meta.owners = append(d.meta.owners, o)
	}
	sub.ReadToken()
	return true
}

// appendOwnerRefs writes the ownerReferences of the fast path as the
// reference renders them: in field order, the fields without omitempty
// (apiVersion, kind, name and uid) always present.
func (d *Decoder) appendOwnerRefs() {
	d.buf = append(d.buf, '[')
	for i, o := range d.meta.owners {
		if i > 0 {
			d.buf = append(d.buf, ',')
		}
		sep := byte('{')
		for j, f := range objectmeta.OwnerReference.Fields {
			if o[j] == nil && !f.Always {
				continue
			}
			d.buf = append(d.buf, sep, '"')
			d.buf = append(d.buf, f.Name...)
			d.buf = append(d.buf, '"', ':')
			if o[j] == nil {
				d.buf = append(d.buf, '"', '"')
			} else {
				d.buf = append(d.buf, o[j]...)
			}
			sep = ','
		}
		d.buf = append(d.buf, '}')
	}
	d.buf = append(d.buf, ']')
}

// scanFastMeta is the fast path of the fast path: on the scanner, before
// the metadata value, it reads metadata whose fields are strings, an
// integral generation, a canonical creationTimestamp, labels and
// annotations (objects of strings, keys without escapes) and finalizers (a
// list of strings), each once, in one pass: checking the text as the
// scanner's ReadValue does (grammar, strings, duplicate names, depth) and
// filling d.meta as readFastMeta does. It reports false on anything else
// (ownerReferences, any other form, a duplicate, a syntax error) with the
// scanner where it was: the caller then reads the value as before, and
// finds what it is.
func (d *Decoder) scanFastMeta() (jsontext.Value, bool) {
	s := &d.sc
	if s.pos != s.from || s.allow&allowValue == 0 || len(s.stack)+3 >= s.maxDepth {
		return nil, false
	}
	doc, start := s.doc, s.at
	if start >= len(doc) || doc[start] != '{' {
		return nil, false
	}
	d.meta.fields = [numMetaFields]jsontext.Value{}
	d.meta.kvs, d.meta.owners = d.meta.kvs[:0], d.meta.owners[:0]
	var seen uint64 // the fields read: a second one is a duplicate
	i := skipSpace(doc, start+1)
	for n := 0; ; n++ {
		if i >= len(doc) {
			return nil, false
		}
		if doc[i] == '}' && n == 0 {
			break
		}
		name, j, esc := scanQuoted(doc, i)
		if name == nil || esc {
			return nil, false
		}
		f := metaField(name[1 : len(name)-1])
		if f < 0 || f == objectmeta.FieldOwnerReferences || seen&(1<<f) != 0 {
			return nil, false
		}
		seen |= 1 << f
		if i = skipSpace(doc, j); i >= len(doc) || doc[i] != ':' {
			return nil, false
		}
		i = skipSpace(doc, i+1)
		if f == objectmeta.FieldLabels || f == objectmeta.FieldAnnotations || f == objectmeta.FieldFinalizers {
			if i = d.scanFastCollection(doc, i, f, name); i < 0 {
				return nil, false
			}
		} else {
			v, j := scanFastScalar(doc, i)
			if v == nil || !d.fastScalar(f, v) {
				return nil, false
			}
			i = j
		}
		if i = skipSpace(doc, i); i < len(doc) && doc[i] == '}' {
			break
		}
		if i >= len(doc) || doc[i] != ',' {
			return nil, false
		}
		i = skipSpace(doc, i+1)
	}
	end := i + 1
	s.pos, s.state, s.big = end, sAfter, false
	return jsontext.Value(doc[start:end]), true
}

// scanQuoted reads the string at doc[i], checked as scanString checks it:
// the string with its quotes (nil if there is none, or it is not valid),
// the index after it, and whether it has escapes.
func scanQuoted(doc []byte, i int) (jsontext.Value, int, bool) {
	if i >= len(doc) || doc[i] != '"' {
		return nil, i, false
	}
	end, esc, ok := scanQuick(doc, i+1)
	if !ok {
		return nil, i, false
	}
	return jsontext.Value(doc[i:end]), end, esc
}

// scanFastScalar reads a string or a number at doc[i], checked: the value
// (nil for anything else) and the index after it.
func scanFastScalar(doc []byte, i int) (jsontext.Value, int) {
	if i >= len(doc) {
		return nil, i
	}
	if doc[i] == '"' {
		v, end, _ := scanQuoted(doc, i)
		return v, end
	}
	end := i
	for end < len(doc) && numberByte[doc[end]] {
		end++
	}
	if end == i || !validNumber(doc[i:end]) {
		return nil, i
	}
	return jsontext.Value(doc[i:end]), end
}

// scanFastCollection is readFastCollection for scanFastMeta: labels or
// annotations (an object of strings whose keys have no escapes, none
// twice) or finalizers (a list of strings) at doc[i], into d.meta.kvs. It
// returns the index after the value, or -1.
func (d *Decoder) scanFastCollection(doc []byte, i, f int, name jsontext.Value) int {
	const maxKeys = 64 // as scanComposite compares names
	open, end := byte('{'), byte('}')
	if f == objectmeta.FieldFinalizers {
		open, end = '[', ']'
	}
	if i >= len(doc) || doc[i] != open {
		return -1
	}
	first := len(d.meta.kvs)
	i = skipSpace(doc, i+1)
	for n := 0; ; n++ {
		if i >= len(doc) {
			return -1
		}
		if doc[i] == end && n == 0 {
			break
		}
		var k jsontext.Value
		if open == '{' {
			var esc bool
			if k, i, esc = scanQuoted(doc, i); k == nil || esc || n >= maxKeys {
				return -1
			}
			for _, e := range d.meta.kvs[first:] {
				if string(e.key) == string(k) {
					return -1 // a duplicate: the slow path's
				}
			}
			if i = skipSpace(doc, i); i >= len(doc) || doc[i] != ':' {
				return -1
			}
			i = skipSpace(doc, i+1)
		}
		v, j, _ := scanQuoted(doc, i) // escapes are fine: written verbatim
		if v == nil {
			return -1
		}
		d.meta.kvs = append(d.meta.kvs, kv{k, v, f})
		if i = skipSpace(doc, j); i < len(doc) && doc[i] == end {
			break
		}
		if i >= len(doc) || doc[i] != ',' {
			return -1
		}
		i = skipSpace(doc, i+1)
	}
	if len(d.meta.kvs) > first {
		d.meta.fields[f] = name // marks the field as present
	}
	return i + 1
}
