package objectmeta

import (
	"strconv"
	"time"

	"github.com/jsonprune/jsonprune/internal/jsonvalue"
)

// decoder follows sigs.k8s.io/json decoding the re-marshalled metadata into
// metav1.ObjectMeta, one top-level key at a time, and builds the
// ToUnstructured rendering of what it decodes.
//
// Error model (that of encoding/json): a type mismatch is saved (the first
// one wins) and decoding goes on; an error returned by an UnmarshalJSON
// method (metav1.Time) aborts decoding and wins over a saved one.
type decoder struct {
	report  bool     // collect unknown-field paths
	prefix  string   // "metadata" or "<parent>.metadata"
	limit   int      // strict errors still allowed in the current call
	saved   error    // first type mismatch of the current call
	fatal   error    // aborting error of the current call
	unknown []string // unknown-field paths
}

// field decodes the top-level metadata key k. It returns the rendered value
// and whether ToUnstructured emits the key.
func (d *decoder) field(k string, v any) (any, bool) {
	i := index(ObjectMeta, k)
	if i < 0 {
		d.unknownField("", -1, k)
		return nil, false
	}
	return d.value(ObjectMeta, "", &ObjectMeta.Fields[i], v)
}

// value decodes v as the field f of the struct st, an element of the list
// parent ("" for ObjectMeta itself). It returns the rendered value and
// whether ToUnstructured emits it.
func (d *decoder) value(st *Struct, parent string, f *Field, v any) (any, bool) {
	k := f.Name
	switch f.Type {
	case String:
		s := d.str(v, f.GoType, st.Name, parent, k)
		return s, f.Always || s != ""
	case Int64:
		n, _ := d.integer(v, st.Name, k)
		return n, n != 0
	case Int64Ptr:
		return d.integer(v, st.Name, k)
	case Time: // omitempty+omitzero
		t, _ := d.timestamp(v, st.Name, parent, k)
		if t.IsZero() {
			return nil, false
		}
		return formatTime(t), true
	case TimePtr:
		return timePtr(d.timestamp(v, st.Name, parent, k))
	case BoolPtr:
		return d.boolPtr(v, st.Name, parent, k)
	case StringMap:
		m := d.stringMap(v, f)
		return m, len(m) > 0
	case StringSlice:
		l := d.stringSlice(v, f)
		return l, len(l) > 0
	case StructSlice:
		l := d.structSlice(v, f)
		return l, len(l) > 0
	case RawJSON: // raw JSON, null = unset
		if isNull(v) {
			return nil, false
		}
		return reparse(v), true
	}
	panic("objectmeta: field " + k + " of unknown type")
}

// element decodes element i of the list f (ownerReferences or
// managedFields) when it is an object (m) or null (m == nil, the zero
// struct): the fields without omitempty are always rendered.
func (d *decoder) element(f *Field, i int, m map[string]any) map[string]any {
	st := f.Elem
	r := make(map[string]any, max(len(m), len(st.Fields)))
	for j := range st.Fields {
		if st.Fields[j].Always {
			r[st.Fields[j].Name] = ""
		}
	}
	for _, k := range sortedKeys(m) {
		if j := index(st, k); j < 0 {
			d.unknownField(f.Name, i, k)
		} else if val, ok := d.value(st, f.Name, &st.Fields[j], m[k]); ok {
			r[k] = val
		}
		if d.fatal != nil {
			break
		}
	}
	return r
}

// structSlice decodes ownerReferences or managedFields: a JSON array of
// objects into a []struct. A null element is the zero struct.
func (d *decoder) structSlice(v any, f *Field) []any {
	l, ok := v.([]any)
	if !ok || l == nil {
		if !isNull(v) {
			d.mismatch(kindOf(v), f.GoType, "ObjectMeta", "", f.Name)
		}
		return nil
	}
	elemType := f.GoType[len("[]"):]
	out := make([]any, 0, len(l))
	for i, e := range l {
		m, isMap := e.(map[string]any)
		switch {
		case isMap && m != nil:
			out = append(out, d.element(f, i, m))
		case isNull(e):
			out = append(out, d.element(f, i, nil))
		default:
			d.mismatch(kindOf(e), elemType, "ObjectMeta", "", f.Name)
			out = append(out, d.element(f, i, nil))
		}
		if d.fatal != nil {
			return nil
		}
	}
	return out
}

// stringMap decodes labels or annotations (map[string]string).
func (d *decoder) stringMap(v any, f *Field) map[string]any {
	m, ok := v.(map[string]any)
	if !ok || m == nil {
		if !isNull(v) {
			d.mismatch(kindOf(v), f.GoType, "ObjectMeta", "", f.Name)
		}
		return nil
	}
	out := make(map[string]any, len(m))
	// The first mismatch in sorted key order is the one reported; all carry
	// the same struct field, so tracking the smallest failing key is enough
	// and spares sorting the map.
	errKey, errKind, collide := "", "", false
	for k, e := range m {
		sk := jsonvalue.ReplaceInvalidUTF8(k)
		collide = collide || (sk != k)
		s, isString := e.(string)
		switch {
		case isString:
			out[sk] = jsonvalue.ReplaceInvalidUTF8(s)
		case isNull(e):
			out[sk] = ""
		default:
			if errKind == "" || k < errKey {
				errKey, errKind = k, kindOf(e)
			}
			out[sk] = ""
		}
	}
	if collide {
		// Keys equal after UTF-8 repair: the later one in marshal order wins.
		for _, k := range sortedKeys(m) {
			s, _ := m[k].(string)
			out[jsonvalue.ReplaceInvalidUTF8(k)] = jsonvalue.ReplaceInvalidUTF8(s)
		}
	}
	if errKind != "" {
		d.mismatch(errKind, "string", "ObjectMeta", "", f.Name)
	}
	return out
}

// stringSlice decodes finalizers ([]string).
func (d *decoder) stringSlice(v any, f *Field) []any {
	l, ok := v.([]any)
	if !ok || l == nil {
		if !isNull(v) {
			d.mismatch(kindOf(v), f.GoType, "ObjectMeta", "", f.Name)
		}
		return nil
	}
	out := make([]any, len(l))
	for i, e := range l {
		out[i] = d.str(e, "string", "ObjectMeta", "", f.Name)
	}
	return out
}

// str decodes a string-kinded field (string, types.UID, ...). null leaves it
// "".
func (d *decoder) str(v any, typ, st, parent, k string) string {
	if s, ok := v.(string); ok {
		return jsonvalue.ReplaceInvalidUTF8(s)
	}
	if !isNull(v) {
		d.mismatch(kindOf(v), typ, st, parent, k)
	}
	return ""
}

// integer decodes an int64 or *int64 field. set is false for null.
// A float64 is accepted when its JSON rendering is an integer literal that
// fits int64; otherwise the error quotes that rendering ("number 1.5").
func (d *decoder) integer(v any, st, k string) (n int64, set bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		lit := string(jsonvalue.AppendFloat(nil, x))
		n, err := strconv.ParseInt(lit, 10, 64)
		if err != nil {
			d.mismatch("number "+lit, "int64", st, "", k)
			return 0, true
		}
		return n, true
	}
	if isNull(v) {
		return 0, false
	}
	d.mismatch(kindOf(v), "int64", st, "", k)
	return 0, true
}

// boolPtr decodes a *bool field. set is false for null.
func (d *decoder) boolPtr(v any, st, parent, k string) (b, set bool) {
	if b, ok := v.(bool); ok {
		return b, true
	}
	if isNull(v) {
		return false, false
	}
	d.mismatch(kindOf(v), "bool", st, parent, k)
	return false, true
}

// timestamp decodes a metav1.Time or *metav1.Time field: null is unset (the zero
// time), a string must parse with time.RFC3339. Both failures come out of
// Time.UnmarshalJSON and abort decoding; a non-string is the
// encoding/json error of unmarshalling it into a string, which
// sigs.k8s.io/json then places at the field.
func (d *decoder) timestamp(v any, st, parent, k string) (t time.Time, set bool) {
	if s, ok := v.(string); ok {
		t, err := time.Parse(time.RFC3339, jsonvalue.ReplaceInvalidUTF8(s))
		if err != nil {
			d.fatal = err
		}
		return t, true
	}
	if isNull(v) {
		return time.Time{}, false
	}
	d.fatal = &UnmarshalTypeError{Value: kindOf(v), Type: "string", Struct: st, Field: fieldName(parent, k)}
	return time.Time{}, true
}

// timePtr renders a *metav1.Time: omitted when nil, null when it holds the
// zero instant.
func timePtr(t time.Time, set bool) (any, bool) {
	if !set {
		return nil, false
	}
	if t.IsZero() {
		return nil, true
	}
	return formatTime(t), true
}

func formatTime(t time.Time) string {
	return t.UTC().Format(time.RFC3339)
}

// mismatch saves a type mismatch unless one is saved already.
func (d *decoder) mismatch(value, typ, st, parent, k string) {
	if d.saved == nil {
		d.saved = &UnmarshalTypeError{Value: value, Type: typ, Struct: st, Field: fieldName(parent, k)}
	}
}

// unknownField records the unknown key k of the metadata (i < 0) or of
// element i of the list parent.
func (d *decoder) unknownField(parent string, i int, k string) {
	if !d.report || d.limit <= 0 {
		return
	}
	d.limit--
	p := d.prefix + "."
	if i >= 0 {
		p += parent + "[" + strconv.Itoa(i) + "]."
	}
	d.unknown = append(d.unknown, p+jsonvalue.ReplaceInvalidUTF8(k))
}

func fieldName(parent, k string) string {
	if parent == "" {
		return k
	}
	return parent + "." + k
}
