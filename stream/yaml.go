package stream

import "bytes"

// The YAML splitter cuts a YAML stream into documents at its "---" and
// "..." markers, line by line and without parsing: a marker at column 0
// ends a document whatever came before it (YAML forbids it inside content),
// so a document the parser rejects costs that document only.
//
// A document that outgrows the List threshold while it reads as a List in
// kubectl's layout (a top-level "items:" followed by a block sequence, as
// kubectl get -o yaml writes it) is streamed: the text before "items:" is
// the ListHead, each item a ListItem (whose "-", at Indent, may be turned
// into a space to make it a YAML document of its own), and the rest of the
// List the ListTail. Smaller Lists are Whole documents.
//
// The state machine. A step is one call of yamlSplitter.line: it reads one
// line and classifies it (classifyYAML). The state is the document being
// read (from chunk, its first content line first) and, in it, how far a
// kubectl List has got:
//
//	list state                           condition
//	no List                              itemsAt < 0
//	"items:" read                        itemsAt >= 0, expectSeq
//	in the item sequence                 seqIndent >= 0, !seqDone
//	after the item sequence              seqDone
//	(any of the last two) streaming      streaming
//
// What each class of line does:
//
//	line                     action
//	end of stream            cut the document (or the List's last item and tail); the read error; done
//	"---" [content]          cut the document read so far, if it has content; start a new one at
//	                         this line; content after the marker is content
//	"..."                    the line ends the document: cut it; start a new one after the line
//	blank or comment         nothing
//	"%" directive            nothing before the first content line, content after it
//	content                  the document has content; then, by list state:
//	  "items:" at column 0   no List -> "items:" read
//	  first line after it    "-" -> in the item sequence at this indent; anything else -> no List
//	  in the sequence        "-" at its indent: a new item (streaming: cut the item before it);
//	                         deeper: inside the item; shallower: after the sequence (streaming:
//	                         cut the last item; the tail starts here)
//
// After each content line, a document in the item sequence with two items
// or more, at least ListThreshold bytes long and not over the size limit,
// switches to streaming: its head and every complete item are cut at once.
type yamlSplitter struct {
	r         *Reader
	s         *source
	threshold int
	doc       int

	// the document being read; offsets are stream offsets
	chunk     position // where its text starts
	first     int      // line of its first content line, 0 before it
	itemsAt   int64    // offset of its top-level "items:" line, or -1
	expectSeq bool     // the line after "items:" may start a sequence
	seqIndent int      // the column of the sequence's "-", or -1
	seqDone   bool     // a line after the sequence was read
	items     []position
	streaming bool
	nItems    int      // items cut while streaming
	tail      position // where the rest of a streamed List starts
}

func (y *yamlSplitter) init(r *Reader) {
	*y = yamlSplitter{r: r, s: &r.src, threshold: r.opts.threshold, items: y.items[:0]}
	y.startChunk()
}

// step reads lines until a piece is cut or the stream ends.
func (y *yamlSplitter) step() {
	for len(y.r.queue) == 0 && !y.r.done {
		y.line()
	}
}

// line reads one line.
func (y *yamlSplitter) line() {
	h, ok := y.lineHead()
	if !ok {
		y.endDoc()
		y.r.end()
		return
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
		return
	case l.docEnd:
		y.skipLine()
		y.endDoc()
		y.startChunk()
		return
	case l.blank, l.directive && y.first == 0:
		y.skipLine()
		return
	}
	y.contentLine(l)
	y.skipLine()
	y.maybeStream()
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
		if len(w) >= min(1024, s.window) || s.eof {
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

// contentLine follows the layout of a kubectl List: "items:" at column 0,
// then a sequence whose items start with "-" at one column.
func (y *yamlSplitter) contentLine(l yamlLine) {
	y.contentStart()
	pos := y.s.here()
	switch {
	case y.seqIndent >= 0 && !y.seqDone:
		if l.indent == y.seqIndent && l.dash {
			if y.streaming {
				y.commitItem()
			}
			y.items = append(y.items, pos)
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
			y.items = append(y.items, pos)
			return
		}
	}
	if l.itemsKey && y.itemsAt < 0 {
		y.itemsAt, y.expectSeq = pos.offset, true
	}
}

// maybeStream switches a large List to streaming: the text before
// "items:" and every complete item are cut; the last item read so far
// becomes the piece being read.
func (y *yamlSplitter) maybeStream() {
	s := y.s
	if y.streaming || y.seqIndent < 0 || y.seqDone || len(y.items) < 2 || s.offset()-y.chunk.offset < int64(y.threshold) {
		return
	}
	s.checkSize()
	if s.over {
		return
	}
	y.streaming = true
	y.r.emit(Document{Format: YAML, Part: ListHead, Index: y.doc, Item: -1, Offset: y.chunk.offset, Line: y.chunk.line,
		Column: y.chunk.col, FirstLine: y.first}, y.chunk.offset, y.itemsAt)
	last := y.items[len(y.items)-1]
	for i := 0; i < len(y.items)-1; i++ {
		y.r.emit(y.itemDoc(y.items[i]), y.items[i].offset, y.items[i+1].offset)
	}
	s.restart(last.offset)
	y.items = append(y.items[:0], last)
}

func (y *yamlSplitter) itemDoc(p position) Document {
	d := Document{Format: YAML, Part: ListItem, Index: y.doc, Item: y.nItems, Indent: y.seqIndent,
		Offset: p.offset, Line: p.line, Column: p.col, FirstLine: p.line}
	y.nItems++
	return d
}

// commitItem cuts the streamed item read so far (before the current line).
func (y *yamlSplitter) commitItem() {
	if len(y.items) == 0 {
		return
	}
	d := y.itemDoc(y.items[0])
	if start, end, ok := y.s.finish(); ok {
		y.r.emit(d, start, end)
	} else {
		y.r.tooLarge(d.Index, d.Item, y.items[0])
	}
	y.s.begin()
	y.items = y.items[:0]
}

// endDoc cuts the document read so far (before the current line).
func (y *yamlSplitter) endDoc() {
	if y.streaming {
		if !y.seqDone {
			y.commitItem()
			y.tail = y.s.here()
		}
		start, end, _ := y.s.finish()
		y.r.emit(Document{Format: YAML, Part: ListTail, Index: y.doc, Item: -1, Offset: y.tail.offset, Line: y.tail.line,
			Column: y.tail.col, FirstLine: y.tail.line}, start, end)
		y.doc++
		return
	}
	start, end, ok := y.s.finish()
	switch {
	case y.first == 0:
		return // no content: not a document
	case !ok:
		y.r.tooLarge(y.doc, -1, y.chunk)
	default:
		y.r.emit(Document{Format: YAML, Part: Whole, Index: y.doc, Item: -1, Offset: y.chunk.offset, Line: y.chunk.line,
			Column: y.chunk.col, FirstLine: y.first}, start, end)
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
		rest := trimBlanks(h[3:])
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
	rest := trimBlanks(h[l.indent:])
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
		after := trimBlanks(h[6:])
		l.itemsKey = len(after) == 0 || after[0] == '#'
	}
	return l
}

// trimBlanks drops the spaces and tabs at the start of b.
func trimBlanks(b []byte) []byte {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return b[i:]
}

// isMarker reports whether a line is the document marker m ("---" or
// "...") followed by white space or nothing.
func isMarker(h []byte, m string) bool {
	return bytes.HasPrefix(h, []byte(m)) && (len(h) == 3 || h[3] == ' ' || h[3] == '\t')
}
