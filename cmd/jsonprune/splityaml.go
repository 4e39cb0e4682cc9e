package main

import "bytes"

// yamlSplitter cuts a YAML stream into documents at its "---" and "..."
// markers, line by line and without parsing: a marker at column 0 ends a
// document whatever came before it (YAML forbids it inside content), so a
// document the parser rejects costs that document only. The workers parse
// each document with yaml v3, in parallel.
//
// A document that outgrows listThreshold while it reads as a list in
// kubectl's layout (a top-level "items:" followed by a block sequence, as
// kubectl get -o yaml writes it) is streamed: the text before "items:" is
// one unit, each item another (its "-" turned into a space, it is a YAML
// document of its own), and the rest of the list the last. Smaller lists
// are read whole, and their items taken from the parsed value.
type yamlSplitter struct {
	s         *source
	bl        *builder
	threshold int
	doc       int

	// the document being read; offsets are in the builder's pending bytes
	chunk     position // where its text starts
	first     int      // line of its first content line, 0 before it
	itemsAt   int      // offset of its top-level "items:" line, or -1
	expectSeq bool     // the line after "items:" may start a sequence
	seqIndent int      // the column of the sequence's "-", or -1
	seqDone   bool     // a line after the sequence was read
	items     []itemStart
	streaming bool
	nItems    int      // items committed while streaming
	tail      position // where the rest of a streamed list starts
}

type itemStart struct {
	off int
	pos position
}

// listThreshold is the size from which a YAML list is streamed.
var listThreshold = 1 << 20

func splitYAML(s *source, bl *builder) {
	y := &yamlSplitter{s: s, bl: bl, threshold: listThreshold}
	y.startChunk()
	for !bl.stop {
		h, ok := y.lineHead()
		if !ok {
			break
		}
		l := classifyYAML(h)
		switch {
		case l.docStart:
			if y.first > 0 { // else it starts the document read so far
				y.endDoc()
				y.startChunk()
			}
			if l.content {
				y.contentStart()
			}
			y.skipLine()
			continue
		case l.docEnd:
			y.skipLine()
			y.endDoc()
			y.startChunk()
			continue
		case l.blank, l.directive && y.first == 0:
			y.skipLine()
			continue
		}
		y.contentLine(l)
		y.skipLine()
		y.maybeStream()
	}
	y.endDoc()
	if msg := s.readError(); msg != "" {
		bl.fail(unit{doc: -1, item: -1, pos: s.here()}, msg)
	}
}

// lineHead returns the start of the next line (without its newline), at
// least its first 1 KiB when it is longer.
func (y *yamlSplitter) lineHead() ([]byte, bool) {
	s := y.s
	for {
		w := s.buf[s.pos:s.end]
		if i := bytes.IndexByte(w, '\n'); i >= 0 {
			return bytes.TrimSuffix(w[:i], []byte("\r")), true
		}
		if len(w) >= min(1024, len(s.buf)) || s.eof {
			return w, len(w) > 0
		}
		s.more()
	}
}

// skipLine reads to the end of the current line.
func (y *yamlSplitter) skipLine() {
	s := y.s
	for {
		if i := bytes.IndexByte(s.buf[s.pos:s.end], '\n'); i >= 0 {
			s.newline(s.pos + i)
			s.pos += i + 1
			return
		}
		s.pos = s.end
		if !s.more() {
			return
		}
	}
}

// offset is the offset of the next byte in the pending bytes.
func (y *yamlSplitter) offset() int { return y.bl.size() + y.s.pos - y.s.mark }

func (y *yamlSplitter) startChunk() {
	y.s.begin()
	y.chunk, y.first = y.s.here(), 0
	y.itemsAt, y.expectSeq, y.seqIndent, y.seqDone = -1, false, -1, false
	y.items, y.streaming, y.nItems = y.items[:0], false, 0
}

func (y *yamlSplitter) contentStart() {
	if y.first == 0 {
		y.first = y.s.line
	}
}

// contentLine follows the layout of a kubectl list: "items:" at column 0,
// then a sequence whose items start with "-" at one column.
func (y *yamlSplitter) contentLine(l yamlLine) {
	y.contentStart()
	off, pos := y.offset(), y.s.here()
	switch {
	case y.seqIndent >= 0 && !y.seqDone:
		if l.indent == y.seqIndent && l.dash {
			if y.streaming {
				y.commitItem()
				off = y.offset()
			}
			y.items = append(y.items, itemStart{off, pos})
			return
		}
		if l.indent > y.seqIndent {
			return
		}
		y.seqDone = true
		if y.streaming {
			y.commitItem()
			y.tail = pos
		}
	case y.expectSeq:
		y.expectSeq = false
		if l.dash {
			y.seqIndent = l.indent
			y.items = append(y.items, itemStart{off, pos})
			return
		}
	}
	if l.itemsKey && y.itemsAt < 0 {
		y.itemsAt, y.expectSeq = off, true
	}
}

// maybeStream switches a large list to streaming: the text before
// "items:" and every complete item become units.
func (y *yamlSplitter) maybeStream() {
	if y.streaming || y.seqIndent < 0 || y.seqDone || len(y.items) < 2 || y.offset() < y.threshold {
		return
	}
	y.s.flushUnit()
	if y.s.over {
		return
	}
	y.streaming = true
	y.bl.commit(unit{kind: unitHead, format: formatYAML, doc: y.doc, item: -1, pos: y.chunk, first: y.first}, y.itemsAt)
	y.bl.drop(y.items[0].off - y.itemsAt)
	last := y.items[len(y.items)-1]
	for i := 0; i < len(y.items)-1; i++ {
		y.bl.commit(y.itemUnit(y.items[i].pos), y.items[i+1].off-y.items[i].off)
	}
	y.items = append(y.items[:0], itemStart{0, last.pos})
}

func (y *yamlSplitter) itemUnit(p position) unit {
	u := unit{kind: unitItem, format: formatYAML, doc: y.doc, item: y.nItems, indent: y.seqIndent, pos: p, first: p.line}
	y.nItems++
	return u
}

// commitItem commits the streamed item read so far (before the current line).
func (y *yamlSplitter) commitItem() {
	if len(y.items) == 0 {
		return
	}
	u := y.itemUnit(y.items[0].pos)
	if !y.s.finish() {
		y.bl.fail(u, tooLarge(y.s.maxDoc))
	} else {
		y.bl.commit(u, -1)
	}
	y.s.begin()
	y.items = y.items[:0]
}

// endDoc commits the document read so far (before the current line).
func (y *yamlSplitter) endDoc() {
	if y.streaming {
		if !y.seqDone {
			y.commitItem()
			y.tail = y.s.here()
		}
		y.s.finish()
		y.bl.commit(unit{kind: unitTail, format: formatYAML, doc: y.doc, item: -1, pos: y.tail, first: y.tail.line}, -1)
		y.doc++
		return
	}
	ok := y.s.finish()
	switch {
	case y.first == 0:
		y.bl.discard() // no content: not a document
		return
	case !ok:
		u := unit{doc: y.doc, item: -1, pos: y.chunk, first: y.first}
		y.bl.fail(u, tooLarge(y.s.maxDoc))
	default:
		y.bl.commit(unit{kind: unitDoc, format: formatYAML, doc: y.doc, item: -1, pos: y.chunk, first: y.first}, -1)
	}
	y.doc++
}

// yamlLine is what the splitter needs to know of a line.
type yamlLine struct {
	docStart  bool // "---"
	content   bool // "---" followed by content
	docEnd    bool // "..."
	blank     bool // white space or a comment only
	directive bool // "%" at column 0
	indent    int
	dash      bool // "-" then a space or the end of the line, after the indent
	itemsKey  bool // "items:" at column 0, then nothing but a comment
}

func classifyYAML(h []byte) yamlLine {
	var l yamlLine
	if isMarker(h, "---") {
		l.docStart = true
		rest := bytes.TrimLeft(h[3:], " \t")
		l.content = len(rest) > 0 && rest[0] != '#'
		return l
	}
	if isMarker(h, "...") {
		l.docEnd = true
		return l
	}
	for l.indent < len(h) && h[l.indent] == ' ' {
		l.indent++
	}
	rest := bytes.TrimLeft(h[l.indent:], " \t")
	if len(rest) == 0 || rest[0] == '#' {
		l.blank = true
		return l
	}
	if l.indent == 0 && h[0] == '%' {
		l.directive = true
	}
	rest = h[l.indent:]
	l.dash = len(rest) > 0 && rest[0] == '-' && (len(rest) == 1 || rest[1] == ' ' || rest[1] == '\t')
	if l.indent == 0 && bytes.HasPrefix(h, []byte("items:")) {
		after := bytes.TrimLeft(h[6:], " \t")
		l.itemsKey = len(after) == 0 || after[0] == '#'
	}
	return l
}

// isMarker reports whether a line is the document marker m ("---" or
// "...") followed by white space or nothing.
func isMarker(h []byte, m string) bool {
	return bytes.HasPrefix(h, []byte(m)) && (len(h) == 3 || h[3] == ' ' || h[3] == '\t')
}
