package decoder

import (
	"github.com/go-json-experiment/json/jsontext"
)

// TokenSource is a stream of JSON tokens that does not come from JSON text:
// the YAML bridge (package yamlbridge) presents YAML documents as one, so
// that one automaton run, with the same findings, serves both. Names and
// scalars are read with ReadValue as JSON text ("name", 1, true, null),
// delimiters with ReadToken. The decoder reads it as it reads jsontext, on
// its slow path: it detects duplicate names itself and keeps the last value.
type TokenSource interface {
	// PeekKind, ReadToken and ReadValue behave as jsontext.Decoder's, except
	// that ReadValue is only called for names and scalars.
	PeekKind() jsontext.Kind
	ReadToken() (jsontext.Token, error)
	ReadValue() (jsontext.Value, error)
	// InputOffset is the byte offset, in Document, of the next token.
	InputOffset() int64
	// LastOffset is the byte offset, in Document, of the last token read.
	LastOffset() int64
	// Document is the source text: offsets refer to it and the "Object
	// 'Kind' is missing" error quotes it.
	Document() []byte
	// TypeMeta returns what the root says of "apiVersion" and "kind" (exact
	// names, the last occurrence), as the decoder's pre-scan finds it in
	// JSON text.
	TypeMeta() TypeMeta
}

// TypeMeta is the root's "apiVersion" and "kind" as a TokenSource finds them
// (exact names, the last occurrence of each).
type TypeMeta struct {
	APIVersion, Kind []byte
	// HasAPIVersion: the last apiVersion is a string; HasKind: the last
	// kind is a non-empty string.
	HasAPIVersion, HasKind bool
	// APIVersionNull: the last apiVersion is null (the reference's
	// accessor rejects it).
	APIVersionNull bool
	// IsObject: the root is a mapping.
	IsObject bool
}

// The decoder's token reading: jsontext, or a TokenSource.

func (d *Decoder) peek() jsontext.Kind {
	if d.scanning {
		return d.sc.PeekKind()
	}
	if d.inPlace {
		return d.peekInPlace()
	}
	if d.src != nil {
		return d.src.PeekKind()
	}
	return d.jd.PeekKind()
}

// peekInPlace is PeekKind for jsontext reading d.doc in place: the kind of
// the next token, from the bytes after the last one read (whitespace and a
// separator skipped), at a fraction of jsontext's cost. It only chooses
// which jsontext call reads the token next; jsontext, reading every byte,
// still rejects what the grammar does not allow.
func (d *Decoder) peekInPlace() jsontext.Kind {
	doc := d.doc
	for i := int(d.jd.InputOffset()); i < len(doc); i++ {
		switch c := doc[i]; c {
		case ' ', '\t', '\r', '\n', ',', ':':
		case '"', '{', '}', '[', ']', 'n', 't', 'f':
			return jsontext.Kind(c)
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return '0'
		default:
			return 0
		}
	}
	return 0
}

func (d *Decoder) readToken() (jsontext.Token, error) {
	if d.scanning {
		return d.sc.ReadToken()
	}
	if d.src != nil {
		return d.src.ReadToken()
	}
	return d.jd.ReadToken()
}

func (d *Decoder) readValue() (jsontext.Value, error) {
	if d.scanning {
		return d.sc.ReadValue()
	}
	if d.src != nil {
		return d.src.ReadValue()
	}
	return d.jd.ReadValue()
}

// delimStart is the offset of the '{' or '[' just read.
func (d *Decoder) delimStart() int64 {
	if d.src != nil {
		return d.src.LastOffset()
	}
	return d.offset() - 1
}

// tokenStart is the offset of the value raw just read.
func (d *Decoder) tokenStart(raw []byte) int64 {
	if d.src != nil {
		return d.src.LastOffset()
	}
	return d.offset() - int64(len(raw))
}

// AppendPruneSource is AppendPrune for a document read from src.
func (d *Decoder) AppendPruneSource(dst []byte, src TokenSource) ([]byte, error) {
	d.src = src
	defer func() { d.src = nil }()
	return d.AppendPrune(dst, src.Document())
}

// DecodeMapSource is DecodeMap for a document read from src.
func (d *Decoder) DecodeMapSource(src TokenSource) (map[string]any, error) {
	d.src = src
	defer func() { d.src = nil }()
	return d.DecodeMap(src.Document())
}

// ValidateSource is Validate for a document read from src.
func (d *Decoder) ValidateSource(src TokenSource) error {
	d.src = src
	defer func() { d.src = nil }()
	return d.Validate(src.Document())
}

// nameStart is the offset of the member name raw just read: the scanner
// has read the colon after it too, and its names are slices of d.doc.
func (d *Decoder) nameStart(raw []byte) int64 {
	if d.scanning {
		return int64(cap(d.doc) - cap(raw))
	}
	return d.tokenStart(raw)
}
