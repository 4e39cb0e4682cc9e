package jsonprune

// The iteration over a stream's documents. For now it is built on
// decoder.Stream (JSON) and yamlbridge.Reader (YAML); the stream package
// will replace both underneath this file's API.

import (
	"bytes"
	"errors"
	"io"

	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/yamlbridge"
)

// Stream reads the documents of a stream one after another: YAML documents
// separated by "---", or JSON values concatenated or one per line (NDJSON).
// The stream is JSON if its first non-blank byte is '{' or '[', YAML
// otherwise. A Stream is not safe for concurrent use.
type Stream struct {
	d    *Decoder
	r    io.Reader
	data []byte
	err  error // the error that ended the stream (io.EOF at the end)
	n    int   // documents returned

	yr *yamlbridge.Reader
	js *decoder.Stream
	// lines counted so far in a JSON stream: data[:off] holds line-1 newlines
	// and its last line starts at lineStart.
	off, lineStart int64
	line           int
}

// NewStream returns a Stream decoding the documents of r against s, with the
// options of NewDecoder. For now it reads r whole at the first call of Next.
func NewStream(s *Schemas, r io.Reader, opts ...decoder.Option) (*Stream, error) {
	d, err := NewDecoder(s, opts...)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, errors.New("jsonprune: nil reader")
	}
	return &Stream{d: d, r: r, line: 1}, nil
}

// Next decodes the next document and returns it, in the style of
// jsontext.Decoder.ReadValue: it returns io.EOF after the last document.
//
// A document's own error (Strict findings, a document that cannot be
// decoded, ErrNoSchema) is returned with its Object (obj.Err == err), and
// the stream goes on. An error that ends the stream (a syntax error that
// leaves no way to find the next document, a read error) is returned with a
// nil Object, as is io.EOF; later calls return it again. So obj == nil means
// the end.
func (st *Stream) Next() (obj *Object, err error) {
	if st.err != nil {
		return nil, st.err
	}
	if st.d.d == nil {
		st.err = errors.New("jsonprune: no Schemas (nil)")
		return nil, st.err
	}
	if st.data == nil && st.yr == nil && st.js == nil {
		if st.r == nil {
			st.err = errors.New("jsonprune: nil reader")
			return nil, st.err
		}
		data, err := io.ReadAll(st.r)
		if err != nil {
			st.err = err
			return nil, err
		}
		if isBlank(data) {
			st.err = ErrEmpty
			return nil, ErrEmpty
		}
		st.data = data
		if isJSON(data) {
			st.js = st.d.d.NewStream(bytes.NewReader(data))
		} else {
			st.yr = yamlbridge.NewReader(data)
		}
	}
	if st.yr != nil {
		doc, rerr := st.yr.Next()
		if rerr != nil {
			if st.n == 0 && rerr == io.EOF {
				rerr = ErrEmpty
			}
			st.err = rerr
			return nil, rerr
		}
		var out []byte
		out, obj, err = st.d.doc(nil, nil, doc, base{}, true, true)
		if err == nil {
			obj.JSON = out
		}
	} else {
		count := st.js.Count()
		var out []byte
		out, err = st.js.AppendNext(nil)
		if st.js.Count() == count { // nothing read: the end
			var de *jperrors.DecodeError
			if errors.As(err, &de) && de.Line == 0 && de.Offset >= 0 && de.Offset <= int64(len(st.data)) {
				c := *de
				c.Line, c.Column = lineCol(st.data, de.Offset)
				err = &c
			}
			st.err = err
			return nil, err
		}
		js, off := st.js.Document()
		b := st.position(off)
		_, obj, err = st.d.finish(nil, out, err, js, nil, b, true)
		if err == nil {
			obj.JSON = out
		}
	}
	obj.Index = st.n
	st.n++
	return obj, err
}

// position returns the line and column of off in a JSON stream, counting
// the lines from the last document on.
func (st *Stream) position(off int64) base {
	if off < st.off { // cannot happen: documents come in order
		st.off, st.lineStart, st.line = 0, 0, 1
	}
	for i := st.off; i < off; i++ {
		if st.data[i] == '\n' {
			st.line++
			st.lineStart = i + 1
		}
	}
	st.off = off
	return base{off: off, line: st.line, col: int(off-st.lineStart) + 1}
}
