package decoder

import (
	"bytes"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/fieldpath"
	"github.com/jsonprune/jsonprune/internal/jsonvalue"
	"github.com/jsonprune/jsonprune/internal/objectmeta"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// metaScratch is what the metadata steps reuse across documents (meta.go,
// metafast.go).
type metaScratch struct {
	sub         *jsontext.Decoder // reads a raw metadata value again
	subRd       bytes.Buffer
	rawToks     rawTokens // fastMeta's reader of the raw metadata
	kvs         []kv
	owners      []ownerRef
	fields      [numMetaFields]jsontext.Value
	metaOffsets []metaOffset // the top-level keys of the metadata read last
	// where appendFastMeta wrote each field, from the metadata's '{', and
	// whether it wrote the metadata read last (validation reads them)
	spans   objectmeta.FieldSpans
	indexed bool
}

// metadata decodes the metadata of the root or of an embedded resource: it
// is read whole (it is small and must be re-rendered anyway), decoded as
// the reference decodes metav1.ObjectMeta, its unknown fields reported, and
// written back normalised (as GetObjectMetaWithOptions and SetObjectMeta in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta/coerce.go do).
func (d *Decoder) metadata(p *schemaauto.Prop, root, prunesNulls, write bool) (any, bool, error) {
	d.meta.metaOffsets, d.meta.indexed = d.meta.metaOffsets[:0], false
	var v any
	var off int64 // where the metadata value starts
	var err error
	if d.rawMetaOK(p) {
		var done, keep bool
		if v, off, done, keep, err = d.rawMetadata(p, root, prunesNulls, write); done || err != nil {
			return nil, keep, err
		}
	} else if v, err = d.readAny(); err != nil {
		return nil, false, err
	} else {
		off = d.anyStart
	}
	if v == nil && d.nullMetaPruned(p, root, prunesNulls) {
		return nil, false, nil
	}
	meta := d.normalizeMetadata(p, root, v, off)
	if write {
		d.buf = jsonvalue.AppendCanonical(d.buf, meta)
	}
	if d.out == outMap {
		return meta, true, nil
	}
	return nil, true, nil
}

// rawMetaOK reports whether the metadata of property p can be read as a
// raw value (rawMetadata, quickMetadata): on the fast path, bytes or no
// output, and no defaults inside it to apply.
func (d *Decoder) rawMetaOK(p *schemaauto.Prop) bool {
	return d.out != outMap && d.rawFast &&
		(!isSchema(p.Declared) || d.cfg.noDefaults || d.a.State(p.Declared).Flags&schemaauto.DefaultsBelow == 0)
}

// rawMetadata reads the metadata as a raw value (the fast path): done when
// it was pruned (a null) or written normalised in place (fastMeta, the
// common forms); otherwise it returns the value read again as a tree.
func (d *Decoder) rawMetadata(p *schemaauto.Prop, root, prunesNulls, write bool) (v any, off int64, done, keep bool, err error) {
	if d.scanning {
		if raw, ok := d.scanFastMeta(); ok { // the usual forms, in one pass
			if write {
				d.appendFastMeta()
			}
			return nil, d.tokenStart(raw), true, true, nil
		}
	}
	raw, err := d.readValue()
	if err != nil {
		return nil, 0, true, false, err
	}
	if err := d.checkRawDepth(raw); err != nil {
		return nil, 0, true, false, err
	}
	off = d.tokenStart(raw)
	d.checkNumbers(raw, off)
	if raw.Kind() == 'n' && d.nullMetaPruned(p, root, prunesNulls) {
		return nil, off, true, false, nil
	}
	if d.fastMeta(raw, write) {
		return nil, off, true, true, nil
	}
	// otherwise read the raw value again as a value tree
	main, base, inPlace, scanning := d.jd, d.base, d.inPlace, d.scanning
	d.meta.subRd = *bytes.NewBuffer(raw)
	if d.meta.sub == nil {
		d.meta.sub = jsontext.NewDecoder(&d.meta.subRd)
	} else {
		d.meta.sub.Reset(&d.meta.subRd)
	}
	d.jd, d.base = d.meta.sub, d.offset()-int64(len(raw))
	d.inPlace, d.scanning = false, false
	v, err = d.readAny()
	d.jd, d.base, d.inPlace, d.scanning = main, base, inPlace, scanning
	return v, off, err != nil, false, err
}

// normalizeMetadata decodes the metadata value v (at offset off) as the
// reference decodes metav1.ObjectMeta, records its unknown fields and its
// fatal error, and applies the declared schema's defaults below it.
func (d *Decoder) normalizeMetadata(p *schemaauto.Prop, root bool, v any, off int64) map[string]any {
	parent := ""
	if !root {
		d.pop() // the field.Path of the embedded resource itself
		parent = d.fieldPath()
		defer d.pushKey(fieldpath.Key, metadataName, true)
	}
	meta, unknown, err := objectmeta.Normalize(v, objectmeta.Options{ReportUnknown: d.cfg.mode != Ignore, ParentPath: parent})
	if err != nil {
		if root {
			d.setFatal(rankRootMeta, &jperrors.DecodeError{Offset: off, Pointer: "/metadata", Msg: err.Error(), Err: err})
		} else {
			d.setFatal(rankCoerce, &jperrors.DecodeError{Offset: off, Pointer: string(d.appendPointer(nil)) + "/metadata",
				Msg: (&jperrors.FieldError{Type: jperrors.FieldInvalid, Field: parent + ".metadata", BadValue: v, Detail: err.Error()}).Error(), Err: err})
		}
		meta = map[string]any{}
	}
	if isSchema(p.Declared) && !d.cfg.noDefaults && d.a.State(p.Declared).Flags&schemaauto.DefaultsBelow != 0 {
		d.a.DefaultValue(meta, p.Declared)
	}
	g, base := groupRootMeta, ""
	if !root {
		g = groupEmbeddedMeta
	}
	if len(unknown) > 0 {
		base = string(d.appendPointer(nil))
		if !root {
			base += "/metadata"
		}
	}
	for _, u := range unknown {
		off, ptr := d.metaUnknownAt(u, base, off)
		d.recordText(g, u, ptr, off)
	}
	return meta
}

// nullMetaPruned reports whether a null metadata is pruned: an embedded
// resource's declared, non-nullable, undefaulted metadata is null-pruned
// before coercion; the root's is restored regardless.
func (d *Decoder) nullMetaPruned(p *schemaauto.Prop, root, prunesNulls bool) bool {
	if root || !prunesNulls || !isSchema(p.Declared) {
		return false
	}
	st := d.a.State(p.Declared)
	return st.Flags&schemaauto.Nullable == 0 && st.Default < 0
}

// metaUnknownAt locates an unknown metadata path ("metadata.x",
// "spec.e.metadata.ownerReferences[0].x") at the offset and pointer of its
// top-level metadata key.
func (d *Decoder) metaUnknownAt(path, base string, def int64) (int64, []byte) {
	i := strings.LastIndex(path, "metadata.")
	rest := path[i+len("metadata."):]
	// an unknown field inside ownerReferences or managedFields is located
	// at that key; any other is a top-level key, kept whole even when it
	// holds "." or "["
	if strings.HasPrefix(rest, "ownerReferences") || strings.HasPrefix(rest, "managedFields") {
		if j := strings.IndexAny(rest, ".["); j >= 0 {
			rest = rest[:j]
		}
	}
	ptr := fieldpath.AppendPointerToken([]byte(base), []byte(rest))
	for _, mo := range d.meta.metaOffsets {
		if mo.name == rest {
			return mo.offset, ptr
		}
	}
	return def, ptr
}

// readAny reads the next value as a value tree with the reference's number
// semantics; duplicate names are reported (slow path) and the last wins.
// The top-level keys of an object read at metadata depth are remembered
// with their offsets.
func (d *Decoder) readAny() (any, error) {
	top := len(d.find.path)
	d.anyStart = -1
	return d.readAnyAt(top)
}

func (d *Decoder) readAnyAt(top int) (any, error) {
	switch d.peek() {
	case '{':
		if _, err := d.readToken(); err != nil {
			return nil, err
		}
		if d.anyStart < 0 {
			d.anyStart = d.delimStart()
		}
		if err := d.enter(); err != nil {
			return nil, err
		}
		m := map[string]any{}
		for d.peek() != '}' {
			raw, err := d.readValue()
			if err != nil {
				return nil, err
			}
			off := d.tokenStart(raw)
			name := string(d.unquoteName(raw))
			d.pushKey(fieldpath.Key, []byte(name), true)
			if len(d.find.path) == top+1 {
				d.meta.metaOffsets = append(d.meta.metaOffsets, metaOffset{name, off})
			}
			if _, dup := m[name]; dup {
				if d.scanning {
					return nil, errDuplicate
				}
				d.record(groupDup, jperrors.DuplicateField, off)
			}
			v, err := d.readAnyAt(top)
			if err != nil {
				return nil, err
			}
			m[name] = v
			d.pop()
		}
		if _, err := d.readToken(); err != nil {
			return nil, err
		}
		d.depth--
		return m, nil
	case '[':
		if _, err := d.readToken(); err != nil {
			return nil, err
		}
		if err := d.enter(); err != nil {
			return nil, err
		}
		if d.anyStart < 0 {
			d.anyStart = d.delimStart()
		}
		a := []any{}
		for i := 0; d.peek() != ']'; i++ {
			d.pushIndex(i)
			v, err := d.readAnyAt(top)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
			d.pop()
		}
		if _, err := d.readToken(); err != nil {
			return nil, err
		}
		d.depth--
		return a, nil
	case 0, '}', ']':
		_, err := d.readToken()
		return nil, err
	}
	raw, err := d.readValue()
	if err != nil {
		return nil, err
	}
	if d.anyStart < 0 {
		d.anyStart = d.tokenStart(raw)
	}
	if c := raw[0]; c == '-' || (c >= '0' && c <= '9') {
		d.checkNumber(raw, d.tokenStart(raw))
	}
	return d.scalarValue(raw), nil
}

var metadataName = []byte("metadata")
