package decoder

import (
	"io"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
)

// The trusted scanner: the fast path's token reader for a document that
// jsontext has validated whole (jsontext.Value.IsValid: RFC 8259 grammar,
// UTF-8, no duplicate names, the same rules as the fast path's
// jsontext.Decoder). Validation runs at the speed of a validate-only scan;
// the walk then finds token boundaries in bytes known to be valid, without
// a state machine or name tracking. A document that does not validate
// takes the jsontext.Decoder path, which reports its error, or the slow
// path for its duplicates.

// skipByte marks whitespace and the separators ',' and ':', which the
// walk's structure implies.
var skipByte = [256]bool{' ': true, '\t': true, '\r': true, '\n': true, ',': true, ':': true}

// numberByte marks the bytes of a number.
var numberByte = [256]bool{'-': true, '+': true, '.': true, 'e': true, 'E': true,
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true}

// tnext is the index of the next token (cached: a peek and the read after
// it look for it once).
func (d *Decoder) tnext() int {
	if d.tpos == d.tfrom {
		return d.tat
	}
	doc, i := d.doc, d.tpos
	for i < len(doc) && skipByte[doc[i]] {
		i++
	}
	d.tfrom, d.tat = d.tpos, i
	return i
}

// tstart starts the trusted scanner at the beginning of d.doc.
func (d *Decoder) tstart() { d.tpos, d.tfrom = 0, -1 }

func (d *Decoder) tpeek() jsontext.Kind {
	i := d.tnext()
	if i >= len(d.doc) {
		return 0
	}
	switch c := d.doc[i]; c {
	case '"', '{', '}', '[', ']', 'n', 't', 'f':
		return jsontext.Kind(c)
	}
	return '0'
}

func (d *Decoder) treadToken() (jsontext.Token, error) {
	i := d.tnext()
	if i >= len(d.doc) {
		d.tpos = i
		return jsontext.Token{}, io.EOF
	}
	d.tpos = i + 1
	switch d.doc[i] {
	case '{':
		return jsontext.BeginObject, nil
	case '}':
		return jsontext.EndObject, nil
	case '[':
		return jsontext.BeginArray, nil
	case ']':
		return jsontext.EndArray, nil
	}
	// not reached on a validated document: the walk reads other tokens as
	// values
	return jsontext.Token{}, &jperrors.DecodeError{Offset: int64(i), Msg: "internal error: unexpected token"}
}

func (d *Decoder) treadValue() (jsontext.Value, error) {
	doc := d.doc
	i := d.tnext()
	if i >= len(doc) {
		d.tpos = i
		return nil, io.ErrUnexpectedEOF
	}
	end := i + 1
	switch doc[i] {
	case '"':
		end, d.tesc = stringEnd(doc, i+1)
	case '{', '[':
		end = compositeEnd(doc, i+1)
	case 'n', 't':
		end = i + 4
	case 'f':
		end = i + 5
	default:
		for end < len(doc) && numberByte[doc[end]] {
			end++
		}
	}
	end = min(end, len(doc))
	d.tpos = end
	return jsontext.Value(doc[i:end]), nil
}

// stringEnd is the index after the closing quote of the string whose
// contents start at i, and whether the string has escapes.
func stringEnd(doc []byte, i int) (int, bool) {
	esc := false
	for ; i < len(doc); i++ {
		switch doc[i] {
		case '"':
			return i + 1, esc
		case '\\':
			i++ // the escaped byte; \uXXXX's hex digits are not quotes
			esc = true
		}
	}
	return i, esc
}

// compositeEnd is the index after the end of the object or array whose
// contents start at i.
func compositeEnd(doc []byte, i int) int {
	depth := 1
	for i < len(doc) {
		switch doc[i] {
		case '"':
			i, _ = stringEnd(doc, i+1)
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return i
}
