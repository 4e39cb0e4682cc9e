package stream

import (
	"bytes"
	"io"
)

// Cutting JSON Lines in pieces. In line mode every line is read afresh (a
// newline ends any value or List that is still open), so a JSON Lines
// stream can be cut at line breaks into pieces that are cut into documents
// each on its own, in parallel, and give the documents, errors and
// positions the Reader of the whole stream gives, but for the documents'
// Index, which counts from the piece's Place.Doc: whoever joins the pieces
// adds the documents of the pieces before.

// A Place is where a piece of a stream starts: the stream offset of its
// first byte, which starts a line, that line's 1-based number, and the
// Index of the piece's first document.
type Place struct {
	Offset int64
	Line   int
	Doc    int
}

// JSONLines reports whether a stream that starts with head is read as
// JSON Lines from its first byte: head starts with "{" or "[" (no byte
// order mark, no white space before), holds the stream's first line break
// and the line before it holds complete values. A stream JSONLines accepts
// may be cut after any line break into pieces for NewLinesReader. (Streams
// it refuses may be JSON Lines too, read by NewReader.)
func JSONLines(head []byte) bool {
	if len(head) == 0 || head[0] != '{' && head[0] != '[' {
		return false
	}
	nl := bytes.IndexByte(head, '\n')
	return nl >= 0 && detectLineMode(head[:nl+1])
}

// NewLinesReader returns a Reader of piece, a piece of a stream that
// JSONLines accepts, cut after a line break (or the stream's start) and
// ending after one (or at the stream's end), starting at at: it cuts
// piece as the Reader of the whole stream cuts those lines, with Index
// counted from at.Doc. It reads piece in place (Texts are slices of it).
// Its error is about the options only; ForceFormat is ignored.
func NewLinesReader(piece []byte, at Place, opts ...Option) (*Reader, error) {
	o, err := newOptions(opts)
	if err != nil {
		return nil, err
	}
	s := source{r: eofReader{}, buf: piece, window: max(len(piece), 1), end: len(piece), eof: true,
		maxDoc: o.maxDoc, unit: -1, hold: -1}
	return linesReader(s, o, at), nil
}

// NewLinesReaderOf is NewLinesReader for the rest of a stream JSONLines
// accepts, read from r from a line's start at at (after the pieces cut
// before it).
func NewLinesReaderOf(r io.Reader, at Place, opts ...Option) (*Reader, error) {
	o, err := newOptions(opts)
	if err != nil {
		return nil, err
	}
	return linesReader(newSource(r, o.window, o.maxDoc), o, at), nil
}

func linesReader(s source, o options, at Place) *Reader {
	s.base, s.line, s.lineOff = at.Offset, at.Line, at.Offset
	rd := &Reader{opts: o, src: s, started: true, format: JSON}
	rd.json = jsonSplitter{r: rd, s: &rd.src, lineMode: true, doc: at.Doc}
	return rd
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
