package decoder

import (
	"bytes"
	"slices"

	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/fieldpath"
)

// findings is the path of the walk and the findings of the current
// document (findings.go).
type findings struct {
	names       []byte              // names on the path that are not slices of the document
	path        []fieldpath.Segment // the path of the value being decoded
	texts       []byte              // the findings' path and pointer texts
	recs        [numGroups][]rec
	sortTmp     []rec // sortFindings' scratch
	runs        []int // sortFindings' run boundaries
	droppedDups int
	dropped     int
}

// rec is a recorded finding: its texts live in Decoder.texts.
type rec struct {
	typ                jperrors.FindingType
	pathStart, pathEnd int32
	ptrStart, ptrEnd   int32
	offset             int64
}

// group of a finding, in the reference's order: decode duplicates
// (sigs.k8s.io/json), then root metadata, pruning and embedded-metadata
// unknown fields, as unstructuredSchemaCoercer.apply and
// schemaCoercingDecoder.Decode in
// k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go
// assemble them.
type group uint8

const (
	groupDup group = iota
	groupRootMeta
	groupPrune
	groupEmbeddedMeta
	numGroups
)

// pushKey adds a name to the path. A name that is a slice of the document
// (jsontext reads the document in place) is used as it is; any other name
// is copied to d.find.names, which only grows within a document, so that path
// segments stay valid while they are on the path.
func (d *Decoder) pushKey(kind fieldpath.SegmentKind, name []byte, inDoc bool) {
	if !inDoc {
		start := len(d.find.names)
		d.find.names = append(d.find.names, name...)
		name = d.find.names[start:len(d.find.names):len(d.find.names)]
	}
	d.find.path = append(d.find.path, fieldpath.Segment{Kind: kind, Name: name})
}

func (d *Decoder) pushIndex(i int) {
	d.find.path = append(d.find.path, fieldpath.Segment{Kind: fieldpath.Index, Index: i})
}

// pop removes the innermost segment.
func (d *Decoder) pop() { d.find.path = d.find.path[:len(d.find.path)-1] }

// lastName is the name of the innermost path segment.
func (d *Decoder) lastName() []byte { return d.find.path[len(d.find.path)-1].Name }

// appendPath renders the current path in the pruning / sigs.k8s.io/json
// syntax.
func (d *Decoder) appendPath(dst []byte) []byte { return fieldpath.AppendPath(dst, d.find.path) }

// fieldPath renders the current path as field.Path.
func (d *Decoder) fieldPath() string { return string(fieldpath.AppendFieldPath(nil, d.find.path)) }

// appendPointer renders the current path as an RFC 6901 JSON Pointer.
func (d *Decoder) appendPointer(dst []byte) []byte { return fieldpath.AppendPointer(dst, d.find.path) }

// record adds a finding at the current path to group g (unless Ignore
// mode, a duplicate's path reported already, or a cap drops it).
func (d *Decoder) record(g group, typ jperrors.FindingType, offset int64) {
	if d.cfg.mode == Ignore {
		return
	}
	ps := int32(len(d.find.texts))
	d.find.texts = d.appendPath(d.find.texts)
	pe := int32(len(d.find.texts))
	if typ == jperrors.DuplicateField {
		// the reference de-duplicates by path and keeps at most 100
		for _, r := range d.find.recs[groupDup] {
			if bytes.Equal(d.find.texts[r.pathStart:r.pathEnd], d.find.texts[ps:pe]) {
				d.find.texts = d.find.texts[:ps]
				return
			}
		}
		if len(d.find.recs[groupDup]) >= d.cfg.maxDups {
			d.find.texts = d.find.texts[:ps]
			d.find.droppedDups++
			return
		}
	}
	if d.numFindings() >= d.cfg.maxFindings {
		d.find.texts = d.find.texts[:ps]
		d.find.dropped++
		return
	}
	if d.plainPath() {
		// the pointer is derived from the path when asked for
		d.find.recs[g] = append(d.find.recs[g], rec{typ: typ, pathStart: ps, pathEnd: pe, ptrStart: -1, offset: offset})
		return
	}
	d.find.texts = d.appendPointer(d.find.texts)
	d.find.recs[g] = append(d.find.recs[g], rec{typ: typ, pathStart: ps, pathEnd: pe, ptrStart: pe, ptrEnd: int32(len(d.find.texts)), offset: offset})
}

// notPlain marks the bytes that keep a path's JSON Pointer from being
// derived from its text: those the text uses as separators ('.', '[' and
// ']') and those a pointer escapes ('~' and '/').
var notPlain = [256]bool{'.': true, '[': true, ']': true, '~': true, '/': true}

// plainPath reports whether no name of the current path holds a notPlain
// byte and the path does not start with an empty name (which renders as
// nothing, so that "[0]" could also be a leading index), so that
// pointerFromPath gives its pointer.
func (d *Decoder) plainPath() bool {
	if len(d.find.path) > 0 && d.find.path[0].Kind != fieldpath.Index && len(d.find.path[0].Name) == 0 {
		return false
	}
	for _, s := range d.find.path {
		for _, c := range s.Name {
			if notPlain[c] {
				return false
			}
		}
	}
	return true
}

// pointerFromPath is the JSON Pointer of a path rendered by appendPath
// whose names are plain (plainPath): "spec.list[3].x" is "/spec/list/3/x".
func pointerFromPath(p []byte) string {
	b := make([]byte, 0, len(p)+1)
	if len(p) == 0 || p[0] != '[' {
		b = append(b, '/')
	}
	for _, c := range p {
		switch c {
		case '.', '[':
			b = append(b, '/')
		case ']':
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// pointer is the JSON Pointer of a recorded finding.
func (d *Decoder) pointer(x rec) string {
	if x.ptrStart < 0 {
		return pointerFromPath(d.find.texts[x.pathStart:x.pathEnd])
	}
	return string(d.find.texts[x.ptrStart:x.ptrEnd])
}

// recordText adds a finding whose path was rendered elsewhere (ObjectMeta
// unknown fields).
func (d *Decoder) recordText(g group, path string, pointer []byte, offset int64) {
	if d.cfg.mode == Ignore {
		return
	}
	if d.numFindings() >= d.cfg.maxFindings {
		d.find.dropped++
		return
	}
	ps := int32(len(d.find.texts))
	d.find.texts = append(d.find.texts, path...)
	pe := int32(len(d.find.texts))
	d.find.texts = append(d.find.texts, pointer...)
	d.find.recs[g] = append(d.find.recs[g], rec{typ: jperrors.UnknownField, pathStart: ps, pathEnd: pe, ptrStart: pe, ptrEnd: int32(len(d.find.texts)), offset: offset})
}

// sortFindings puts the pruned and embedded-metadata groups in the
// reference's bytewise order.
//
// Findings come in document order, which is mostly the sorted order: the
// exceptions are members out of name order and indexes that gain a digit
// ("[10]" sorts before "[9]"). So the sort is a natural merge sort: it
// finds the sorted runs and merges them pairwise, stably, in about n
// comparisons per round, without allocating in steady state.
func (d *Decoder) sortFindings() {
	d.sortRecs(d.find.recs[groupPrune])
	d.sortRecs(d.find.recs[groupEmbeddedMeta])
}

// sortRecs sorts one group's findings by path text, stably (see
// sortFindings).
func (d *Decoder) sortRecs(a []rec) {
	if len(a) < 2 {
		return // the usual document: nothing to order
	}
	less := func(x, y rec) bool {
		return bytes.Compare(d.find.texts[x.pathStart:x.pathEnd], d.find.texts[y.pathStart:y.pathEnd]) < 0
	}
	// the start of every run, and len(a)
	runs := append(d.find.runs[:0], 0)
	for i := 1; i < len(a); i++ {
		if less(a[i], a[i-1]) {
			runs = append(runs, i)
		}
	}
	runs = append(runs, len(a))
	if len(runs) > 2 {
		tmp := slices.Grow(d.find.sortTmp[:0], len(a))[:len(a)]
		src, dst := a, tmp
		for len(runs) > 2 {
			// merge runs 0+1, 2+3, ... from src into dst
			n := 0
			for r := 0; r+1 < len(runs); r += 2 {
				lo, mid, hi := runs[r], runs[r+1], runs[r+1]
				if r+2 < len(runs) {
					hi = runs[r+2]
				}
				i, j, k := lo, mid, lo
				for i < mid && j < hi {
					if less(src[j], src[i]) { // ties take the left run: stable
						dst[k] = src[j]
						j++
					} else {
						dst[k] = src[i]
						i++
					}
					k++
				}
				k += copy(dst[k:], src[i:mid])
				copy(dst[k:], src[j:hi])
				runs[n] = lo
				n++
			}
			runs[n] = len(a)
			runs = runs[:n+1]
			src, dst = dst, src
		}
		if &src[0] != &a[0] {
			copy(a, src)
		}
		d.find.sortTmp = tmp
	}
	d.find.runs = runs
}

// numFindings counts the findings of the current document.
func (d *Decoder) numFindings() int {
	n := 0
	for g := range numGroups {
		n += len(d.find.recs[g])
	}
	return n
}
