package stream

import (
	"errors"
	"fmt"
	"io"
)

// Format is the syntax of a stream.
type Format uint8

const (
	JSON Format = 1 // JSON values, concatenated or one per line
	YAML Format = 2 // YAML documents, separated by "---" or "..."
)

func (f Format) String() string {
	switch f {
	case JSON:
		return "JSON"
	case YAML:
		return "YAML"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// Part tells what piece of a stream a Document is.
type Part uint8

const (
	Whole    Part = 1 + iota // a whole document
	ListHead                 // a List up to its items: JSON {..."items":[ , YAML the text before "items:"
	ListItem                 // one item of a List
	ListTail                 // a List after its items: JSON ]...} , YAML the text after the item sequence
)

func (p Part) String() string {
	switch p {
	case Whole:
		return "Whole"
	case ListHead:
		return "ListHead"
	case ListItem:
		return "ListItem"
	case ListTail:
		return "ListTail"
	}
	return fmt.Sprintf("Part(%d)", uint8(p))
}

// A Document is one piece of a stream: a whole document, or a List's head,
// one of its items, or its tail. Its text is cut from the stream as it is,
// not decoded nor checked: a decoder finds its syntax errors.
type Document struct {
	Format Format
	Part   Part
	// Text is the document's bytes in the stream. It is the Reader's
	// buffer: valid until the next ReadDocument. It may be modified.
	Text   []byte
	Index  int   // the document's index in the stream, from 0 (a List's pieces share it; YAML documents without content do not count)
	Item   int   // the item's index in its List, -1 when Part != ListItem
	Offset int64 // byte offset of Text in the (decompressed) stream
	// Line and Column are the 1-based line and byte column of Text's start.
	Line, Column int

	// FirstLine is the line of the document's first content line: for a
	// YAML Whole document or ListHead, the first line that is not blank, a
	// comment, a directive or a bare "---"; otherwise Line.
	FirstLine int
	// Indent is, for an item of a YAML List, the index in Text of the "-"
	// that starts it (Text starts at the start of its line; replacing the
	// "-" by a space makes it a YAML document of its own); 0 otherwise.
	Indent int
	// Spaced is true when a JSON Whole document or ListItem has white space
	// outside its strings (it is not compact); false otherwise.
	Spaced bool
}

// ErrTooLarge and ErrSyntax are the Err of the *Error about a document (or
// List item) over the size limit, and about a syntax error between the
// items of a JSON List. ReadDocument goes on after either.
var (
	ErrTooLarge = errors.New("document too large")
	ErrSyntax   = errors.New("syntax error")
)

// An Error is what ReadDocument reports about a stream: a document over
// the size limit (Err is ErrTooLarge; its bytes are skipped), a syntax
// error between the items of a JSON List (Err is ErrSyntax; reading goes on
// where it is), or a read error of the underlying reader (Err is that
// error): the stream cannot be read further and ReadDocument returns the
// same error from then on.
type Error struct {
	Index int // the document's index in the stream; -1 for a read error
	Item  int // the item's index in its List for an item too large, else -1
	// Offset, Line and Column are where: the start of the document too
	// large, the place of the syntax error, or the end of what was read. A
	// read error before the first document has all three 0.
	Offset       int64
	Line, Column int
	Msg          string // what went wrong, without the place
	Err          error  // ErrTooLarge, ErrSyntax or the read error
}

func (e *Error) Error() string {
	if e.Index < 0 {
		return "stream: " + e.Msg
	}
	s := fmt.Sprintf("stream: document %d", e.Index)
	if e.Item >= 0 {
		s += fmt.Sprintf(", item %d", e.Item)
	}
	return s + fmt.Sprintf(" at line %d, column %d (offset %d): %s", e.Line, e.Column, e.Offset, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// position is a place in a stream: a byte offset and a 1-based line and
// byte column.
type position struct {
	offset int64
	line   int
	col    int
}

// A Reader cuts a stream into Documents, without decoding them.
type Reader struct {
	src     source
	opts    options
	started bool
	done    bool   // the splitter reached the end of the stream
	err     error  // the read error, returned from then on
	format  Format // of the splitter, once started
	json    jsonSplitter
	yaml    yamlSplitter

	queue []cut // the pieces cut and not yet returned, from queue[next]
	next  int
}

// A cut is a piece cut from the stream: a Document whose text is between
// two stream offsets, or an error.
type cut struct {
	doc        Document
	start, end int64
	err        *Error
}

// NewReader returns a Reader of r. Its error is about the options only.
func NewReader(r io.Reader, opts ...Option) (*Reader, error) {
	if r == nil {
		return nil, errors.New("stream: NewReader: nil io.Reader")
	}
	o, err := newOptions(opts)
	if err != nil {
		return nil, err
	}
	rd := &Reader{opts: o, src: newSource(r, o.window, o.maxDoc)}
	return rd, nil
}

// ReadDocument returns the next document, io.EOF after the last one. An
// *Error reports a document too large or a syntax error between List
// items, after which reading goes on, or a read error, which ends the
// stream (see Error).
func (r *Reader) ReadDocument() (Document, error) {
	if r.next == len(r.queue) {
		r.queue, r.next, r.src.hold = r.queue[:0], 0, -1
		r.fill()
		if len(r.queue) == 0 {
			if r.err != nil {
				return Document{}, r.err
			}
			return Document{}, io.EOF
		}
	}
	c := &r.queue[r.next]
	r.next++
	if c.err != nil {
		return Document{}, c.err
	}
	d := c.doc
	d.Text = r.src.text(c.start, c.end)
	return d, nil
}

// BytesRead is the number of bytes read from the stream so far (its
// length, once ReadDocument has returned io.EOF).
func (r *Reader) BytesRead() int64 { return r.src.base + int64(r.src.end) }

// fill runs the splitter until it has cut something or the stream ends.
func (r *Reader) fill() {
	if !r.started {
		r.start()
	}
	for len(r.queue) == 0 && !r.done {
		if r.format == JSON {
			r.json.step()
		} else {
			r.yaml.step()
		}
	}
}

// start chooses the splitter: the format forced, or JSON if the stream
// starts with "{" or "[", YAML otherwise.
func (r *Reader) start() {
	r.started = true
	s := &r.src
	s.skipBOM()
	c, ok := s.firstByte()
	if !ok {
		r.done = true
		if msg := s.readError(); msg != "" {
			r.fail(&Error{Index: -1, Item: -1, Msg: msg, Err: s.err})
		}
		return
	}
	f := r.opts.format
	if f == 0 {
		f = YAML
		if c == '{' || c == '[' {
			f = JSON
		}
	}
	r.format = f
	if f == JSON {
		r.json.init(r)
	} else {
		r.yaml.init(r)
	}
}

// end is the splitters' last step: the read error, if any, after the
// last document.
func (r *Reader) end() {
	r.done = true
	if msg := r.src.readError(); msg != "" {
		p := r.src.here()
		r.fail(&Error{Index: -1, Item: -1, Offset: p.offset, Line: p.line, Column: p.col, Msg: msg, Err: r.src.err})
	}
}

// emit queues a document whose text is between two stream offsets.
func (r *Reader) emit(d Document, start, end int64) {
	if r.src.hold < 0 {
		r.src.hold = start
	}
	r.queue = append(r.queue, cut{doc: d, start: start, end: end})
}

// fail queues an error; a read error is returned from then on.
func (r *Reader) fail(e *Error) {
	if e.Index < 0 {
		r.err = e
	}
	r.queue = append(r.queue, cut{err: e})
}

// tooLarge is the error about a document or item at p past the limit.
func (r *Reader) tooLarge(doc, item int, p position) {
	r.fail(&Error{Index: doc, Item: item, Offset: p.offset, Line: p.line, Column: p.col,
		Msg: fmt.Sprintf("larger than the limit of %d bytes", r.opts.maxDoc), Err: ErrTooLarge})
}
