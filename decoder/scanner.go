package decoder

import (
	"errors"
	"io"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// The scanner: the fast path's token reader for JSON text. It reads d.doc
// in place, checks what it reads against the rules of the fast path's
// jsontext.Decoder (RFC 8259 grammar, UTF-8 without surrogate halves, no
// duplicate names, depth), and gives up with errUnscanned at the first
// thing it does not accept. The document is then decoded again by a
// jsontext.Decoder, which reports the syntax error where the reference
// does, or finds the duplicate that sends it to the slow path. So the
// scanner may refuse more than jsontext does, never less.
//
// Names and scalars are checked as they are read. Duplicate names are found
// by the walk (object), with the slow path's per-object bookkeeping. A
// value read whole (an unknown or preserved subtree, the raw metadata) is
// checked in one pass by scanComposite, which also finds its duplicates.
//
// The grammar is a state after the last token and a stack of open
// containers:
//
//	state       after              next token
//	sStart      nothing            a value
//	sObjOpen    {                  a name or }
//	sArrOpen    [                  a value or ]
//	sColon      a name             : then a value
//	sAfter      a value, } or ]    , then a name (object) or a value (array);
//	                               the container's closer; the end (top level)
//
// snext finds the next token for the state and caches its answer (tfrom,
// tat, tallow) until the position moves, so that a peek and the read after
// it skip whitespace once. The walk's loops use fused steps that know their
// context: sreadName (an object's separator, name and colon, leaving the
// scanner before the value with snext's answer set), speekElem (an array's
// separator and next element) and sclose (the closer either of them found).

// errUnscanned: the scanner does not accept the document; jsontext decodes
// it again.
var errUnscanned = errors.New("jsonprune: the scanner does not accept the document")

// errDuplicate: the scanner found a duplicate name; the slow path decodes
// the document again.
var errDuplicate = errors.New("jsonprune: duplicate name")

// errDeep: a value read whole on the fast path nests deeper than a
// MaxDepth below jsontext's own limit; the slow path, which enters every
// container, decodes the document again and reports it where it is.
var errDeep = errors.New("jsonprune: a raw value nests deeper than MaxDepth")

const (
	sStart uint8 = iota
	sObjOpen
	sArrOpen
	sColon
	sAfter
	sName // scanComposite: a name must follow
)

// what the next token may be
const (
	allowName uint8 = 1 << iota
	allowValue
	allowClose
	allowEnd
)

// wsByte marks JSON whitespace.
var wsByte = [256]bool{' ': true, '\t': true, '\r': true, '\n': true}

// numberByte marks the bytes a number token is made of.
var numberByte = [256]bool{'-': true, '+': true, '.': true, 'e': true, 'E': true,
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true}

// plainByte marks the bytes of a string that need no attention.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// sstart starts the scanner at the beginning of d.doc.
func (d *Decoder) sstart() {
	d.tpos, d.tfrom, d.tstate, d.tstack = 0, -1, sStart, d.tstack[:0]
}

// snext finds the next token after the separator the state requires, and
// what it may be. It returns -1 where the text breaks the grammar.
func (d *Decoder) snext() int {
	if d.tpos == d.tfrom {
		return d.tat
	}
	doc, i := d.doc, d.tpos
	for i < len(doc) && wsByte[doc[i]] {
		i++
	}
	var allow uint8
	switch d.tstate {
	case sStart:
		allow = allowValue
	case sObjOpen:
		allow = allowName | allowClose
	case sArrOpen:
		allow = allowValue | allowClose
	case sColon:
		allow = allowValue
		if i >= len(doc) || doc[i] != ':' {
			i = -1
			break
		}
		for i++; i < len(doc) && wsByte[doc[i]]; i++ {
		}
	case sAfter:
		switch {
		case len(d.tstack) == 0:
			allow = allowEnd
		case i < len(doc) && doc[i] == ',':
			allow = allowValue
			if d.tstack[len(d.tstack)-1] == '{' {
				allow = allowName
			}
			for i++; i < len(doc) && wsByte[doc[i]]; i++ {
			}
		default:
			allow = allowClose
		}
	}
	d.tfrom, d.tat, d.tallow = d.tpos, i, allow
	return i
}

func (d *Decoder) speek() jsontext.Kind {
	i := d.snext()
	if i < 0 || i >= len(d.doc) {
		return 0
	}
	return tokenKind[d.doc[i]]
}

// tokenKind is the kind of the token a byte starts (0: none).
var tokenKind = func() (t [256]jsontext.Kind) {
	for _, c := range []byte(`"{}[]ntf`) {
		t[c] = jsontext.Kind(c)
	}
	for _, c := range []byte("-0123456789") {
		t[c] = '0'
	}
	return t
}()

// speekElem is the array loop's peek for the scanner: it skips the
// separator before the next element and returns the element's kind, or ']'
// at the array's end (left for sclose), leaving snext's answer for the
// read that follows. Where the text breaks the grammar it returns 0, and
// the read that follows fails.
func (d *Decoder) speekElem() jsontext.Kind {
	doc, i := d.doc, d.tpos
	for i < len(doc) && wsByte[doc[i]] {
		i++
	}
	if i >= len(doc) {
		return 0
	}
	c := doc[i]
	switch {
	case d.tstate == sAfter && c == ',':
		for i++; i < len(doc) && wsByte[doc[i]]; i++ {
		}
		// after the comma: a value must follow
		d.tpos, d.tstate = i, sStart
		if i >= len(doc) || doc[i] == ']' {
			return 0
		}
		c = doc[i]
	case c == ']' && (d.tstate == sAfter || d.tstate == sArrOpen):
		d.tfrom, d.tat, d.tallow = d.tpos, i, allowClose
		return ']'
	case d.tstate != sArrOpen:
		return 0
	}
	d.tfrom, d.tat, d.tallow = d.tpos, i, allowValue
	return tokenKind[c]
}

// sreadName is the object loop's peek and name read in one, for the
// scanner: it skips the separator before the next member, and reads its
// name and the colon after it, leaving the scanner before the value (whose
// position snext then knows). At the object's end it returns nil, the
// closer left for sclose. Escapes are told by d.tesc.
func (d *Decoder) sreadName() (jsontext.Value, error) {
	doc, i := d.doc, d.tpos
	for i < len(doc) && wsByte[doc[i]] {
		i++
	}
	if i >= len(doc) {
		return nil, errUnscanned
	}
	c := doc[i]
	switch d.tstate {
	case sObjOpen:
	case sAfter:
		if c == ',' {
			for i++; i < len(doc) && wsByte[doc[i]]; i++ {
			}
			if i >= len(doc) || doc[i] != '"' {
				return nil, errUnscanned
			}
			c = '"'
		} else if c != '}' {
			return nil, errUnscanned
		}
	default:
		return nil, errUnscanned
	}
	if c == '}' {
		d.tfrom, d.tat, d.tallow = d.tpos, i, allowClose
		return nil, nil
	}
	if c != '"' {
		return nil, errUnscanned
	}
	end, esc, ok := scanString(doc, i+1)
	if !ok {
		return nil, errUnscanned
	}
	j := end
	for j < len(doc) && wsByte[doc[j]] {
		j++
	}
	if j >= len(doc) || doc[j] != ':' {
		return nil, errUnscanned
	}
	for j++; j < len(doc) && wsByte[doc[j]]; j++ {
	}
	d.tesc = esc
	// before the value: the state after the colon, with snext's answer
	d.tpos, d.tstate = j, sStart
	d.tfrom, d.tat, d.tallow = j, j, allowValue
	return jsontext.Value(doc[i:end]), nil
}

// sopen reads the '{' or '[' that the walk peeked, and reports whether it
// could: the peek left snext's answer, and the depth allows one more
// level. Otherwise sreadToken reads it (and fails).
func (d *Decoder) sopen() bool {
	if d.tpos != d.tfrom || d.tallow&allowValue == 0 || d.tat >= len(d.doc) || len(d.tstack)+1 >= d.cfg.maxDepth {
		return false
	}
	c := d.doc[d.tat]
	if c != '{' && c != '[' {
		return false
	}
	d.tstack = append(d.tstack, c)
	d.tpos, d.tstate = d.tat+1, sObjOpen
	if c == '[' {
		d.tstate = sArrOpen
	}
	return true
}

// sclose reads the closer that sreadName or speekElem found (its '}' or
// ']' matches the open container: the walk reads objects and arrays
// whole).
func (d *Decoder) sclose() {
	d.tstack = d.tstack[:len(d.tstack)-1]
	d.tpos, d.tstate = d.tat+1, sAfter
}

// sreadToken reads a delimiter, or the end of the document.
func (d *Decoder) sreadToken() (jsontext.Token, error) {
	i := d.snext()
	if i < 0 {
		return jsontext.Token{}, errUnscanned
	}
	if i >= len(d.doc) {
		if d.tallow&allowEnd != 0 {
			d.tpos = i
			return jsontext.Token{}, io.EOF
		}
		return jsontext.Token{}, errUnscanned
	}
	switch c := d.doc[i]; c {
	case '{', '[':
		if d.tallow&allowValue == 0 || len(d.tstack)+1 >= d.cfg.maxDepth {
			return jsontext.Token{}, errUnscanned
		}
		d.tstack = append(d.tstack, c)
		d.tpos, d.tstate = i+1, sObjOpen
		if c == '[' {
			d.tstate = sArrOpen
			return jsontext.BeginArray, nil
		}
		return jsontext.BeginObject, nil
	case '}', ']':
		n := len(d.tstack)
		if d.tallow&allowClose == 0 || d.tstack[n-1] != c-2 { // '{'+2 == '}', '['+2 == ']'
			return jsontext.Token{}, errUnscanned
		}
		d.tstack = d.tstack[:n-1]
		d.tpos, d.tstate = i+1, sAfter
		if c == ']' {
			return jsontext.EndArray, nil
		}
		return jsontext.EndObject, nil
	}
	return jsontext.Token{}, errUnscanned
}

// sreadValue reads a name, a scalar or a whole object or array.
func (d *Decoder) sreadValue() (jsontext.Value, error) {
	doc := d.doc
	i := d.snext()
	if i < 0 || i >= len(doc) {
		return nil, errUnscanned
	}
	name := d.tallow&allowName != 0
	if !name && d.tallow&allowValue == 0 {
		return nil, errUnscanned
	}
	end, ok := i+1, true
	d.tbig = false
	switch c := doc[i]; {
	case c == '"':
		end, d.tesc, ok = scanString(doc, i+1)
	case name:
		ok = false
	case c == '{' || c == '[':
		if end = d.scanComposite(i); end == dupInComposite {
			return nil, errDuplicate
		}
		ok = end > 0
	case c == 'n':
		end, ok = i+4, hasPrefixAt(doc, i, "null")
	case c == 't':
		end, ok = i+4, hasPrefixAt(doc, i, "true")
	case c == 'f':
		end, ok = i+5, hasPrefixAt(doc, i, "false")
	default:
		for end = i; end < len(doc) && numberByte[doc[end]]; end++ {
		}
		ok = validNumber(doc[i:end])
		d.tbig = bigNumber(doc[i:end])
	}
	if !ok {
		return nil, errUnscanned
	}
	d.tpos, d.tstate = end, sAfter
	if name {
		d.tstate = sColon
	}
	return jsontext.Value(doc[i:end]), nil
}

// dupInComposite is scanComposite's result for a duplicate name.
const dupInComposite = -2

func hasPrefixAt(doc []byte, i int, lit string) bool {
	return len(doc)-i >= len(lit) && string(doc[i:i+len(lit)]) == lit
}

// scanString checks the string whose contents start at i: it returns the
// index after its closing quote, whether it has escapes, and whether it is
// valid (no control characters, valid escapes and surrogate pairs, UTF-8).
func scanString(doc []byte, i int) (end int, esc, ok bool) {
	start, ascii := i, true
	for i < len(doc) {
		for i < len(doc) && plainByte[doc[i]] {
			i++
		}
		if i >= len(doc) {
			break
		}
		switch c := doc[i]; {
		case c == '"':
			return i + 1, esc, ascii || utf8.Valid(doc[start:i])
		case c == '\\':
			esc = true
			if i+1 >= len(doc) {
				return i, esc, false
			}
			switch doc[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				r, ok := hex4(doc, i+2)
				if !ok || (r >= 0xDC00 && r <= 0xDFFF) {
					return i, esc, false // a lone low surrogate
				}
				i += 6
				if r >= 0xD800 && r <= 0xDBFF { // a high surrogate: its low half must follow
					if i+1 >= len(doc) || doc[i] != '\\' || doc[i+1] != 'u' {
						return i, esc, false
					}
					if r2, ok := hex4(doc, i+2); !ok || r2 < 0xDC00 || r2 > 0xDFFF {
						return i, esc, false
					}
					i += 6
				}
			default:
				return i, esc, false
			}
		case c < 0x20:
			return i, esc, false
		default: // >= 0x80
			ascii = false
			i++
		}
	}
	return i, esc, false
}

// hex4 decodes the 4 hex digits at i.
func hex4(doc []byte, i int) (rune, bool) {
	if len(doc)-i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range doc[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// validNumber checks RFC 8259's number grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false
		}
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false
		}
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		}
	}
	return i == len(b)
}

// bigNumber reports whether checkNumber must look at a valid number: one
// with an exponent, or of 309 bytes or more.
func bigNumber(b []byte) bool {
	if len(b) >= 309 {
		return true
	}
	for _, c := range b {
		if c == 'e' || c == 'E' {
			return true
		}
	}
	return false
}

// scanComposite checks the object or array at d.doc[i] whole, in one pass
// (grammar, strings, numbers, literals, depth, duplicate names), and
// returns the index after it, dupInComposite for a duplicate name, or -1
// where it gives up: an invalid value, an escaped name, or an object with
// more than maxScanNames names (left to jsontext's name index rather than
// compared one by one).
func (d *Decoder) scanComposite(i int) int {
	const maxScanNames = 64
	doc := d.doc
	stack, levels, names := d.vstack[:0], d.vlevels[:0], d.vnames[:0]
	defer func() { d.vstack, d.vlevels, d.vnames = stack[:0], levels[:0], names[:0] }()
	st := sStart
	for {
		for i < len(doc) && wsByte[doc[i]] {
			i++
		}
		if i >= len(doc) {
			return -1
		}
		c := doc[i]
		switch st {
		case sColon:
			if c != ':' {
				return -1
			}
			i++
			st = sStart
			continue
		case sAfter:
			top := stack[len(stack)-1]
			switch {
			case c == ',':
				i++
				st = sStart
				if top == '{' {
					st = sName
				}
				continue
			case c == top+2: // the matching closer
				i++
				stack = stack[:len(stack)-1]
				if top == '{' {
					names = names[:levels[len(levels)-1]]
					levels = levels[:len(levels)-1]
				}
				if len(stack) == 0 {
					return i
				}
				continue
			}
			return -1
		case sObjOpen:
			if c == '}' {
				st = sAfter // which closes it
				continue
			}
			st = sName
			continue
		case sArrOpen:
			if c == ']' {
				st = sAfter
				continue
			}
			st = sStart
			continue
		case sName:
			if c != '"' {
				return -1
			}
			end, esc, ok := scanString(doc, i+1)
			lvl := levels[len(levels)-1]
			if !ok || esc || len(names)-lvl >= 2*maxScanNames {
				return -1
			}
			name := doc[i+1 : end-1]
			for k := lvl; k < len(names); k += 2 {
				if string(doc[names[k]:names[k+1]]) == string(name) {
					return dupInComposite
				}
			}
			names = append(names, i+1, end-1)
			i, st = end, sColon
			continue
		}
		// a value
		switch {
		case c == '{' || c == '[':
			if len(d.tstack)+len(stack)+1 >= d.cfg.maxDepth {
				return -1
			}
			stack = append(stack, c)
			i++
			st = sArrOpen
			if c == '{' {
				levels = append(levels, len(names))
				st = sObjOpen
			}
			continue
		case c == '"':
			end, _, ok := scanString(doc, i+1)
			if !ok {
				return -1
			}
			i = end
		case c == 'n' || c == 't':
			if !hasPrefixAt(doc, i, "null") && !hasPrefixAt(doc, i, "true") {
				return -1
			}
			i += 4
		case c == 'f':
			if !hasPrefixAt(doc, i, "false") {
				return -1
			}
			i += 5
		default:
			end := i
			for end < len(doc) && numberByte[doc[end]] {
				end++
			}
			if !validNumber(doc[i:end]) {
				return -1
			}
			if bigNumber(doc[i:end]) {
				d.tbig = true
			}
			i = end
		}
		st = sAfter
	}
}

// rawTokens reads the tokens of a value that was checked already (the raw
// metadata, for fastMeta), with jsontext.Decoder's methods: it only finds
// token boundaries.
type rawTokens struct {
	b   []byte
	pos int
}

func (r *rawTokens) reset(b []byte) { r.b, r.pos = b, 0 }

// next is the index of the next token (whitespace and separators skipped).
func (r *rawTokens) next() int {
	i := r.pos
	for i < len(r.b) && (wsByte[r.b[i]] || r.b[i] == ',' || r.b[i] == ':') {
		i++
	}
	return i
}

func (r *rawTokens) PeekKind() jsontext.Kind {
	i := r.next()
	if i >= len(r.b) {
		return 0
	}
	switch c := r.b[i]; c {
	case '"', '{', '}', '[', ']', 'n', 't', 'f':
		return jsontext.Kind(c)
	}
	return '0'
}

func (r *rawTokens) ReadToken() (jsontext.Token, error) {
	i := r.next()
	if i >= len(r.b) {
		return jsontext.Token{}, io.ErrUnexpectedEOF
	}
	r.pos = i + 1
	switch r.b[i] {
	case '{':
		return jsontext.BeginObject, nil
	case '}':
		return jsontext.EndObject, nil
	case '[':
		return jsontext.BeginArray, nil
	case ']':
		return jsontext.EndArray, nil
	}
	return jsontext.Token{}, errUnscanned
}

func (r *rawTokens) ReadValue() (jsontext.Value, error) {
	b, i := r.b, r.next()
	if i >= len(b) {
		return nil, io.ErrUnexpectedEOF
	}
	end := i + 1
	switch b[i] {
	case '"':
		end = stringEndUnchecked(b, i+1)
	case '{', '[':
		for depth := 1; end < len(b) && depth > 0; end++ {
			switch b[end] {
			case '"':
				end = stringEndUnchecked(b, end+1) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
		}
	case 'n', 't':
		end = i + 4
	case 'f':
		end = i + 5
	default:
		for end < len(b) && numberByte[b[end]] {
			end++
		}
	}
	end = min(end, len(b))
	r.pos = end
	return jsontext.Value(b[i:end]), nil
}

// stringEndUnchecked is the index after the closing quote of the string
// whose contents start at i.
func stringEndUnchecked(doc []byte, i int) int {
	for ; i < len(doc); i++ {
		switch doc[i] {
		case '"':
			return i + 1
		case '\\':
			i++
		}
	}
	return i
}
