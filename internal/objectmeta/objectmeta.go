package objectmeta

import (
	"fmt"
	"slices"
)

// Options selects the mode of [Normalize] and [CoerceEmbedded].
type Options struct {
	// DropMalformed selects the storage mode (DropMalformedFields /
	// DropInvalidFields): when the metadata does not decode as a whole, each
	// top-level key is decoded alone and a key whose value fails is dropped
	// whole. A metadata value that is neither an object nor null is still an
	// error: "invalid metadata: expected object, got <%T>".
	// When false (the request path), the first error is returned.
	DropMalformed bool

	// ReportUnknown returns the paths of unknown fields
	// (ReturnUnknownFieldPaths): top-level metadata keys (no descent) and keys
	// inside ownerReferences[i] and managedFields[i]; never anything inside
	// labels, annotations or fieldsV1. At most 100 per decode, as
	// sigs.k8s.io/json caps its strict errors.
	ReportUnknown bool

	// ParentPath is the field.Path string of the object holding the
	// metadata: "" at the root, e.g. "spec.embedded" or
	// "spec.embeddedMap[k.1]" for embedded resources. Unknown paths are
	// "metadata.<x>" at the root and "<ParentPath>.metadata.<x>" otherwise.
	// CoerceEmbedded ignores it and uses its path argument.
	ParentPath string
}

// maxStrictErrors is the number of strict errors sigs.k8s.io/json keeps per
// call; the rest are dropped silently.
const maxStrictErrors = 100

// Normalize decodes v, the value of a `metadata` key, as Kubernetes decodes
// it into metav1.ObjectMeta, and returns it rendered back as
// runtime.DefaultUnstructuredConverter.ToUnstructured renders it (see the
// package documentation for the exact rules). `metadata: null` gives an
// empty map.
//
// Unknown field paths are returned when opts.ReportUnknown is set, in the
// order of the re-marshalled JSON: keys sorted at each level, array elements
// in order. In drop mode, when some key had to be dropped, the paths of the
// kept keys are returned in sorted key order (the reference follows map
// iteration order there).
//
// Errors in request mode (DropMalformed false) are those of encoding/json
// and metav1.Time, with the reference's texts; they are returned as
// *UnmarshalTypeError or *time.ParseError. As in encoding/json, a type
// mismatch is remembered and decoding goes on, so the first mismatch in key
// order is reported, unless a timestamp fails later: that aborts decoding and
// is reported instead. When an error is returned, no unknown paths are.
func Normalize(v any, opts Options) (meta map[string]any, unknown []string, err error) {
	if err := checkMarshalable(v); err != nil {
		return nil, nil, err
	}
	if isNull(v) {
		return map[string]any{}, nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		if opts.DropMalformed {
			return nil, nil, fmt.Errorf("invalid metadata: expected object, got %T", v)
		}
		return nil, nil, &UnmarshalTypeError{Value: kindOf(v), Type: "v1.ObjectMeta"}
	}

	d := decoder{report: opts.ReportUnknown}
	if d.report {
		d.prefix = child(opts.ParentPath, "metadata")
	}
	keys := sortedKeys(m)
	meta = make(map[string]any, len(m))

	if !opts.DropMalformed {
		// One decode of the whole metadata: the first type mismatch is kept,
		// a failing timestamp aborts.
		d.limit = maxStrictErrors
		for _, k := range keys {
			val, present := d.field(k, m[k])
			if d.fatal != nil {
				return nil, nil, d.fatal
			}
			if present { // only known, hence ASCII, keys
				meta[k] = val
			}
		}
		if d.saved != nil {
			return nil, nil, d.saved
		}
		return meta, d.unknown, nil
	}

	// Drop mode. Decoding each key alone gives the same values as decoding
	// the whole, so one pass does both: if every key decodes, this is the
	// whole decode (one call, one strict-error cap); otherwise the failing
	// keys are dropped and each kept key had its own call and cap.
	allOK := true
	for _, k := range keys {
		d.saved, d.fatal, d.limit = nil, nil, maxStrictErrors
		n := len(d.unknown)
		val, present := d.field(k, m[k])
		if d.saved != nil || d.fatal != nil {
			d.unknown = d.unknown[:n]
			allOK = false
			continue
		}
		if present {
			meta[k] = val
		}
	}
	if allOK && len(d.unknown) > maxStrictErrors {
		d.unknown = d.unknown[:maxStrictErrors]
	}
	return meta, d.unknown, nil
}

// CoerceEmbedded applies, to obj, the object of a node whose schema has
// x-kubernetes-embedded-resource, what objectmeta.CoerceWithOptions does
// there. path is the node's field.Path string (e.g. "spec.embedded",
// "spec.embeddedList[0]", "spec.embeddedMap[k.1]").
//
//   - apiVersion and kind, when present, must be strings. Request mode
//     returns an *InvalidValueError such as
//     `spec.embedded.kind: Invalid value: 5: must be a string`; drop mode
//     deletes the key.
//   - metadata, when present, is replaced by [Normalize] of it with
//     ParentPath = path (so null becomes {} and a zero creationTimestamp is
//     gone). If Normalize fails, request mode returns an *InvalidValueError
//     such as `spec.embedded.metadata: Invalid value: {"name":5}: json: cannot
//     unmarshal number into Go struct field ObjectMeta.name of type string`
//     (the original value rendered as field.Error does), and drop mode leaves
//     the metadata untouched, as the reference passes it through.
//
// The reference checks these keys in map iteration order, so which error it
// reports when several are bad varies; this function checks apiVersion, kind,
// then metadata. The unknown paths are those of Normalize; the reference
// sorts the paths of all embedded resources together (sort.Strings), which is
// the caller's job.
func CoerceEmbedded(obj map[string]any, path string, opts Options) (unknown []string, err error) {
	for _, k := range [...]string{"apiVersion", "kind"} {
		v, found := obj[k]
		if !found {
			continue
		}
		if _, isString := v.(string); isString {
			continue
		}
		if opts.DropMalformed {
			delete(obj, k)
			continue
		}
		return nil, &InvalidValueError{Field: child(path, k), BadValue: v, Detail: "must be a string"}
	}
	v, found := obj["metadata"]
	if !found {
		return nil, nil
	}
	opts.ParentPath = path
	meta, unknown, err := Normalize(v, opts)
	if err != nil {
		if opts.DropMalformed {
			return nil, nil
		}
		return nil, &InvalidValueError{Field: child(path, "metadata"), BadValue: v, Detail: err.Error()}
	}
	obj["metadata"] = meta
	return unknown, nil
}

// UnmarshalTypeError is a JSON value of the wrong kind for an ObjectMeta
// field. Its text is encoding/json's UnmarshalTypeError text, as the
// reference returns it.
type UnmarshalTypeError struct {
	Value  string // "string", "number", "number 1.5", "bool", "object", "array"
	Type   string // the Go type as reflect renders it: "string", "int64", "v1.ObjectMeta", ...
	Struct string // the innermost Go struct holding the field: "ObjectMeta", "OwnerReference", "ManagedFieldsEntry"
	Field  string // the dotted JSON field names from ObjectMeta, without indices or map keys
}

func (e *UnmarshalTypeError) Error() string {
	if e.Struct != "" || e.Field != "" {
		return "json: cannot unmarshal " + e.Value + " into Go struct field " + e.Struct + "." + e.Field + " of type " + e.Type
	}
	return "json: cannot unmarshal " + e.Value + " into Go value of type " + e.Type
}

// InvalidValueError is a k8s.io/apimachinery field.Error of type "Invalid
// value", as CoerceWithOptions returns it.
type InvalidValueError struct {
	Field    string // field.Path string
	BadValue any
	Detail   string
}

func (e *InvalidValueError) Error() string {
	s := e.Field + ": Invalid value: " + renderBadValue(e.BadValue)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// child renders field.Path's Child(name) of the path string parent.
func child(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
