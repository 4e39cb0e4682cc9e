package objectmeta

import (
	"strconv"
	"time"
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
	switch k {
	case "name", "generateName", "namespace", "selfLink", "resourceVersion":
		s := d.str(v, "string", "ObjectMeta", "", k)
		return s, s != ""
	case "uid":
		s := d.str(v, "types.UID", "ObjectMeta", "", k)
		return s, s != ""
	case "generation":
		n, _ := d.integer(v, "ObjectMeta", k)
		return n, n != 0
	case "deletionGracePeriodSeconds": // *int64
		n, set := d.integer(v, "ObjectMeta", k)
		return n, set
	case "creationTimestamp": // metav1.Time, omitempty+omitzero
		t, _ := d.timestamp(v, "ObjectMeta", "", k)
		if t.IsZero() {
			return nil, false
		}
		return formatTime(t), true
	case "deletionTimestamp": // *metav1.Time
		t, set := d.timestamp(v, "ObjectMeta", "", k)
		return timePtr(t, set)
	case "labels", "annotations":
		m := d.stringMap(v, k)
		return m, len(m) > 0
	case "finalizers":
		l := d.stringSlice(v, k)
		return l, len(l) > 0
	case "ownerReferences":
		l := d.structSlice(v, k, "v1.OwnerReference", d.ownerReference)
		return l, len(l) > 0
	case "managedFields":
		l := d.structSlice(v, k, "v1.ManagedFieldsEntry", d.managedFieldsEntry)
		return l, len(l) > 0
	}
	d.unknownField("", -1, k)
	return nil, false
}

// ownerReference decodes one ownerReferences element that is an object.
func (d *decoder) ownerReference(i int, m map[string]any) map[string]any {
	r := map[string]any{"apiVersion": "", "kind": "", "name": "", "uid": ""}
	for _, k := range sortedKeys(m) {
		v := m[k]
		switch k {
		case "apiVersion", "kind", "name":
			r[k] = d.str(v, "string", "OwnerReference", "ownerReferences", k)
		case "uid":
			r[k] = d.str(v, "types.UID", "OwnerReference", "ownerReferences", k)
		case "controller", "blockOwnerDeletion": // *bool
			if b, set := d.boolPtr(v, "OwnerReference", "ownerReferences", k); set {
				r[k] = b
			}
		default:
			d.unknownField("ownerReferences", i, k)
		}
		if d.fatal != nil {
			break
		}
	}
	return r
}

// managedFieldsEntry decodes one managedFields element that is an object.
func (d *decoder) managedFieldsEntry(i int, m map[string]any) map[string]any {
	r := make(map[string]any, len(m))
	for _, k := range sortedKeys(m) {
		v := m[k]
		switch k {
		case "manager", "apiVersion", "fieldsType", "subresource":
			if s := d.str(v, "string", "ManagedFieldsEntry", "managedFields", k); s != "" {
				r[k] = s
			}
		case "operation":
			if s := d.str(v, "v1.ManagedFieldsOperationType", "ManagedFieldsEntry", "managedFields", k); s != "" {
				r[k] = s
			}
		case "time": // *metav1.Time
			t, set := d.timestamp(v, "ManagedFieldsEntry", "managedFields", k)
			if tv, present := timePtr(t, set); present {
				r[k] = tv
			}
		case "fieldsV1": // *FieldsV1: raw JSON, null = unset
			if !isNull(v) {
				r[k] = reparse(v)
			}
		default:
			d.unknownField("managedFields", i, k)
		}
		if d.fatal != nil {
			break
		}
	}
	return r
}

// structSlice decodes ownerReferences or managedFields: a JSON array of
// objects into a []struct. A null element is the zero struct; elem renders
// the zero struct when given a nil map.
func (d *decoder) structSlice(v any, name, elemType string, elem func(int, map[string]any) map[string]any) []any {
	l, ok := v.([]any)
	if !ok || l == nil {
		if !isNull(v) {
			d.mismatch(kindOf(v), "[]"+elemType, "ObjectMeta", "", name)
		}
		return nil
	}
	out := make([]any, 0, len(l))
	for i, e := range l {
		m, isMap := e.(map[string]any)
		switch {
		case isMap && m != nil:
			out = append(out, elem(i, m))
		case isNull(e):
			out = append(out, elem(i, nil))
		default:
			d.mismatch(kindOf(e), elemType, "ObjectMeta", "", name)
			out = append(out, elem(i, nil))
		}
		if d.fatal != nil {
			return nil
		}
	}
	return out
}

// stringMap decodes labels or annotations (map[string]string).
func (d *decoder) stringMap(v any, name string) map[string]any {
	m, ok := v.(map[string]any)
	if !ok || m == nil {
		if !isNull(v) {
			d.mismatch(kindOf(v), "map[string]string", "ObjectMeta", "", name)
		}
		return nil
	}
	out := make(map[string]any, len(m))
	// The first mismatch in sorted key order is the one reported; all carry
	// the same struct field, so tracking the smallest failing key is enough
	// and spares sorting the map.
	errKey, errKind, collide := "", "", false
	for k, e := range m {
		sk := sanitize(k)
		collide = collide || (sk != k)
		s, isString := e.(string)
		switch {
		case isString:
			out[sk] = sanitize(s)
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
			out[sanitize(k)] = sanitize(s)
		}
	}
	if errKind != "" {
		d.mismatch(errKind, "string", "ObjectMeta", "", name)
	}
	return out
}

// stringSlice decodes finalizers ([]string).
func (d *decoder) stringSlice(v any, name string) []any {
	l, ok := v.([]any)
	if !ok || l == nil {
		if !isNull(v) {
			d.mismatch(kindOf(v), "[]string", "ObjectMeta", "", name)
		}
		return nil
	}
	out := make([]any, len(l))
	for i, e := range l {
		out[i] = d.str(e, "string", "ObjectMeta", "", name)
	}
	return out
}

// str decodes a string-kinded field (string, types.UID, ...). null leaves it
// "".
func (d *decoder) str(v any, typ, st, parent, k string) string {
	if s, ok := v.(string); ok {
		return sanitize(s)
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
		lit := string(appendJSONFloat(nil, x))
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
		t, err := time.Parse(time.RFC3339, sanitize(s))
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
	d.unknown = append(d.unknown, p+sanitize(k))
}

func fieldName(parent, k string) string {
	if parent == "" {
		return k
	}
	return parent + "." + k
}
