package decoder

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/jsonvalue"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// This file is the state machine that drives an automaton with tokens. Each
// value is decoded in a state of the automaton (schemaauto.State); an object
// member goes to the state its name leads to (a property, the
// additionalProperties state, Keep under preserve-unknown-fields), or is
// unknown: reported and skipped. The same rules as the reference's
// pruning.Prune, PruneNonNullableNullsWithoutDefaults, objectmeta.Coerce and
// defaulting.Default, applied member by member in one pass:
//
//	member            pruning          nulls                      defaults
//	property p        → p's state      dropped if p is neither    absent or non-nullable
//	                                   nullable nor defaulted     null → p's default
//	additional        → its state      (same, with its state)     null → its default
//	preserve, other   kept verbatim    kept                       -
//	prune, other      dropped, unknown -                          -
//	apiVersion/kind   kept verbatim    declared schema's rule     declared schema's default
//	  (embedded)      (must be strings in an embedded resource)
//	metadata          ObjectMeta: normalised, unknown fields reported
//
// Two paths share this code. The fast path copies preserved values and
// skips unknown ones as raw values; it reads JSON text with the scanner of
// scanner.go, which checks what jsontext would and gives up on anything
// else, and then with a jsontext.Decoder that rejects duplicate names. If
// the document has a duplicate, it is decoded again on the slow path, which
// detects duplicates itself, reports each with its path, and keeps the
// last value.

// nameSpan is a member name of an open object (slow path), in d.seenNames.
type nameSpan struct{ start, end int32 }

// member is a written member of an open object (slow path, bytes output),
// so that a later duplicate can take its place.
type member struct {
	prop       int // property index, or -1
	name       nameSpan
	start, end int // its bytes in the output (d.outPos), when writing
	// the findings recorded while decoding its value (group prune,
	// root and embedded metadata), and the fatal error before it: a later
	// duplicate discards them, as the reference decodes only the last value
	recs   [numGroups][2]int32
	fatals [2]int32
}

type metaOffset struct {
	name   string
	offset int64
}

// value decodes the next value in state s. In discard mode the value lies
// in a pruned subtree: nothing is written, duplicates are still found.
func (d *Decoder) value(s schemaauto.StateID, discard bool) (any, error) {
	return d.valueKind(s, d.peek(), discard)
}

// valueKind is value for a next value of kind k (already peeked).
func (d *Decoder) valueKind(s schemaauto.StateID, k jsontext.Kind, discard bool) (any, error) {
	switch k {
	case '{':
		if d.rawOK(s, discard) {
			return nil, d.rawValue(discard)
		}
		return d.object(s, discard)
	case '[':
		if d.rawOK(s, discard) {
			return nil, d.rawValue(discard)
		}
		return d.array(s, discard)
	case 0, '}', ']':
		_, err := d.readToken()
		return nil, err
	default:
		raw, err := d.readValue()
		if err != nil {
			return nil, err
		}
		return d.scalar(raw, discard)
	}
}

// rawOK reports whether a whole value can be handled as raw bytes: on the
// fast path, for a value kept verbatim or skipped, when no finding can come
// from inside it.
func (d *Decoder) rawOK(s schemaauto.StateID, discard bool) bool {
	return d.rawFast && (discard || (s == schemaauto.Keep && d.out != outMap))
}

// rawValue copies (or skips) a whole value as raw bytes.
func (d *Decoder) rawValue(discard bool) error {
	raw, err := d.readValue()
	if err != nil {
		return err
	}
	if err := d.checkRawDepth(raw); err != nil {
		return err
	}
	d.checkNumbers(raw, d.tokenStart(raw))
	if !discard && d.out == outBytes {
		d.buf = appendCompact(d.buf, raw)
	}
	return nil
}

// appendQuotedName appends a property name as a JSON string, as
// jsontext.AppendQuote does; the usual names, which need no escaping, are
// copied between quotes.
func appendQuotedName(dst []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			dst, _ = jsontext.AppendQuote(dst, name)
			return dst
		}
	}
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"')
}

// appendCompact appends a valid JSON value without the whitespace between
// its tokens, as the token-by-token path writes it.
func appendCompact(dst, raw []byte) []byte {
	if !bytes.ContainsAny(raw, " \t\r\n") {
		return append(dst, raw...)
	}
	start, inString := 0, false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			dst = append(dst, raw[start:i]...)
			start = i + 1
		}
	}
	return append(dst, raw[start:]...)
}

// scalar handles a literal, a string or a number.
func (d *Decoder) scalar(raw jsontext.Value, discard bool) (any, error) {
	if c := raw[0]; c == '-' || (c >= '0' && c <= '9') {
		d.checkNumber(raw, d.tokenStart(raw))
	}
	if discard {
		return nil, nil
	}
	switch d.out {
	case outBytes:
		if raw[0] == '"' && d.cfg.invalidUTF8 {
			d.buf = d.appendString(d.buf, raw)
		} else {
			d.buf = append(d.buf, raw...)
		}
		return nil, nil
	case outMap:
		return d.scalarValue(raw), nil
	}
	return nil, nil
}

// appendString appends a string or name read with AllowInvalidUTF8 as it
// was written, unless it holds invalid UTF-8 or a lone surrogate escape,
// which become U+FFFD, as the reference decodes them: the output is the
// same on every path (raw values copied whole are valid: the scanner
// checked them).
func (d *Decoder) appendString(dst []byte, raw []byte) []byte {
	if end, _, ok := scanString(raw, 1); ok && end == len(raw) {
		return append(dst, raw...)
	}
	s, _ := jsontext.AppendUnquote(d.scratch[:0], raw)
	d.scratch = s
	dst, _ = jsontext.AppendQuote(dst, s)
	return dst
}

// scalarValue converts a literal to the reference's Go value.
func (d *Decoder) scalarValue(raw jsontext.Value) any {
	switch raw[0] {
	case 'n':
		return nil
	case 't':
		return true
	case 'f':
		return false
	case '"':
		inner := raw[1 : len(raw)-1]
		if bytes.IndexByte(inner, '\\') < 0 && (!d.cfg.invalidUTF8 || utf8.Valid(inner)) {
			return string(inner)
		}
		s, _ := jsontext.AppendUnquote(d.scratch[:0], raw)
		d.scratch = s
		return string(s)
	}
	v, _ := jsonvalue.ParseNumber(raw) // overflow is checked and reported separately
	return v
}

// checkNumber reports, as the reference's map decoding does, a number that
// a float64 cannot hold (1e400): a fatal error.
func (d *Decoder) checkNumber(raw []byte, offset int64) {
	if len(raw) < 309 {
		i := 0
		for i < len(raw) && raw[i] != 'e' && raw[i] != 'E' {
			i++
		}
		if i == len(raw) {
			return // fewer than 309 digits and no exponent: it fits
		}
	}
	if _, err := strconv.ParseFloat(string(raw), 64); err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			f, _ := strconv.ParseFloat(string(raw), 64)
			if f > 1 || f < -1 { // overflow; underflow to 0 is fine
				d.setFatal(rankNumber, &jperrors.DecodeError{Offset: offset,
					Msg: fmt.Sprintf("json: cannot unmarshal number %s into Go value of type float64", raw)})
			}
		}
	}
}

// checkNumbers runs checkNumber on every number of a raw value, the last
// one read; the scanner has told (tbig) whether it holds any to check.
func (d *Decoder) checkNumbers(raw []byte, base int64) {
	if d.scanning && !d.sc.big {
		return
	}
	// quick exit: no e or E right after a digit (an exponent) anywhere, and
	// too short for a 309-digit number
	if len(raw) < 309 && !digitThenE(raw) {
		return
	}
	inString, escaped := false, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if c == '"' {
			inString = true
			continue
		}
		if c == '-' || (c >= '0' && c <= '9') {
			j := i
			for j < len(raw) && (raw[j] == '-' || raw[j] == '+' || raw[j] == '.' || raw[j] == 'e' || raw[j] == 'E' || (raw[j] >= '0' && raw[j] <= '9')) {
				j++
			}
			d.checkNumber(raw[i:j], base+int64(i))
			i = j - 1
		}
	}
}

// unquoteName returns the decoded name of a raw member name.
func (d *Decoder) unquoteName(raw jsontext.Value) []byte {
	name, _ := d.unquoteNameIn(raw)
	return name
}

// unquoteNameIn is unquoteName, also reporting whether the name is a slice
// of raw (no escapes to resolve) rather than of d.scratch.
func (d *Decoder) unquoteNameIn(raw jsontext.Value) ([]byte, bool) {
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 && (!d.cfg.invalidUTF8 || utf8.Valid(inner)) {
		return inner, true
	}
	s, _ := jsontext.AppendUnquote(d.scratch[:0], raw)
	d.scratch = s
	return s, false
}

// nullState is the state whose nullable/default decide a null member.
func nullState(p *schemaauto.Prop) schemaauto.StateID {
	if p.Role != schemaauto.RoleProperty {
		return p.Declared
	}
	return p.Target
}

// isSchema reports whether s is a schema node (not a nil-schema state).
func isSchema(s schemaauto.StateID) bool { return s > schemaauto.Keep }

// checkRawDepth checks, for a MaxDepth below jsontext's own limit, that a
// value jsontext read whole does not nest deeper than allowed below the
// current depth (the scanner checks this as it reads).
func (d *Decoder) checkRawDepth(raw []byte) error {
	if d.scanning || d.cfg.maxDepth >= DefaultMaxDepth || d.depth+len(raw) <= d.cfg.maxDepth {
		return nil
	}
	depth, deepest, inString := d.depth, d.depth, false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	if deepest > d.cfg.maxDepth {
		return errDeep
	}
	return nil
}

func (d *Decoder) enter() error {
	d.depth++
	if d.depth > d.cfg.maxDepth {
		return &jperrors.DecodeError{Offset: d.offset() - 1, Msg: fmt.Sprintf("exceeded max depth of %d", d.cfg.maxDepth)}
	}
	return nil
}

// object decodes an object in state s.
func (d *Decoder) object(s schemaauto.StateID, discard bool) (any, error) {
	if !d.scanning || !d.sc.open() {
		if _, err := d.readToken(); err != nil {
			return nil, err
		}
	}
	if err := d.enter(); err != nil {
		return nil, err
	}
	a := d.a
	st := a.State(s)
	props := a.Props(s)
	root := d.depth == 1
	if discard {
		props = nil
	}
	write := !discard && d.out == outBytes
	var m map[string]any
	if !discard && d.out == outMap {
		m = make(map[string]any)
	}
	if write {
		d.buf = append(d.buf, '{')
	}
	objStart := d.outPos()
	defaults := !discard && !d.cfg.noDefaults && st.Flags&schemaauto.DefaultsProps != 0
	seenBase := len(d.seenBits)
	if defaults || d.ownDups || d.scanning {
		for range (len(props) + 63) / 64 {
			d.seenBits = append(d.seenBits, 0)
		}
	}
	namesBase, seenNamesBase, membersBase := len(d.objNames), len(d.seenNames), len(d.members)
	prunesNulls := a.Prunes() && !d.cfg.noNullPruning
	var wide nameSet // the names of a wide object

	// the fast lane for declared properties (below): on the fast path,
	// writing bytes, below the root (whose members feed the pre-scan), not
	// streaming (whose names are copied)
	lane := d.scanning && write && !root && d.sink == nil

	// one path segment for the members, set for each
	top, namesMark := len(d.path), len(d.names)
	d.path = append(d.path, jperrors.Segment{Kind: jperrors.Key})
	for {
		var rawName jsontext.Value
		var err error
		if d.scanning {
			if rawName, err = d.sc.readName(); rawName == nil && err == nil {
				break
			}
		} else if d.peek() == '}' {
			break
		} else {
			rawName, err = d.readValue()
		}
		if err != nil {
			return nil, err
		}
		var name []byte
		var inRaw bool
		if d.scanning && !d.sc.esc {
			name, inRaw = rawName[1:len(rawName)-1], true
		} else {
			name, inRaw = d.unquoteNameIn(rawName)
		}
		// the name's offset, computed when needed (before its value is read)
		nameOff := int64(-1)
		if root {
			nameOff = d.nameStart(rawName)
		}
		idx := -1
		var p *schemaauto.Prop
		if len(props) > 0 {
			if idx = a.Lookup(s, name); idx >= 0 {
				p = &props[idx]
			}
		}
		if lane && inRaw && p != nil && p.Role == schemaauto.RoleProperty && d.sc.at < len(d.sc.doc) {
			// the usual member: a declared property whose value is not
			// null, in an object below the root, written as bytes on the
			// fast path; what the steps below would do, without the cases
			// that cannot arise here
			if vk := tokenKind[d.sc.doc[d.sc.at]]; vk != 'n' && vk != 0 {
				w, bit := &d.seenBits[seenBase+idx/64], uint64(1)<<(idx%64)
				if *w&bit != 0 {
					return nil, errDuplicate
				}
				*w |= bit
				d.path[top] = jperrors.Segment{Kind: jperrors.Key, Name: name}
				if d.outPos() > objStart {
					d.buf = append(d.buf, ',')
				}
				d.buf = append(d.buf, rawName...)
				d.buf = append(d.buf, ':')
				if _, err := d.valueKind(p.Target, vk, false); err != nil {
					return nil, err
				}
				continue
			}
		}
		kind := jperrors.Key
		target := schemaauto.NoState
		switch {
		case discard:
		case p != nil:
			target = p.Target
		case st.Additional != schemaauto.NoState:
			target, kind = st.Additional, jperrors.MapKey
		case st.Flags&schemaauto.Preserve != 0:
			target = schemaauto.Keep
		}
		// an unescaped name is a slice of the document, stable while it is
		// decoded; an escaped one lives in d.scratch and is copied, as is
		// every name read from a reader (jsontext reuses its buffer)
		if !inRaw || d.src != nil || d.sink != nil {
			d.names = append(d.names[:namesMark], name...)
			name = d.names[namesMark:len(d.names):len(d.names)]
		}
		d.path[top] = jperrors.Segment{Kind: kind, Name: name}
		if d.sink != nil && !d.cfg.invalidUTF8 {
			d.rawName = append(d.rawName[:0], rawName...)
			rawName = d.rawName
		}

		// root members named apiVersion or kind in any case feed the
		// reference's version/kind pre-scan; a string value is read here
		var pre jsontext.Value
		var str []byte
		if root && (len(name) == len("apiVersion") || len(name) == len("kind")) {
			k := d.peek()
			if k == '"' && (bytes.EqualFold(name, []byte("apiVersion")) || bytes.EqualFold(name, []byte("kind"))) {
				if pre, err = d.readValue(); err != nil {
					return nil, err
				}
				str = d.unquoteName(pre)
			}
			d.noteRootName(name, k, str, nameOff)
		}

		// duplicates (slow path): the last value wins
		dup := false
		if d.ownDups {
			dup = d.seenBefore(idx, name, seenBase, namesBase, &wide)
			if dup {
				if nameOff < 0 {
					nameOff = d.nameStart(rawName)
				}
				d.record(groupDup, jperrors.DuplicateField, nameOff)
				if root && d.head != nil && (string(name) == "apiVersion" || string(name) == "kind") {
					d.streamedTypeMeta(name, str, nameOff)
				}
				d.retract(idx, name, membersBase, write)
				if m != nil {
					delete(m, string(name))
				}
			}
		} else if d.scanning && d.seenBefore(idx, name, seenBase, namesBase, &wide) {
			return nil, errDuplicate
		}
		if idx >= 0 && (defaults || d.ownDups || d.scanning) {
			d.seenBits[seenBase+idx/64] |= 1 << (idx % 64)
		}

		if target == schemaauto.NoState {
			// pruned (or inside a pruned subtree)
			if !discard && !dup {
				if nameOff < 0 {
					nameOff = d.nameStart(rawName)
				}
				d.record(groupPrune, jperrors.UnknownField, nameOff)
			}
			if pre == nil {
				if _, err := d.value(schemaauto.Keep, true); err != nil {
					return nil, err
				}
			}
			continue
		}

		memberStart := d.outPos()
		var mrec member
		if d.ownDups {
			mrec = member{prop: idx, start: memberStart}
			mrec.fatals[0] = int32(len(d.fatals))
			for g := range numGroups {
				mrec.recs[g][0] = int32(len(d.recs[g]))
			}
		}
		if write {
			if d.outPos() > objStart {
				d.buf = append(d.buf, ',')
			}
			if d.cfg.invalidUTF8 {
				d.buf = d.appendString(d.buf, rawName)
			} else {
				d.buf = append(d.buf, rawName...)
			}
			d.buf = append(d.buf, ':')
		}

		var v any
		var vk jsontext.Kind // the value's kind, peeked once
		if d.scanning && pre == nil && d.sc.at < len(d.sc.doc) {
			vk = tokenKind[d.sc.doc[d.sc.at]] // sreadName stopped at the value
		}
		keep := true
		role := schemaauto.RoleProperty
		if p != nil {
			role = p.Role
		}
		switch {
		case role == schemaauto.RoleMetadata:
			v, keep, err = d.metadata(p, root, prunesNulls, write)
		case pre == nil && d.peekKind(&vk) == 'n':
			v, keep, err = d.null(p, target, prunesNulls, write)
			if keep && !root && (role == schemaauto.RoleAPIVersion || role == schemaauto.RoleKind) {
				// the coercion of an embedded resource: null is not a string
				d.setFatal(rankCoerce, &jperrors.DecodeError{Offset: d.offset(), Pointer: string(d.appendPointer(nil)),
					Msg: (&jperrors.FieldError{Type: jperrors.FieldInvalid, Field: d.fieldPath(), BadValue: nil, Detail: "must be a string"}).Error()})
			}
		case role == schemaauto.RoleAPIVersion || role == schemaauto.RoleKind:
			v, keep, err = d.typeMeta(p, root, pre, prunesNulls, write)
		case pre != nil:
			v, err = d.scalar(pre, false)
		default:
			v, err = d.valueKind(target, d.peekKind(&vk), false)
		}
		if err != nil {
			return nil, err
		}
		if !keep {
			d.truncate(memberStart)
		} else {
			if m != nil {
				m[string(name)] = v
			}
			if d.ownDups {
				mrec.name, mrec.end = d.lastName32(idx, dup, namesBase), d.outPos()
				for g := range numGroups {
					mrec.recs[g][1] = int32(len(d.recs[g]))
				}
				mrec.fatals[1] = int32(len(d.fatals))
				d.members = append(d.members, mrec)
			}
		}
		if d.sink != nil && len(d.buf) >= d.flushAt {
			if err := d.flush(); err != nil {
				return nil, err
			}
		}
	}
	d.path, d.names = d.path[:top], d.names[:namesMark]
	if d.scanning {
		d.sc.close() // sreadName found it
	} else if _, err := d.readToken(); err != nil {
		return nil, err
	}
	if defaults {
		d.addDefaults(s, props, seenBase, objStart, m)
	}
	if write {
		d.buf = append(d.buf, '}')
	}
	d.seenBits = d.seenBits[:seenBase]
	d.objNames, d.seenNames, d.members = d.objNames[:namesBase], d.seenNames[:seenNamesBase], d.members[:membersBase]
	if wide.size > 0 {
		d.setSlots = d.setSlots[:wide.base]
	}
	d.depth--
	if m == nil {
		return nil, nil
	}
	return m, nil
}

// null decodes a null member: the reference prunes it when its schema is
// neither nullable nor defaulted, and replaces it by the default when its
// schema is not nullable but defaulted.
func (d *Decoder) null(p *schemaauto.Prop, target schemaauto.StateID, prunesNulls, write bool) (any, bool, error) {
	if _, err := d.readValue(); err != nil {
		return nil, false, err
	}
	ns := target
	if p != nil {
		ns = nullState(p)
	}
	if isSchema(ns) {
		nst := d.a.State(ns)
		nullable := nst.Flags&schemaauto.Nullable != 0
		hasDefault := nst.Default >= 0
		if !nullable && !hasDefault && prunesNulls {
			return nil, false, nil
		}
		if !nullable && hasDefault && !d.cfg.noDefaults {
			return d.emitDefault(ns, write), true, nil
		}
	}
	if write {
		d.buf = append(d.buf, "null"...)
	}
	return nil, true, nil
}

// emitDefault writes (or returns, for map output) the default of state s.
func (d *Decoder) emitDefault(s schemaauto.StateID, write bool) any {
	v, j, _ := d.a.Default(s)
	if write {
		d.buf = append(d.buf, j...)
	}
	if d.out == outMap {
		return jsonvalue.DeepCopy(v)
	}
	return nil
}

// addDefaults adds, at the end of an object, every defaulted property that
// was absent.
func (d *Decoder) addDefaults(s schemaauto.StateID, props []schemaauto.Prop, seenBase, objStart int, m map[string]any) {
	for i := range props {
		if d.seenBits[seenBase+i/64]&(1<<(i%64)) != 0 {
			continue
		}
		ns := nullState(&props[i])
		if !isSchema(ns) || d.a.State(ns).Default < 0 {
			continue
		}
		switch d.out {
		case outBytes:
			if d.outPos() > objStart {
				d.buf = append(d.buf, ',')
			}
			d.buf = appendQuotedName(d.buf, props[i].Name)
			d.buf = append(d.buf, ':')
			d.emitDefault(ns, true)
		case outMap:
			m[props[i].Name] = d.emitDefault(ns, false)
		}
	}
}

// typeMeta decodes apiVersion or kind of an embedded resource or the root:
// kept verbatim; in an embedded resource it must be a string (the
// reference's coercion, a fatal error otherwise).
func (d *Decoder) typeMeta(p *schemaauto.Prop, root bool, pre jsontext.Value, prunesNulls, write bool) (any, bool, error) {
	if pre != nil {
		v, err := d.scalar(pre, false)
		return v, true, err
	}
	k := d.peek()
	if k == '"' {
		v, err := d.value(schemaauto.Keep, false)
		return v, true, err
	}
	if root {
		v, err := d.value(schemaauto.Keep, false)
		return v, true, err
	}
	v, err := d.readAny()
	if err != nil {
		return nil, false, err
	}
	// at the value
	d.setFatal(rankCoerce, &jperrors.DecodeError{Offset: d.anyStart, Pointer: string(d.appendPointer(nil)),
		Msg: (&jperrors.FieldError{Type: jperrors.FieldInvalid, Field: d.fieldPath(), BadValue: v, Detail: "must be a string"}).Error()})
	return v, true, nil
}

// seenBefore reports whether the member name (property idx) occurred
// earlier in the current object, and remembers it.
//
// Names are compared one by one while an object has few; a wide object
// (more than wideObject names) gets a set, so that the check stays linear.
func (d *Decoder) seenBefore(idx int, name []byte, seenBase, namesBase int, wide *nameSet) bool {
	if idx >= 0 {
		return d.seenBits[seenBase+idx/64]&(1<<(idx%64)) != 0
	}
	slot := 0
	if wide.size > 0 {
		var found bool
		if slot, found = d.setFind(wide, name); found {
			return true
		}
	} else {
		for _, sp := range d.objNames[namesBase:] {
			if bytes.Equal(d.seenNames[sp.start:sp.end], name) {
				return true
			}
		}
	}
	start := int32(len(d.seenNames))
	d.seenNames = append(d.seenNames, name...)
	d.objNames = append(d.objNames, nameSpan{start, int32(len(d.seenNames))})
	switch {
	case wide.size > 0:
		d.setSlots[wide.base+slot] = int32(len(d.objNames) - 1)
		if wide.n++; 2*wide.n > wide.size {
			d.setBuild(wide, namesBase, 2*wide.size)
		}
	case len(d.objNames)-namesBase > wideObject:
		wide.base = len(d.setSlots)
		d.setBuild(wide, namesBase, 4*wideObject)
	}
	return false
}

// wideObject is the number of names from which the duplicate check uses
// a set.
const wideObject = 32

// nameSet is the set of a wide object's names: an open-addressing table,
// d.setSlots[base:base+size], of indexes into d.objNames (-1: empty), at
// most half full. The tables of the open objects are stacked in
// d.setSlots (an object's is on top while it adds names), so a set costs
// no allocation in steady state.
type nameSet struct{ base, size, n int }

// setFind finds name in w: its slot, or the empty slot where it goes.
func (d *Decoder) setFind(w *nameSet, name []byte) (int, bool) {
	mask := uint64(w.size - 1)
	for i := maphash.Bytes(d.seed, name) & mask; ; i = (i + 1) & mask {
		v := d.setSlots[w.base+int(i)]
		if v < 0 {
			return int(i), false
		}
		if sp := d.objNames[v]; bytes.Equal(d.seenNames[sp.start:sp.end], name) {
			return int(i), true
		}
	}
}

// setBuild (re)builds w with size slots (a power of two) on top of
// d.setSlots, from the object's names.
func (d *Decoder) setBuild(w *nameSet, namesBase, size int) {
	d.setSlots = d.setSlots[:w.base]
	for range size {
		d.setSlots = append(d.setSlots, -1)
	}
	w.size, w.n = size, 0
	for k := namesBase; k < len(d.objNames); k++ {
		sp := d.objNames[k]
		if slot, found := d.setFind(w, d.seenNames[sp.start:sp.end]); !found {
			d.setSlots[w.base+slot] = int32(k)
			w.n++
		}
	}
}

// lastName32 returns the span of the non-property name just seen: the last
// one seenBefore added (a duplicate's name is found by comparison instead).
func (d *Decoder) lastName32(idx int, dup bool, namesBase int) nameSpan {
	if idx >= 0 || len(d.objNames) == namesBase {
		return nameSpan{}
	}
	if !dup {
		return d.objNames[len(d.objNames)-1]
	}
	name := d.lastName()
	for _, sp := range d.objNames[namesBase:] {
		if bytes.Equal(d.seenNames[sp.start:sp.end], name) {
			return sp
		}
	}
	return nameSpan{}
}

// retract undoes the earlier occurrence of a duplicated member, so that the
// last value wins: its bytes leave the output (the output has each name
// once), and the findings and fatal errors its value raised are dropped,
// as the reference never decodes that value into the object. Duplicate
// findings inside it stay: the reference's JSON decoder reports them.
func (d *Decoder) retract(idx int, name []byte, membersBase int, write bool) {
	for i := membersBase; i < len(d.members); i++ {
		mb := d.members[i]
		same := (idx >= 0 && mb.prop == idx) || (idx < 0 && mb.prop < 0 && bytes.Equal(d.seenNames[mb.name.start:mb.name.end], name))
		if !same {
			continue
		}
		for g := range numGroups {
			if g == groupDup {
				continue
			}
			lo, hi := mb.recs[g][0], mb.recs[g][1]
			if n := hi - lo; n > 0 {
				d.recs[g] = append(d.recs[g][:lo], d.recs[g][hi:]...)
				for j := i + 1; j < len(d.members); j++ {
					d.members[j].recs[g][0] -= n
					d.members[j].recs[g][1] -= n
				}
			}
		}
		// fatal errors raised inside the discarded value go too (those of
		// the root metadata and of embedded resources; a number too large
		// for float64 is fatal wherever it is, and stays)
		lo, hi := mb.fatals[0], mb.fatals[1]
		kept := d.fatals[:lo]
		for _, f := range d.fatals[lo:hi] {
			if f.rank != rankRootMeta && f.rank != rankCoerce {
				kept = append(kept, f)
			}
		}
		removed := hi - lo - (int32(len(kept)) - lo)
		d.fatals = append(kept, d.fatals[hi:]...)
		for j := i + 1; j < len(d.members); j++ {
			d.members[j].fatals[0] -= removed
			d.members[j].fatals[1] -= removed
		}
		d.members = append(d.members[:i], d.members[i+1:]...)
		if write && mb.start < d.flushed {
			// written out already (PruneReader): it stays, and the last
			// value follows it
			return
		}
		cs, ce := mb.start-d.flushed, mb.end-d.flushed
		if write {
			if d.buf[cs] != ',' && ce < len(d.buf) && d.buf[ce] == ',' {
				ce++ // the first member: drop the comma after it
			}
			d.buf = append(d.buf[:cs], d.buf[ce:]...)
		}
		n := ce - cs
		cs, ce = cs+d.flushed, ce+d.flushed
		for j := i; j < len(d.members); j++ {
			if write && d.members[j].start < ce {
				d.members[j].start = cs // its leading comma was cut
			} else {
				d.members[j].start -= n
			}
			d.members[j].end -= n
		}
		return
	}
}

// array decodes an array in state s.
func (d *Decoder) array(s schemaauto.StateID, discard bool) (any, error) {
	if !d.scanning || !d.sc.open() {
		if _, err := d.readToken(); err != nil {
			return nil, err
		}
	}
	if err := d.enter(); err != nil {
		return nil, err
	}
	items := d.a.State(s).Items
	if items == schemaauto.NoState {
		items = schemaauto.Keep
	}
	write := !discard && d.out == outBytes
	var arr []any
	if !discard && d.out == outMap {
		arr = []any{}
	}
	if write {
		d.buf = append(d.buf, '[')
	}
	top := len(d.path)
	d.pushIndex(0)
	for i := 0; ; i++ {
		var k jsontext.Kind
		if d.scanning {
			k = d.sc.peekElem()
		} else {
			k = d.peek()
		}
		if k == ']' {
			break
		}
		d.path[top] = jperrors.Segment{Kind: jperrors.Index, Index: i}
		if write && i > 0 {
			d.buf = append(d.buf, ',')
		}
		var v any
		var err error
		if !discard && k == 'n' {
			v, _, err = d.nullElement(items, write)
		} else {
			v, err = d.valueKind(items, k, discard)
		}
		if err != nil {
			return nil, err
		}
		if arr != nil {
			arr = append(arr, v)
		}
		if d.sink != nil && len(d.buf) >= d.flushAt {
			if err := d.flush(); err != nil {
				return nil, err
			}
		}
	}
	d.path = d.path[:top]
	if d.scanning {
		d.sc.close() // speekElem found it
	} else if _, err := d.readToken(); err != nil {
		return nil, err
	}
	if write {
		d.buf = append(d.buf, ']')
	}
	d.depth--
	if arr == nil {
		return nil, nil
	}
	return arr, nil
}

// nullElement: null array elements are never pruned; defaulting replaces
// them by the items default when items is not nullable.
func (d *Decoder) nullElement(items schemaauto.StateID, write bool) (any, bool, error) {
	if _, err := d.readValue(); err != nil {
		return nil, false, err
	}
	if isSchema(items) && !d.cfg.noDefaults {
		if st := d.a.State(items); st.Flags&schemaauto.Nullable == 0 && st.Default >= 0 {
			return d.emitDefault(items, write), true, nil
		}
	}
	if write {
		d.buf = append(d.buf, "null"...)
	}
	return nil, true, nil
}

// peekKind peeks at the next kind once: *k caches it.
func (d *Decoder) peekKind(k *jsontext.Kind) jsontext.Kind {
	if *k == 0 {
		*k = d.peek()
	}
	return *k
}

// digitThenE reports whether raw has an 'e' or 'E' right after a digit,
// as a number's exponent has (words in strings rarely do).
func digitThenE(raw []byte) bool {
	for i := 1; i < len(raw); i++ {
		if c := raw[i]; (c == 'e' || c == 'E') && raw[i-1] >= '0' && raw[i-1] <= '9' {
			return true
		}
	}
	return false
}
