package decoder

import (
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// Prune decodes doc and writes the pruned document to w (see
// AppendPrune). The document is built in the Decoder's buffer first, so
// nothing is written on a fatal error.
func (d *Decoder) Prune(w io.Writer, doc []byte) error {
	out, err := d.AppendPrune(d.wbuf[:0], doc)
	d.wbuf = out[:0]
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// Stream decodes a stream of top-level JSON values (concatenated, or one
// per line, with any whitespace between them) one document after another.
// Memory grows with the largest document, not with the stream.
type Stream struct {
	d     *Decoder
	jd    *jsontext.Decoder
	doc   []byte
	start int64 // offset of the current document in the stream
	n     int   // documents read
	err   error // a syntax error ends the stream
}

// NewStream returns a Stream reading documents from r with d.
func (d *Decoder) NewStream(r io.Reader) *Stream {
	return &Stream{d: d, jd: jsontext.NewDecoder(r,
		jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(d.cfg.invalidUTF8))}
}

// next reads the next document's bytes.
func (s *Stream) next() error {
	if s.err != nil {
		return s.err
	}
	raw, err := s.jd.ReadValue()
	if err == io.EOF {
		s.err = io.EOF
		return io.EOF
	}
	if err != nil {
		doc := s.d.doc
		s.d.doc = nil // positions are in the stream, not in a document
		s.err = s.d.syntaxErrorAt(err, s.jd)
		s.d.doc = doc
		return s.err
	}
	s.start = s.jd.InputOffset() - int64(len(raw))
	s.doc = append(s.doc[:0], raw...)
	s.n++
	return nil
}

// AppendNext decodes the next document and appends it, pruned, to dst. It
// returns io.EOF after the last document. A syntax error ends the stream
// (the error is returned again by later calls); any other error concerns
// the document only and the stream goes on.
func (s *Stream) AppendNext(dst []byte) ([]byte, error) {
	if err := s.next(); err != nil {
		return dst, err
	}
	return s.d.AppendPrune(dst, s.doc)
}

// DecodeNextMap decodes the next document into a map.
func (s *Stream) DecodeNextMap() (map[string]any, error) {
	if err := s.next(); err != nil {
		return nil, err
	}
	return s.d.DecodeMap(s.doc)
}

// ValidateNext decodes the next document for its findings only.
func (s *Stream) ValidateNext() error {
	if err := s.next(); err != nil {
		return err
	}
	return s.d.Validate(s.doc)
}

// Document returns the bytes of the current document (valid until the next
// call) and its offset in the stream; offsets, lines and columns of its
// findings and errors are relative to it.
func (s *Stream) Document() (doc []byte, offset int64) { return s.doc, s.start }

// Count returns the number of documents read so far.
func (s *Stream) Count() int { return s.n }
