package decoder

import (
	"bytes"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// typeMetaScan is the state of the apiVersion/kind pre-scan and of the
// automaton's choice (root.go).
type typeMetaScan struct {
	// case-insensitive apiVersion/kind of the root, as the reference's
	// version/kind pre-scan sees them (last wins)
	ciAPIVersion, ciKind   ciValue
	ciSeq                  int
	ciPending              []ciNote // a TokenSource's root members for the pre-scan
	avBuf, kindBuf, gvkKey []byte
	avNull                 bool // the root's apiVersion is null
	resolved               map[string]resolution
	// the last resolution and its apiVersion and kind: documents of one
	// kind often come one after the other
	lastAV, lastKind []byte
	lastRes          resolution
	lastOK           bool
	// where prescanPlain found the root's first two members (in document
	// order), for takeTypeMeta; plainN is 0 when it did not
	plain  [2]plainMember
	plainN int
}

// plainMember is a root member prescanPlain read: the offsets of its
// name's opening quote, after its name's closing quote, of its value's
// opening quote and after its closing quote.
type plainMember struct{ name, nameEnd, val, valEnd int }

// ciValue is a root member whose name equals apiVersion or kind ignoring
// case, as the reference's version/kind pre-scan (stdlib encoding/json,
// case-insensitive, last wins) reads it.
type ciValue struct {
	set      bool
	isString bool
	// typeErr: some value was not a string; encoding/json reports the
	// first such error even when a later value is a string
	typeErr  bool
	errType  string
	errOff   int64
	errSeq   int    // the order of the error in the pre-scan
	str      []byte // reused across documents
	jsonType string // the JSON type of a non-string value, as encoding/json names it
	offset   int64
}

// resolution is a cached Set.Resolve result.
type resolution struct {
	a     *schemaauto.Automaton
	entry *schemaauto.Entry
	err   error
	salt  uint32 // lookup's guessSalt for the automaton
}

// guessBits is the log2 of the number of lookup's guess slots.
const guessBits = 12

// selectAutomaton reads the root's exact apiVersion and kind (the strings
// the reference's coercer reads from the decoded map) and picks the
// automaton. In the fast path (no duplicate names) the first occurrences
// are the only ones and the scan stops there; in the slow path it reads the
// whole root, the last occurrence winning.
func (d *Decoder) selectAutomaton() error {
	d.res.Entry, d.res.Pruned = nil, false
	var hasAV, hasKind, isObject bool
	if d.src != nil || d.strm.head != nil {
		tm := d.strm.head
		if tm == nil {
			t := d.src.TypeMeta()
			tm = &t
		}
		hasAV, hasKind, isObject, d.tm.avNull = tm.HasAPIVersion, tm.HasKind, tm.IsObject, tm.APIVersionNull
		d.tm.avBuf, d.tm.kindBuf = append(d.tm.avBuf[:0], tm.APIVersion...), append(d.tm.kindBuf[:0], tm.Kind...)
	} else {
		var unscanned bool
		hasAV, hasKind, isObject, unscanned = d.prescan()
		if unscanned {
			return errUnscanned
		}
	}
	if !isObject {
		// the reference's pre-scan decodes the body into a struct
		d.tm.avBuf, d.tm.kindBuf = d.tm.avBuf[:0], d.tm.kindBuf[:0] // not the previous document's
		d.a = schemaauto.PassThrough()
		if d.fixed != nil {
			d.a = d.fixed
		}
		switch k := d.rootKind(); k {
		case 'n', 0:
			d.setFatal(rankKindMissing, &jperrors.DecodeError{Msg: fmt.Sprintf("Object 'Kind' is missing in '%s'", d.doc)})
		default:
			d.setFatal(rankVersionKind, &jperrors.DecodeError{Msg: "couldn't get version/kind; json parse error: json: cannot unmarshal " +
				jsonTypeName(k) + ` into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" }`})
		}
		return nil
	}
	if !hasKind {
		d.setFatal(rankKindMissing, &jperrors.DecodeError{Msg: fmt.Sprintf("Object 'Kind' is missing in '%s'", d.doc)})
		d.tm.kindBuf = d.tm.kindBuf[:0] // not the previous document's
	}
	if !hasAV {
		d.tm.avBuf = d.tm.avBuf[:0]
	}
	if d.tm.avNull {
		// the coercer reads apiVersion from the decoded map (null passes
		// the version/kind pre-scan, which leaves a Go string alone)
		d.setFatal(rankAccessor, &jperrors.DecodeError{Msg: ".apiVersion accessor error: <nil> is of the type <nil>, expected string"})
	}
	// resolve (apiVersion, kind), cached by their bytes: no allocation in
	// steady state
	r, ok := d.tm.lastRes, d.tm.lastOK && bytes.Equal(d.tm.avBuf, d.tm.lastAV) && bytes.Equal(d.tm.kindBuf, d.tm.lastKind)
	if ok {
		d.pickAutomaton(r)
		return nil
	}
	d.tm.gvkKey = append(append(append(d.tm.gvkKey[:0], d.tm.avBuf...), 0), d.tm.kindBuf...)
	r, ok = d.tm.resolved[string(d.tm.gvkKey)]
	if !ok {
		if d.fixed != nil {
			_, _, err := schemaauto.ParseGroupVersion(string(d.tm.avBuf))
			r = resolution{a: d.fixed, err: err}
		} else {
			r.a, r.entry, r.err = d.set.Resolve(string(d.tm.avBuf), string(d.tm.kindBuf))
		}
		if d.tm.resolved == nil {
			d.tm.resolved = map[string]resolution{}
		}
		r.salt = uint32(len(d.tm.resolved)+1) * 0x2545F491
		if len(d.tm.resolved) < 1024 {
			d.tm.resolved[string(d.tm.gvkKey)] = r
		}
	}
	d.tm.lastAV, d.tm.lastKind = append(d.tm.lastAV[:0], d.tm.avBuf...), append(d.tm.lastKind[:0], d.tm.kindBuf...)
	d.tm.lastRes, d.tm.lastOK = r, true
	d.pickAutomaton(r)
	return nil
}

// pickAutomaton takes the automaton of a resolution.
func (d *Decoder) pickAutomaton(r resolution) {
	if r.err != nil {
		d.setFatal(rankGroupVersion, &jperrors.DecodeError{Msg: r.err.Error()})
	}
	if r.a == nil {
		d.a = schemaauto.PassThrough()
		return
	}
	d.a, d.entry, d.res.Entry, d.res.Pruned = r.a, r.entry, r.entry, true
	d.guessSalt = r.salt
}

// prescan finds the exact "apiVersion" and "kind" strings of the root, into
// d.tm.avBuf and d.tm.kindBuf.
func (d *Decoder) prescan() (hasAV, hasKind, isObject, unscanned bool) {
	if d.scanning {
		if d.prescanPlain() {
			return true, true, true, false
		}
		hasAV, hasKind, isObject, unscanned = d.prescanFrom(&d.sc)
		d.sc.reset(d.doc, d.cfg.maxDepth)
		return
	}
	d.preRd = *bytes.NewBuffer(d.doc) // jsontext reads a bytes.Buffer in place
	opts := []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(d.cfg.invalidUTF8)}
	if d.pre == nil {
		d.pre = jsontext.NewDecoder(&d.preRd, opts...)
	} else {
		d.pre.Reset(&d.preRd, opts...)
	}
	// a syntax error ends the scan; the walk reports it
	hasAV, hasKind, isObject, _ = d.prescanFrom(d.pre)
	return hasAV, hasKind, isObject, false
}

// prescanPlain is the fast path's pre-scan for the usual start of a
// resource, {"apiVersion":"…","kind":"…" (either order, whitespace
// allowed), whose two strings hold ASCII without escapes and a
// non-empty kind: it reads them in place and reports whether the document
// starts so. It checks nothing else; the walk reads the document from the
// start, checking every byte. Otherwise prescanFrom reads the root.
func (d *Decoder) prescanPlain() bool {
	doc := d.doc
	d.tm.plainN = 0
	if d.prescanCompact() {
		return true
	}
	i := skipSpace(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return false
	}
	i++
	var av, kind []byte
	for n := 0; n < 2; n++ {
		i = skipSpace(doc, i)
		if n == 1 {
			if i >= len(doc) || doc[i] != ',' {
				return false
			}
			i = skipSpace(doc, i+1)
		}
		m := &d.tm.plain[n]
		m.name = i
		name, j := plainASCII(doc, i)
		if name == nil {
			return false
		}
		m.nameEnd = j
		if i = skipSpace(doc, j); i >= len(doc) || doc[i] != ':' {
			return false
		}
		m.val = skipSpace(doc, i+1)
		v, j := plainASCII(doc, m.val)
		i, m.valEnd = j, j
		switch {
		case v == nil:
			return false
		case string(name) == "apiVersion" && av == nil:
			av = v
		case string(name) == "kind" && kind == nil && len(v) > 0:
			kind = v
		default:
			return false
		}
	}
	d.tm.avNull = false
	d.tm.avBuf, d.tm.kindBuf = append(d.tm.avBuf[:0], av...), append(d.tm.kindBuf[:0], kind...)
	d.tm.plainN = 2
	return true
}

// takeTypeMeta is, on the fast lane, the root's first step: it takes the
// apiVersion and kind members that prescanPlain read and checked (the
// valid JSON text {"apiVersion":"…","kind":"…", in either order), as
// readMember, placeMember, dupMember and valueMember would (the
// properties' roles kept verbatim, the pre-scan fed, the names marked
// seen, the members written; with validation, checked against their
// declared schemas and kept: typeMetaVal), and leaves the scanner after
// them. Where the root's properties are not those of a resource (no
// apiVersion or kind of their role) it takes nothing and the members go
// the usual way.
func (d *Decoder) takeTypeMeta(f *objFrame) {
	doc, ms := d.doc, &d.tm.plain
	if d.tm.plainN != 2 || f.m != nil || d.sc.pos != skipSpace(doc, 0)+1 || len(f.props) == 0 {
		return
	}
	var idx [2]int
	for n := range ms {
		m := &ms[n]
		name := doc[m.name+1 : m.nameEnd-1]
		role := schemaauto.RoleKind
		if len(name) == len("apiVersion") {
			role = schemaauto.RoleAPIVersion
		}
		if idx[n] = d.lookup(f, name); idx[n] < 0 || f.props[idx[n]].Role != role {
			f.prev = 0 // lookup's guesses as at the start
			return
		}
	}
	for n := range ms {
		m := &ms[n]
		d.dups.seenBits[f.seenBase+idx[n]/64] |= 1 << (idx[n] % 64)
		if f.write {
			if n > 0 {
				d.buf = append(d.buf, ',')
			}
			d.buf = append(d.buf, doc[m.name:m.nameEnd]...)
			d.buf = append(d.buf, ':')
			d.buf = append(d.buf, doc[m.val:m.valEnd]...)
		}
		v := &d.tm.ciKind // noteCI's string case
		if m.nameEnd-m.name == len(`"apiVersion"`) {
			v = &d.tm.ciAPIVersion
		}
		d.tm.ciSeq++
		v.set, v.isString, v.str, v.offset = true, true, append(v.str[:0], doc[m.val+1:m.valEnd-1]...), int64(m.name)
	}
	if d.val.on {
		if i, j := uint(idx[0]), uint(idx[1]); i < uint(len(f.props)) && j < uint(len(f.props)) &&
			f.props[i].ValueFlags()&f.props[j].ValueFlags()&anyString == anyString && !f.vframe {
			// the usual declarations pass every string: both kept (as
			// typeMetaVal)
			f.keptLo |= 1<<i | 1<<j // 0 from 64 on (Go's shifts)
			f.vn += 2
		} else {
			d.typeMetaVal(f, idx)
		}
	}
	d.sc.pos, d.sc.state, d.sc.from = ms[1].valEnd, sAfter, -1
}

// prescanCompact is prescanPlain for the most usual start, compact
// with apiVersion first: {"apiVersion":"…","kind":"…".
func (d *Decoder) prescanCompact() bool {
	const avName, kindName = `{"apiVersion":"`, `","kind":"`
	doc := d.doc
	if len(doc) < len(avName) || string(doc[:len(avName)]) != avName {
		return false
	}
	i := plainRun(doc, len(avName))
	if len(doc)-i < len(kindName) || string(doc[i:i+len(kindName)]) != kindName {
		return false // not a plain string, or another member
	}
	av, k := doc[len(avName):i], i+len(kindName)
	j := plainRun(doc, k)
	if j >= len(doc) || doc[j] != '"' || j == k { // a plain, non-empty kind
		return false
	}
	d.tm.plain = [2]plainMember{{1, 13, 14, i + 1}, {i + 2, i + 8, i + 9, j + 1}}
	d.tm.avNull, d.tm.plainN = false, 2
	d.tm.avBuf, d.tm.kindBuf = append(d.tm.avBuf[:0], av...), append(d.tm.kindBuf[:0], doc[k:j]...)
	return true
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(doc []byte, i int) int {
	for i < len(doc) && wsByte[doc[i]] {
		i++
	}
	return i
}

// plainASCII reads the string at doc[i] if it holds ASCII (0x20-0x7f)
// without escapes: its contents (non-nil) and the index after it.
func plainASCII(doc []byte, i int) ([]byte, int) {
	if i >= len(doc) || doc[i] != '"' {
		return nil, i
	}
	start := i + 1
	i = plainRun(doc, start) // stops at '"', '\\', < 0x20 or >= 0x80
	if i >= len(doc) || doc[i] != '"' {
		return nil, i
	}
	return doc[start:i:i], i + 1
}

// typeMetaTokens is what the pre-scan reads: a jsontext.Decoder of its
// own, or the scanner (from the start of the document).
type typeMetaTokens interface {
	PeekKind() jsontext.Kind
	ReadToken() (jsontext.Token, error)
	ReadValue() (jsontext.Value, error)
	SkipValue() error
}

// prescanFrom reads the root's members from r. Without duplicate names
// (the fast path) the first occurrences are the only ones and the scan
// stops when it has both; on the slow path it reads the whole root, the
// last occurrence winning. failed: r could not read the root (the scanner
// gave up, and the walk, which may not read that text with the scanner,
// must give up too; jsontext's syntax errors are the walk's to report).
func (d *Decoder) prescanFrom(r typeMetaTokens) (hasAV, hasKind, isObject, failed bool) {
	d.tm.avNull = false
	if r.PeekKind() != '{' {
		return false, false, false, false
	}
	if _, err := r.ReadToken(); err != nil {
		return false, false, true, true
	}
	for (d.ownDups || !(hasAV && hasKind)) && r.PeekKind() == '"' {
		name, err := r.ReadValue()
		if err != nil {
			return hasAV, hasKind, true, true
		}
		n := d.unquoteName(name) // "apiVersio\u006e" is apiVersion
		isAV, isKind := string(n) == "apiVersion", string(n) == "kind"
		if !isAV && !isKind {
			if r.SkipValue() != nil {
				return hasAV, hasKind, true, true
			}
			continue
		}
		v, err := r.ReadValue()
		if err != nil {
			return hasAV, hasKind, true, true
		}
		if isAV {
			d.tm.avNull = v.Kind() == 'n'
			if hasAV = v.Kind() == '"'; hasAV {
				d.tm.avBuf, _ = jsontext.AppendUnquote(d.tm.avBuf[:0], v)
			}
		} else {
			if hasKind = v.Kind() == '"' && len(v) > 2; hasKind { // GetKind: a non-empty string
				d.tm.kindBuf, _ = jsontext.AppendUnquote(d.tm.kindBuf[:0], v)
			}
		}
	}
	return hasAV, hasKind, true, false
}

// noteRootName records a root member whose name is apiVersion or kind
// ignoring case, as the reference's pre-scan reads it. raw is the value
// when it was read already (a string), else nil and k its kind.
//
// A TokenSource's root is noted later, by finishRoot: the reference's YAML
// path hands the pre-scan JSON text marshalled from a map, whose names are
// sorted and unique (the last value of a name won).
func (d *Decoder) noteRootName(name []byte, k jsontext.Kind, str []byte, offset int64) {
	if d.src != nil {
		if !bytes.EqualFold(name, []byte("apiVersion")) && !bytes.EqualFold(name, []byte("kind")) {
			return
		}
		i := 0
		for i < len(d.tm.ciPending) && !bytes.Equal(d.tm.ciPending[i].name, name) {
			i++
		}
		if i == len(d.tm.ciPending) {
			d.tm.ciPending = append(d.tm.ciPending, ciNote{})
		}
		n := &d.tm.ciPending[i]
		n.name, n.str = append(n.name[:0], name...), append(n.str[:0], str...)
		n.k, n.offset = k, offset
		return
	}
	d.noteCI(name, k, str, offset)
}

// ciNote is a root member noted for the pre-scan of a TokenSource.
type ciNote struct {
	name, str []byte
	k         jsontext.Kind
	offset    int64
}

// noteCI feeds one root member to the pre-scan, in the pre-scan's order.
func (d *Decoder) noteCI(name []byte, k jsontext.Kind, str []byte, offset int64) {
	d.tm.ciSeq++
	var v *ciValue
	switch {
	case string(name) == "apiVersion" || bytes.EqualFold(name, []byte("apiVersion")):
		v = &d.tm.ciAPIVersion
	case string(name) == "kind" || bytes.EqualFold(name, []byte("kind")):
		v = &d.tm.ciKind
	default:
		return
	}
	switch k {
	case 'n':
		return // null into a Go string leaves it as it was
	case '"':
		v.set, v.isString, v.str, v.offset = true, true, append(v.str[:0], str...), offset
	default:
		v.set, v.isString, v.jsonType, v.offset = true, false, jsonTypeName(k), offset
		if !v.typeErr {
			v.typeErr, v.errType, v.errOff, v.errSeq = true, v.jsonType, offset, d.tm.ciSeq
		}
	}
}

// jsonTypeName names a JSON kind as encoding/json's UnmarshalTypeError does.
func jsonTypeName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case '0':
		return "number"
	case '"':
		return "string"
	}
	return "null"
}

// finishRoot applies, at the end of the document, the checks of the
// reference's version/kind pre-scan: the last apiVersion and kind (ignoring
// case) must be strings, and the apiVersion must parse.
func (d *Decoder) finishRoot() error {
	const prefix = "couldn't get version/kind; json parse error: "
	if d.src != nil {
		// the names sorted, as the reference's YAML path marshals them
		p := d.tm.ciPending
		for i := 1; i < len(p); i++ {
			for j := i; j > 0 && bytes.Compare(p[j].name, p[j-1].name) < 0; j-- {
				p[j], p[j-1] = p[j-1], p[j]
			}
		}
		for i := range p {
			d.noteCI(p[i].name, p[i].k, p[i].str, p[i].offset)
		}
	}
	// encoding/json reports the first type error in the text it reads
	first, field := (*ciValue)(nil), ""
	if d.tm.ciAPIVersion.typeErr {
		first, field = &d.tm.ciAPIVersion, "apiVersion"
	}
	if d.tm.ciKind.typeErr && (first == nil || d.tm.ciKind.errSeq < first.errSeq) {
		first, field = &d.tm.ciKind, "kind"
	}
	if first != nil {
		d.setFatal(rankVersionKind, &jperrors.DecodeError{Offset: first.errOff,
			Msg: prefix + "json: cannot unmarshal " + first.errType + " into Go struct field ." + field + " of type string"})
		return nil
	}
	if v := d.tm.ciAPIVersion; v.set && v.isString {
		if bytes.Count(v.str, []byte("/")) > 1 { // what makes ParseGroupVersion fail
			_, _, err := schemaauto.ParseGroupVersion(string(v.str))
			d.setFatal(rankVersionKind, &jperrors.DecodeError{Offset: v.offset, Msg: err.Error()})
		}
	}
	return nil
}

// rootKind is the JSON kind of the document's top-level value.
func (d *Decoder) rootKind() jsontext.Kind {
	if d.scanning {
		return d.sc.PeekKind()
	}
	if d.src != nil {
		return d.src.PeekKind()
	}
	return d.pre.PeekKind()
}
