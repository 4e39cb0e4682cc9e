// Package fieldpath is the decoder's path of the value being decoded, a
// stack of segments, and its renderings in the reference's three path
// syntaxes and as a JSON Pointer.
//
// The exported API: [Segment] and [SegmentKind] ([Key], [MapKey],
// [Index]); [AppendPath], [AppendFieldPath], [AppendPointer],
// [AppendPointerToken].
package fieldpath

import (
	"bytes"
	"strconv"
)

// SegmentKind is the kind of one step of a path.
type SegmentKind uint8

const (
	// Key is an object member named by the schema (field.Path Child).
	Key SegmentKind = iota
	// MapKey is an additionalProperties entry (field.Path Key: bracketed).
	MapKey
	// Index is an array element.
	Index
)

// Segment is one step of a path: a member name (Key, MapKey) or an array
// index (Index).
type Segment struct {
	Kind  SegmentKind
	Name  []byte
	Index int
}

// The reference prints paths in three syntaxes: pruning's unknown-field
// paths (UnknownFieldPathOptions in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/options.go),
// sigs.k8s.io/json's FieldPath of duplicate and ObjectMeta unknown fields,
// and field.Path (k8s.io/apimachinery/pkg/util/validation/field/path.go);
// these functions render a path of segments in each, appending to dst.

// AppendPath renders the syntax of pruning's unknown-field paths and of
// sigs.k8s.io/json's duplicate-field paths: names joined with ".", indices
// as "[i]", map keys like names, nothing escaped ("spec.m.k.1.x",
// "spec.list[0].b", "spec." for an empty name).
func AppendPath(dst []byte, segs []Segment) []byte {
	for i, s := range segs {
		if s.Kind == Index {
			dst = append(dst, '[')
			dst = strconv.AppendInt(dst, int64(s.Index), 10)
			dst = append(dst, ']')
			continue
		}
		if i > 0 {
			dst = append(dst, '.')
		}
		dst = append(dst, s.Name...)
	}
	return dst
}

// AppendFieldPath renders the field.Path syntax (see FieldPath): map keys
// and empty names bracketed ("spec.embeddedMap[k.1]").
func AppendFieldPath(dst []byte, segs []Segment) []byte {
	for i, s := range segs {
		switch {
		case s.Kind == Index:
			dst = append(dst, '[')
			dst = strconv.AppendInt(dst, int64(s.Index), 10)
			dst = append(dst, ']')
		case s.Kind == MapKey || len(s.Name) == 0:
			dst = append(dst, '[')
			dst = append(dst, s.Name...)
			dst = append(dst, ']')
		default:
			if i > 0 {
				dst = append(dst, '.')
			}
			dst = append(dst, s.Name...)
		}
	}
	return dst
}

// AppendPointer renders an RFC 6901 JSON Pointer ("/spec/a~1b/0").
func AppendPointer(dst []byte, segs []Segment) []byte {
	for _, s := range segs {
		if s.Kind == Index {
			dst = append(dst, '/')
			dst = strconv.AppendInt(dst, int64(s.Index), 10)
			continue
		}
		dst = AppendPointerToken(dst, s.Name)
	}
	return dst
}

// AppendPointerToken appends one reference token of an RFC 6901 JSON
// Pointer ("/" + the token with "~" as "~0" and "/" as "~1").
func AppendPointerToken(dst []byte, token []byte) []byte {
	dst = append(dst, '/')
	if bytes.IndexByte(token, '~') < 0 && bytes.IndexByte(token, '/') < 0 {
		return append(dst, token...) // the usual name: nothing to escape
	}
	for _, c := range token {
		switch c {
		case '~':
			dst = append(dst, '~', '0')
		case '/':
			dst = append(dst, '~', '1')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
