package main

import (
	"bytes"
	"fmt"
	"io"
)

// sourceBuffer is the read window of a splitter.
const sourceBuffer = 1 << 20

// A source is the buffered, decompressed stream a splitter reads, with the
// line and column of the next byte. While a unit is being read (mark >= 0),
// the bytes from mark on are written to the builder before the window moves,
// so that a document is copied once, into its batch.
type source struct {
	r        io.Reader
	buf      []byte
	pos, end int
	base     int64 // stream offset of buf[0]
	eof      bool
	err      error // the read error that ended the stream, if not EOF

	line    int   // 1-based line of buf[pos]
	lineOff int64 // stream offset of that line's first byte

	mark   int // start of the current unit's unwritten bytes in buf, or -1
	bl     *builder
	maxDoc int  // limit of a document's size
	over   bool // the current unit went past maxDoc: its bytes are dropped
}

func newSource(r io.Reader, bl *builder, maxDoc int) *source {
	return &source{r: r, buf: make([]byte, sourceBuffer), line: 1, mark: -1, bl: bl, maxDoc: maxDoc}
}

// more reads more of the stream into the window, keeping its unread bytes.
// It returns false at the end of the stream.
func (s *source) more() bool {
	if s.eof {
		return false
	}
	if s.mark >= 0 {
		s.flushUnit()
		s.mark = 0
	}
	n := copy(s.buf, s.buf[s.pos:s.end])
	s.base += int64(s.pos)
	s.pos, s.end = 0, n
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

// fillTo reads until the window holds n unread bytes or the stream ends.
func (s *source) fillTo(n int) {
	for s.end-s.pos < min(n, len(s.buf)) && s.more() {
	}
}

// flushUnit writes the current unit's bytes up to pos to the builder.
func (s *source) flushUnit() {
	if !s.over {
		s.bl.write(s.buf[s.mark:s.pos])
		if s.bl.size() > s.maxDoc {
			s.over = true
			s.bl.discard()
		}
	}
	s.mark = s.pos
}

// begin starts a unit at pos.
func (s *source) begin() { s.mark, s.over = s.pos, false }

// finish ends the unit at pos; its bytes are then the builder's pending
// bytes. It returns false if the unit was larger than maxDoc (and dropped).
func (s *source) finish() bool {
	s.flushUnit()
	s.mark = -1
	return !s.over
}

// here is the position of the next byte.
func (s *source) here() position {
	off := s.base + int64(s.pos)
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
		if s.end-s.pos == len(s.buf) { // a window of blanks without a newline
			s.pos = s.end
		}
		if !s.more() {
			return 0, false
		}
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
