package stream

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// The JSON splitter cuts a JSON stream into documents without decoding it:
// it only follows strings and brackets, so it runs far faster than a
// decoder, which finds the syntax errors, with their positions.
//
// Documents are top-level values, concatenated or one per line. A top-level
// object with an "items" array is a List, as kubectl's unstructured decoder
// reads it: the List's start (up to "["), each item and its end (from "]")
// are pieces of their own, so a List of any size streams.
//
// In line mode (JSON Lines, see detectLineMode) a newline inside a value
// ends it: a broken line is one broken document and the next line is read
// afresh. Otherwise a value ends where its brackets balance.
//
// The state machine. A step is one call of jsonSplitter.step; each step
// cuts at most one piece (and the errors before it):
//
//	state        next byte (after white space)    action, next state
//	jsonTop      end of stream                    the read error, if any; done
//	jsonTop      "{"                              read the object's members (object):
//	                                                - up to a member "items" whose value starts
//	                                                  with "[": cut ListHead, jsonItems
//	                                                - else to its "}" (or a cut): cut Whole, jsonTop
//	jsonTop      anything else                    read one value (value): cut Whole, jsonTop
//	jsonItems    end of stream or line            ErrSyntax, an empty ListTail, jsonTop
//	jsonItems    "]"                              read to the object's "}": cut ListTail, jsonTop
//	                                              (after a trailing ",": ErrSyntax first)
//	jsonItems    ","                              (where an item was expected: ErrSyntax) skip it
//	jsonItems    anything else                    (no "," since the last item: ErrSyntax)
//	                                              read one value: cut ListItem; if the value
//	                                              was cut short: ErrSyntax, an empty ListTail, jsonTop
//
// Reading a value (value, nested, str) classifies bytes with the tables
// below: in a string, only '"', '\\' and '\n' stop the scan; between
// strings, only quotes, brackets and '\n' (and, until the first white space
// is seen, white space: that sets Spaced). A '\n' ends the value in line
// mode; otherwise it counts a line.
type jsonSplitter struct {
	r        *Reader
	s        *source
	state    jsonState
	lineMode bool
	doc      int
	spaced   bool // the current piece has white space outside its strings

	// the List being read (jsonItems)
	n         int  // items cut
	wantValue bool // an item is expected next (after "[" or ",")
}

type jsonState uint8

const (
	jsonTop   jsonState = iota // between documents
	jsonItems                  // between the items of a List
)

// Byte classes of the scanner's inner loops.
var (
	stopInString [256]bool // ends a run of plain string bytes
	stopInValue  [256]bool // ends a run of bytes between strings
	stopAtSpace  [256]bool // the same, and white space
)

func init() {
	for _, c := range []byte{'"', '\\', '\n'} {
		stopInString[c] = true
	}
	for _, c := range []byte{'"', '{', '[', '}', ']', '\n'} {
		stopInValue[c] = true
		stopAtSpace[c] = true
	}
	for _, c := range []byte{' ', '\t', '\r'} {
		stopAtSpace[c] = true
	}
}

func (j *jsonSplitter) init(r *Reader) {
	*j = jsonSplitter{r: r, s: &r.src}
	s := j.s
	s.fillTo(1 << 16)
	j.lineMode = detectLineMode(s.buf[s.pos:min(s.end, s.pos+s.window)]) // at most a window: the same with any reads
}

// step cuts the next piece.
func (j *jsonSplitter) step() {
	if j.state == jsonItems {
		j.item()
		return
	}
	s := j.s
	c, ok, _ := j.space(false)
	if !ok {
		j.r.end()
		return
	}
	p := s.here()
	if c == '{' {
		j.object(p)
		if j.state == jsonItems {
			return // the same document goes on
		}
	} else {
		j.begin()
		j.value()
		j.commit(Whole, -1, p)
	}
	j.doc++
}

// detectLineMode decides from the first bytes of a stream whether it is
// JSON Lines: yes if its first line holds complete values (or is longer
// than the window: a newline is then rare anyway), no for a value written
// over several lines (kubectl, jq). A JSON Lines stream whose first line is
// broken is read as concatenated values.
func detectLineMode(w []byte) bool {
	nl := bytes.IndexByte(w, '\n')
	if nl < 0 {
		return true
	}
	depth, inStr, esc := 0, false, false
	for _, c := range w[:nl] {
		switch {
		case esc:
			esc = false
		case inStr:
			if c == '\\' {
				esc = true
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		}
	}
	return depth <= 0 && !inStr
}

// begin starts a piece at the next byte.
func (j *jsonSplitter) begin() {
	j.s.begin()
	j.spaced = false
}

// commit cuts the bytes read since begin as a Whole document or an item at
// p, or reports them too large.
func (j *jsonSplitter) commit(part Part, item int, p position) {
	spaced := j.spaced
	j.spaced = false
	start, end, ok := j.s.finish()
	if !ok {
		j.r.tooLarge(j.doc, item, p)
		return
	}
	j.r.emit(Document{Format: JSON, Part: part, Index: j.doc, Item: item, Offset: p.offset, Line: p.line,
		Column: p.col, FirstLine: p.line, Spaced: spaced}, start, end)
}

// cutPart cuts a List's head or tail from start to pos (empty if it was too
// large): it is checked by whoever decodes it.
func (j *jsonSplitter) cutPart(part Part, p position, start, end int64) {
	j.r.emit(Document{Format: JSON, Part: part, Index: j.doc, Item: -1, Offset: p.offset, Line: p.line,
		Column: p.col, FirstLine: p.line}, start, end)
}

// space skips white space; in a value (inValue) in line mode, a newline
// ends it: cut is true and the newline is left unread. ok is false at the
// end of the stream.
func (j *jsonSplitter) space(inValue bool) (c byte, ok, cut bool) {
	s := j.s
	for {
		for ; s.pos < s.end; s.pos++ {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\r':
				j.spaced = j.spaced || inValue
			case '\n':
				if inValue && j.lineMode {
					return c, true, true
				}
				j.spaced = j.spaced || inValue
				s.newline(s.pos)
			default:
				return c, true, false
			}
		}
		if !s.more() {
			return 0, false, false
		}
	}
}

// value reads one value from the next byte (not white space): an object
// or array to its closing bracket, a string, or a scalar (which might be
// garbage: at least one byte is read). It returns false when the value was
// cut by the end of the stream or, in line mode, of the line.
func (j *jsonSplitter) value() bool {
	s := j.s
	switch s.buf[s.pos] {
	case '{', '[':
		return j.nested()
	case '"':
		_, ok := j.str(nil)
		return ok
	case '}', ']', ',', ':':
		s.pos++
		return true
	}
	for {
		for ; s.pos < s.end; s.pos++ {
			switch s.buf[s.pos] {
			case ' ', '\t', '\r', '\n', '{', '}', '[', ']', ',', ':', '"':
				return true
			}
		}
		if !s.more() {
			return true
		}
	}
}

// nested reads an object or array until its brackets balance.
func (j *jsonSplitter) nested() bool {
	s := j.s
	depth, inStr, esc := 0, false, false
	stop := &stopAtSpace // until the first white space
	if j.spaced {
		stop = &stopInValue
	}
	for {
		buf := s.buf[:s.end]
		i := s.pos
		for i < len(buf) {
			if esc {
				esc = false
				if buf[i] != '\n' { // an escaped newline is still a newline
					i++
					continue
				}
			}
			if inStr {
				for i < len(buf) && !stopInString[buf[i]] {
					i++
				}
				if i == len(buf) {
					break
				}
				switch buf[i] {
				case '"':
					inStr = false
				case '\\':
					esc = true
				case '\n':
					if j.lineMode {
						s.pos = i
						return false
					}
					s.newline(i)
				}
				i++
				continue
			}
			for i < len(buf) && !stop[buf[i]] {
				i++
			}
			if i == len(buf) {
				break
			}
			switch buf[i] {
			case ' ', '\t', '\r':
				j.spaced, stop = true, &stopInValue
			case '"':
				inStr = true
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.pos = i + 1
					return true
				}
			case '\n':
				if j.lineMode {
					s.pos = i
					return false
				}
				j.spaced, stop = true, &stopInValue
				s.newline(i)
			}
			i++
		}
		s.pos = i
		if !s.more() {
			return false
		}
	}
}

// str reads a string from its opening quote; the first bytes of its
// content are appended to name, up to its capacity (nil: none; never an
// allocation).
func (j *jsonSplitter) str(name []byte) ([]byte, bool) {
	s := j.s
	s.pos++
	esc := false
	for {
		for ; s.pos < s.end; s.pos++ {
			c := s.buf[s.pos]
			switch {
			case c == '\n': // escaped or not
				if j.lineMode {
					return name, false
				}
				s.newline(s.pos)
				esc = false
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				s.pos++
				return name, true
			}
			if len(name) < cap(name) {
				name = append(name, c)
			}
		}
		if !s.more() {
			return name, false
		}
	}
}

// isItems reports whether a member name (its raw content) is "items".
func isItems(raw []byte) bool {
	if string(raw) == "items" {
		return true
	}
	if bytes.IndexByte(raw, '\\') < 0 || len(raw) >= 64 {
		return false
	}
	q := append(append([]byte{'"'}, raw...), '"')
	u, err := jsontext.AppendUnquote(nil, q)
	return err == nil && string(u) == "items"
}

// object reads a top-level object at p: a Whole document, or the head of a
// List if it has an "items" array (the state is then jsonItems).
func (j *jsonSplitter) object(p position) {
	s := j.s
	j.begin()
	s.pos++ // {
	var name [64]byte
	for {
		c, ok, cut := j.space(true)
		if !ok || cut {
			break
		}
		switch c {
		case '}':
			s.pos++
			j.commit(Whole, -1, p)
			return
		case ',', ':':
			s.pos++
			continue
		case '"':
			n, ok := j.str(name[:0])
			if !ok {
				j.commit(Whole, -1, p)
				return
			}
			if c, ok, cut = j.space(true); !ok || cut {
				j.commit(Whole, -1, p)
				return
			}
			if c == ':' {
				s.pos++
				if c, ok, cut = j.space(true); !ok || cut {
					j.commit(Whole, -1, p)
					return
				}
			}
			if c == '[' && isItems(n) {
				s.pos++ // [
				start, end, _ := s.finish()
				j.cutPart(ListHead, p, start, end)
				j.state, j.n, j.wantValue = jsonItems, 0, true
				return
			}
		}
		if !j.value() {
			break
		}
	}
	j.commit(Whole, -1, p) // cut: the decoder says where
}

// item reads a List from after its "[" or an item to its next item, or its
// end. A syntax error between items is reported where it is, and reading
// goes on.
func (j *jsonSplitter) item() {
	s := j.s
	c, ok, cut := j.space(true)
	if !ok || cut {
		j.cutShort()
		return
	}
	switch {
	case c == ']':
		if j.wantValue && j.n > 0 {
			j.syntax("invalid JSON: a comma before ']' in the list's items")
		}
		j.tail()
		return
	case c == ',':
		if j.wantValue {
			j.syntax("invalid JSON: a comma where an item was expected in the list")
		}
		s.pos++
		j.wantValue = true
		return
	case !j.wantValue:
		j.syntax("invalid JSON: a comma is missing between two items of the list")
	}
	ip := s.here()
	j.begin()
	complete := j.value()
	j.commit(ListItem, j.n, ip)
	j.n++
	j.wantValue = false
	if !complete {
		j.cutShort()
	}
}

// cutShort ends a List cut by the end of the stream or, in line mode, of
// the line: an error, then an empty tail.
func (j *jsonSplitter) cutShort() {
	j.syntax("invalid JSON: the list ends before its items do")
	p := j.s.here()
	j.cutPart(ListTail, p, p.offset, p.offset)
	j.endList()
}

// tail reads the rest of a List's object, from "]".
func (j *jsonSplitter) tail() {
	s := j.s
	tp := s.here()
	s.begin()
	s.pos++ // ]
	for {
		c, ok, cut := j.space(true)
		if !ok || cut {
			break
		}
		if c == '}' {
			s.pos++
			break
		}
		if !j.value() {
			break
		}
	}
	start, end, _ := s.finish()
	j.cutPart(ListTail, tp, start, end)
	j.endList()
}

func (j *jsonSplitter) endList() {
	j.state = jsonTop
	j.doc++
}

// syntax reports a syntax error of a List between its items, here.
func (j *jsonSplitter) syntax(msg string) {
	p := j.s.here()
	j.r.fail(&Error{Index: j.doc, Item: -1, Offset: p.offset, Line: p.line, Column: p.col, Msg: msg, Err: ErrSyntax})
}
