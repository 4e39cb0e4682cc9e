package validate

import (
	"encoding/json"
	"strconv"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// This file is the API server's x-kubernetes-list-type step (reference
// section 6; k8s.io/apiextensions-apiserver pkg/apiserver/schema/listtype
// ValidateListSetsAndMaps), which runs after the schema step on the same
// (pruned, defaulted) object. Its paths are field.Path strings: ".child",
// "[i]", and additional-property keys as "[key]".
//
// Cost: one pass over each array; a set holds one map entry per distinct
// scalar item and one per distinct compound item (keyed by its JSON text,
// compared exactly); a map list one entry per distinct key. Time and memory
// are linear in the list (plus the JSON text of compound items and keys).
// The walk renders a path only for an error: a valid document allocates
// only the sets' maps (and, for map lists with several key fields, each
// item's key).

// ListTypes runs the list-type step on the value v at the field path
// fieldPath ("" at the root), walking the structural part of the tree:
// for an object the additional-property values (keys "[k]"), then the
// declared properties present (".k"); for an array its own list type,
// then its items. Keys are taken in sorted order (the server: Go map
// order). Junctor branches play no part.
func (t *Tree) ListTypes(fieldPath string, v any) jperrors.FieldErrors {
	var errs jperrors.FieldErrors
	var stack [128]byte
	t.listTypes(&errs, append(stack[:0], fieldPath...), v)
	return errs
}

// listTypes walks v with its field path in p, rendered as a string only
// for an error (siblings reuse p's bytes beyond its length).
func (t *Tree) listTypes(errs *jperrors.FieldErrors, p []byte, v any) {
	if t == nil {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if t.AdditionalProperties == nil && t.Properties == nil {
			return
		}
		var kb [16]string
		keys := appendSortedKeys(kb[:0], x)
		if t.AdditionalProperties != nil {
			for _, k := range keys {
				q := append(append(append(p, '['), k...), ']')
				t.AdditionalProperties.listTypes(errs, q, x[k])
			}
		}
		if t.Properties != nil {
			for _, k := range keys {
				if sub, ok := t.Properties[k]; ok {
					q := p
					if len(q) > 0 {
						q = append(q, '.')
					}
					sub.listTypes(errs, append(q, k...), x[k])
				}
			}
		}
	case []any:
		if t.ListType == "set" || t.ListType == "map" {
			*errs = append(*errs, listTypeErrors(&lazyPath{b: p}, t.ListType, t.ListMapKeys, x)...)
		}
		if t.Items != nil {
			for i, item := range x {
				q := append(strconv.AppendInt(append(p, '['), int64(i), 10), ']')
				t.Items.listTypes(errs, q, item)
			}
		}
	}
}

// ListTypeErrors checks one array at fieldPath (a field.Path string such as
// "spec.l") against its x-kubernetes-list-type, without descending into its
// items:
//
//   - "set": items compared as Go values when scalar (int64 1 and float64 1
//     differ) and by their JSON text when objects or arrays (key order and
//     1 vs 1.0 do not matter); one "Duplicate value" error at the second
//     occurrence of each repeated item, in index order.
//   - "map": the first item that is neither an object nor null gives
//     "<p>[i]: Invalid value: <v>: must be an object for an array of
//     list-type map" and nothing else; otherwise each item's key is the
//     map of its mapKeys fields that are present (a null item or missing
//     fields give {}), and repeated keys are reported as for a set, with
//     the key as the value (with one key field, a field present with the
//     value null differs from an absent one).
//   - anything else ("atomic", ""): nothing.
func ListTypeErrors(fieldPath string, listType string, mapKeys []string, items []any) jperrors.FieldErrors {
	return listTypeErrors(&lazyPath{s: fieldPath, done: true}, listType, mapKeys, items)
}

// lazyPath is a field path rendered as a string on first use.
type lazyPath struct {
	b    []byte
	s    string
	done bool
}

func (l *lazyPath) String() string {
	if !l.done {
		l.s, l.done = string(l.b), true
	}
	return l.s
}

func listTypeErrors(fieldPath *lazyPath, listType string, mapKeys []string, items []any) jperrors.FieldErrors {
	switch listType {
	case "set":
		dups, bad := duplicates(items)
		if bad >= 0 {
			return jperrors.FieldErrors{internalError(fieldPath, bad, items[bad])}
		}
		var errs jperrors.FieldErrors
		for _, i := range dups {
			errs = append(errs, duplicate(fieldPath, i, items[i]))
		}
		return errs
	case "map":
		return listMapErrors(fieldPath, mapKeys, items)
	}
	return nil
}

func duplicate(p *lazyPath, i int, v any) *jperrors.FieldError {
	return &jperrors.FieldError{Type: jperrors.FieldDuplicate, Field: p.String() + "[" + strconv.Itoa(i) + "]", BadValue: v}
}

func internalError(p *lazyPath, i int, v any) *jperrors.FieldError {
	return &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: p.String() + "[" + strconv.Itoa(i) + "]", BadValue: v, Detail: "internal error"}
}

// duplicates is the server's validateListSet: the indices of the second
// occurrences, or the index of an item whose JSON cannot be written.
func duplicates(items []any) (dups []int, bad int) {
	if len(items) <= 1 {
		return nil, -1
	}
	var scalars map[any]int
	var compounds map[string]int
	for i, x := range items {
		switch x.(type) {
		case map[string]any, []any:
			b, err := json.Marshal(x)
			if err != nil {
				return nil, i
			}
			if compounds == nil {
				compounds = make(map[string]int)
			}
			n := compounds[string(b)]
			compounds[string(b)] = n + 1
			if n == 1 {
				dups = append(dups, i)
			}
		default:
			if !hashable(x) {
				continue
			}
			if scalars == nil {
				scalars = make(map[any]int, len(items))
			}
			n := scalars[x]
			scalars[x] = n + 1
			if n == 1 {
				dups = append(dups, i)
			}
		}
	}
	return dups, -1
}

// hashable reports whether x can be a map key (every decoded scalar can).
func hashable(x any) bool {
	switch x.(type) {
	case nil, bool, string, int64, float64, int, int32, float32, unspecified:
		return true
	}
	return false
}

// unspecified is the key of a map-list item without its single key field.
type unspecified struct{}

func listMapErrors(p *lazyPath, mapKeys []string, items []any) jperrors.FieldErrors {
	for i, x := range items {
		if _, ok := x.(map[string]any); x != nil && !ok {
			return jperrors.FieldErrors{{Type: jperrors.FieldInvalid, Field: p.String() + "[" + strconv.Itoa(i) + "]", BadValue: x,
				Detail: "must be an object for an array of list-type map"}}
		}
	}
	if len(items) <= 1 {
		return nil
	}
	keys := make([]any, len(items))
	if len(mapKeys) == 1 {
		f := mapKeys[0]
		for i, x := range items {
			keys[i] = unspecified{}
			if m, ok := x.(map[string]any); ok {
				if k, ok := m[f]; ok {
					keys[i] = k
				}
			}
		}
		dups, bad := duplicates(keys)
		if bad >= 0 {
			return jperrors.FieldErrors{internalError(p, bad, keys[bad])}
		}
		var errs jperrors.FieldErrors
		for _, i := range dups {
			if keys[i] == (unspecified{}) {
				errs = append(errs, duplicate(p, i, map[string]any{}))
			} else {
				errs = append(errs, duplicate(p, i, map[string]any{f: keys[i]}))
			}
		}
		return errs
	}
	for i, x := range items {
		key := map[string]any{}
		if m, ok := x.(map[string]any); ok {
			for _, f := range mapKeys {
				if k, ok := m[f]; ok {
					key[f] = k
				}
			}
		}
		keys[i] = key
	}
	dups, bad := duplicates(keys)
	if bad >= 0 {
		return jperrors.FieldErrors{internalError(p, bad, keys[bad])}
	}
	var errs jperrors.FieldErrors
	for _, i := range dups {
		errs = append(errs, duplicate(p, i, keys[i]))
	}
	return errs
}
