package decoder

import (
	"bytes"
	"slices"
	"strconv"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// The fast path of ObjectMeta: metadata made only of the common fields in
// their canonical forms (strings, integral generation, string maps whose
// keys have no escapes, a canonical creationTimestamp) is normalised
// straight from its raw bytes, without building a value, in the
// reference's key order. Strings are written as they were spelled (the
// value tree path re-quotes them minimally; the two are the same JSON).
// Anything else goes to internal/objectmeta, which does all of the
// reference's ObjectMeta handling.

// the metadata fields of the fast path, in the order encoding/json renders
// them (sorted)
const (
	fAnnotations = iota
	fCreationTimestamp
	fFinalizers
	fGenerateName
	fGeneration
	fLabels
	fName
	fNamespace
	fOwnerReferences
	fResourceVersion
	fSelfLink
	fUID
	numMetaFields
)

var metaFieldNames = [numMetaFields]string{"annotations", "creationTimestamp", "finalizers", "generateName", "generation", "labels", "name", "namespace", "ownerReferences", "resourceVersion", "selfLink", "uid"}

func metaField(name []byte) int {
	for i, n := range metaFieldNames {
		if string(name) == n {
			return i
		}
	}
	return -1
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
			d.buf = append(d.buf, "{}"...) // metadata: null is {} (P30)
		}
		return true
	}
	if raw.Kind() != '{' {
		return false
	}
	// raw was read whole by the scanner or by jsontext, which checked it
	// (grammar, UTF-8, no duplicate names): its tokens are only found
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
		if f < 0 {
			return false
		}
		switch f {
		case fLabels, fAnnotations:
			if sub.PeekKind() != '{' {
				return false
			}
			sub.ReadToken()
			n := 0
			for sub.PeekKind() != '}' {
				k, err := sub.ReadValue()
				if err != nil || bytes.IndexByte(k, '\\') >= 0 || sub.PeekKind() != '"' {
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
				d.meta.fields[f] = name // marks the map as present
			}
		case fFinalizers:
			if sub.PeekKind() != '[' {
				return false
			}
			sub.ReadToken()
			n := 0
			for sub.PeekKind() != ']' {
				if sub.PeekKind() != '"' {
					return false
				}
				v, err := sub.ReadValue()
				if err != nil {
					return false
				}
				d.meta.kvs = append(d.meta.kvs, kv{nil, v, f})
				n++
			}
			sub.ReadToken()
			if n > 0 {
				d.meta.fields[f] = name
			}
		case fOwnerReferences:
			if !d.fastOwnerRefs(sub) {
				return false
			}
			if len(d.meta.owners) > 0 {
				d.meta.fields[f] = name
			}
		case fGeneration:
			v, err := sub.ReadValue()
			if err != nil || v.Kind() != '0' || bytes.ContainsAny(v, ".eE") {
				return false
			}
			g, err := strconv.ParseInt(string(v), 10, 64)
			if err != nil {
				return false
			}
			if g != 0 {
				if string(v) == "-0" {
					return false
				}
				d.meta.fields[f] = v
			}
		case fCreationTimestamp:
			v, err := sub.ReadValue()
			if err != nil || v.Kind() != '"' || len(v) != 22 || v[20] != 'Z' {
				return false // only the canonical form 2006-01-02T15:04:05Z
			}
			t, err := time.Parse(time.RFC3339, string(v[1:21]))
			if err != nil {
				return false
			}
			if !t.IsZero() {
				d.meta.fields[f] = v
			}
		default: // strings, escapes written verbatim
			v, err := sub.ReadValue()
			if err != nil || v.Kind() != '"' {
				return false
			}
			if len(v) > 2 {
				d.meta.fields[f] = v
			}
		}
	}
	if !write {
		return true
	}
	slices.SortStableFunc(d.meta.kvs, func(a, b kv) int {
		if a.field != b.field {
			return a.field - b.field
		}
		return bytes.Compare(a.key, b.key) // finalizers (nil keys) keep their order
	})
	d.buf = append(d.buf, '{')
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
		d.buf = append(d.buf, metaFieldNames[f]...)
		d.buf = append(d.buf, '"', ':')
		if f == fOwnerReferences {
			d.appendOwnerRefs()
			continue
		}
		if f == fFinalizers {
			d.buf = append(d.buf, '[')
			n := 0
			for _, e := range d.meta.kvs {
				if e.field == f {
					if n > 0 {
						d.buf = append(d.buf, ',')
					}
					n++
					d.buf = append(d.buf, e.value...)
				}
			}
			d.buf = append(d.buf, ']')
			continue
		}
		if f != fLabels && f != fAnnotations {
			d.buf = append(d.buf, v...)
			continue
		}
		d.buf = append(d.buf, '{')
		n := 0
		for _, e := range d.meta.kvs {
			if e.field != f {
				continue
			}
			if n > 0 {
				d.buf = append(d.buf, ',')
			}
			n++
			d.buf = append(d.buf, e.key...)
			d.buf = append(d.buf, ':')
			d.buf = append(d.buf, e.value...)
		}
		d.buf = append(d.buf, '}')
	}
	d.buf = append(d.buf, '}')
	return true
}

// ownerRef is one ownerReferences entry of the fast path: raw values.
type ownerRef struct {
	apiVersion, kind, name, uid, controller, blockOwnerDeletion jsontext.Value
}

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
			var dst *jsontext.Value
			isBool := false
			switch string(name) {
			case `"apiVersion"`:
				dst = &o.apiVersion
			case `"kind"`:
				dst = &o.kind
			case `"name"`:
				dst = &o.name
			case `"uid"`:
				dst = &o.uid
			case `"controller"`:
				dst, isBool = &o.controller, true
			case `"blockOwnerDeletion"`:
				dst, isBool = &o.blockOwnerDeletion, true
			default:
				return false
			}
			switch k := v.Kind(); {
			case isBool && (k == 't' || k == 'f'):
				*dst = v
			case isBool && k == 'n':
				*dst = nil
			case !isBool && k == '"':
				*dst = v
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
// reference renders them: apiVersion, kind, name and uid always present.
func (d *Decoder) appendOwnerRefs() {
	str := func(name string, v jsontext.Value) {
		d.buf = append(d.buf, name...)
		if v == nil {
			d.buf = append(d.buf, `""`...)
		} else {
			d.buf = append(d.buf, v...)
		}
	}
	d.buf = append(d.buf, '[')
	for i, o := range d.meta.owners {
		if i > 0 {
			d.buf = append(d.buf, ',')
		}
		str(`{"apiVersion":`, o.apiVersion)
		if o.blockOwnerDeletion != nil {
			d.buf = append(append(d.buf, `,"blockOwnerDeletion":`...), o.blockOwnerDeletion...)
		}
		if o.controller != nil {
			d.buf = append(append(d.buf, `,"controller":`...), o.controller...)
		}
		str(`,"kind":`, o.kind)
		str(`,"name":`, o.name)
		str(`,"uid":`, o.uid)
		d.buf = append(d.buf, '}')
	}
	d.buf = append(d.buf, ']')
}
