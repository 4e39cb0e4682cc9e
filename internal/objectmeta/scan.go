package objectmeta

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// A small allocation-free reader of the normalised metadata JSON that
// [Validator] checks. It accepts any well-formed JSON (whitespace, escapes),
// not just the decoder's compact rendering, and reports malformed input by
// setting bad instead of panicking.

type span struct{ start, end int } // a raw JSON value: data[start:end]

type scan struct {
	data []byte
	pos  int
	bad  bool
}

func (s *scan) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, 0 at the end.
func (s *scan) peek() byte {
	s.ws()
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

func (s *scan) expect(c byte) bool {
	if s.peek() != c {
		s.bad = true
		return false
	}
	s.pos++
	return true
}

// value skips one value and returns its span.
func (s *scan) value() span {
	c := s.peek()
	start := s.pos
	switch c {
	case '{':
		s.pos++
		if s.peek() == '}' {
			s.pos++
			break
		}
		for !s.bad {
			s.str()
			s.expect(':')
			s.value()
			if s.peek() == ',' {
				s.pos++
				continue
			}
			s.expect('}')
			break
		}
	case '[':
		s.pos++
		if s.peek() == ']' {
			s.pos++
			break
		}
		for !s.bad {
			s.value()
			if s.peek() == ',' {
				s.pos++
				continue
			}
			s.expect(']')
			break
		}
	case '"':
		s.str()
	default:
		for s.pos < len(s.data) {
			c := s.data[s.pos]
			if c == ',' || c == '}' || c == ']' || c == ':' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '{' || c == '[' {
				break
			}
			s.pos++
		}
		if s.pos == start {
			s.bad = true
		}
	}
	return span{start, s.pos}
}

// str skips a string and returns its span, quotes included.
func (s *scan) str() span {
	if s.peek() != '"' {
		s.bad = true
		return span{s.pos, s.pos}
	}
	start := s.pos
	s.pos++
	for {
		i := bytes.IndexByte(s.data[s.pos:], '"')
		if i < 0 {
			s.pos = len(s.data)
			s.bad = true
			return span{start, s.pos}
		}
		end := s.pos + i
		s.pos = end + 1
		// the quote ends the string unless an odd number of backslashes
		// precede it
		n := 0
		for j := end - 1; j > start && s.data[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 {
			return span{start, s.pos}
		}
	}
}

// members calls f for each member of the object at sp (absent when
// empty); it stops early when f returns false. It reports whether sp is an
// object (null counts as an empty one).
func members(data []byte, sp span, f func(k, v span) bool) bool {
	_, ok := membersEnd(data, sp, f)
	return ok
}

// membersEnd is members that also returns where the object ends.
func membersEnd(data []byte, sp span, f func(k, v span) bool) (int, bool) {
	if sp.end == sp.start {
		return sp.end, true
	}
	s := scan{data: data[:sp.end], pos: sp.start}
	switch s.peek() {
	case 'n':
		if !bytes.HasPrefix(s.data[s.pos:], []byte("null")) {
			return s.pos, false
		}
		return s.pos + 4, true
	case '{':
	default:
		return s.pos, false
	}
	s.pos++
	if s.peek() == '}' {
		return s.pos + 1, true
	}
	for !s.bad {
		k := s.str()
		s.expect(':')
		v := s.value()
		if s.bad {
			return s.pos, false
		}
		if !f(k, v) {
			return s.pos, true
		}
		if s.peek() == ',' {
			s.pos++
			continue
		}
		return s.pos + 1, s.expect('}')
	}
	return s.pos, false
}

// elements calls f for each element of the array at sp (null counts as an
// empty one) and reports whether sp is an array.
func elements(data []byte, sp span, f func(i int, v span)) bool {
	if sp.end == sp.start {
		return true
	}
	s := scan{data: data[:sp.end], pos: sp.start}
	switch s.peek() {
	case 'n':
		return true
	case '[':
	default:
		return false
	}
	s.pos++
	if s.peek() == ']' {
		return true
	}
	for i := 0; !s.bad; i++ {
		v := s.value()
		if s.bad {
			return false
		}
		f(i, v)
		if s.peek() == ',' {
			s.pos++
			continue
		}
		return s.expect(']')
	}
	return false
}

// isString reports whether sp is a string.
func isString(data []byte, sp span) bool {
	return sp.end-sp.start >= 2 && data[sp.start] == '"'
}

// isNull reports whether sp is null (or absent).
func isNullSpan(data []byte, sp span) bool {
	return sp.end == sp.start || string(data[sp.start:sp.end]) == "null"
}

// unquote returns the content of the string at sp, unescaped. Without
// escapes it is a slice of data; otherwise it is written to *buf. null and
// absent values give "".
func unquote(data []byte, sp span, buf *[]byte) []byte {
	if !isString(data, sp) {
		return nil
	}
	raw := data[sp.start+1 : sp.end-1]
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw
	}
	b := (*buf)[:0]
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i+1 >= len(raw) {
			b = append(b, c)
			continue
		}
		i++
		switch raw[i] {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, n := hex4(raw[i+1:])
			if n == 0 {
				b = append(b, 'u')
				continue
			}
			i += n
			if utf16.IsSurrogate(r) {
				r2, n2 := rune(-1), 0
				if i+2 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
					r2, n2 = hex4(raw[i+3:])
				}
				if d := utf16.DecodeRune(r, r2); n2 > 0 && d != utf8.RuneError {
					r = d
					i += 2 + n2
				} else {
					r = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			b = append(b, raw[i])
		}
	}
	*buf = b
	return b
}

func hex4(b []byte) (rune, int) {
	if len(b) < 4 {
		return 0, 0
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, 0
		}
		r = r<<4 | rune(c)
	}
	return r, 4
}
