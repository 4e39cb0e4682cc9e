package decoder

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/fieldpath"
	"github.com/jsonprune/jsonprune/internal/jsonvalue"
	"github.com/jsonprune/jsonprune/internal/objectmeta"
	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/validate"
)

// This file is value validation (the Validation option): the API server's
// OpenAPI schema step (step 8c of its create path), run on the pruned and
// defaulted value as the walk produces it, value by value, in the same
// pass. Each schema state carries its compiled rules (schemaauto
// Automaton.Rules; package validate has the checks and the messages). The
// walk calls:
//
//	value                 when                            checks
//	scalar, kept null     after reading it                validateScalar: type, string, format,
//	                                                      number, enum (validate.Rules.Check)
//	object                openObject                      type
//	                      closeObject                     min/maxProperties, additionalProperties:
//	                                                      false (noted per member), then required
//	array                 array start                     type
//	                      array end                       minItems, maxItems
//
// A valid value costs one call that allocates nothing; the messages are
// rendered only for a value that fails. The server's order is kept: the
// errors of one object's own checks (its properties count, forbidden keys)
// come before those of its members, and required after them, so they are
// inserted at the object's mark when it closes. Siblings come in document
// order (the server's is Go map order: unspecified).
//
// The create path's other steps run in the same walk: the root's
// ObjectMeta (8b) when its metadata is read, embedded resources' apiVersion,
// kind and metadata (8e) when they close; each step's errors are kept apart
// and given in the server's step order.
//
// A node with junctors (allOf, anyOf, oneOf, not) or a list type (set,
// map) needs its whole value: it is read back from the output when the
// node closes, and checked by the node's validation tree (validate.Tree,
// which reproduces the server's merge of branch errors; its errors replace
// those the walk found below the node), list types as step 8f.
//
// Not checked: CEL (Automaton.Unchecked lists it per schema).

// valState is the validation state of the current document.
type valState struct {
	on bool
	// the errors of the other steps of the create path: root ObjectMeta
	// (8b) and embedded resources (8e); the schema step's are errs
	rootMeta, embedded []valRec
	lists              []valRec // x-kubernetes-list-type (8f)
	scale              []valRec // the scale subresource (8d)
	// the scale subresource's paths, and what the walk found there
	scaleOn bool
	scaleAt [3]scaleTarget
	// scaleCur has a bit for each path (scaleAt's index) that runs on
	// below the innermost open object: the object's path is a proper
	// prefix of it. An array's elements are at none (the paths name keys
	// only), so an object's mask holds inside its arrays too. openObject
	// sets it (scaleChildOf) and closeObject restores it; 0 when the
	// document has no scale subresource, or the walk is off the paths,
	// which is most of every document, or validation is off (a status a
	// create drops, a pruned subtree): then no value is compared with
	// them (scaleValue) and kept values are copied raw (rawOK).
	scaleCur uint8
	metaV    objectmeta.Validator
	buf      []byte   // the output buffer of Validate and DecodeMap
	tm       []byte   // the open embedded resources' apiVersion and kind
	metaJSON []byte   // the root's normalised metadata, or, when nameLen > 0,
	nameAt   int      // its name as written, quoted, in the document (quickMetadata):
	nameLen  int      // d.doc[nameAt:nameAt+nameLen]
	meta     bool     // the root's metadata was validated
	errs     []valRec // the schema step's errors, in the server's order
	frames   []valFrame
	kept     []uint64 // presence bits of the open objects' properties (required)
	names    []byte   // kept member names that are no property, each after its length (required)
	rb       readBack // whole values read back from the output without allocating
	// the values being written to be read back whole (valFrame.enum,
	// scaleContainer): PruneReader writes nothing out while there are any
	holds    int
	keySpans [][2]int // listMapValid's key fields
	// the current automaton's ValueChecks, one record per state, for the
	// checks past the flags, which the walk reads from the states and
	// properties themselves (schemaauto.State.ValueFlags,
	// Prop.ValueFlags: a cache line it has loaded)
	vcA    *schemaauto.Automaton
	checks []schemaauto.ValueCheck
	// the Flags of state hintS, read with the property that leads to it
	// (memberHint), so that its value's checks need not read its record
	hintS   schemaauto.StateID
	hintF   uint16 // its Flags
	hintReq uint32 // its ReqMask when it has CheckRequiredOnly and the mask fits (else 0)
	hintStr bool   // its flags pass every string
	// the ReqMask of state reqS (CheckRequiredOnly) without a hint, as
	// the last object read it: the next items of an array read no record
	// (reset with each document: states are an automaton's)
	reqS    schemaauto.StateID
	reqMask uint64
	// the root has no frame: closeRoot runs after its value, with the
	// offset of its '{'
	rootClose bool
	rootOff   int64
	// the presence programs found, per automaton (presenceProgram)
	reqA *schemaauto.Automaton
	req  *reqCache
	reqs map[*schemaauto.Automaton]*reqCache
}

// valRec is one error and where its value starts.
type valRec struct {
	err    *jperrors.FieldError
	offset int64
	ptr    string
}

// valFrame is the validation of one open object or array.
type valFrame struct {
	rules    *validate.Rules
	mark     int // where its own errors go, after its type error
	pending  []valRec
	n        int // members kept (object) or elements (array)
	keptBase int // its presence bits in valState.kept; -1 without required
	// a node checked on its whole value (junctors, list types): its tree,
	// and where its errors start (before its type error)
	tree  *validate.Tree
	jmark int
	// enum, junctors or a list type on an object or array: the value is read back from the output,
	// which starts at enumStart; outNone was switched to bytes for it;
	// PruneReader holds the output meanwhile (valState.holds)
	enum, wasNone bool
	enumStart     int
	// junctors that the presence of the object's properties decides
	// (presenceNode): checked on the presence bits instead
	presence *presenceNode
	// an embedded resource's apiVersion and kind, and its metadata's errors
	hasAV, hasKind bool
	av, kind       [2]int // their bytes in valState.tm
	tmBase         int    // where they start there
	// extraReq: a required key is no property; the kept members that are
	// no property are noted in valState.names from namesBase
	extraReq  bool
	namesBase int
	meta      []valRec
}

func (d *Decoder) resetValidation() {
	d.val.metaJSON, d.val.nameLen, d.val.meta = d.val.metaJSON[:0], 0, false
	d.val.rootMeta, d.val.embedded, d.val.tm, d.val.names = d.val.rootMeta[:0], d.val.embedded[:0], d.val.tm[:0], d.val.names[:0]
	d.val.lists, d.val.scale, d.val.scaleOn, d.val.scaleCur = d.val.lists[:0], d.val.scale[:0], false, 0
	d.val.errs, d.val.frames, d.val.kept = d.val.errs[:0], d.val.frames[:0], d.val.kept[:0]
	d.val.hintS, d.val.rootClose, d.val.holds = schemaauto.NoState, false, 0
	d.val.reqS = schemaauto.NoState
}

// memberHint notes, before a member's value is decoded, the Flags and
// ReqMask of its property's target (from the property itself).
func (d *Decoder) memberHint(f *objFrame, idx int, target schemaauto.StateID) {
	if uint(idx) < uint(len(f.props)) {
		p := &f.props[idx]
		fl := p.ValueFlags()
		d.val.hintS, d.val.hintF, d.val.hintStr, d.val.hintReq = target, fl, fl&anyString == anyString, p.ValueReqMask()
	}
}

// typeMetaVal is takeTypeMeta's validation of the root's apiVersion and
// kind (properties idx, read by the pre-scan at d.tm.plain), as
// memberByRole and valueMember do it: each checked against the schema's
// own declaration (8c), then kept. takeTypeMeta itself keeps both when
// the usual declarations pass every string.
//
//go:noinline
func (d *Decoder) typeMetaVal(f *objFrame, idx [2]int) {
	for n, i := range idx {
		if s := f.props[i].Declared; isSchema(s) {
			d.memberHint(f, i, s)
			if !d.val.hintStr || s != d.val.hintS {
				// its errors are located at the value, the scanner after it
				m, pos := &d.tm.plain[n], d.sc.pos
				d.sc.pos = m.valEnd
				d.find.path[f.top] = fieldpath.Segment{Kind: fieldpath.Key, Name: d.doc[m.name+1 : m.nameEnd-1]}
				d.checkScalar(s, d.doc[m.val:m.valEnd])
				d.sc.pos = pos
			}
		}
		d.keptMember(f, i, nil)
	}
}

// rootStatusDropped is statusDropped for laneMember (out of line: it
// runs at the root only).
//
//go:noinline
func (d *Decoder) rootStatusDropped(name []byte) bool { return d.statusDropped(name) }

// laneDroppedStatus is laneMember's step for the root's status that a
// create drops before validating (statusDropped): decoded without
// validation, and not kept, as valueMember does.
//
//go:noinline
func (d *Decoder) laneDroppedStatus(f *objFrame, name []byte, target schemaauto.StateID, vk jsontext.Kind) error {
	d.val.on = false
	v, err := d.valueKind(target, vk, false)
	d.val.on = true
	if f.m != nil {
		f.m[string(name)] = v
	}
	return err
}

// laneStringKept is laneMember's string step with validation on (bytes
// or no output; no scale path can reach the member: the document's
// version has no scale subresource, or the member is deeper than every
// scale path, objFrame.noStrLane): the string was read and written as
// the prune-only lane does; it is checked with its property's target
// flags (its Prop's ValueFlags) and, for a node that checks its strings' length and
// pattern or enum, its ValueCheck; only a string that fails them, or
// whose node needs its Rules or Tree, takes checkScalar's way, with its
// path set for the errors. At the root, a status that the status
// subresource drops before validating is neither checked nor kept (as
// laneDroppedStatus).
func (d *Decoder) laneStringKept(f *objFrame, idx int, rawName []byte, raw jsontext.Value) {
	if f.root && d.statusDropped(rawName[1:len(rawName)-1]) {
		return
	}
	if uint(idx) >= uint(len(f.props)) || f.props[idx].ValueFlags()&anyString != anyString {
		d.laneStringCheck(f, idx, rawName[1:len(rawName)-1], raw)
	}
	if !f.vframe {
		f.keptLo |= 1 << uint(idx) // 0 from 64 on (Go's shifts)
		f.vn++
		return
	}
	d.keptInFrame(idx, nil)
}

// laneStringCheck checks a string of laneString whose flags do not pass
// every string.
func (d *Decoder) laneStringCheck(f *objFrame, idx int, name []byte, raw jsontext.Value) {
	s := f.props[idx].Target
	if !isSchema(s) {
		return
	}
	if uint(idx) < uint(len(f.props)) && f.props[idx].ValueFlags()&sumJunctors == 0 {
		if c := d.valueCheck(s); c.Strings != schemaauto.StringsRules {
			// the scanner read it: valid UTF-8, to unquote only if it has
			// escapes
			str := raw[1 : len(raw)-1]
			if d.sc.esc {
				str = d.unquoteScratch(raw)
			}
			if stringPasses(c, str) {
				return
			}
		}
	}
	d.find.path[f.top] = fieldpath.Segment{Kind: fieldpath.Key, Name: name}
	d.memberHint(f, idx, s)
	d.checkScalar(s, raw)
}

// flagsOf is state s's ValueCheck Flags: the hint's when it is s.
func (d *Decoder) flagsOf(s schemaauto.StateID) uint16 {
	if s == d.val.hintS {
		return d.val.hintF
	}
	return d.stateFlags(s)
}

// stateFlags is flagsOf without the hint: from the state itself (a
// cache line that the walk has loaded, or will), not from the
// ValueChecks.
func (d *Decoder) stateFlags(s schemaauto.StateID) uint16 { return d.a.State(s).ValueFlags() }

// addVal records errors for the value at the current path, starting at off.
func (d *Decoder) addVal(errs jperrors.FieldErrors, off int64) {
	ptr := string(d.appendPointer(nil))
	for _, e := range errs {
		d.val.errs = append(d.val.errs, valRec{err: e, offset: off, ptr: ptr})
	}
}

// valPath renders the validator's path of the current value.
func (d *Decoder) valPath() string { return string(fieldpath.AppendPath(nil, d.find.path)) }

// validateScalar checks a scalar (or a kept null) in state s. The usual
// value, a string whose property's flags pass every string, is decided
// here, inlined in the walk.
func (d *Decoder) validateScalar(s schemaauto.StateID, raw jsontext.Value) {
	if s == d.val.hintS && d.val.hintStr && raw[0] == '"' {
		return
	}
	d.checkScalar(s, raw)
}

// checkScalar is validateScalar past its inlined test: the usual node,
// whose flags the value's kind passes, in a small frame; checkScalarRules
// for the rest.
func (d *Decoder) checkScalar(s schemaauto.StateID, raw jsontext.Value) {
	sum := d.flagsOf(s)
	if sum&sumScalarKinds != 0 {
		if k := uint16(literalKinds(raw)) << 8; sum&k == k {
			return // the usual node: the value's kind decides
		}
		if sum&sumInt32 != 0 && smallInt(raw) {
			return // an int32 node's integer of at most 9 digits
		}
	}
	d.checkScalarRules(s, sum, raw)
}

// checkScalarRules is checkScalar for a scalar that its node's flags
// (sum) do not pass alone: junctors, or its ValueCheck.
//
//go:noinline
func (d *Decoder) checkScalarRules(s schemaauto.StateID, sum uint16, raw jsontext.Value) {
	if sum&sumJunctors != 0 {
		if raw[0] == '"' {
			if c := d.valueCheck(s); c.Strings != schemaauto.StringsRules && d.stringPasses(c, raw) {
				return // the junctors pass every string, and its own checks pass it
			}
		}
		d.validateScalarTree(d.a.Tree(s), raw)
		return
	}
	c := d.valueCheck(s)
	if c.Strings != schemaauto.StringsRules && raw[0] == '"' && d.stringPasses(c, raw) {
		return
	}
	r := c.Rules
	if r == nil {
		return
	}
	v := d.scalarOf(raw)
	if r.Check(v) {
		return
	}
	d.addVal(r.AppendErrors(nil, d.valPath(), v), d.tokenStart(raw))
}

// stringPasses reports whether a string (raw, quoted) passes the checks of
// c.Strings: false sends it to the Rules, which render its errors.
func (d *Decoder) stringPasses(c *schemaauto.ValueCheck, raw jsontext.Value) bool {
	return stringPasses(c, d.scalarOf(raw).Str)
}

// unquoteScratch is a string's content (raw, quoted, with escapes),
// unquoted in d.scratch.
func (d *Decoder) unquoteScratch(raw jsontext.Value) []byte {
	s, _ := jsontext.AppendUnquote(d.scratch[:0], raw) // invalid UTF-8 becomes U+FFFD
	d.scratch = s
	return s
}

// stringPasses reports whether a string's content str passes the checks
// of c.Strings (see Decoder.stringPasses).
func stringPasses(c *schemaauto.ValueCheck, str []byte) bool {
	if c.Strings == schemaauto.StringsEnum {
		return c.EnumHas(str)
	}
	if c.MinLen >= 0 || c.MaxLen >= 0 {
		// the rune count lies between len/4 (rounded up) and len: the
		// byte length decides the usual string, its runes not counted
		if n := len(str); c.MinLen >= 0 && (n+3)/4 < int(c.MinLen) || c.MaxLen >= 0 && n > int(c.MaxLen) {
			n = utf8.RuneCount(str)
			if c.MinLen >= 0 && n < int(c.MinLen) || c.MaxLen >= 0 && n > int(c.MaxLen) {
				return false
			}
		}
	}
	return c.Pattern == nil || c.Pattern.Match(str)
}

// validateScalarTree checks a scalar whose node has junctors with the
// node's validation tree: on a view of the value first (a valid one costs
// no allocation), then, if it fails, on a copy the errors may keep.
func (d *Decoder) validateScalarTree(t *validate.Tree, raw jsontext.Value) {
	v := d.scalarOf(raw)
	d.val.rb.reset()
	if errs := t.Validate("", d.val.rb.scalar(v)); len(errs) == 0 {
		return
	}
	d.addVal(t.Validate(d.valPath(), v.Value()), d.tokenStart(raw))
}

// scalarOf classifies a literal as the server's decoder does.
func (d *Decoder) scalarOf(raw jsontext.Value) validate.Scalar {
	switch raw[0] {
	case 'n':
		return validate.Scalar{Kind: validate.Null}
	case 't':
		return validate.Scalar{Kind: validate.Bool, Bool: true}
	case 'f':
		return validate.Scalar{Kind: validate.Bool}
	case '"':
		inner := raw[1 : len(raw)-1]
		if !hasEscapeOrHigh(inner) {
			return validate.Scalar{Kind: validate.String, Str: inner}
		}
		s, _ := jsontext.AppendUnquote(d.scratch[:0], raw) // invalid UTF-8 becomes U+FFFD
		d.scratch = s
		return validate.Scalar{Kind: validate.String, Str: s}
	}
	return validate.ParseNumber(raw)
}

// hasEscapeOrHigh reports whether a string's content needs unquoting: an
// escape, or a byte that may start invalid UTF-8.
func hasEscapeOrHigh(b []byte) bool {
	for _, c := range b {
		if c == '\\' || c >= 0x80 {
			return true
		}
	}
	return false
}

// openOffset is the offset of the '{' or '[' just read, for validation's
// errors.
func (d *Decoder) openOffset() int64 {
	if d.scanning {
		return max(int64(d.sc.pos)-1, 0)
	}
	return max(d.offset()-1, 0)
}

// openValObject starts the validation of the object of walk frame f. An
// object whose state has nothing to check as a whole (its type passes; no
// counts, enum, junctors, list type, additionalProperties: false, embedded
// resource) gets no validation frame: its members are checked on their
// own. One whose only whole-object check is required, all of them among
// its first 64 properties, gets none either: its presence bits live in f
// (keptMember) and are checked against the state's mask when it closes.
// One whose only checks are its property counts
// (schemaauto.ValueCheck.ObjectCounts) counts its kept members in f and
// checks them when it closes. The root is such an object when its own
// checks allow (its scale and metadata are checked after its value,
// closeRoot; openValRoot). It inlines in openObject, which has set
// f.noStrLane from the scale paths.
func (d *Decoder) openValObject(f *objFrame) {
	if sum := f.st.ValueFlags(); sum&(sumObjectOK|sumObjectWork|sumEmbedded) != sumObjectOK || f.root {
		d.openValObjectSome(f, sum)
	}
}

// openValObjectSome is openValObject for the root (openValRoot) and for
// an object with checks of its own (openValObjectWork).
func (d *Decoder) openValObjectSome(f *objFrame, sum uint16) {
	if f.root {
		d.openValRoot(f)
		return
	}
	d.openValObjectWork(f, sum)
}

// openValRoot is openValObject for the root: the document's scale paths
// are set up; its apiVersion, kind and metadata, and its
// scale subresource, are checked after its value (closeRoot), unless it
// has a frame.
//
//go:noinline
func (d *Decoder) openValRoot(f *objFrame) {
	// the scale paths, from the entry, not its Version: one cache line a
	// document, not two, to find most often no scale subresource
	if e := d.res.Entry; e != nil && e.Scale() != nil {
		d.startScaleOf(e.Scale())
	}
	f.noStrLane = d.val.scaleCur != 0 // every path starts at the root
	d.val.rootClose, d.val.rootOff = true, f.off
	sum := f.st.ValueFlags() &^ sumEmbedded // the root's apiVersion, kind and metadata: closeRoot
	if sum&(sumObjectOK|sumObjectWork) != sumObjectOK {
		d.openValObjectWork(f, sum)
	}
}

// openValObjectWork is openValObject for an object with checks of its
// own.
func (d *Decoder) openValObjectWork(f *objFrame, sum uint16) {
	if sum&(sumObjectOK|sumRequiredOnly|sumEmbedded) == sumObjectOK|sumRequiredOnly {
		switch {
		case f.root:
			f.reqMask = d.a.RootReqMask() // beside what choosing the automaton read
		case f.s == d.val.hintS && d.val.hintReq != 0:
			f.reqMask = uint64(d.val.hintReq) // from the property, as the flags
		case f.s == d.val.reqS:
			f.reqMask = d.val.reqMask // the last such object's (an array's items)
		default:
			f.reqMask = d.valueCheck(f.s).ReqMask
			d.val.reqS, d.val.reqMask = f.s, f.reqMask
		}
		return
	}
	if sum&(sumObjectOK|sumEmbedded) == sumObjectOK && d.valueCheck(f.s).ObjectCounts {
		f.vcounts, f.vmark, f.vclose = true, len(d.val.errs), true // its property counts, when it closes
		return
	}
	f.vframe, f.vclose = true, true
	d.val.rootClose = d.val.rootClose && !f.root // closeObjectVal checks the root's
	d.openValFrame(f.s, validate.Object, len(f.props), f.off)
}

// closeValObject ends the validation of the object of walk frame f.
func (d *Decoder) closeValObject(f *objFrame) {
	if f.vclose || f.keptLo&f.reqMask != f.reqMask {
		d.closeValObjectWork(f)
	}
}

// closeValObjectWork is closeValObject for an object with a frame, counts,
// or a missing required property.
func (d *Decoder) closeValObjectWork(f *objFrame) {
	if f.vframe {
		d.closeObjectVal(f.s, f.top, f.off, f.m)
		return
	}
	if f.vcounts {
		// its own errors come before its members', as objectChecks puts them
		if r := d.valueCheck(f.s).Rules; !r.CheckObject(f.vn) {
			segs := d.find.path[:f.top]
			recs := d.recsAt(r.AppendObjectErrors(nil, string(fieldpath.AppendPath(nil, segs)), f.vn), segs, f.off)
			d.val.errs = slices.Insert(d.val.errs, f.vmark, recs...)
		}
	}
	if f.keptLo&f.reqMask == f.reqMask {
		return
	}
	// a required property is missing: its error, from the state's Rules
	vf := valFrame{rules: d.valueCheck(f.s).Rules, keptBase: len(d.val.kept)}
	d.val.kept = append(d.val.kept, f.keptLo)
	d.checkRequired(&vf, f.s, f.top, d.find.path[:f.top], f.off)
}

// closeRoot runs, after the root's value, the checks of the root's close
// that its frame would (closeObjectVal) for a root without one
// (valState.rootClose): the scale subresource's, and the metadata's when
// the document had none.
func (d *Decoder) closeRoot(off int64) {
	if d.val.scaleOn {
		d.closeScale(off)
	}
	if !d.val.meta {
		d.validateMetadata(true, nil, []byte("{}"), nil, off) // no metadata: no name
	}
}

// The modes of an array's validation (openValArray).
const (
	valArrayNone   = iota // nothing to check as a whole
	valArrayFrame         // a frame in valState.frames
	valArrayCounts        // only minItems and maxItems, checked when it closes
)

// openValArray starts the validation of an array in state s whose '[' is
// at off, and returns its mode: one whose type passes and that has nothing
// to check as a whole (counts, enum, junctors, list type) has none, and
// closeValArray is not called for it; one whose only checks are its item
// counts (schemaauto.ValueCheck.ArrayCounts) has no frame either.
//
// strLane reports whether every string passes the checks of the items
// state (their flags pass every string, or there is nothing to check), so
// that the array's string elements take prune-only's string step. No
// scale path reaches an element: those paths name keys only (scaleValue).
func (d *Decoder) openValArray(s, items schemaauto.StateID, off int64) (mode uint8, strLane bool) {
	fl := d.flagsOf(s)
	strLane = true
	if isSchema(items) {
		// the items' flags, read once, are the hint for the items: a
		// scalar item is checked without reading its state again
		fi := d.stateFlags(items)
		strLane = fi&anyString == anyString
		d.val.hintS, d.val.hintF, d.val.hintStr, d.val.hintReq = items, fi, strLane, 0
	}
	if fl&(sumArrayOK|sumArrayWork) == sumArrayOK {
		return valArrayNone, strLane
	}
	if fl&sumArrayOK != 0 && d.valueCheck(s).ArrayCounts {
		return valArrayCounts, strLane
	}
	d.openValFrame(s, validate.Array, 0, off)
	return valArrayFrame, strLane
}

// closeValArray ends the validation of an array of n elements in state s
// (mode from openValArray) whose path is d.find.path[:top]. Item counts
// are reported after the items' own errors, as closeArrayVal reports them.
func (d *Decoder) closeValArray(mode uint8, s schemaauto.StateID, n, top int, off int64, arr []any) {
	if mode != valArrayCounts {
		d.closeArrayVal(n, top, off, arr)
		return
	}
	if r := d.valueCheck(s).Rules; !r.CheckArray(n) {
		segs := d.find.path[:top]
		d.val.errs = append(d.val.errs, d.recsAt(r.AppendArrayErrors(nil, string(fieldpath.AppendPath(nil, segs)), n), segs, off)...)
	}
}

// openValFrame starts the validation of an object or array in state s at
// offset off (the bracket); kind is validate.Object or validate.Array.
func (d *Decoder) openValFrame(s schemaauto.StateID, kind validate.Kind, nprops int, off int64) {
	if sum := d.flagsOf(s); sum&sumTypeOK(kind) != 0 && sum&sumWork(kind) == 0 {
		// the usual node: its type passes and it has nothing to check as a
		// whole
		d.val.frames = append(d.val.frames, valFrame{mark: len(d.val.errs), keptBase: -1, tmBase: len(d.val.tm), jmark: len(d.val.errs)})
		return
	}
	r := d.valueCheck(s).Rules
	jmark := len(d.val.errs)
	if r != nil && !r.CheckType(kind) {
		d.addVal(r.AppendTypeErrors(nil, d.valPath(), validate.Scalar{Kind: kind}), off)
	}
	f := valFrame{rules: r, mark: len(d.val.errs), keptBase: -1, tmBase: len(d.val.tm), tree: d.a.Tree(s), jmark: jmark}
	if (r.HasEnum() || f.tree != nil) && d.out != outMap {
		// the value is needed whole: it is written (and cut again when
		// the output does not want it)
		f.enum, f.wasNone, f.enumStart = true, d.out == outNone, d.outPos()
		d.val.holds++
		if f.wasNone {
			d.out = outBytes
		}
	}
	if kind == validate.Object && f.tree != nil && len(d.find.path) > 0 {
		// not at the root (whose path is empty; its parent may have no
		// frame, openValObject)
		f.presence = d.presenceProgram(s, f.tree)
	}
	if r != nil && kind == validate.Object && len(r.Required()) > 0 || f.presence != nil {
		f.keptBase = len(d.val.kept)
		for range (nprops + 63) / 64 {
			d.val.kept = append(d.val.kept, 0)
		}
		// a required key that is no property can still be kept (preserved
		// unknown fields, additionalProperties): such members' names are
		// noted
		if _, extra := d.a.RequiredProps(s); r != nil && extra {
			f.extraReq, f.namesBase = true, len(d.val.names)
		}
	}
	d.val.frames = append(d.val.frames, f)
}

// reqCache holds, per state of one automaton, whose tree has junctors
// that presence decides on an object (presenceOf), their program, found
// when the state is first validated.
type reqCache struct {
	presence []*presenceNode
	tried    []bool // presence was looked for
}

// presenceNode is a junctor tree whose verdict on an object depends only on
// which of the object's first 64 properties are present (validate.Rules
// ObjectRequiredOnly at every node, and no properties, additionalProperties
// or list type in any branch): req must all be present, and the junctors
// pass as the tree's do.
type presenceNode struct {
	req                 uint64
	allOf, anyOf, oneOf []presenceNode
	not                 *presenceNode
}

// pass reports whether the node passes on an object whose present
// properties are kept.
func (n *presenceNode) pass(kept uint64) bool {
	if n.req&^kept != 0 {
		return false
	}
	for i := range n.allOf {
		if !n.allOf[i].pass(kept) {
			return false
		}
	}
	if len(n.anyOf) > 0 {
		any := false
		for i := range n.anyOf {
			if n.anyOf[i].pass(kept) {
				any = true
				break
			}
		}
		if !any {
			return false
		}
	}
	if len(n.oneOf) > 0 {
		k := 0
		for i := range n.oneOf {
			if n.oneOf[i].pass(kept) {
				k++
			}
		}
		if k != 1 {
			return false
		}
	}
	return n.not == nil || !n.not.pass(kept)
}

// presenceOf is the presence program of the junctors of state s's tree t,
// or nil: the junctor branches must be decided by presence (presenceNode),
// each required name a property of s among its first 64. The node's own
// checks are the walk's.
func (d *Decoder) presenceOf(s schemaauto.StateID, t *validate.Tree) *presenceNode {
	if !t.HasJunctors() || t.ListType == "set" || t.ListType == "map" || len(d.a.Props(s)) == 0 {
		return nil
	}
	var n presenceNode
	if !d.presenceJunctors(s, t, &n) {
		return nil
	}
	return &n
}

func (d *Decoder) presenceJunctors(s schemaauto.StateID, t *validate.Tree, n *presenceNode) bool {
	branches := func(bs []*validate.Tree) ([]presenceNode, bool) {
		if len(bs) == 0 {
			return nil, true
		}
		out := make([]presenceNode, len(bs))
		for i, b := range bs {
			if !d.presenceBranch(s, b, &out[i]) {
				return nil, false
			}
		}
		return out, true
	}
	var ok bool
	if n.allOf, ok = branches(t.AllOf); !ok {
		return false
	}
	if n.anyOf, ok = branches(t.AnyOf); !ok {
		return false
	}
	if n.oneOf, ok = branches(t.OneOf); !ok {
		return false
	}
	if t.Not != nil {
		n.not = new(presenceNode)
		return d.presenceBranch(s, t.Not, n.not)
	}
	return true
}

// presenceBranch compiles a junctor branch b of state s's node.
func (d *Decoder) presenceBranch(s schemaauto.StateID, b *validate.Tree, n *presenceNode) bool {
	if b == nil || b.Properties != nil || b.AdditionalProperties != nil || !b.Rules.ObjectRequiredOnly() {
		return false
	}
	for _, name := range b.Rules.Required() {
		i := d.a.Lookup(s, []byte(name))
		if i < 0 || i >= 64 {
			return false
		}
		n.req |= 1 << i
	}
	return d.presenceJunctors(s, b, n)
}

// presenceOff turns presence programs off (tests compare both ways).
var presenceOff = false

// presenceProgram is state s's presence program (presenceOf), looked for
// once per state and automaton.
func (d *Decoder) presenceProgram(s schemaauto.StateID, t *validate.Tree) *presenceNode {
	c := d.cacheOf()
	if s < 0 || int(s) >= len(c.tried) {
		return nil
	}
	if presenceOff {
		return nil
	}
	if !c.tried[s] {
		c.tried[s], c.presence[s] = true, d.presenceOf(s, t)
	}
	return c.presence[s]
}

// The bits of a state's summary (schemaauto.ValueCheck.Flags): whether an
// object or array passes its type check, and whether it has checks of the
// whole object or array (required, property or item counts,
// additionalProperties: false, enum, junctors or a list type: anything
// but its members' own checks); and, for a scalar, whether its kind alone
// decides (the kinds that pass are the summary's high byte, bit
// 1<<validate.Kind).
const (
	sumObjectOK   = schemaauto.CheckObjectOK
	sumArrayOK    = schemaauto.CheckArrayOK
	sumObjectWork = schemaauto.CheckObjectWork
	sumArrayWork  = schemaauto.CheckArrayWork
	// an object's only whole-object check is required, every name one of
	// its first 64 properties (sumObjectWork is set too)
	sumRequiredOnly = schemaauto.CheckRequiredOnly
	// an embedded resource, or a state with apiVersion, kind or metadata
	// roles: checked with a frame (closeEmbedded)
	sumEmbedded = schemaauto.CheckEmbedded
	// some scalars pass by their kind alone, whatever their value
	// (validate.Rules.KindsPassing; with junctors, the node's tree's
	// validate.Tree.ScalarKindsPassing)
	sumScalarKinds = schemaauto.CheckScalarKinds
	// with sumScalarKinds: an Int passes when it is within the int32 range
	// (validate.Rules.Int32Only)
	sumInt32 = schemaauto.CheckInt32
	// the node's tree has junctors: its scalars are checked by the tree
	sumJunctors = schemaauto.CheckJunctors
	// every string passes: the String kind passes by its kind alone
	anyString = sumScalarKinds | 1<<(8+validate.String)
)

func sumTypeOK(k validate.Kind) uint16 {
	if k == validate.Object {
		return sumObjectOK
	}
	return sumArrayOK
}

func sumWork(k validate.Kind) uint16 {
	if k == validate.Object {
		return sumObjectWork
	}
	return sumArrayWork
}

// valueCheck is state s's record of the automaton's ValueChecks: its
// summary bits and Rules side by side, derived once per automaton. It
// inlines: the records are loaded apart (loadValueChecks).
func (d *Decoder) valueCheck(s schemaauto.StateID) *schemaauto.ValueCheck {
	if d.val.vcA != d.a {
		d.loadValueChecks()
	}
	return &d.val.checks[s]
}

// loadValueChecks takes the current automaton's ValueChecks.
//
//go:noinline
func (d *Decoder) loadValueChecks() {
	d.val.vcA, d.val.checks = d.a, d.a.ValueChecks()
}

// cacheOf is the current automaton's reqCache.
func (d *Decoder) cacheOf() *reqCache {
	v := &d.val
	if v.reqA != d.a {
		if v.reqs == nil {
			v.reqs = map[*schemaauto.Automaton]*reqCache{}
		}
		c := v.reqs[d.a]
		if c == nil {
			n := d.a.NumStates()
			c = &reqCache{presence: make([]*presenceNode, n), tried: make([]bool, n)}
			v.reqs[d.a] = c
		}
		v.reqA, v.req = d.a, c
	}
	return v.req
}

// keptMember notes that a member of the object of walk frame of stays in
// it (property idx, or -1), after its value was decoded.
func (d *Decoder) keptMember(of *objFrame, idx int, name []byte) {
	if !of.vframe {
		of.keptLo |= 1 << uint(idx) // 0 for idx -1 or from 64 on (Go's shifts)
		of.vn++
		return
	}
	d.keptInFrame(idx, name)
}

// keptInFrame is keptMember for an object with a validation frame.
func (d *Decoder) keptInFrame(idx int, name []byte) {
	f := &d.val.frames[len(d.val.frames)-1]
	f.n++
	if idx >= 0 && f.keptBase >= 0 {
		d.val.kept[f.keptBase+idx/64] |= 1 << (idx % 64)
	} else if idx < 0 && f.extraReq {
		d.val.names = binary.AppendUvarint(d.val.names, uint64(len(name)))
		d.val.names = append(d.val.names, name...)
	}
}

// unkeptMember undoes keptMember for a member retracted by a later
// duplicate (property idx, or -1), which may itself not be kept (a pruned
// null).
func (d *Decoder) unkeptMember(of *objFrame, idx int, name []byte) {
	if !of.vframe {
		if uint(idx) < 64 {
			of.keptLo &^= 1 << idx
		}
		of.vn--
		return
	}
	f := &d.val.frames[len(d.val.frames)-1]
	f.n--
	if idx >= 0 && f.keptBase >= 0 {
		d.val.kept[f.keptBase+idx/64] &^= 1 << (idx % 64)
	} else if idx < 0 && f.extraReq {
		// its name, if it was kept (the object's names are distinct: each
		// duplicate retracts the one before)
		for i, rest := f.namesBase, d.val.names[f.namesBase:]; len(rest) > 0; {
			n, w := binary.Uvarint(rest)
			if string(rest[w:w+int(n)]) == string(name) {
				d.val.names = append(d.val.names[:i], d.val.names[i+w+int(n):]...)
				break
			}
			i, rest = i+w+int(n), rest[w+int(n):]
		}
	}
}

// keptName reports whether the innermost object kept a member that is no
// property, named name (see valFrame.extraReq).
func (d *Decoder) keptName(f *valFrame, name string) bool {
	for rest := d.val.names[f.namesBase:]; len(rest) > 0; {
		n, w := binary.Uvarint(rest)
		rest = rest[w:]
		if string(rest[:n]) == name {
			return true
		}
		rest = rest[n:]
	}
	return false
}

// forbiddenMember notes a member that additionalProperties: false forbids.
func (d *Decoder) forbiddenMember(name []byte, off int64) {
	if len(d.val.frames) == 0 {
		return // a root without a frame: it has no additionalProperties: false
	}
	f := &d.val.frames[len(d.val.frames)-1]
	if !f.rules.AdditionalPropertiesFalse() {
		return
	}
	path := string(fieldpath.AppendPath(nil, d.find.path[:len(d.find.path)-1]))
	f.pending = append(f.pending, valRec{err: validate.ForbiddenProperty(path, string(name)), offset: off,
		ptr: string(fieldpath.AppendPointer(nil, d.find.path[:len(d.find.path)-1]))})
}

// closeObjectVal ends the validation of an object in state s whose path
// is d.find.path[:top], whose '{' is at off.
func (d *Decoder) closeObjectVal(s schemaauto.StateID, top int, off int64, m map[string]any) {
	f := &d.val.frames[len(d.val.frames)-1] // valid until the next push: nothing below pushes
	d.val.frames = d.val.frames[:len(d.val.frames)-1]
	segs := d.find.path[:top]
	if top == 0 && d.val.scaleOn {
		d.closeScale(off)
	}
	if st := d.a.State(s); st.Flags&schemaauto.Embedded != 0 {
		if top > 0 {
			d.closeEmbedded(f, segs, off)
		} else if !d.val.meta {
			d.validateMetadata(true, nil, []byte("{}"), nil, off) // no metadata: no name
		}
	}
	var v any = m
	valid := false
	// junctors that presence decides: they pass, and if nothing else in
	// the object failed, the tree would find nothing
	presence := f.presence != nil && f.presence.pass(d.val.kept[f.keptBase])
	if m == nil && f.enum && !presence {
		v, valid = d.enumValue(f, -1)
	}
	d.objectChecks(f, s, top, segs, off, v)
	if presence {
		if len(d.val.errs) == f.jmark {
			d.endWhole(f)
			d.wholeValid(f)
			return
		}
		if m == nil && f.enum {
			v, _ = d.enumValue(f, -1) // for the tree's errors
		}
	}
	if valid {
		d.wholeValid(f)
		return
	}
	d.wholeValue(f, v, segs, off) // last: junctors replace the errors of the whole node
}

// objectChecks appends an object's own errors (enum, property counts,
// forbidden keys, at the object's mark; required after its members').
func (d *Decoder) objectChecks(f *valFrame, s schemaauto.StateID, top int, segs []fieldpath.Segment, off int64, v any) {
	r := f.rules
	if r == nil {
		if f.keptBase >= 0 { // presence bits without Rules (a presence program's)
			if idxs, _ := d.a.RequiredProps(s); len(idxs) > 0 && d.allKept(f, idxs) {
				d.val.kept = d.val.kept[:f.keptBase]
				return
			}
			f.rules = d.a.Rules(s) // one is missing: its error, as below
			d.checkRequired(f, s, top, segs, off)
		}
		return
	}
	var own []valRec
	if v != nil {
		own = d.checkEnum(r, v, segs, off)
	}
	if !r.CheckObject(f.n) {
		own = append(own, d.recsAt(r.AppendObjectErrors(nil, string(fieldpath.AppendPath(nil, segs)), f.n), segs, off)...)
	}
	own = append(own, f.pending...)
	if len(own) > 0 {
		d.val.errs = slices.Insert(d.val.errs, f.mark, own...)
	}
	if f.keptBase < 0 {
		return
	}
	d.checkRequired(f, s, top, segs, off)
}

// allKept reports whether the properties idxs (none -1) were all kept in
// the object of frame f.
func (d *Decoder) allKept(f *valFrame, idxs []int32) bool {
	for _, idx := range idxs {
		if idx < 0 || d.val.kept[f.keptBase+int(idx)/64]&(1<<(idx%64)) == 0 {
			return false
		}
	}
	return true
}

// checkRequired appends the errors of the object's missing required
// properties, and drops its presence bits.
func (d *Decoder) checkRequired(f *valFrame, s schemaauto.StateID, top int, segs []fieldpath.Segment, off int64) {
	r := f.rules
	var path string
	idxs, _ := d.a.RequiredProps(s)
	for i, name := range r.Required() {
		idx := int(idxs[i])
		if idx >= 0 && d.val.kept[f.keptBase+idx/64]&(1<<(idx%64)) != 0 {
			continue
		}
		if idx < 0 && d.keptName(f, name) {
			continue
		}
		if top == 0 && (name == "metadata" || name == "apiVersion" || name == "kind") {
			continue // the server's object always has them by validation time (it sets metadata's uid...)
		}
		if path == "" {
			path = string(fieldpath.AppendPath(nil, segs))
		}
		d.val.errs = append(d.val.errs, d.recsAt(jperrors.FieldErrors{validate.RequiredError(path, name)}, segs, off)...)
	}
	d.val.kept = d.val.kept[:f.keptBase]
	if f.extraReq {
		d.val.names = d.val.names[:f.namesBase]
	}
}

// closeArrayVal ends the validation of an array of n elements whose path
// is d.find.path[:top].
func (d *Decoder) closeArrayVal(n, top int, off int64, arr []any) {
	f := &d.val.frames[len(d.val.frames)-1] // valid until the next push: nothing below pushes
	d.val.frames = d.val.frames[:len(d.val.frames)-1]
	segs := d.find.path[:top]
	var v any
	valid := false
	if arr != nil {
		v = arr
	} else if f.enum {
		v, valid = d.enumValue(f, n)
	}
	if f.rules != nil {
		if !f.rules.CheckArray(n) {
			d.val.errs = append(d.val.errs, d.recsAt(f.rules.AppendArrayErrors(nil, string(fieldpath.AppendPath(nil, segs)), n), segs, off)...)
		}
		if v != nil {
			d.val.errs = append(d.val.errs, d.checkEnum(f.rules, v, segs, off)...)
		}
	}
	if valid {
		d.wholeValid(f)
		return
	}
	d.wholeValue(f, v, segs, off) // last: junctors replace the errors of the whole node
}

// wholeValid ends the checks of a node whose whole value passed them
// (enumValue): with junctors, the node's validation tree found nothing,
// so the errors the walk found in it are dropped, as wholeValue drops
// them.
func (d *Decoder) wholeValid(f *valFrame) {
	if t := f.tree; t != nil && t.HasJunctors() {
		d.val.errs = d.val.errs[:f.jmark]
	}
}

// wholeChecksPass reports whether v passes the checks of frame f that need
// the whole value: enum, junctors, list type (without rendering paths).
func (d *Decoder) wholeChecksPass(f *valFrame, v any) bool {
	if r := f.rules; r.HasEnum() && !r.CheckEnum(v) {
		return false
	}
	t := f.tree
	if t == nil {
		return true
	}
	if t.HasJunctors() && len(t.Validate("", v)) > 0 {
		return false
	}
	if items, ok := v.([]any); ok && (t.ListType == "set" || t.ListType == "map") {
		if valid, decided := listTypeValid(t.ListType, t.ListMapKeys, items); decided {
			return valid
		}
		return len(validate.ListTypeErrors("", t.ListType, t.ListMapKeys, items)) == 0
	}
	return true
}

// wholeValue runs the checks of a node that needs its whole value v: its
// junctors (the node's subtree is then checked by its validation tree,
// whose errors replace those the walk found in it: the tree reproduces
// the server's merge of branch errors), and its list type (step 8f).
func (d *Decoder) wholeValue(f *valFrame, v any, segs []fieldpath.Segment, off int64) {
	t := f.tree
	if t == nil {
		return
	}
	if t.HasJunctors() {
		errs := t.Validate(string(fieldpath.AppendPath(nil, segs)), v)
		d.val.errs = append(d.val.errs[:f.jmark], d.recsAt(errs, segs, off)...)
	}
	if items, ok := v.([]any); ok && (t.ListType == "set" || t.ListType == "map") {
		if errs := validate.ListTypeErrors(string(fieldpath.AppendFieldPath(nil, segs)), t.ListType, t.ListMapKeys, items); len(errs) > 0 {
			d.val.lists = append(d.val.lists, d.recsAt(errs, segs, off)...)
		}
	}
}

// checkEnum checks an object's or array's value v against the enum.
func (d *Decoder) checkEnum(r *validate.Rules, v any, segs []fieldpath.Segment, off int64) []valRec {
	if !r.HasEnum() || r.CheckEnum(v) {
		return nil
	}
	return d.recsAt(r.AppendEnumErrors(nil, string(fieldpath.AppendPath(nil, segs)), v), segs, off)
}

// enumValue reads back the value of frame f from the output (see
// valFrame.enum), and restores the output kind. It is read first without
// allocating (readBack); if it passes the checks that need it
// (wholeChecksPass), valid is true and v nil: the callers skip those
// checks. Otherwise v is read again by jsonvalue.Parse, for the errors to
// keep. items is an array's number of items (-1 for an object): a
// list-type map of at most one item is valid when that item is an object
// or null (the server's validateListMap looks for duplicates only past
// one item), and is not read at all.
func (d *Decoder) enumValue(f *valFrame, items int) (v any, valid bool) {
	// the value is in d.buf: PruneReader holds the output while it is
	// open (valState.holds); the test only keeps a broken invariant from
	// becoming a panic
	start := f.enumStart - d.strm.flushed
	if start >= 0 && start <= len(d.buf) {
		data := d.buf[start:]
		d.val.rb.reset()
		if t := f.tree; t != nil && t.ListType == "map" && !t.HasJunctors() && !f.rules.HasEnum() &&
			(uint(items) <= 1 && oneMapItem(data) || d.listMapValid(data, t.ListMapKeys)) {
			valid = true // at most one item, or the keys read from the output without the items
		} else if view, _, ok := d.val.rb.value(data, 0); ok && d.wholeChecksPass(f, view) {
			valid = true
		} else {
			v, _ = jsonvalue.Parse(data)
		}
	}
	d.endWhole(f)
	return v, valid
}

// oneMapItem reports whether b, an array of at most one item as the
// decoder wrote it, is empty or holds an object or null.
func oneMapItem(b []byte) bool {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	i = skipWS(b, i+1)
	return i < len(b) && (b[i] == ']' || b[i] == '{' || b[i] == 'n')
}

// endWhole restores the output kind after a value read whole (see
// valFrame.enum).
func (d *Decoder) endWhole(f *valFrame) {
	d.val.holds--
	if f.wasNone {
		d.out = outNone
		d.truncate(f.enumStart)
		f.wasNone = false
	}
}

// listMapValid reports whether b, an array as the decoder wrote it, is a
// valid list-type map with the key fields keys (no two items with the same
// key), reading only the items' key fields. It is false when it finds a
// duplicate and when it cannot tell so: an item that is neither an object
// nor null, a key field that is not a string without escapes, a member
// name with escapes, more than 128 items (compared pairwise); the caller
// then reads the whole value (enumValue).
func (d *Decoder) listMapValid(b []byte, keys []string) bool {
	const maxItems = 128
	spans := d.val.keySpans[:0] // per item, per key field: its value, or {-1, -1}
	defer func() { d.val.keySpans = spans[:0] }()
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return true
	}
	for n := 0; ; n++ {
		if n == maxItems || i >= len(b) {
			return false
		}
		base := len(spans)
		for range keys {
			spans = append(spans, [2]int{-1, -1})
		}
		switch b[i] {
		case 'n':
			i += len("null")
		case '{':
			i = skipWS(b, i+1)
			for i < len(b) && b[i] != '}' {
				end := stringEndUnchecked(b, i+1)
				name := b[i+1 : end-1]
				if bytes.IndexByte(name, '\\') >= 0 {
					return false
				}
				i = skipWS(b, skipWS(b, end)+1) // past ':'
				vend := valueEnd(b, i)
				for k, key := range keys {
					if string(name) == key {
						if b[i] != '"' || bytes.IndexByte(b[i:vend], '\\') >= 0 {
							return false
						}
						spans[base+k] = [2]int{i, vend}
					}
				}
				if i = skipWS(b, vend); i < len(b) && b[i] == ',' {
					i = skipWS(b, i+1)
				}
			}
			i++ // past '}'
		default:
			return false
		}
		item := spans[base:]
		for j := 0; j < base; j += len(keys) {
			if sameKey(b, spans[j:j+len(keys)], item) {
				return false
			}
		}
		if i = skipWS(b, i); i < len(b) && b[i] == ',' {
			i = skipWS(b, i+1)
			continue
		}
		return i < len(b) && b[i] == ']'
	}
}

// sameKey reports whether two items' key fields (listMapValid's spans of
// b) are the same: the same fields present with the same strings.
func sameKey(b []byte, x, y [][2]int) bool {
	for k := range x {
		if (x[k][0] < 0) != (y[k][0] < 0) || x[k][0] >= 0 && !bytes.Equal(b[x[k][0]:x[k][1]], b[y[k][0]:y[k][1]]) {
			return false
		}
	}
	return true
}

func (d *Decoder) recsAt(errs jperrors.FieldErrors, segs []fieldpath.Segment, off int64) []valRec {
	if len(errs) == 0 {
		return nil
	}
	ptr := string(fieldpath.AppendPointer(nil, segs))
	out := make([]valRec, len(errs))
	for i, e := range errs {
		out[i] = valRec{err: e, offset: off, ptr: ptr}
	}
	return out
}

// validateMetadata validates normalised metadata (meta, its JSON) of the
// root (step 8b) or of an embedded resource (8e, reported when the
// resource closes), whose value starts at off; an embedded resource's
// metadata also against what its schema declares there (p.Declared's
// tree; the schema step). spans, when not nil, locates meta's fields
// (the fast path wrote them), which are then not read again.
func (d *Decoder) validateMetadata(root bool, p *schemaauto.Prop, meta []byte, spans *objectmeta.FieldSpans, off int64) {
	if root {
		d.validateRootMetadata(meta, spans, off)
		return
	}
	d.validateEmbeddedMetadata(p, meta, spans, off)
}

// metaCheck is objectmeta's check of normalised metadata (see
// validateMetadata).
func (d *Decoder) metaCheck(meta []byte, spans *objectmeta.FieldSpans, o objectmeta.ValidateOptions) jperrors.FieldErrors {
	if spans != nil {
		return d.val.metaV.ValidateIndexed(meta, spans, o, nil)
	}
	return d.val.metaV.Validate(meta, o, nil)
}

// quickMetadata is memberByRole's step for the root's metadata with
// validation on, for the usual metadata: read in one pass by the fast
// metadata path (scanFastMeta, the scanner at its value), checked by
// quickRootMeta on the strings as read, and written only when the output
// wants it. Metadata that fails quickRootMeta takes the full checks
// (quickMetadataFull). It reports false, having read nothing, for
// metadata of any other form, or under a schema that declares the name or
// defaults inside the metadata: memberByRole's general step reads those.
func (d *Decoder) quickMetadata(mr *memberRead, write bool) bool {
	if !d.scanning || d.a.DeclaresName() || !d.rawMetaOK(mr.p) {
		return false
	}
	// (metadata's metaOffsets and indexed are its own: it resets them)
	if _, ok := d.scanFastMeta(); !ok {
		return false
	}
	// the name, a slice of d.doc, is read if the document fails: where it
	// lies, stored without a write barrier
	name := d.meta.fields[objectmeta.FieldName]
	d.val.meta, d.val.nameAt, d.val.nameLen = true, cap(d.doc)-cap(name), len(name)
	start, quick := len(d.buf), d.quickRootMeta()
	if write || !quick {
		d.appendFastMeta()
	}
	if !quick {
		d.quickMetadataFull(mr, start, write)
	}
	return true
}

// quickMetadataFull is quickMetadata for metadata that quickRootMeta
// could not call valid: objectmeta's checks on the metadata as written
// from start, cut again when the output does not want it.
//
//go:noinline
func (d *Decoder) quickMetadataFull(mr *memberRead, start int, write bool) {
	if mr.nameOff < 0 {
		mr.nameOff = d.nameStart(mr.rawName)
	}
	d.val.nameLen, d.val.metaJSON = 0, append(d.val.metaJSON[:0], d.buf[start:]...)
	d.validateRootMetadataFull(d.buf[start:], &d.meta.spans, mr.nameOff)
	if !write {
		d.buf = d.buf[:start]
	}
}

// validateRootMetadata is validateMetadata for the root's: the usual
// metadata, which the fast path read, passes quickRootMeta.
func (d *Decoder) validateRootMetadata(meta []byte, spans *objectmeta.FieldSpans, off int64) {
	d.val.meta = true
	d.val.metaJSON = append(d.val.metaJSON[:0], meta...) // its name is read if the document fails
	if d.a.DeclaresName() {
		d.validateDeclaredName(meta, off)
	}
	if spans != nil && d.quickRootMeta() {
		return
	}
	d.validateRootMetadataFull(meta, spans, off)
}

// validateRootMetadataFull runs objectmeta's checks on the root's
// metadata that quickRootMeta could not call valid.
//
//go:noinline
func (d *Decoder) validateRootMetadataFull(meta []byte, spans *objectmeta.FieldSpans, off int64) {
	errs := d.metaCheck(meta, spans, objectmeta.ValidateOptions{})
	d.val.rootMeta = append(d.val.rootMeta, d.recsAt(errs, d.find.path, off)...)
}

// validateEmbeddedMetadata is validateMetadata for an embedded
// resource's.
func (d *Decoder) validateEmbeddedMetadata(p *schemaauto.Prop, meta []byte, spans *objectmeta.FieldSpans, off int64) {
	check := func(o objectmeta.ValidateOptions) jperrors.FieldErrors { return d.metaCheck(meta, spans, o) }
	if p != nil && isSchema(p.Declared) {
		if t := d.a.Tree(p.Declared); t != nil {
			d.declaredMetadata(t, meta, off)
		}
	}
	f := &d.val.frames[len(d.val.frames)-1]
	// valid metadata, the usual case, is checked without rendering its path
	if check(objectmeta.ValidateOptions{Embedded: true}) == nil {
		return
	}
	errs := check(objectmeta.ValidateOptions{Embedded: true, Path: d.fieldPath()})
	f.meta = append(f.meta, d.recsAt(errs, d.find.path, off)...)
}

// quickRootMeta reports whether the root metadata that the fast metadata
// path just read and wrote (d.meta: its fields raw, its labels,
// annotations and finalizers in kvs) surely passes objectmeta's checks:
// the quick pass of ValidateIndexed on the same strings, as they were
// read, field by field and entry by entry, so that nothing is located or
// scanned again. On false ValidateIndexed decides.
func (d *Decoder) quickRootMeta() bool {
	f := &d.meta.fields
	if f[objectmeta.FieldOwnerReferences] != nil || f[objectmeta.FieldManagedFields] != nil {
		return false
	}
	if gn := f[objectmeta.FieldGenerateName]; gn != nil {
		if !objectmeta.QuickNames(gn, f[objectmeta.FieldName]) {
			return false
		}
	} else if !objectmeta.QuickName(f[objectmeta.FieldName]) {
		return false
	}
	if ns := f[objectmeta.FieldNamespace]; ns != nil && !objectmeta.QuickNamespace(ns) {
		return false
	}
	if g := f[objectmeta.FieldGeneration]; len(g) > 0 && g[0] == '-' {
		return false
	}
	size, n := 2, 0 // the annotations' text: {"k":"v",...}
	for i := range d.meta.kvs {
		e := &d.meta.kvs[i]
		switch e.field {
		case objectmeta.FieldLabels:
			if !objectmeta.QuickLabel(e.key, e.value) {
				return false
			}
		case objectmeta.FieldAnnotations:
			if !objectmeta.QuickAnnotationKey(e.key) {
				return false
			}
			size += len(e.key) + 1 + len(e.value)
			n++
		case objectmeta.FieldFinalizers:
			if !objectmeta.QuickFinalizer(e.value) {
				return false
			}
		default:
			return false
		}
	}
	if n > 1 {
		size += n - 1
	}
	return size <= objectmeta.MaxAnnotationsText
}

// declaredMetadata checks an embedded resource's normalised metadata (its
// JSON) against the schema declared for it, t: read back without
// allocating, and read again to render the errors only when it fails.
// The walk is at the metadata key.
func (d *Decoder) declaredMetadata(t *validate.Tree, meta []byte, off int64) {
	d.val.rb.reset()
	if view, _, ok := d.val.rb.value(meta, 0); ok && len(t.Validate("", view)) == 0 {
		return
	}
	v, err := jsonvalue.Parse(meta)
	if err != nil {
		return // the metadata as written back always parses
	}
	errs := t.Validate(string(fieldpath.AppendPath(nil, d.find.path)), v)
	d.val.errs = append(d.val.errs, d.recsAt(errs, d.find.path, off)...)
}

// noteTypeMeta records an embedded resource's apiVersion or kind string.
func (d *Decoder) noteTypeMeta(role schemaauto.PropRole, raw jsontext.Value) {
	f := &d.val.frames[len(d.val.frames)-1]
	start := len(d.val.tm)
	d.val.tm = append(d.val.tm, d.scalarOf(raw).Str...)
	if role == schemaauto.RoleAPIVersion {
		f.hasAV, f.av = true, [2]int{start, len(d.val.tm)}
	} else {
		f.hasKind, f.kind = true, [2]int{start, len(d.val.tm)}
	}
}

// closeEmbedded reports an embedded resource's TypeMeta and metadata
// errors (step 8e), its path d.find.path[:top].
func (d *Decoder) closeEmbedded(f *valFrame, segs []fieldpath.Segment, off int64) {
	// checked first on views of the strings, without the path; rendered
	// again only when it fails
	tm := d.val.tm
	view := func(r [2]int) string { return unsafe.String(unsafe.SliceData(tm[r[0]:]), r[1]-r[0]) }
	if objectmeta.ValidateEmbeddedTypeMeta("", f.hasAV, view(f.av), f.hasKind, view(f.kind), nil) != nil {
		path := string(fieldpath.AppendFieldPath(nil, segs))
		str := func(r [2]int) string { return string(tm[r[0]:r[1]]) }
		errs := objectmeta.ValidateEmbeddedTypeMeta(path, f.hasAV, str(f.av), f.hasKind, str(f.kind), nil)
		d.val.embedded = append(d.val.embedded, d.recsAt(errs, segs, off)...)
	}
	d.val.embedded = append(d.val.embedded, f.meta...)
	d.val.tm = d.val.tm[:f.tmBase]
}

// rootMetadataName is the root metadata's name ("" if absent): the one
// quickMetadata noted in the document doc, unquoted, or the name member
// of v.metaJSON.
func (v *valState) rootMetadataName(doc []byte) string {
	if v.nameLen > 0 {
		name := doc[v.nameAt : v.nameAt+v.nameLen]
		if bytes.IndexByte(name, '\\') < 0 {
			return string(name[1 : len(name)-1])
		}
		u, _ := jsontext.AppendUnquote(nil, name)
		return string(u)
	}
	s, _ := metadataString(v.metaJSON, "name")
	return s
}

// metadataString is a string member of normalised metadata (valid JSON,
// as the decoder writes it). It allocates only for a value with escapes.
func metadataString(meta []byte, field string) (string, bool) {
	v, ok := topString(meta, field)
	if !ok {
		return "", false
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1]), true
	}
	u, err := jsontext.AppendUnquote(nil, v)
	return string(u), err == nil
}

// topString finds the string member field of a JSON object (valid JSON)
// and returns its quoted value, without allocating.
func topString(obj []byte, field string) ([]byte, bool) {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil, false
	}
	i++
	for {
		i = skipWS(obj, i)
		if i >= len(obj) || obj[i] != '"' {
			return nil, false
		}
		end := stringEndUnchecked(obj, i+1)
		key := obj[i+1 : end-1]
		i = skipWS(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return nil, false
		}
		i = skipWS(obj, i+1)
		start := i
		i = valueEnd(obj, i)
		if string(key) == field { // keys with escapes never match: metadata's do not have any
			if obj[start] == '"' {
				return obj[start:i], true
			}
			return nil, false
		}
		i = skipWS(obj, i)
		if i >= len(obj) || obj[i] != ',' {
			return nil, false
		}
		i++
	}
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// valueEnd is the end of the valid JSON value at b[i:].
func valueEnd(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = stringEndUnchecked(b, i+1) - 1
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return i
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

// statusDropped reports whether a root member is the status that a create
// drops before validating, the version having the status subresource.
func (d *Decoder) statusDropped(name []byte) bool {
	e := d.res.Entry
	return string(name) == "status" && e != nil && e.StatusSubresource()
}

// invalid reports whether the document has validation errors.
func (v *valState) invalid() bool {
	return len(v.rootMeta)+len(v.errs)+len(v.scale)+len(v.embedded)+len(v.lists) > 0
}

// validateDeclaredName checks the root metadata's name and generateName
// against the schema's own declarations of them, if any (the schema step
// validates them like any property: kubernetes-validation.md 4.4).
func (d *Decoder) validateDeclaredName(meta []byte, off int64) {
	e := d.res.Entry
	if e == nil {
		return
	}
	for j, field := range [...]string{"name", "generateName"} {
		st := d.a.DeclaredName(j)
		if st == schemaauto.NoState {
			continue
		}
		r := d.a.Rules(st)
		if r == nil {
			continue
		}
		q, ok := topString(meta, field)
		if !ok {
			continue
		}
		v := q[1 : len(q)-1]
		if bytes.IndexByte(v, '\\') >= 0 {
			v, _ = jsontext.AppendUnquote(nil, q)
		}
		sc := validate.Scalar{Kind: validate.String, Str: v}
		if r.Check(sc) {
			continue
		}
		segs := []fieldpath.Segment{{Kind: fieldpath.Key, Name: []byte("metadata")}, {Kind: fieldpath.Key, Name: []byte(field)}}
		d.val.errs = append(d.val.errs, d.recsAt(r.AppendErrors(nil, "metadata."+field, sc), segs, off)...)
	}
}

// smallInt reports whether a literal is an integer of at most 9 digits
// (within the int32 range).
func smallInt(raw jsontext.Value) bool {
	if len(raw) > 0 && raw[0] == '-' {
		raw = raw[1:]
	}
	if len(raw) == 0 || len(raw) > 9 {
		return false
	}
	for _, c := range raw {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// literalKinds is the kind of a literal as a validate.Kind bit; a number
// is Int when it surely is one (no '.', 'e' or 'E', at most 18 bytes: an
// int64), else Int or Float (both bits, which must then both pass).
func literalKinds(raw jsontext.Value) uint8 {
	if k := rawKind(raw); k != validate.Int {
		return 1 << k
	}
	if len(raw) > 18 {
		return 1<<validate.Int | 1<<validate.Float
	}
	for _, c := range raw {
		if c == '.' || c == 'e' || c == 'E' {
			return 1<<validate.Int | 1<<validate.Float
		}
	}
	return 1 << validate.Int
}

// scaleTarget is one path of the scale subresource: specReplicasPath,
// statusReplicasPath or labelSelectorPath, as the CRD writes it
// (".spec.replicas"), and the value found there.
type scaleTarget struct {
	path  string
	segs  []string
	found bool
	depth int // the segments of the path where the value was found: all, or a prefix that holds no object
	kind  validate.Kind
	raw   []byte // a scalar's text
	shown string // an object's or array's value as the server prints it (Go's %v), when read back
	shows bool
}

// startScaleOf sets up the scale subresource's paths for the document, of
// a version with a scale subresource, sc (at its root, once the CRD
// version is known: openValRoot).
//
//go:noinline
func (d *Decoder) startScaleOf(sc *schemaauto.Scale) {
	d.val.scaleCur = 0
	for i, p := range [3]string{sc.SpecReplicasPath, sc.StatusReplicasPath, sc.LabelSelectorPath} {
		t := &d.val.scaleAt[i]
		t.path, t.found, t.raw = p, false, t.raw[:0]
		t.segs = sc.Segments(i)
		if len(t.segs) > 0 {
			d.val.scaleCur |= 1 << i // the root's path, empty, is a prefix of each
		}
	}
	d.val.scaleOn = true
}

// scaleMatch is the paths of the mask m (the parent's: valState.scaleCur)
// whose segment at the current path's depth is the path's last one: the
// paths that the value at the current path lies on, at their end or on
// the way.
func (d *Decoder) scaleMatch(m uint8) uint8 {
	n := len(d.find.path)
	if m == 0 || n == 0 || d.find.path[n-1].Kind == fieldpath.Index {
		return 0
	}
	last := d.find.path[n-1].Name
	for i := range d.val.scaleAt {
		if m&(1<<i) != 0 && string(last) != d.val.scaleAt[i].segs[n-1] { // len(segs) >= n: m is the parent's
			m &^= 1 << i
		}
	}
	return m
}

// scaleChildOf is the mask of an object at the current path whose parent's
// mask is m: the paths it lies on that run on below it.
func (d *Decoder) scaleChildOf(m uint8) uint8 {
	m = d.scaleMatch(m)
	for i := range d.val.scaleAt {
		if len(d.val.scaleAt[i].segs) <= len(d.find.path) {
			m &^= 1 << i
		}
	}
	return m
}

// scaleValue notes a value at one of the scale paths, or at a prefix of
// one (where the server's accessor wants an object): a scalar's text (raw),
// or the kind of a container. An object or null at a prefix is no error.
// It returns the paths (a bit each) whose error shows the container, which
// the caller reads back (scaleContainer). Only the paths of the parent's
// mask (scaleCur) can reach the value: for them, the path up to the
// parent matches, and only the value's own segment is compared.
func (d *Decoder) scaleValue(kind validate.Kind, raw []byte) (show uint8) {
	m, n := d.scaleMatch(d.val.scaleCur), len(d.find.path)
	for i := range d.val.scaleAt {
		t := &d.val.scaleAt[i]
		switch {
		case m&(1<<i) == 0:
		case n < len(t.segs) && (kind == validate.Object || kind == validate.Null):
			// the accessor goes on into an object, and finds nothing in null
		default:
			t.found, t.depth, t.kind, t.raw, t.shows = true, n, kind, append(t.raw[:0], raw...), false
			if kind == validate.Object || kind == validate.Array {
				show |= 1 << i
			}
		}
	}
	return show
}

// retractScale forgets what the scale paths found in the value of a
// member that a later duplicate replaces (the member the path's first n
// segments name): the last value wins, and may be pruned.
func (d *Decoder) retractScale(n int) {
	for i := range d.val.scaleAt {
		t := &d.val.scaleAt[i]
		if !t.found || t.depth < n {
			continue
		}
		match := true
		for j, seg := range d.find.path[:n] {
			if seg.Kind == fieldpath.Index || string(seg.Name) != t.segs[j] {
				match = false
				break
			}
		}
		if match {
			t.found = false
		}
	}
}

// scaleContainer decodes an object or array in state s that the scale
// paths show (the bits of show), and keeps the server's rendering of it:
// Go's %v of the value as pruned and defaulted. The value is written (and
// cut again when the output does not want it) and read back (PruneReader
// holds it: valState.holds).
func (d *Decoder) scaleContainer(show uint8, s schemaauto.StateID, k jsontext.Kind) (any, error) {
	wasNone, start := d.out == outNone, d.outPos()
	if wasNone {
		d.out = outBytes
	}
	d.val.holds++
	v, err := d.container(s, k, false)
	d.val.holds--
	if err == nil {
		val, ok := v, d.out == outMap
		if i := start - d.strm.flushed; !ok && i >= 0 && i <= len(d.buf) { // held: always in d.buf
			var perr error
			val, perr = jsonvalue.Parse(d.buf[i:])
			ok = perr == nil
		}
		if ok {
			shown := fmt.Sprint(val)
			for i := range d.val.scaleAt {
				if show&(1<<i) != 0 {
					d.val.scaleAt[i].shown, d.val.scaleAt[i].shows = shown, true
				}
			}
		}
	}
	if wasNone {
		d.out = outNone
		d.truncate(start)
	}
	return v, err
}

// closeScale checks the values at the scale paths as the server does
// (step 8d: ValidateScaleSpec, ValidateScaleStatus): replica counts must
// be int64 in [0, 2147483647], the label selector a string.
func (d *Decoder) closeScale(off int64) {
	for i := range d.val.scaleAt {
		t := &d.val.scaleAt[i]
		if !t.found {
			continue
		}
		var err *jperrors.FieldError
		goType := "float64"
		switch t.kind {
		case validate.Null:
			goType = "<nil>"
		case validate.Bool:
			goType = "bool"
		case validate.String:
			goType = "string"
		case validate.Object:
			goType = "map[string]interface {}"
		case validate.Array:
			goType = "[]interface {}"
		default:
			if validate.ParseNumber(t.raw).Kind == validate.Int {
				goType = "int64"
			}
		}
		want := "int64"
		if i == 2 {
			want = "string"
		}
		if t.depth < len(t.segs) {
			// a prefix of the path holds no object: the accessor stops
			// there (and names the whole path, as the server does)
			want = "map[string]interface{}"
		}
		switch {
		case goType != want || t.depth < len(t.segs):
			// rendered as the server's %v of the value, only now
			var shown string
			switch t.kind {
			case validate.Null:
				shown = "<nil>"
			case validate.Bool:
				shown = string(t.raw)
			case validate.String:
				shown = string(d.scalarOf(t.raw).Str)
			case validate.Object:
				shown = "map[...]"
				if t.shows {
					shown = t.shown
				}
			case validate.Array:
				shown = "[...]"
				if t.shows {
					shown = t.shown
				}
			default:
				if v := validate.ParseNumber(t.raw); v.Kind == validate.Int {
					shown = strconv.FormatInt(v.Int, 10)
				} else {
					shown = strconv.FormatFloat(v.Float, 'g', -1, 64)
				}
			}
			var bad any = int64(0)
			if i == 2 {
				bad = ""
			}
			err = &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: t.path, BadValue: bad,
				Detail: "." + strings.Join(t.segs, ".") + " accessor error: " + shown + " is of the type " + goType + ", expected " + want}
		case i < 2:
			n := validate.ParseNumber(t.raw).Int
			if n < 0 {
				err = &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: t.path, BadValue: n, Detail: "should be a non-negative integer"}
			} else if n > math.MaxInt32 {
				err = &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: t.path, BadValue: n, Detail: "should be less than or equal to 2147483647"}
			}
		}
		if err != nil {
			d.val.scale = append(d.val.scale, valRec{err: err, offset: off, ptr: "/" + strings.Join(t.segs, "/")})
		}
	}
}

// rawKind is the validate.Kind of a literal (a number: Int, which
// closeScale parses again).
func rawKind(raw []byte) validate.Kind {
	switch raw[0] {
	case 'n':
		return validate.Null
	case 't', 'f':
		return validate.Bool
	case '"':
		return validate.String
	}
	return validate.Int
}
