package decoder

import (
	"bytes"
	"slices"
	"strconv"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// segKind is the kind of one step of the current path.
type segKind uint8

const (
	segKey    segKind = iota // a property (field.Path Child)
	segMapKey                // an additionalProperties key (field.Path Key)
	segIndex                 // an array index
)

// seg is one step of the current path; names live in Decoder.names.
type seg struct {
	kind       segKind
	start, end int32 // name in d.names
	index      int
}

// rec is a recorded finding: its texts live in Decoder.texts.
type rec struct {
	typ                jperrors.FindingType
	pathStart, pathEnd int32
	ptrStart, ptrEnd   int32
	offset             int64
}

// group of a finding, in the reference's order (section 7.2).
type group uint8

const (
	groupDup group = iota
	groupRootMeta
	groupPrune
	groupEmbeddedMeta
	numGroups
)

// pushKey adds a name to the path.
func (d *Decoder) pushKey(kind segKind, name []byte) {
	start := int32(len(d.names))
	d.names = append(d.names, name...)
	d.path = append(d.path, seg{kind: kind, start: start, end: int32(len(d.names))})
}

func (d *Decoder) pushIndex(i int) {
	d.path = append(d.path, seg{kind: segIndex, index: i, start: int32(len(d.names)), end: int32(len(d.names))})
}

func (d *Decoder) pop() {
	s := d.path[len(d.path)-1]
	d.names = d.names[:s.start]
	d.path = d.path[:len(d.path)-1]
}

// appendPath renders the current path in the pruning / sigs.k8s.io/json
// syntax: keys joined with ".", indices as "[i]", nothing escaped.
func (d *Decoder) appendPath(dst []byte) []byte {
	for i, s := range d.path {
		if s.kind == segIndex {
			dst = append(dst, '[')
			dst = strconv.AppendInt(dst, int64(s.index), 10)
			dst = append(dst, ']')
			continue
		}
		if i > 0 {
			dst = append(dst, '.')
		}
		dst = append(dst, d.names[s.start:s.end]...)
	}
	return dst
}

// fieldPath renders the current path as field.Path: additionalProperties
// keys (and empty names) in brackets.
func (d *Decoder) fieldPath() string {
	var b []byte
	for i, s := range d.path {
		name := d.names[s.start:s.end]
		switch {
		case s.kind == segIndex:
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.index), 10)
			b = append(b, ']')
		case s.kind == segMapKey || len(name) == 0:
			b = append(b, '[')
			b = append(b, name...)
			b = append(b, ']')
		default:
			if i > 0 {
				b = append(b, '.')
			}
			b = append(b, name...)
		}
	}
	return string(b)
}

// appendPointer renders the current path as an RFC 6901 JSON Pointer.
func (d *Decoder) appendPointer(dst []byte) []byte {
	for _, s := range d.path {
		if s.kind == segIndex {
			dst = append(dst, '/')
			dst = strconv.AppendInt(dst, int64(s.index), 10)
			continue
		}
		dst = jperrors.AppendPointerToken(dst, d.names[s.start:s.end])
	}
	return dst
}

// record adds a finding at the current path to group g. It reports whether
// it was kept.
func (d *Decoder) record(g group, typ jperrors.FindingType, offset int64) {
	if d.cfg.mode == Ignore {
		return
	}
	ps := int32(len(d.texts))
	d.texts = d.appendPath(d.texts)
	pe := int32(len(d.texts))
	if typ == jperrors.DuplicateField {
		// the reference de-duplicates by path and keeps at most 100
		for _, r := range d.recs[groupDup] {
			if bytes.Equal(d.texts[r.pathStart:r.pathEnd], d.texts[ps:pe]) {
				d.texts = d.texts[:ps]
				return
			}
		}
		if len(d.recs[groupDup]) >= d.cfg.maxDups {
			d.texts = d.texts[:ps]
			d.droppedDups++
			return
		}
	}
	d.texts = d.appendPointer(d.texts)
	d.recs[g] = append(d.recs[g], rec{typ: typ, pathStart: ps, pathEnd: pe, ptrStart: pe, ptrEnd: int32(len(d.texts)), offset: offset})
}

// recordText adds a finding whose path was rendered elsewhere (ObjectMeta
// unknown fields).
func (d *Decoder) recordText(g group, path string, pointer []byte, offset int64) {
	if d.cfg.mode == Ignore {
		return
	}
	ps := int32(len(d.texts))
	d.texts = append(d.texts, path...)
	pe := int32(len(d.texts))
	d.texts = append(d.texts, pointer...)
	d.recs[g] = append(d.recs[g], rec{typ: jperrors.UnknownField, pathStart: ps, pathEnd: pe, ptrStart: pe, ptrEnd: int32(len(d.texts)), offset: offset})
}

// sortFindings puts the pruned and embedded-metadata groups in the
// reference's bytewise order.
func (d *Decoder) sortFindings() {
	cmp := func(a, b rec) int {
		return bytes.Compare(d.texts[a.pathStart:a.pathEnd], d.texts[b.pathStart:b.pathEnd])
	}
	slices.SortStableFunc(d.recs[groupPrune], cmp)
	slices.SortStableFunc(d.recs[groupEmbeddedMeta], cmp)
}

// numFindings counts the findings of the current document.
func (d *Decoder) numFindings() int {
	n := 0
	for g := range numGroups {
		n += len(d.recs[g])
	}
	return n
}
