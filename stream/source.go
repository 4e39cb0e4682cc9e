package stream

import (
	"bytes"
	"fmt"
	"io"
)

// defaultWindow is the size of a read, and of the read window at first.
const defaultWindow = 1 << 20

// A source is the buffered stream a splitter reads, with the line and
// column of the next byte. Offsets are stream offsets (base + index).
//
// The window keeps the bytes that are still needed: from the start of the
// unit being read (unit, unless it went past maxDoc), from the first
// document cut but not returned yet (hold), or else from pos. It grows while
// those bytes fill it, so a document is read into it once, and a document
// that fits in the window is never copied; it shrinks back to its first size
// after a large document.
type source struct {
	r        io.Reader
	buf      []byte
	window   int // the window's first size: the least a read asks for
	pos, end int
	base     int64 // stream offset of buf[0]
	eof      bool
	err      error // the read error that ended the stream, if not EOF

	line    int   // 1-based line of buf[pos]
	lineOff int64 // stream offset of that line's first byte

	maxDoc int   // limit of a unit's size
	unit   int64 // stream offset of the current unit's start, or -1
	over   bool  // the current unit went past maxDoc: its bytes are not kept
	hold   int64 // stream offset of the first text cut and not yet returned, or -1
}

func newSource(r io.Reader, window, maxDoc int) source {
	return source{r: r, buf: make([]byte, window), window: window, line: 1, maxDoc: maxDoc, unit: -1, hold: -1}
}

// offset is the stream offset of the next byte.
func (s *source) offset() int64 { return s.base + int64(s.pos) }

// more reads more of the stream into the window, keeping the bytes still
// needed. It returns false at the end of the stream.
func (s *source) more() bool {
	if s.eof {
		return false
	}
	s.checkSize()
	s.compact()
	for s.end < len(s.buf) {
		m, err := s.r.Read(s.buf[s.end:])
		s.end += m
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.err = err
			}
			break
		}
		if m > 0 {
			break
		}
	}
	return s.end > s.pos
}

// compact moves the bytes still needed to the start of the window, and
// grows or shrinks it so that a read has at least half a window of room.
func (s *source) compact() {
	keep := s.offset()
	if s.unit >= 0 && !s.over {
		keep = min(keep, s.unit)
	}
	if s.hold >= 0 {
		keep = min(keep, s.hold)
	}
	k := int(keep - s.base)
	n := s.end - k
	switch {
	case len(s.buf)-n < s.window/2: // too little room: grow
		nb := make([]byte, max(2*len(s.buf), n+s.window))
		copy(nb, s.buf[k:s.end])
		s.buf = nb
	case len(s.buf) > 4*s.window && n <= s.window/2: // after a large unit
		nb := make([]byte, s.window)
		copy(nb, s.buf[k:s.end])
		s.buf = nb
	case k > 0:
		copy(s.buf, s.buf[k:s.end])
	}
	s.base += int64(k)
	s.pos -= k
	s.end = n
}

// fillTo reads until the window holds n unread bytes (at most a window's
// first size) or the stream ends.
func (s *source) fillTo(n int) {
	for s.end-s.pos < min(n, s.window) && s.more() {
	}
}

// checkSize marks the current unit over the limit once it is.
func (s *source) checkSize() {
	if s.unit >= 0 && !s.over && s.offset()-s.unit > int64(s.maxDoc) {
		s.over = true
	}
}

// begin starts a unit at pos.
func (s *source) begin() { s.unit, s.over = s.offset(), false }

// restart makes the current unit start at off (not before its start), as
// when the items of a YAML List read so far are cut off its front.
func (s *source) restart(off int64) { s.unit = off }

// finish ends the unit at pos and returns the stream offsets of its text;
// ok is false if it went past maxDoc (its text is then empty, at pos).
func (s *source) finish() (start, end int64, ok bool) {
	s.checkSize()
	start, end, ok = s.unit, s.offset(), !s.over
	if !ok {
		start = end
	}
	s.unit, s.over = -1, false
	return start, end, ok
}

// text returns the window's bytes between two stream offsets.
func (s *source) text(start, end int64) []byte {
	return s.buf[start-s.base : end-s.base : end-s.base]
}

// here is the position of the next byte.
func (s *source) here() position {
	off := s.offset()
	return position{offset: off, line: s.line, col: int(off-s.lineOff) + 1}
}

// newline records the newline at buf[i].
func (s *source) newline(i int) {
	s.line++
	s.lineOff = s.base + int64(i) + 1
}

// readError is the message of a read error that ended the stream, or "".
func (s *source) readError() string {
	if s.err == nil {
		return ""
	}
	return fmt.Sprintf("read error after %d bytes: %v", s.base+int64(s.end), s.err)
}

// skipBOM drops a UTF-8 byte order mark at the start of the stream.
func (s *source) skipBOM() {
	s.fillTo(3)
	if bytes.HasPrefix(s.buf[s.pos:s.end], []byte("\xef\xbb\xbf")) {
		s.pos += 3
		s.lineOff += 3
	}
}

// firstByte returns the first byte that is not white space, without
// consuming anything but whole blank lines; ok is false for an empty stream.
func (s *source) firstByte() (c byte, ok bool) {
	for {
		i := s.pos
		for ; i < s.end; i++ {
			if !isSpace(s.buf[i]) {
				return s.buf[i], true
			}
		}
		// only white space in the window: consume its complete lines
		if nl := bytes.LastIndexByte(s.buf[s.pos:s.end], '\n'); nl >= 0 {
			for j := s.pos; j <= s.pos+nl; j++ {
				if s.buf[j] == '\n' {
					s.newline(j)
				}
			}
			s.pos += nl + 1
		}
		if s.end-s.pos >= s.window { // a window of blanks without a newline
			s.pos = s.end
		}
		if !s.more() {
			return 0, false
		}
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
