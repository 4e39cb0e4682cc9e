package decoder

import (
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/internal/jsonvalue"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// The scanner: the fast path's token reader for JSON text. It reads the document
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
// next finds the next token for the state and caches its answer (from,
// at, allow) until the position moves, so that a peek and the read after
// it skip whitespace once. The walk's loops use fused steps that know their
// context: readName (an object's separator, name and colon, leaving the
// scanner before the value with next's answer set), peekElem (an array's
// separator and next element) and close (the closer either of them found).
// PeekKind, ReadToken, ReadValue and SkipValue are jsontext.Decoder's
// methods, so that the pre-scan reads the scanner as it reads jsontext.

// scanner is the state of the scanner over one document.
type scanner struct {
	doc      []byte
	maxDepth int // MaxDepth: the scanner gives up one level before it

	pos   int    // the position after the last token read
	state uint8  // what the last token read was (sStart...)
	stack []byte // the open containers: '{' or '['
	// next's cache: the next token after from is at at, and may be allow
	from, at int
	allow    uint8
	esc      bool // the last string read has escapes
	// big: the last value read holds a number with an exponent or of 309
	// bytes or more, one checkNumbers must look at
	big bool

	// scanComposite's stacks: open containers, the first name of each
	// open object, the names (start and end offsets)
	vstack          []byte
	vlevels, vnames []int
}

// valueKind is the kind of the value readName or peekElem stopped before
// (0 at the end of the document).
func (s *scanner) valueKind() jsontext.Kind {
	if s.at >= len(s.doc) {
		return 0
	}
	return tokenKind[s.doc[s.at]]
}

// SkipValue skips the next value.
func (s *scanner) SkipValue() error { _, err := s.ReadValue(); return err }

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

// sstart starts the scanner at the beginning of s.doc.
func (s *scanner) reset(doc []byte, maxDepth int) {
	s.doc, s.maxDepth = doc, maxDepth
	s.pos, s.from, s.state, s.stack = 0, -1, sStart, s.stack[:0]
}

// next finds the next token after the separator the state requires, and
// what it may be. It returns -1 where the text breaks the grammar.
func (s *scanner) next() int {
	if s.pos == s.from {
		return s.at
	}
	doc, i := s.doc, s.pos
	for i < len(doc) && wsByte[doc[i]] {
		i++
	}
	var allow uint8
	switch s.state {
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
		case len(s.stack) == 0:
			allow = allowEnd
		case i < len(doc) && doc[i] == ',':
			allow = allowValue
			if s.stack[len(s.stack)-1] == '{' {
				allow = allowName
			}
			for i++; i < len(doc) && wsByte[doc[i]]; i++ {
			}
		default:
			allow = allowClose
		}
	}
	s.from, s.at, s.allow = s.pos, i, allow
	return i
}

func (s *scanner) PeekKind() jsontext.Kind {
	i := s.next()
	if i < 0 || i >= len(s.doc) {
		return 0
	}
	return tokenKind[s.doc[i]]
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

// peekElem is the array loop's peek for the scanner: it skips the
// separator before the next element and returns the element's kind, or ']'
// at the array's end (left for close), leaving next's answer for the
// read that follows. Where the text breaks the grammar it returns 0, and
// the read that follows fails.
func (s *scanner) peekElem() jsontext.Kind {
	doc, i := s.doc, s.pos
	for i < len(doc) && wsByte[doc[i]] {
		i++
	}
	if i >= len(doc) {
		return 0
	}
	c := doc[i]
	switch {
	case s.state == sAfter && c == ',':
		for i++; i < len(doc) && wsByte[doc[i]]; i++ {
		}
		// after the comma: a value must follow
		s.pos, s.state = i, sStart
		if i >= len(doc) || doc[i] == ']' {
			return 0
		}
		c = doc[i]
	case c == ']' && (s.state == sAfter || s.state == sArrOpen):
		s.from, s.at, s.allow = s.pos, i, allowClose
		return ']'
	case s.state != sArrOpen:
		return 0
	}
	s.from, s.at, s.allow = s.pos, i, allowValue
	return tokenKind[c]
}

// readName is the object loop's peek and name read in one, for the
// scanner: it skips the separator before the next member, and reads its
// name and the colon after it, leaving the scanner before the value (whose
// position next then knows). At the object's end it returns nil, the
// closer left for close. Escapes are told by s.esc.
func (s *scanner) readName() (jsontext.Value, error) {
	doc, i := s.doc, s.pos
	if i < len(doc) && doc[i] <= ' ' { // compact text has no whitespace
		i = skipSpace(doc, i)
	}
	if i >= len(doc) {
		return nil, errUnscanned
	}
	switch c := doc[i]; {
	case c == ',' && s.state == sAfter:
		if i++; i < len(doc) && doc[i] <= ' ' {
			i = skipSpace(doc, i)
		}
		if i >= len(doc) || doc[i] != '"' {
			return nil, errUnscanned
		}
	case c == '}' && (s.state == sAfter || s.state == sObjOpen):
		s.from, s.at, s.allow = s.pos, i, allowClose
		return nil, nil
	case c != '"' || s.state != sObjOpen:
		return nil, errUnscanned
	}
	end, esc, ok := scanQuick(doc, i+1)
	if !ok {
		return nil, errUnscanned
	}
	j := end
	if j < len(doc) && doc[j] <= ' ' {
		j = skipSpace(doc, j)
	}
	if j >= len(doc) || doc[j] != ':' {
		return nil, errUnscanned
	}
	if j++; j < len(doc) && doc[j] <= ' ' {
		j = skipSpace(doc, j)
	}
	s.esc = esc
	// before the value: the state after the colon, with next's answer
	s.pos, s.state = j, sStart
	s.from, s.at, s.allow = j, j, allowValue
	return jsontext.Value(doc[i:end]), nil
}

// matchName is readName for a name the caller predicts: if the next
// member's name is exactly the plain name of p (printable ASCII without '"' or
// '\', schemaauto.Prop.Plain) followed by the colon, it returns where the
// name's opening quote is and where the value after the colon starts;
// otherwise at is -1 and nothing is read. takeName then moves the scanner
// before the value, as readName leaves it.
func (s *scanner) matchName(p *schemaauto.Prop) (start, at int) {
	name := p.Name
	doc, i := s.doc, s.pos
	if i < len(doc) && doc[i] <= ' ' {
		i = skipSpace(doc, i)
	}
	if i >= len(doc) {
		return 0, -1
	}
	switch doc[i] {
	case ',':
		if s.state != sAfter {
			return 0, -1
		}
		if i++; i < len(doc) && doc[i] <= ' ' {
			i = skipSpace(doc, i)
		}
	case '"':
		if s.state != sObjOpen {
			return 0, -1
		}
	default:
		return 0, -1
	}
	j := i + 1 + len(name) // the closing quote
	if j+1 >= len(doc) || doc[i] != '"' {
		return 0, -1
	}
	if len(name) < 8 && len(doc)-i > 8 { // sameName's usual case, in one test
		if (binary.LittleEndian.Uint64(doc[i+1:])^p.Head)&p.HeadMask != 0 {
			return 0, -1
		}
	} else if !sameName(doc, i+1, j, p) {
		return 0, -1
	}
	if j++; doc[j] != ':' {
		if doc[j] > ' ' {
			return 0, -1
		}
		if j = skipSpace(doc, j); j >= len(doc) || doc[j] != ':' {
			return 0, -1
		}
	}
	if j++; j < len(doc) && doc[j] <= ' ' {
		j = skipSpace(doc, j)
	}
	return i, j
}

// sameName reports whether doc[i:j] is the plain name of p and doc[j] is
// a quote (j < len(doc)): a word at a time (Prop.Head, HeadMask, Tail),
// where the text holds 8 bytes from i.
func sameName(doc []byte, i, j int, p *schemaauto.Prop) bool {
	if len(doc)-i < 8 {
		return doc[j] == '"' && string(doc[i:j]) == p.Name
	}
	if (binary.LittleEndian.Uint64(doc[i:])^p.Head)&p.HeadMask != 0 {
		return false
	}
	if j-i <= 8 {
		return j-i < 8 || doc[j] == '"' // the quote is in Head when the name is shorter
	}
	return doc[j] == '"' && binary.LittleEndian.Uint64(doc[j-8:]) == p.Tail &&
		(j-i <= 16 || string(doc[i+8:j-8]) == p.Name[8:len(p.Name)-8])
}

// takeName reads the name matchName matched: the scanner is left before
// the value at at, with next's answer, as readName leaves it.
func (s *scanner) takeName(at int) {
	s.esc = false
	s.pos, s.state = at, sStart
	s.from, s.at, s.allow = at, at, allowValue
}

// readString reads the string value that readName or peekElem stopped
// before (the kind their caller saw), as ReadValue would.
func (s *scanner) readString() (jsontext.Value, error) {
	i := s.at
	end, esc, ok := scanQuick(s.doc, i+1)
	if !ok {
		return nil, errUnscanned
	}
	s.esc, s.big = esc, false
	s.pos, s.state = end, sAfter
	return jsontext.Value(s.doc[i:end]), nil
}

// open reads the '{' or '[' that the walk peeked, and reports whether it
// could: the peek left next's answer, and the depth allows one more
// level. Otherwise ReadToken reads it (and fails).
func (s *scanner) open() bool {
	if s.pos != s.from || s.allow&allowValue == 0 || s.at >= len(s.doc) || len(s.stack)+1 >= s.maxDepth {
		return false
	}
	c := s.doc[s.at]
	if c != '{' && c != '[' {
		return false
	}
	s.stack = append(s.stack, c)
	s.pos, s.state = s.at+1, sObjOpen
	if c == '[' {
		s.state = sArrOpen
	}
	return true
}

// close reads the closer that readName or peekElem found (its '}' or
// ']' matches the open container: the walk reads objects and arrays
// whole).
func (s *scanner) close() {
	s.stack = s.stack[:len(s.stack)-1]
	s.pos, s.state = s.at+1, sAfter
}

// ReadToken reads a delimiter, or the end of the document.
func (s *scanner) ReadToken() (jsontext.Token, error) {
	i := s.next()
	if i < 0 {
		return jsontext.Token{}, errUnscanned
	}
	if i >= len(s.doc) {
		if s.allow&allowEnd != 0 {
			s.pos = i
			return jsontext.Token{}, io.EOF
		}
		return jsontext.Token{}, errUnscanned
	}
	switch c := s.doc[i]; c {
	case '{', '[':
		if s.allow&allowValue == 0 || len(s.stack)+1 >= s.maxDepth {
			return jsontext.Token{}, errUnscanned
		}
		s.stack = append(s.stack, c)
		s.pos, s.state = i+1, sObjOpen
		if c == '[' {
			s.state = sArrOpen
			return jsontext.BeginArray, nil
		}
		return jsontext.BeginObject, nil
	case '}', ']':
		n := len(s.stack)
		if s.allow&allowClose == 0 || s.stack[n-1] != c-2 { // '{'+2 == '}', '['+2 == ']'
			return jsontext.Token{}, errUnscanned
		}
		s.stack = s.stack[:n-1]
		s.pos, s.state = i+1, sAfter
		if c == ']' {
			return jsontext.EndArray, nil
		}
		return jsontext.EndObject, nil
	}
	return jsontext.Token{}, errUnscanned
}

// ReadValue reads a name, a scalar or a whole object or array.
func (s *scanner) ReadValue() (jsontext.Value, error) {
	doc := s.doc
	i := s.next()
	if i < 0 || i >= len(doc) {
		return nil, errUnscanned
	}
	name := s.allow&allowName != 0
	if !name && s.allow&allowValue == 0 {
		return nil, errUnscanned
	}
	end, ok := i+1, true
	s.big = false
	switch c := doc[i]; {
	case c == '"':
		end, s.esc, ok = scanQuick(doc, i+1)
	case name:
		ok = false
	case c == '{' || c == '[':
		if end = s.scanComposite(i); end == dupInComposite {
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
		s.big = jsonvalue.MayOverflow(doc[i:end])
	}
	if !ok {
		return nil, errUnscanned
	}
	s.pos, s.state = end, sAfter
	if name {
		s.state = sColon
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
		i = plainRunWide(doc, i)
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

// plainRun returns the index of the first byte at or after i that is not
// plainByte (a quote, a backslash, a control character or a byte of a
// multi-byte UTF-8 sequence), or len(doc). It tests 8 bytes at a time
// (SWAR, specialBytes).
func plainRun(doc []byte, i int) int {
	for ; i+8 <= len(doc); i += 8 {
		if m := specialBytes(binary.LittleEndian.Uint64(doc[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	return plainTail(doc, i)
}

// specialBytes flags (with its high bit) each byte of the word x (8 bytes
// of a string, little-endian) that is not plainByte: < 0x20, '"' or '\\'
// (each test flags only bytes < 0x80: (t &^ x) & 0x80), or >= 0x80 (x &
// 0x80); (t &^ x) | x == t | x. A test may also flag bytes after (above) a
// byte it flags rightly, through the borrow of its subtraction, but never
// one before it: the lowest flagged byte is the first special one.
func specialBytes(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return ((x - ones*0x20) | (x ^ ones*'"' - ones) | (x ^ ones*'\\' - ones) | x) & highs
}

// plainRunWide is plainRun for long strings: it passes over 32 bytes at a
// time while none is special, and lets plainRun find the first that is.
func plainRunWide(doc []byte, i int) int {
	for ; i+32 <= len(doc); i += 32 {
		w := doc[i : i+32 : i+32]
		if specialBytes(binary.LittleEndian.Uint64(w))|specialBytes(binary.LittleEndian.Uint64(w[8:]))|
			specialBytes(binary.LittleEndian.Uint64(w[16:]))|specialBytes(binary.LittleEndian.Uint64(w[24:])) != 0 {
			break
		}
	}
	return plainRun(doc, i)
}

// plainTail is plainRun's byte loop, for the last bytes of doc.
func plainTail(doc []byte, i int) int {
	for i < len(doc) && plainByte[doc[i]] {
		i++
	}
	return i
}

// scanQuick is scanString for the usual string, of plain ASCII: it reads
// it with plainRun (inlined) and leaves anything else to scanString.
func scanQuick(doc []byte, i int) (end int, esc, ok bool) {
	if i = plainRun(doc, i); i < len(doc) && doc[i] == '"' {
		return i + 1, false, true
	}
	return scanString(doc, i) // what plainRun passed over is plain ASCII
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

// scanComposite checks the object or array at s.doc[i] whole, in one pass
// (grammar, strings, numbers, literals, depth, duplicate names), and
// returns the index after it, dupInComposite for a duplicate name, or -1
// where it gives up: an invalid value, an escaped name, or an object with
// more than maxScanNames names (left to jsontext's name index rather than
// compared one by one).
func (s *scanner) scanComposite(i int) int {
	const maxScanNames = 64
	doc := s.doc
	stack, levels, names := s.vstack[:0], s.vlevels[:0], s.vnames[:0]
	defer func() { s.vstack, s.vlevels, s.vnames = stack[:0], levels[:0], names[:0] }()
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
			end, esc, ok := scanQuick(doc, i+1)
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
			if len(s.stack)+len(stack)+1 >= s.maxDepth {
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
			end, _, ok := scanQuick(doc, i+1)
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
			if jsonvalue.MayOverflow(doc[i:end]) {
				s.big = true
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
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(doc); i += 8 { // 8 bytes at a time, as plainRun
		x := binary.LittleEndian.Uint64(doc[i:])
		q, b := x^(ones*'"'), x^(ones*'\\')
		if ((q-ones)&^q|(b-ones)&^b)&highs != 0 {
			break
		}
	}
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
