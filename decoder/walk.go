package decoder

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/fieldpath"
	"github.com/jsonprune/jsonprune/internal/jsonvalue"
	"github.com/jsonprune/jsonprune/internal/objectmeta"
	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/validate"
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
// The same walk serves every mode of reading (the table in doc.go): on the
// fast modes whole values may be copied or skipped as raw bytes (rawOK),
// and a duplicate name sends the document to the slow mode, which walks
// every value, reports each duplicate with its path and keeps the last
// value.

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
	if d.val.scaleCur != 0 && d.val.on && !discard && (k == '{' || k == '[') {
		kind := validate.Object
		if k == '[' {
			kind = validate.Array
		}
		if show := d.scaleValue(kind, nil); show != 0 {
			return d.scaleContainer(show, s, k)
		}
	}
	switch k {
	case '{', '[':
		return d.container(s, k, discard)
	case 0, '}', ']':
		_, err := d.readToken()
		return nil, err
	default:
		raw, err := d.readValue()
		if err != nil {
			return nil, err
		}
		if d.val.on && !discard {
			if isSchema(s) {
				d.validateScalar(s, raw)
			}
			if d.val.scaleCur != 0 {
				d.scaleValue(rawKind(raw), raw)
			}
		}
		return d.scalar(raw, discard)
	}
}

// container decodes an object or array (k) in state s.
func (d *Decoder) container(s schemaauto.StateID, k jsontext.Kind, discard bool) (any, error) {
	if d.rawOK(s, discard) {
		return nil, d.rawValue(discard)
	}
	if k == '{' {
		return d.object(s, discard)
	}
	return d.array(s, discard)
}

// rawOK reports whether a whole value can be handled as raw bytes: on the
// fast path, for a value kept verbatim or skipped, when no finding can come
// from inside it. A kept value with members that may lie at a scale path
// (validation of a version with a scale subresource, the value at a
// proper prefix of a path) is walked, for scaleValue to see them; a
// skipped one is pruned before the server reads the paths.
func (d *Decoder) rawOK(s schemaauto.StateID, discard bool) bool {
	return d.rawFast && (discard || (s == schemaauto.Keep && d.out != outMap && (d.val.scaleCur == 0 || d.offScale())))
}

// offScale reports whether an object at the current path, inside one on a
// scale path (valState.scaleCur), holds no value at any.
//
//go:noinline
func (d *Decoder) offScale() bool { return d.scaleChildOf(d.val.scaleCur) == 0 }

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
		if raw[0] == '"' && d.cfg.invalidUTF8 && !d.scanning { // the scanner reads valid strings only
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
// same on every path (the scanner reads valid strings only, and writes
// them without this check).
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
		if bytes.IndexByte(inner, '\\') < 0 && (!d.cfg.invalidUTF8 || d.scanning || utf8.Valid(inner)) {
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
	if jsonvalue.Overflows(raw) {
		d.setFatal(rankNumber, &jperrors.DecodeError{Offset: offset,
			Msg: fmt.Sprintf("json: cannot unmarshal number %s into Go value of type float64", raw)})
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
	if bytes.IndexByte(inner, '\\') < 0 && (!d.cfg.invalidUTF8 || d.scanning || utf8.Valid(inner)) {
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
	if d.depth+textDepth(raw) > d.cfg.maxDepth {
		return errDeep
	}
	return nil
}

// textDepth is the deepest nesting of brackets in a JSON text, strings
// skipped.
func textDepth(doc []byte) int {
	depth, deepest := 0, 0
	for i := 0; i < len(doc); i++ {
		switch doc[i] {
		case '"':
			i = stringEndUnchecked(doc, i+1) - 1
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}
	return deepest
}

func (d *Decoder) enter() error {
	d.depth++
	if d.depth > d.cfg.maxDepth {
		return d.tooDeep()
	}
	return nil
}

// tooDeep is enter's error (apart, so that enter is inlined).
func (d *Decoder) tooDeep() error {
	return &jperrors.DecodeError{Offset: d.offset() - 1, Msg: fmt.Sprintf("exceeded max depth of %d", d.cfg.maxDepth)}
}

// An object is decoded in steps, each on one screen: openObject sets up
// its frame; on the fast lane, at the root, takeTypeMeta (root.go) takes
// the apiVersion and kind the pre-scan read; on the fast lane, laneRun
// takes the members whose names are
// the ones lookup guesses, matching them in place; for each other member,
// readMember reads its name and looks it up among the declared
// properties; laneMember takes the usual member on the fast path; the
// others go through placeMember (where the value goes: a property, the
// additionalProperties state, Keep under preserve-unknown-fields, or
// nowhere: unknown; the path; the version/kind pre-scan), dupMember (the
// duplicate check), and then either skipMember (unknown: reported,
// skipped) or valueMember (written, decoded by role in memberByRole,
// recorded for a later duplicate); closeObject adds the defaults and cuts
// the frame's state back.

// objFrame is the state of one open object.
type objFrame struct {
	s        schemaauto.StateID
	st       *schemaauto.State
	props    []schemaauto.Prop // nil in a discarded subtree
	root     bool              // the document's root (its members feed the pre-scan)
	discard  bool              // in a pruned subtree: nothing is written
	write    bool              // bytes are written
	defaults bool              // absent defaulted properties are added at the end
	nulls    bool              // nulls of non-nullable fields without a default are pruned
	lane     bool              // the fast lane is open (laneMember)
	vframe   bool              // validation: the object has a frame in valState.frames (openValObject)
	// validation without a frame: the presence bits of the first 64
	// properties (keptMember), and those that are required
	keptLo, reqMask uint64
	m               map[string]any // map output
	objStart        int            // the output position after '{'
	off             int64          // the offset of '{' (validation)
	// validation without a frame of an object whose only checks are its
	// property counts: the members kept, and where its errors go
	vcounts   bool
	vn, vmark int
	// validation: closeValObject has more to do than compare the
	// presence bits (a frame, counts)
	vclose bool
	// validation: a member's value may be at a scale path (or at a prefix
	// of one), so it takes valueKind's step, not the lane's own string
	// (laneStringKept), object or array steps
	noStrLane bool
	scaleUp   uint8 // valState.scaleCur in the parent, restored at the close
	// where the frame's entries start on the shared stacks
	seenBase, namesBase, seenNamesBase, membersBase int
	wide                                            nameSet // the names of a wide object
	top                                             int     // the path segment of the members
	// the mark of the path names, cut back at each member
	namesMark int
	prev      uint32 // the last member's property index + 1, prevUnknown, 0 at the start (lookup's guesses)
}

// memberRead is the member being decoded: its name and where it goes.
type memberRead struct {
	rawName jsontext.Value
	name    []byte
	inRaw   bool  // name is a slice of rawName (no escapes)
	nameOff int64 // the name's offset, -1 until needed
	idx     int   // the declared property's index, or -1
	p       *schemaauto.Prop
	target  schemaauto.StateID // NoState: unknown
	kind    fieldpath.SegmentKind
	pre     jsontext.Value // a root apiVersion/kind string, read for the pre-scan
	str     []byte         // its unquoted value
	dup     bool           // a duplicate of an earlier member (slow path)
	// writtenOut: the earlier member stays in the output, PruneReader
	// having written it out already (retract)
	writtenOut bool
}

// object decodes an object in state s.
func (d *Decoder) object(s schemaauto.StateID, discard bool) (any, error) {
	var f objFrame
	if err := d.openObject(&f, s, discard); err != nil {
		return nil, err
	}
	if f.root && f.lane {
		d.takeTypeMeta(&f)
	}
	var mr memberRead // each step sets what it finds
	for {
		if f.lane {
			if err := d.laneRun(&f); err != nil {
				return nil, err
			}
		}
		if done, err := d.readMember(&f, &mr); done || err != nil {
			if err != nil {
				return nil, err
			}
			break
		}
		if f.lane && mr.inRaw && mr.p != nil && mr.p.Role == schemaauto.RoleProperty && laneName(&f, mr.p.Name) {
			if vk := d.sc.valueKind(); vk != 'n' && vk != 0 {
				if err := d.laneMember(&f, mr.idx, mr.rawName, vk); err != nil {
					return nil, err
				}
				continue
			}
		}
		if err := d.placeMember(&f, &mr); err != nil {
			return nil, err
		}
		d.dupMember(&f, &mr)
		if d.scanning && mr.dup {
			return nil, errDuplicate
		}
		var err error
		if mr.target == schemaauto.NoState {
			err = d.skipMember(&f, &mr)
		} else {
			err = d.valueMember(&f, &mr)
		}
		if err != nil {
			return nil, err
		}
		if d.strm.sink != nil && len(d.buf) >= d.strm.flushAt && d.val.holds == 0 {
			if err := d.flush(); err != nil {
				return nil, err
			}
		}
	}
	return d.closeObject(&f)
}

// openObject reads the '{' and sets up the object's frame.
func (d *Decoder) openObject(f *objFrame, s schemaauto.StateID, discard bool) error {
	if !d.scanning || !d.sc.open() {
		if _, err := d.readToken(); err != nil {
			return err
		}
	}
	if err := d.enter(); err != nil {
		return err
	}
	f.s, f.st, f.root, f.discard = s, d.a.State(s), d.depth == 1, discard
	if d.val.scaleCur != 0 { // on a scale path (validation); closeObject restores it
		f.scaleUp, d.val.scaleCur = d.val.scaleCur, 0
		if d.val.on && !discard { // not in a status a create drops, nor a pruned subtree
			d.val.scaleCur = d.scaleChildOf(f.scaleUp)
			f.noStrLane = d.val.scaleCur != 0
		}
	}
	if !discard {
		f.props = d.a.Props(s)
	}
	if d.val.on && !discard {
		f.off = d.openOffset()
		d.openValObject(f) // at the root, it sets up the scale paths (startScaleOf)
	}
	f.write = !discard && d.out == outBytes
	if !discard && d.out == outMap {
		f.m = make(map[string]any)
	}
	if f.write {
		d.buf = append(d.buf, '{')
	}
	f.objStart = d.outPos()
	f.defaults = !discard && !d.cfg.noDefaults && f.st.Flags&schemaauto.DefaultsProps != 0
	f.seenBase = len(d.dups.seenBits)
	if f.defaults || d.ownDups || d.scanning {
		d.dups.seenBits = append(d.dups.seenBits, make([]uint64, (len(f.props)+63)/64)...)
	}
	f.namesBase, f.seenNamesBase, f.membersBase = len(d.dups.objNames), len(d.dups.seenNames), len(d.dups.members)
	f.nulls = d.a.Prunes() && !d.cfg.noNullPruning
	// the fast lane: on the fast path, not in a discarded subtree; at the
	// root (whose apiVersion and kind, in any case, feed the pre-scan:
	// laneName) only without streams
	f.lane = d.scanning && !discard && (!f.root || d.strm.sink == nil && d.strm.head == nil)
	// one path segment for the members, set for each
	f.top, f.namesMark = len(d.find.path), len(d.find.names)
	d.find.path = append(d.find.path, fieldpath.Segment{Kind: fieldpath.Key})
	return nil
}

// readMember reads the next member's name and looks it up among the
// declared properties; done at the object's end.
func (d *Decoder) readMember(f *objFrame, mr *memberRead) (done bool, err error) {
	if d.scanning {
		if mr.rawName, err = d.sc.readName(); mr.rawName == nil || err != nil {
			return err == nil, err
		}
		mr.name, mr.inRaw = mr.rawName[1:len(mr.rawName)-1], true
		if d.sc.esc {
			mr.name, mr.inRaw = d.unquoteNameIn(mr.rawName)
		}
	} else {
		if d.peek() == '}' {
			return true, nil
		}
		if mr.rawName, err = d.readValue(); err != nil {
			return false, err
		}
		mr.name, mr.inRaw = d.unquoteNameIn(mr.rawName)
	}
	mr.nameOff, mr.idx, mr.p = -1, -1, nil
	if f.root {
		mr.nameOff = d.nameStart(mr.rawName)
	}
	if len(f.props) > 0 {
		if mr.idx = d.lookup(f, mr.name); mr.idx >= 0 {
			mr.p = &f.props[mr.idx]
		}
	}
	return false, nil
}

// lookup is Automaton.Lookup for the next member of the object f, which
// first tries the property that followed the same member (or the object's
// start) in an object of the same state last time: documents of a kind
// tend to spell their members in the same order, and an absent optional
// member puts the guesses after it out of step only once. Names are
// unique in a state, so a property of that name is the one Lookup finds.
func (d *Decoder) lookup(f *objFrame, name []byte) int {
	slot := d.guessSlot(f)
	if g := int(*slot) - 1; g >= 0 && g < len(f.props) && f.props[g].Name == string(name) {
		f.prev = uint32(g + 1)
		return g
	}
	i := d.a.Lookup(f.s, name)
	*slot = uint32(i + 1)
	f.prev = uint32(i + 1)
	if i < 0 {
		f.prev = prevUnknown
	}
	return i
}

// guessSlot is the slot of d.guesses for the next member of the object f:
// a hash of the automaton (guessSalt), the state and the member before.
func (d *Decoder) guessSlot(f *objFrame) *uint32 {
	h := uint32(f.s)*0x9E3779B1 + f.prev*0x85EBCA77 + d.guessSalt
	return &d.guesses[h>>(32-guessBits)]
}

// prevUnknown is objFrame.prev after a member that is not a property.
const prevUnknown = 1 << 31

// laneRun takes, one after the other, the members whose name is the one
// lookup would guess, when laneMember can decode them: the name is matched
// in place against the guessed property's (no scan of the name, no
// lookup). It stops, having read nothing of it, at the first member it
// cannot take so (another name, an escaped one, a null value, another
// role, the object's end), which readMember then reads as usual.
func (d *Decoder) laneRun(f *objFrame) error {
	for {
		g := int(*d.guessSlot(f)) - 1
		if g < 0 || g >= len(f.props) {
			return nil
		}
		p := &f.props[g]
		if !p.Plain || p.Role != schemaauto.RoleProperty || !laneName(f, p.Name) {
			return nil
		}
		start, at := d.sc.matchName(p)
		if at < 0 || at >= len(d.sc.doc) {
			return nil
		}
		vk := tokenKind[d.sc.doc[at]]
		if vk == 'n' || vk == 0 {
			return nil
		}
		d.sc.takeName(at)
		f.prev = uint32(g + 1)
		if err := d.laneMember(f, g, d.sc.doc[start:start+len(p.Name)+2], vk); err != nil {
			return err
		}
	}
}

// laneName reports whether a property of the object f may take the lane
// by its name: any below the root; at the root, not one that the pre-scan
// reads (apiVersion or kind in any case).
func laneName(f *objFrame, name string) bool {
	return !f.root || len(name) != len("apiVersion") && len(name) != len("kind") || !isTypeMetaName([]byte(name))
}

// laneMember decodes the usual member: the declared property idx (of the
// name rawName, without escapes) whose value (of kind vk) is not null, in
// an object of the lane (openObject), on the fast path. It does what the steps below
// would do, without the cases that cannot arise there.
func (d *Decoder) laneMember(f *objFrame, idx int, rawName []byte, vk jsontext.Kind) error {
	w, bit := &d.dups.seenBits[f.seenBase+int(uint(idx)/64)], uint64(1)<<(uint(idx)%64) // idx >= 0
	if *w&bit != 0 {
		return errDuplicate
	}
	*w |= bit
	if f.write {
		if d.outPos() > f.objStart {
			d.buf = append(d.buf, ',')
		}
		d.buf = append(d.buf, rawName...)
		d.buf = append(d.buf, ':')
	}
	if vk == '"' && f.m == nil && !f.noStrLane {
		// a string, kept as it is; nothing in it is found, so its path
		// is not needed
		raw, err := d.sc.readString()
		if f.write {
			d.buf = append(d.buf, raw...)
		}
		if d.val.on && err == nil {
			// validation's checks: none for the usual string, whose
			// property's flags pass every string: kept (as laneStringKept)
			if f.props[idx].ValueFlags()&anyString == anyString && !f.root {
				d.keptMember(f, idx, nil)
			} else {
				d.laneStringKept(f, idx, rawName, raw)
			}
		}
		return err
	}
	name := rawName[1 : len(rawName)-1]
	d.find.path[f.top] = fieldpath.Segment{Kind: fieldpath.Key, Name: name}
	target := f.props[idx].Target
	if d.val.on {
		if f.root && d.rootStatusDropped(name) {
			return d.laneDroppedStatus(f, name, target, vk)
		}
		d.memberHint(f, idx, target)
	}
	var v any
	var err error
	switch {
	case vk == '{' && !f.noStrLane && target != schemaauto.Keep: // as valueKind would
		v, err = d.object(target, false)
	case vk == '[' && !f.noStrLane && target != schemaauto.Keep:
		v, err = d.array(target, false)
	default:
		v, err = d.valueKind(target, vk, false)
	}
	if f.m != nil {
		f.m[string(name)] = v
	}
	if d.val.on && err == nil { // on an error the value's frames are not closed
		d.keptMember(f, idx, nil)
	}
	return err
}

// placeMember finds where the member's value goes (a property, the
// additionalProperties state, Keep under preserve-unknown-fields, or
// nowhere: unknown), puts its name on the path, and feeds a root member
// named apiVersion or kind in any case to the reference's version/kind
// pre-scan (a string value is read here).
//
// An unescaped name is a slice of the document, stable while it is
// decoded; an escaped one lives in d.scratch and is copied, as is every
// name read from a reader (jsontext reuses its buffer).
func (d *Decoder) placeMember(f *objFrame, mr *memberRead) error {
	mr.kind, mr.target = fieldpath.Key, schemaauto.NoState
	switch {
	case f.discard:
	case mr.p != nil:
		mr.target = mr.p.Target
	case f.st.Additional != schemaauto.NoState:
		mr.target, mr.kind = f.st.Additional, fieldpath.MapKey
	case f.st.Flags&schemaauto.Preserve != 0:
		mr.target = schemaauto.Keep
	}
	if !mr.inRaw || d.src != nil || d.strm.sink != nil {
		d.find.names = append(d.find.names[:f.namesMark], mr.name...)
		mr.name = d.find.names[f.namesMark:len(d.find.names):len(d.find.names)]
	}
	d.find.path[f.top] = fieldpath.Segment{Kind: mr.kind, Name: mr.name}
	if d.strm.sink != nil && !d.cfg.invalidUTF8 {
		d.strm.rawName = append(d.strm.rawName[:0], mr.rawName...)
		mr.rawName = d.strm.rawName
	}
	mr.pre, mr.str = nil, nil
	if !f.root || len(mr.name) != len("apiVersion") && len(mr.name) != len("kind") || !isTypeMetaName(mr.name) {
		return nil // the pre-scan reads no other member (spec, data)
	}
	k := d.peek()
	if k == '"' {
		var err error
		if mr.pre, err = d.readValue(); err != nil {
			return err
		}
		if d.scanning && !d.sc.esc {
			mr.str = mr.pre[1 : len(mr.pre)-1] // as unquoteName: the scanner read valid UTF-8
		} else {
			mr.str = d.unquoteName(mr.pre)
		}
	}
	d.noteRootName(mr.name, k, mr.str, mr.nameOff)
	return nil
}

// isTypeMetaName reports whether a root member's name is apiVersion or
// kind ignoring case, as the reference's pre-scan matches them; the exact
// names first.
func isTypeMetaName(name []byte) bool {
	return string(name) == "apiVersion" || string(name) == "kind" ||
		bytes.EqualFold(name, []byte("apiVersion")) || bytes.EqualFold(name, []byte("kind"))
}

// dupMember checks whether the member repeats an earlier one. On the slow
// path a duplicate is reported and the earlier member retracted: the last
// value wins. On the fast path mr.dup sends the document to the slow path.
func (d *Decoder) dupMember(f *objFrame, mr *memberRead) {
	mr.dup, mr.writtenOut = false, false
	if d.ownDups || d.scanning { // else jsontext refuses duplicates
		mr.dup = d.seenBefore(mr.idx, mr.name, f.seenBase, f.namesBase, &f.wide)
	}
	if mr.idx >= 0 && (f.defaults || d.ownDups || d.scanning) {
		d.dups.seenBits[f.seenBase+mr.idx/64] |= 1 << (mr.idx % 64) // defaults read it too
	}
	if !mr.dup || !d.ownDups {
		return
	}
	if mr.nameOff < 0 {
		mr.nameOff = d.nameStart(mr.rawName)
	}
	d.record(groupDup, jperrors.DuplicateField, mr.nameOff)
	if f.root && d.strm.head != nil && (string(mr.name) == "apiVersion" || string(mr.name) == "kind") {
		d.streamedTypeMeta(mr.name, mr.str, mr.nameOff)
	}
	mr.writtenOut = d.retract(mr.idx, mr.name, f.membersBase, f.write, f)
	if f.m != nil {
		delete(f.m, string(mr.name))
	}
}

// skipMember reports an unknown member (unless in a pruned subtree, or a
// duplicate, reported already) and skips its value.
func (d *Decoder) skipMember(f *objFrame, mr *memberRead) error {
	if !f.discard && !mr.dup {
		if mr.nameOff < 0 {
			mr.nameOff = d.nameStart(mr.rawName)
		}
		d.record(groupPrune, jperrors.UnknownField, mr.nameOff)
	}
	if mr.pre != nil {
		return nil // read by preMember
	}
	_, err := d.value(schemaauto.Keep, true)
	return err
}

// valueMember writes the member's name and decodes its value by the
// property's role; on the slow path it records the member, for a later
// duplicate to retract.
func (d *Decoder) valueMember(f *objFrame, mr *memberRead) error {
	memberStart := d.outPos()
	var rec member
	if d.ownDups {
		rec = member{prop: mr.idx, start: memberStart}
		rec.fatals[0] = int32(len(d.fatals))
		rec.vals[0] = int32(len(d.val.errs))
		for g := range numGroups {
			rec.recs[g][0] = int32(len(d.find.recs[g]))
		}
	}
	if f.write {
		if d.outPos() > f.objStart {
			d.buf = append(d.buf, ',')
		}
		if d.cfg.invalidUTF8 && !d.scanning {
			d.buf = d.appendString(d.buf, mr.rawName)
		} else {
			d.buf = append(d.buf, mr.rawName...)
		}
		d.buf = append(d.buf, ':')
	}
	validating := d.val.on
	if validating && mr.kind == fieldpath.MapKey && mr.nameOff < 0 {
		mr.nameOff = d.nameStart(mr.rawName) // before the value is read
	}
	if validating && f.root && d.statusDropped(mr.name) {
		d.val.on = false // a create drops it before validation
	}
	v, keep, err := d.memberByRole(f, mr)
	skipVal := validating && !d.val.on
	d.val.on = validating
	if err != nil {
		return err
	}
	if !keep {
		d.truncate(memberStart)
		if mr.writtenOut {
			d.prunedAfterWritten(mr)
		}
		return nil
	}
	if f.m != nil {
		f.m[string(mr.name)] = v
	}
	if d.val.on && !f.discard && !skipVal {
		d.keptMember(f, mr.idx, mr.name)
		if mr.kind == fieldpath.MapKey {
			d.forbiddenMember(mr.name, mr.nameOff)
		}
	}
	if d.ownDups {
		rec.name, rec.end = d.lastName32(mr.idx, mr.dup, f.namesBase), d.outPos()
		for g := range numGroups {
			rec.recs[g][1] = int32(len(d.find.recs[g]))
		}
		rec.fatals[1] = int32(len(d.fatals))
		rec.vals[1] = int32(len(d.val.errs))
		d.dups.members = append(d.dups.members, rec)
	}
	return nil
}

// memberByRole decodes a member's value as its role asks: ObjectMeta, a
// null (pruned, defaulted or kept), apiVersion/kind, or a value in its
// target state. keep: the member stays in the object.
func (d *Decoder) memberByRole(f *objFrame, mr *memberRead) (v any, keep bool, err error) {
	var vk jsontext.Kind // the value's kind, peeked once
	if d.scanning && mr.pre == nil {
		vk = d.sc.valueKind() // readName stopped at the value
	}
	role := schemaauto.RoleProperty
	if mr.p != nil {
		role = mr.p.Role
	}
	switch {
	case role == schemaauto.RoleMetadata:
		if !d.val.on || f.discard {
			return d.metadata(mr.p, f.root, f.nulls, f.write)
		}
		if f.root && d.quickMetadata(mr, f.write) {
			return nil, true, nil
		}
		// validation reads the normalised metadata: it is written, and
		// cut again when the output does not want it
		start := len(d.buf)
		if mr.nameOff < 0 {
			mr.nameOff = d.nameStart(mr.rawName)
		}
		v, keep, err = d.metadata(mr.p, f.root, f.nulls, true)
		if err == nil && keep {
			var spans *objectmeta.FieldSpans // its fields, where the fast path wrote them
			if d.meta.indexed {
				spans = &d.meta.spans
			}
			if f.root { // as validateMetadata, without its call
				d.validateRootMetadata(d.buf[start:], spans, mr.nameOff) // located at its name
			} else {
				d.validateEmbeddedMetadata(mr.p, d.buf[start:], spans, mr.nameOff)
			}
		}
		if !f.write {
			d.buf = d.buf[:start]
		}
		return v, keep, err
	case mr.pre == nil && d.peekKind(&vk) == 'n':
		v, keep, err = d.null(mr.p, mr.target, f.nulls, f.write)
		if keep && !f.root && (role == schemaauto.RoleAPIVersion || role == schemaauto.RoleKind) {
			// the coercion of an embedded resource: null is not a string
			d.setFatal(rankCoerce, &jperrors.DecodeError{Offset: d.offset(), Pointer: string(d.appendPointer(nil)),
				Msg: (&jperrors.FieldError{Type: jperrors.FieldInvalid, Field: d.fieldPath(), BadValue: nil, Detail: "must be a string"}).Error()})
		}
		return v, keep, err
	case role == schemaauto.RoleAPIVersion || role == schemaauto.RoleKind:
		if d.val.on && !f.discard {
			d.memberHint(f, mr.idx, mr.p.Declared) // its flags: the declared state's
		}
		return d.typeMeta(mr.p, f.root, mr.pre, f.nulls, f.write)
	case mr.pre != nil:
		v, err = d.scalar(mr.pre, false)
	default:
		if d.val.on && mr.p != nil {
			d.memberHint(f, mr.idx, mr.target)
		}
		v, err = d.valueKind(mr.target, d.peekKind(&vk), false)
	}
	return v, true, err
}

// closeObject reads the '}', adds the absent defaulted properties and cuts
// the frame's state back.
func (d *Decoder) closeObject(f *objFrame) (any, error) {
	d.find.path, d.find.names = d.find.path[:f.top], d.find.names[:f.namesMark]
	d.val.scaleCur = f.scaleUp
	if d.scanning {
		d.sc.close() // readName found it
	} else if _, err := d.readToken(); err != nil {
		return nil, err
	}
	if f.defaults {
		d.addDefaults(f)
	}
	if f.write {
		d.buf = append(d.buf, '}')
	}
	if d.val.on && !f.discard {
		d.closeValObject(f)
	}
	d.dups.seenBits = d.dups.seenBits[:f.seenBase]
	d.dups.objNames, d.dups.seenNames, d.dups.members = d.dups.objNames[:f.namesBase], d.dups.seenNames[:f.seenNamesBase], d.dups.members[:f.membersBase]
	if f.wide.size > 0 {
		d.dups.setSlots = d.dups.setSlots[:f.wide.base]
	}
	d.depth--
	if f.m == nil {
		return nil, nil
	}
	return f.m, nil
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
		if d.val.on {
			d.validateScalar(ns, nullLiteral)
		}
	}
	if d.val.scaleCur != 0 {
		d.scaleValue(validate.Null, nil)
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
func (d *Decoder) addDefaults(f *objFrame) {
	props, seenBase, objStart, m := f.props, f.seenBase, f.objStart, f.m
	for _, di := range d.a.Defaulted(f.s) {
		i := int(di)
		if d.dups.seenBits[seenBase+i/64]&(1<<(i%64)) != 0 {
			continue
		}
		ns := nullState(&props[i])
		if d.val.on {
			d.keptMember(f, i, nil)
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
		if d.val.on && isSchema(p.Declared) {
			d.validateScalar(p.Declared, pre) // the schema's own declaration (8c)
		}
		v, err := d.scalar(pre, false)
		return v, true, err
	}
	k := d.peek()
	if k == '"' && d.val.on {
		raw, err := d.readValue()
		if err != nil {
			return nil, false, err
		}
		if !root {
			d.noteTypeMeta(p.Role, raw)
		}
		if isSchema(p.Declared) {
			d.validateScalar(p.Declared, raw) // the schema's own declaration (8c)
		}
		v, err := d.scalar(raw, false)
		return v, true, err
	}
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
	var off int64
	var vmode uint8   // validation: openValArray's mode
	var vstrLane bool // validation: the items pass every string
	if d.val.on && !discard {
		off = d.openOffset()
		vmode, vstrLane = d.openValArray(s, items, off)
	}
	n := 0
	write := !discard && d.out == outBytes
	var arr []any
	if !discard && d.out == outMap {
		arr = []any{}
	}
	if write {
		d.buf = append(d.buf, '[')
	}
	top := len(d.find.path)
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
		d.find.path[top] = fieldpath.Segment{Kind: fieldpath.Index, Index: i}
		if write && i > 0 {
			d.buf = append(d.buf, ',')
		}
		var v any
		var err error
		switch {
		case k == '"' && d.scanning && (!d.val.on || vstrLane || discard) && arr == nil:
			// a string, kept as it is (or skipped), as laneMember's; with
			// validation, one that the items' flags pass whatever it holds
			var raw jsontext.Value
			raw, err = d.sc.readString()
			if write {
				d.buf = append(d.buf, raw...)
			}
		case !discard && k == 'n':
			v, _, err = d.nullElement(items, write)
		default:
			v, err = d.valueKind(items, k, discard)
		}
		if err != nil {
			return nil, err
		}
		if arr != nil {
			arr = append(arr, v)
		}
		n++
		if d.strm.sink != nil && len(d.buf) >= d.strm.flushAt && d.val.holds == 0 {
			if err := d.flush(); err != nil {
				return nil, err
			}
		}
	}
	if d.scanning {
		d.sc.close() // speekElem found it
	} else if _, err := d.readToken(); err != nil {
		return nil, err
	}
	if write {
		d.buf = append(d.buf, ']')
	}
	if vmode != 0 {
		d.closeValArray(vmode, s, n, top, off, arr)
	}
	d.find.path = d.find.path[:top]
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
	if d.val.on && isSchema(items) {
		d.validateScalar(items, nullLiteral)
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

// nullLiteral is a null's text, for validateScalar.
var nullLiteral = jsontext.Value("null")
