package main

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// jsonSplitter cuts a JSON stream into units without decoding it: it only
// follows strings and brackets, so it runs far faster than the decoder, and
// the workers find the syntax errors, with their positions.
//
// Documents are top-level values, concatenated or one per line. A top-level
// object with an "items" array is a list, as kubectl's unstructured decoder
// reads it: the list's start (up to "["), each item and its end (from "]")
// are units of their own, so a list of any size streams.
//
// In line mode (JSON Lines, see detectLineMode) a newline inside a value
// ends it: a broken line is one broken document and the next line is read
// afresh. Otherwise a value ends where its brackets balance.
type jsonSplitter struct {
	s        *source
	bl       *builder
	lineMode bool
	doc      int
	spaced   bool // the current unit has white space outside its strings
}

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

func splitJSON(s *source, bl *builder) {
	j := &jsonSplitter{s: s, bl: bl}
	s.fillTo(1 << 16)
	j.lineMode = detectLineMode(s.buf[s.pos:s.end])
	for !bl.stop {
		c, ok, _ := j.space(false)
		if !ok {
			break
		}
		p := s.here()
		if c == '{' {
			j.object(p)
		} else {
			j.begin()
			j.value()
			j.commit(unit{kind: unitDoc, item: -1, pos: p})
		}
		j.doc++
	}
	if msg := s.readError(); msg != "" {
		bl.fail(unit{doc: -1, item: -1, pos: s.here()}, msg)
	}
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

// begin starts a unit at the next byte.
func (j *jsonSplitter) begin() {
	j.s.begin()
	j.spaced = false
}

// commit makes the bytes read since begin a unit, or reports it too large.
func (j *jsonSplitter) commit(u unit) {
	u.doc, u.spaced, j.spaced = j.doc, j.spaced, false
	if !j.s.finish() {
		j.bl.fail(u, tooLarge(j.s.maxDoc))
		return
	}
	j.bl.commit(u, -1)
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
				i++
				continue
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
// content are appended to name (up to 64 of them).
func (j *jsonSplitter) str(name []byte) ([]byte, bool) {
	s := j.s
	s.pos++
	esc := false
	for {
		for ; s.pos < s.end; s.pos++ {
			c := s.buf[s.pos]
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				s.pos++
				return name, true
			case c == '\n':
				if j.lineMode {
					return name, false
				}
				s.newline(s.pos)
			}
			if len(name) < 64 {
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

// object reads a top-level object: a document, or a list if it has an
// "items" array.
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
			j.commit(unit{kind: unitDoc, item: -1, pos: p})
			return
		case ',', ':':
			s.pos++
			continue
		case '"':
			n, ok := j.str(name[:0])
			if !ok {
				j.commit(unit{kind: unitDoc, item: -1, pos: p})
				return
			}
			if c, ok, cut = j.space(true); !ok || cut {
				j.commit(unit{kind: unitDoc, item: -1, pos: p})
				return
			}
			if c == ':' {
				s.pos++
				if c, ok, cut = j.space(true); !ok || cut {
					j.commit(unit{kind: unitDoc, item: -1, pos: p})
					return
				}
			}
			if c == '[' && isItems(n) {
				j.list(p)
				return
			}
		}
		if !j.value() {
			break
		}
	}
	j.commit(unit{kind: unitDoc, item: -1, pos: p}) // cut: the decoder says where
}

// list reads a list from its "[": the start of the list is a unit, each
// item another, and the rest of the list from "]" the last. A syntax error
// between items is reported where it is, and reading goes on.
func (j *jsonSplitter) list(p position) {
	s := j.s
	s.pos++ // [
	s.finish()
	j.bl.commit(unit{kind: unitHead, doc: j.doc, item: -1, pos: p}, -1)
	n, wantValue := 0, true
	for {
		c, ok, cut := j.space(true)
		if !ok || cut {
			j.syntax("invalid JSON: the list ends before its items do")
			j.bl.commit(unit{kind: unitTail, doc: j.doc, item: -1, pos: s.here()}, 0)
			return
		}
		if c == ']' {
			if wantValue && n > 0 {
				j.syntax("invalid JSON: a comma before ']' in the list's items")
			}
			break
		}
		if c == ',' {
			if wantValue {
				j.syntax("invalid JSON: a comma where an item was expected in the list")
			}
			s.pos++
			wantValue = true
			continue
		}
		if !wantValue {
			j.syntax("invalid JSON: a comma is missing between two items of the list")
		}
		ip := s.here()
		j.begin()
		complete := j.value()
		j.commit(unit{kind: unitItem, item: n, pos: ip})
		n++
		wantValue = false
		if !complete {
			j.syntax("invalid JSON: the list ends before its items do")
			j.bl.commit(unit{kind: unitTail, doc: j.doc, item: -1, pos: s.here()}, 0)
			return
		}
	}
	// the rest of the object, from "]"
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
	s.finish()
	j.bl.commit(unit{kind: unitTail, doc: j.doc, item: -1, pos: tp}, -1)
}

// syntax reports a syntax error of a list between its items, here.
func (j *jsonSplitter) syntax(msg string) {
	j.bl.fail(unit{doc: j.doc, item: -1, pos: j.s.here()}, msg)
}
