package jsonprune

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/yamlbridge"
)

// Errors of the one-call API; test them with errors.Is.
var (
	// ErrNoSchema: in Strict mode, a document whose apiVersion and kind no
	// CRD of the Schemas serves. The error wraps it with the line and the
	// apiVersion and kind.
	ErrNoSchema = errors.New("no CRD serves this kind")
	// ErrEmpty: an input without a document (empty, blanks or YAML comments
	// only).
	ErrEmpty = errors.New("empty input: no document")
	// ErrManyDocuments: a one-document call was given several YAML
	// documents; read them with NewStream.
	ErrManyDocuments = errors.New("more than one document (use NewStream to read a stream)")
)

// Object is one decoded document.
type Object struct {
	// Index is the document's number in the input, from 0.
	Index int
	// Item is the index of the object in its List when a Stream reads a
	// List item by item; -1 otherwise.
	Item int
	// Offset, Line and Column locate the start of the document's value in
	// the input (Line and Column 1-based, the column in bytes).
	Offset       int64
	Line, Column int
	// APIVersion and Kind are what the document says (empty when absent).
	APIVersion, Kind string
	// Entry is the CRD version the document was decoded with; nil when no
	// CRD of the Schemas serves its apiVersion and kind (an error in Strict
	// mode, see ErrNoSchema).
	Entry *schemaauto.Entry
	// JSON is the pruned object as compact JSON; nil when Err is set.
	JSON []byte
	// Findings are the unknown and duplicate fields, in the reference's
	// order, located in the input (none in Ignore mode). With a fatal error
	// (*errors.DecodeError) they are those the decoder had found before it.
	Findings []jperrors.Finding
	// Invalid holds the value-validation errors (with the option
	// decoder.Validation(true)): what the API server's create path would
	// refuse with 422, each located in the input; nil when none.
	Invalid *jperrors.InvalidError
	// Err is the document's error: a *errors.StrictError (Strict mode,
	// findings), a *errors.DecodeError (the document cannot be decoded), an
	// *errors.InvalidError (validation on, in any mode), an error wrapping
	// ErrNoSchema (Strict mode), or nil.
	Err error
}

// Decoder decodes documents against Schemas, reusing its buffers from one
// document to the next. It is not safe for concurrent use: use one per
// goroutine.
type Decoder struct {
	s    *Schemas
	opts []decoder.Option
	d    *decoder.Decoder
}

// NewDecoder returns a Decoder for the objects s serves, configured by opts
// (decoder.FieldValidation(decoder.Strict), decoder.Defaulting(false), ...;
// the default mode is Warn, as the API server's). The error is a nil s or
// a bad option value.
func NewDecoder(s *Schemas, opts ...decoder.Option) (*Decoder, error) {
	if s == nil || s.set == nil {
		return nil, errNoSchemas
	}
	dd, err := decoder.New(s.set, opts...)
	if err != nil {
		return nil, err
	}
	return &Decoder{s: s, opts: opts, d: dd}, nil
}

var errNoSchemas = errors.New("jsonprune: no Schemas (nil)")

// Prune decodes one document, JSON or YAML, and returns the pruned object as
// compact JSON. See Decoder.Prune.
func (s *Schemas) Prune(doc []byte, opts ...decoder.Option) ([]byte, error) {
	d, err := NewDecoder(s, opts...)
	if err != nil {
		return nil, err
	}
	return d.Prune(doc)
}

// PruneFile is Prune for the document of a file; errors start with its name.
func (s *Schemas) PruneFile(path string, opts ...decoder.Option) ([]byte, error) {
	doc, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out, err := s.Prune(doc, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// Validate decodes one document, JSON or YAML, for its findings only.
// See Decoder.Validate.
func (s *Schemas) Validate(doc []byte, opts ...decoder.Option) ([]jperrors.Finding, error) {
	d, err := NewDecoder(s, opts...)
	if err != nil {
		return nil, err
	}
	return d.Validate(doc)
}

// Decode decodes one document, JSON or YAML, and returns everything about
// it. See Decoder.Decode.
func (s *Schemas) Decode(doc []byte, opts ...decoder.Option) (*Object, error) {
	d, err := NewDecoder(s, opts...)
	if err != nil {
		return nil, err
	}
	return d.Decode(doc)
}

// Prune decodes doc, one JSON or YAML document, and returns the pruned object
// as compact JSON. doc is JSON if its first non-blank byte is '{' or '[',
// YAML otherwise; a YAML input with several documents is an error
// (ErrManyDocuments). In Strict mode, findings are an *errors.StrictError and
// no output; so is a kind no CRD serves (ErrNoSchema). In Warn and Ignore
// mode, a kind no CRD serves is kept whole, its metadata normalised.
// Positions in errors and findings are in doc (YAML lines included).
func (d *Decoder) Prune(doc []byte) ([]byte, error) {
	out, _, err := d.one(nil, doc, true)
	return out, err
}

// AppendPrune is Prune appending the output to dst; on an error dst is
// returned unchanged.
func (d *Decoder) AppendPrune(dst, doc []byte) ([]byte, error) {
	out, _, err := d.one(dst, doc, true)
	return out, err
}

// Validate decodes doc as Prune does, without output, and returns its
// findings (none in Ignore mode) and its error: in Strict mode an
// *errors.StrictError holding the same findings, or an error wrapping
// ErrNoSchema; in any mode an *errors.DecodeError when doc cannot be
// decoded.
func (d *Decoder) Validate(doc []byte) ([]jperrors.Finding, error) {
	_, o, err := d.one(nil, doc, false)
	if o == nil {
		return nil, err
	}
	return o.Findings, err
}

// Decode decodes doc as Prune does and returns an Object with its pruned
// JSON, findings and error (the same error as the one returned). The Object
// is never nil.
func (d *Decoder) Decode(doc []byte) (*Object, error) {
	out, o, err := d.one(nil, doc, true)
	if o == nil {
		o = &Object{Err: err}
	}
	if err == nil {
		o.JSON = out
	}
	return o, err
}

// one decodes the one document of input.
func (d *Decoder) one(dst, input []byte, prune bool) ([]byte, *Object, error) {
	if d == nil || d.d == nil {
		return dst, nil, errNoSchemas
	}
	if isBlank(input) {
		return dst, nil, ErrEmpty
	}
	if isJSON(input) {
		return d.doc(dst, input, nil, base{line: 1, col: 1}, prune)
	}
	r := yamlbridge.NewReader(input)
	ydoc, err := r.Next()
	if err == io.EOF {
		return dst, nil, ErrEmpty
	}
	if err != nil {
		return dst, nil, err
	}
	switch next, err := r.Next(); {
	case err == nil:
		line, _ := next.Position(rootOffset(next))
		return dst, nil, fmt.Errorf("line %d: %w", line, ErrManyDocuments)
	case err != io.EOF:
		return dst, nil, err
	}
	return d.doc(dst, nil, ydoc, base{}, prune)
}

// base locates a document in its input: JSON text, or the text of a YAML
// document, which starts at the start of a line (the zero base: the
// document is the input).
type base struct {
	off       int64
	line, col int
}

// yaml moves a position in the text of a YAML document into the input.
func (b base) yaml(off int64, l, c int) (int64, int, int) {
	if b.line == 0 {
		return off, l, c
	}
	return b.off + off, l + b.line - 1, c
}

// doc decodes one document: JSON text (at b in the input) or a YAML
// document, and turns its positions into positions in the input.
func (d *Decoder) doc(dst, js []byte, ydoc *yamlbridge.Document, b base, prune bool) ([]byte, *Object, error) {
	var out []byte
	var err error
	switch {
	case ydoc != nil && prune:
		out, err = d.d.AppendPruneSource(dst, ydoc.Source())
	case ydoc != nil:
		err = d.d.ValidateSource(ydoc.Source())
	case prune:
		out, err = d.d.AppendPrune(dst, js)
	default:
		err = d.d.Validate(js)
	}
	return d.finish(dst, out, err, js, ydoc, b)
}

// finish makes the Object of the document just decoded: it moves positions
// into the input and applies the no-schema rule.
func (d *Decoder) finish(dst, out []byte, err error, js []byte, ydoc *yamlbridge.Document, b base) ([]byte, *Object, error) {
	res := d.d.Result()
	o := &Object{Entry: res.Entry, Item: -1}
	pos := func(off int64, l, c int) (int64, int, int) {
		if ydoc != nil {
			l, c := ydoc.Position(off)
			return b.yaml(ydoc.Offset()+off, l, c)
		}
		if l == 0 {
			l, c = jperrors.LineColumn(js, off)
		}
		if l == 1 {
			c += b.col - 1
		}
		return b.off + off, l + b.line - 1, c
	}
	if ydoc != nil {
		o.Offset, o.Line, o.Column = pos(rootOffset(ydoc), 0, 0)
	} else { // the value starts after the blanks
		o.Offset, o.Line, o.Column = pos(int64(len(js)-len(bytes.TrimLeft(js, " \t\r\n"))), 0, 0)
	}
	if res.Len() > 0 {
		o.Findings = res.Findings()
		for i := range o.Findings {
			f := &o.Findings[i]
			f.Offset, f.Line, f.Column = pos(f.Offset, f.Line, f.Column)
		}
	}
	if inv := res.Invalid(); inv != nil {
		for i := range inv.Errors {
			e := &inv.Errors[i]
			e.Offset, e.Line, e.Column = pos(e.Offset, e.Line, e.Column)
		}
		o.Invalid = inv
	}
	var se *jperrors.StrictError
	var de *jperrors.DecodeError
	var ie *jperrors.InvalidError
	switch {
	case errors.As(err, &ie):
		err = o.Invalid
	case errors.As(err, &se):
		err = &jperrors.StrictError{Findings: o.Findings, Dropped: se.Dropped, DroppedDuplicates: se.DroppedDuplicates}
	case errors.As(err, &de) && de.Offset >= 0:
		c := *de
		c.Offset, c.Line, c.Column = pos(de.Offset, de.Line, de.Column)
		err = &c
	}
	o.APIVersion, o.Kind = res.APIVersion(), res.Kind() // as the decoder read them
	if res.Entry == nil && (err == nil || se != nil) && d.d.Mode() == decoder.Strict {
		err = fmt.Errorf("line %d: %w: apiVersion %s, kind %s", o.Line, ErrNoSchema,
			strconv.Quote(o.APIVersion), strconv.Quote(o.Kind))
	}
	o.Err = err
	if err != nil {
		return dst, o, err
	}
	return out, o, nil
}

// rootOffset is the offset, in the document's text, of its root value.
func rootOffset(doc *yamlbridge.Document) int64 {
	return doc.Source().InputOffset()
}

// isJSON reports whether the first non-blank byte of data is '{' or '['.
func isJSON(data []byte) bool {
	data = bytes.TrimLeft(data, " \t\r\n")
	return len(data) > 0 && (data[0] == '{' || data[0] == '[')
}

func isBlank(data []byte) bool { return len(bytes.TrimLeft(data, " \t\r\n")) == 0 }
