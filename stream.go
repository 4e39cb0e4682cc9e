package jsonprune

// The iteration over a stream's documents: package stream cuts the input
// into documents (and Lists into their items) with their positions; each is
// decoded as the one-document calls decode one, its positions moved into
// the stream.

import (
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/stream"
	"github.com/jsonprune/jsonprune/yamlbridge"
)

// Stream reads the documents of a stream one after another: YAML documents
// separated by "---", or JSON values concatenated or one per line (JSON
// Lines). The stream is JSON if its first non-blank byte is '{' or '[',
// YAML otherwise. A List (kind List, or any object with an "items" array,
// as kubectl writes them) is read item by item: each item is an Object of
// its own, decoded by its own apiVersion and kind, with Item set. Memory
// grows with the largest document or item, not with the stream. A Stream
// is not safe for concurrent use.
type Stream struct {
	d   *Decoder
	rd  *stream.Reader
	n   int   // documents returned
	err error // the error that ended the stream (io.EOF at the end)
}

// NewStream returns a Stream decoding the documents of r against s. The
// options are the decoder's (see NewDecoder) and the stream's
// (stream.ForceFormat; decoder.MaxDocumentSize bounds each document, by
// default 256 MiB). The error is a nil s or r, or a bad option value.
func NewStream(s *Schemas, r io.Reader, opts ...decoder.Option) (*Stream, error) {
	d, err := NewDecoder(s, opts...)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, errors.New("jsonprune: nil reader")
	}
	// every YAML List in kubectl's layout is read item by item, as JSON
	// Lists are
	rd, err := stream.NewReader(r, append([]decoder.Option{stream.ListThreshold(0)}, opts...)...)
	if err != nil {
		return nil, err
	}
	return &Stream{d: d, rd: rd}, nil
}

// Next decodes the next document (or List item) and returns it, in the
// style of jsontext.Decoder.ReadValue: it returns io.EOF after the last
// one, and ErrEmpty for a stream without any.
//
// A document's own error (Strict findings, a syntax error, a document that
// cannot be decoded, ErrNoSchema, a document over the size limit) is
// returned with its Object (obj.Err == err), and the stream goes on: a
// broken document costs that document only. An error that ends the stream
// (a read error) is returned with a nil Object, as is io.EOF; later calls
// return it again. So obj == nil means the end.
func (st *Stream) Next() (obj *Object, err error) {
	for st.err == nil {
		doc, err := st.rd.ReadDocument()
		var se *stream.Error
		switch {
		case err == io.EOF && st.n == 0:
			st.err = ErrEmpty
		case err == io.EOF:
			st.err = io.EOF
		case errors.As(err, &se) && se.Index >= 0: // too large, or between List items
			o := &Object{Index: se.Index, Item: se.Item, Offset: se.Offset, Line: se.Line, Column: se.Column, Err: err}
			st.n++
			return o, err
		case err != nil:
			st.err = err
		case doc.Part == stream.ListHead || doc.Part == stream.ListTail:
			// a List's envelope: not an object, but checked
			if err := envelopeError(doc); err != nil {
				st.n++
				return &Object{Index: doc.Index, Item: -1, Offset: doc.Offset, Line: doc.Line, Column: doc.Column, Err: err}, err
			}
		default:
			obj, err = st.decode(doc)
			obj.Index, obj.Item = doc.Index, doc.Item
			st.n++
			return obj, err
		}
	}
	return nil, st.err
}

// decode decodes one document of the stream.
func (st *Stream) decode(doc stream.Document) (*Object, error) {
	b := base{off: doc.Offset, line: doc.Line, col: doc.Column}
	var out []byte
	var o *Object
	var err error
	if doc.Format == stream.JSON {
		out, o, err = st.d.doc(nil, doc.Text, nil, b, true)
	} else {
		if doc.Part == stream.ListItem {
			doc.Text[doc.Indent] = ' ' // "- a: 1" is the document " a: 1"
		}
		var ydoc *yamlbridge.Document
		if ydoc, err = yamlbridge.Parse(doc.Text); err != nil {
			var de *jperrors.DecodeError
			if errors.As(err, &de) {
				c := *de
				c.Offset, c.Line, c.Column = b.yaml(de.Offset, de.Line, de.Column)
				err = &c
			}
			o = &Object{Offset: b.off, Line: b.line, Column: b.col, Err: err}
			return o, err
		}
		out, o, err = st.d.doc(nil, nil, ydoc, b, true)
	}
	if err == nil {
		o.JSON = out
	}
	return o, err
}

// envelopeError checks the text of a List around its items, which package
// stream cuts without checking it: a JSON head must be valid JSON once its
// items are closed ("]}"), a tail once they are opened; a YAML head or tail
// must parse.
func envelopeError(doc stream.Document) error {
	var err error
	switch {
	case doc.Format == stream.YAML:
		if _, perr := yamlbridge.Parse(doc.Text); perr != nil && perr != io.EOF {
			err = perr
		}
	case len(doc.Text) == 0: // a List cut short: reported where it is cut
	case doc.Part == stream.ListHead:
		if v := jsontext.Value(append(doc.Text[:len(doc.Text):len(doc.Text)], "]}"...)); !v.IsValid() {
			err = errors.New("invalid JSON before the items")
		}
	default:
		if v := jsontext.Value(append([]byte(`{"items":[`), doc.Text...)); !v.IsValid() {
			err = errors.New("invalid JSON after the items")
		}
	}
	if err == nil {
		return nil
	}
	return &jperrors.DecodeError{Offset: doc.Offset, Line: doc.Line, Column: doc.Column, Msg: "the List's envelope: " + err.Error(), Err: err}
}
