package decoder

import (
	"bytes"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
)

// streaming is PruneReader's state: the output is written to sink as it
// grows; flushed counts the bytes written out and dropped from buf.
type streaming struct {
	sink    io.Writer
	flushed int
	flushAt int          // flushSize (tests: smaller)
	rawName []byte       // a member name, copied out of jsontext's buffer
	head    *TypeMeta    // the root's apiVersion and kind, from its head
	headRd  bytes.Buffer // the bytes read to find them
	headDec *jsontext.Decoder
	tail    io.Reader // the input after headRd
	// the head's apiVersion and kind, reused across documents
	avHead, kindHead []byte
}

// PruneReader decodes the one document that r holds and writes it, pruned,
// to w while it reads, in memory that grows with the document's nesting
// depth, its largest name or scalar, its metadata objects and the names of
// the objects open at a time, not with its size. The output is the bytes
// Prune writes, with two differences that streaming cannot avoid:
//
//   - On an error (a syntax error, a fatal error, findings in Strict mode,
//     validation errors, or an error of w) part of the output may have
//     been written already: it is not a result and must be discarded.
//   - When a member name repeats one that was written out already, both
//     members are in the output, the later last; readers that keep the last
//     value (encoding/json, sigs.k8s.io/json, the API server) read the
//     object Prune writes. When the later value is pruned (a null that is
//     neither nullable nor defaulted), the reference's object has neither,
//     which the output cannot say: that is a fatal error ("decode it
//     whole").
//
// The root's apiVersion and kind choose the schema, so they are read
// first: as every Kubernetes serializer writes them before the other
// members, only the members before them are held in memory. A root whose
// apiVersion and kind are not both strings is read whole and decoded by
// Prune. A root that repeats apiVersion or kind later with another value is
// a fatal error: the reference would decode it with the last ones.
//
// With Validation, a document with validation errors ends in an
// *errors.InvalidError, as with Prune; what was written is then no result
// either. A value that is checked whole (an enum on an object or array,
// junctors, a list type, a value at a scale subresource's path) is held
// in memory until it has been checked, so memory also grows with the
// largest such value.
//
// Findings and errors have offsets in the input but no line numbers (the
// input is not kept), unless the root was read whole.
func (d *Decoder) PruneReader(w io.Writer, r io.Reader) error {
	if d.cfg.maxDocSize > 0 {
		r = &limitReader{r: r, left: d.cfg.maxDocSize, limit: d.cfg.maxDocSize}
	}
	d.strm.headRd.Reset()
	tm, ok := d.scanHead(io.TeeReader(r, &d.strm.headRd))
	if !ok {
		// read whole: the rest of the input after what the head scan read
		if _, err := d.strm.headRd.ReadFrom(r); err != nil {
			if le, ok := err.(*limitError); ok {
				d.reset(nil, false)
				return le.decodeError()
			}
			return err
		}
		return d.Prune(w, d.strm.headRd.Bytes())
	}
	d.strm.head = &tm
	d.strm.tail = r
	if d.strm.flushAt == 0 {
		d.strm.flushAt = flushSize
	}
	d.strm.sink, d.strm.flushed = w, 0
	d.out, d.buf = outBytes, d.wbuf[:0]
	_, err := d.decode(nil, true)
	if err == nil && d.cfg.mode == Strict && d.numFindings() > 0 {
		err = d.res.Err()
	}
	if err == nil && d.val.invalid() {
		err = d.res.Invalid()
	}
	if err == nil && len(d.buf) > 0 {
		_, err = w.Write(d.buf)
	}
	d.wbuf = d.buf[:0]
	d.buf, d.strm.sink, d.strm.head, d.strm.tail = nil, nil, nil, nil
	if le, ok := err.(*limitError); ok {
		return le.decodeError()
	}
	return err
}

// scanHead reads the root's members up to its first exact "apiVersion"
// and "kind" (the bytes read stay in d.strm.headRd). ok: the root is an object
// and both are strings, kind non-empty.
func (d *Decoder) scanHead(r io.Reader) (tm TypeMeta, ok bool) {
	opts := []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(d.cfg.invalidUTF8)}
	if d.strm.headDec == nil {
		d.strm.headDec = jsontext.NewDecoder(r, opts...)
	} else {
		d.strm.headDec.Reset(r, opts...)
	}
	jd := d.strm.headDec
	defer jd.Reset(eofReader{}) // drop the reference to r
	if jd.PeekKind() != '{' {
		return tm, false
	}
	if _, err := jd.ReadToken(); err != nil {
		return tm, false
	}
	var seenAV, seenKind bool
	for !seenAV || !seenKind {
		if jd.PeekKind() != '"' {
			return tm, false // the end of the root, or bad input
		}
		raw, err := jd.ReadValue()
		if err != nil {
			return tm, false
		}
		name := d.unquoteName(raw)
		isAV, isKind := !seenAV && string(name) == "apiVersion", !seenKind && string(name) == "kind"
		if !isAV && !isKind {
			if jd.SkipValue() != nil {
				return tm, false
			}
			continue
		}
		v, err := jd.ReadValue()
		if err != nil || v.Kind() != '"' {
			return tm, false
		}
		if isAV {
			seenAV = true
			tm.APIVersion, _ = jsontext.AppendUnquote(d.strm.avHead[:0], v)
			d.strm.avHead = tm.APIVersion
		} else {
			seenKind = true
			tm.Kind, _ = jsontext.AppendUnquote(d.strm.kindHead[:0], v)
			d.strm.kindHead = tm.Kind
			if len(tm.Kind) == 0 {
				return tm, false
			}
		}
	}
	tm.HasAPIVersion, tm.HasKind, tm.IsObject = true, true, true
	return tm, true
}

// headReader is the input of a streamed document: the bytes the head scan
// read, then the rest.
func (d *Decoder) headReader() io.Reader {
	return io.MultiReader(bytes.NewReader(d.strm.headRd.Bytes()), d.strm.tail)
}

// streamedTypeMeta checks a repeated root apiVersion or kind of a streamed
// document (exact name; str is its string value, nil if it is not one)
// against the one its head chose.
func (d *Decoder) streamedTypeMeta(name, str []byte, offset int64) {
	chosen := d.strm.head.Kind
	if string(name) == "apiVersion" {
		chosen = d.strm.head.APIVersion
	}
	if str != nil && bytes.Equal(str, chosen) {
		return
	}
	d.setFatal(rankStream, &jperrors.DecodeError{Offset: offset, Pointer: "/" + string(name),
		Msg: fmt.Sprintf("the root repeats %q with another value; a streamed document is decoded with the first (the reference would take the last): decode it whole", name)})
}

// prunedAfterWritten is the fatal error of a member whose name repeats
// one that PruneReader wrote out already, and whose last value is pruned
// (a null): the reference's object lacks the member, while the output,
// read as the reference reads it, would have the earlier value.
func (d *Decoder) prunedAfterWritten(mr *memberRead) {
	d.setFatal(rankStream, &jperrors.DecodeError{Offset: mr.nameOff, Pointer: string(d.appendPointer(nil)),
		Msg: fmt.Sprintf("the member %q repeats one written out already, and its last value is pruned; a streamed document keeps the first (the reference drops both): decode it whole", mr.name)})
}

// flush writes the output built so far to the sink.
func (d *Decoder) flush() error {
	n, err := d.strm.sink.Write(d.buf)
	if err == nil && n < len(d.buf) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return &writeError{err}
	}
	d.strm.flushed += len(d.buf)
	d.buf = d.buf[:0]
	return nil
}

// flushSize is the output PruneReader holds before writing it.
const flushSize = 32 << 10

// outPos is the length of the output so far, written out or not.
func (d *Decoder) outPos() int { return d.strm.flushed + len(d.buf) }

// truncate cuts the output back to length n (not below what was written
// out).
func (d *Decoder) truncate(n int) { d.buf = d.buf[:max(n-d.strm.flushed, 0)] }

// writeError is an error of PruneReader's writer, passed up unchanged.
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }

// limitReader fails once more than limit bytes are read.
type limitReader struct {
	r           io.Reader
	left, limit int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, &limitError{l.limit}
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, &limitError{l.limit}
	}
	return n, err
}

// limitError is MaxDocumentSize's limit, reached by a streamed document.
type limitError struct{ limit int64 }

func (e *limitError) Error() string {
	return fmt.Sprintf("document exceeds the limit of %d bytes", e.limit)
}

func (e *limitError) decodeError() error {
	return &jperrors.DecodeError{Msg: e.Error(), Offset: e.limit}
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
