package errors

import (
	"strconv"
	"strings"
)

// FindingType classifies a strict-decoding finding.
type FindingType uint8

const (
	// UnknownField: a field the schema does not name, pruned (or, in
	// metadata, not an ObjectMeta field).
	UnknownField FindingType = iota + 1
	// DuplicateField: a field that occurs more than once in its object; the
	// last value wins.
	DuplicateField
)

func (t FindingType) String() string {
	switch t {
	case UnknownField:
		return "unknown"
	case DuplicateField:
		return "duplicate"
	}
	return "finding(" + strconv.Itoa(int(t)) + ")"
}

// Finding is one strict-decoding finding: what, where in the document (the
// reference's path and an RFC 6901 JSON Pointer) and where in the input.
type Finding struct {
	Type FindingType
	// Path is the field's path in the syntax the reference uses for it:
	// pruning and duplicate paths join keys with "." and put indices in
	// brackets; unknown fields in embedded-resource metadata use field.Path
	// syntax (additionalProperties keys in brackets). Keys are never escaped.
	Path string
	// Pointer is the field's RFC 6901 JSON Pointer.
	Pointer string
	// Offset is the byte offset of the field's name in the input; Line and
	// Column (1-based, in bytes) locate it too, or are 0 when unknown.
	Offset       int64
	Line, Column int
}

// Message is the finding's text as the reference prints it: duplicate paths
// are quoted with strconv.Quote (strictError.Error in sigs.k8s.io/json's
// internal/golang/encoding/json/kubernetes_patch.go), unknown paths are
// inserted verbatim (schemaCoercingDecoder.Decode in
// k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go).
func (f Finding) Message() string {
	switch f.Type {
	case DuplicateField:
		return "duplicate field " + strconv.Quote(f.Path)
	default:
		return `unknown field "` + f.Path + `"`
	}
}

// Error returns Message, so that a Finding can stand for one strict error.
func (f Finding) Error() string { return f.Message() }

// StrictError is the list of findings of one document, in the reference's
// order (duplicates in document order; unknown root metadata fields; pruned
// fields sorted bytewise; unknown embedded metadata fields sorted), as the
// API server's strict decoding error holds them.
type StrictError struct {
	Findings []Finding
	// Dropped counts findings beyond the decoder's limits, not kept.
	Dropped int
	// DroppedDuplicates is the part of Dropped that is duplicate fields
	// past the API server's own cap (100 a document), which it drops without
	// a word: Error does not mention them. A caller that knows how many of
	// Dropped are such duplicates sets it.
	DroppedDuplicates int
}

// Error reads exactly like the API server's (see DroppedDuplicates):
// `strict decoding error: unknown field "spec.foo", duplicate field "spec.bar"`.
func (e *StrictError) Error() string {
	var b strings.Builder
	b.WriteString("strict decoding error: ")
	for i, f := range e.Findings {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Message())
	}
	// findings the API server would have listed, but past the decoder's
	// own limit (MaxFindings), are said; duplicates past the server's cap
	// are not, as the server does not say them
	if n := e.Dropped - e.DroppedDuplicates; n > 0 {
		b.WriteString(", and " + strconv.Itoa(n) + " more")
	}
	return b.String()
}

// DecodeError is a fatal error: the document cannot be decoded (invalid
// JSON, a limit, malformed metadata...). It says where: the byte offset, the
// line and column when known, and the JSON Pointer of the value.
type DecodeError struct {
	Offset       int64
	Line, Column int
	Pointer      string
	// Msg is the error text; for errors the reference also raises, its text.
	Msg string
	Err error // the underlying error, if any
}

func (e *DecodeError) Error() string {
	var b strings.Builder
	b.WriteString(e.Msg)
	b.WriteString(" (")
	if e.Line > 0 {
		b.WriteString("line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column) + ", ")
	}
	b.WriteString("offset " + strconv.FormatInt(e.Offset, 10))
	if e.Pointer != "" {
		b.WriteString(", at " + e.Pointer)
	}
	b.WriteString(")")
	return b.String()
}

func (e *DecodeError) Unwrap() error { return e.Err }

// LineColumn returns the 1-based line and column (in bytes) of offset in
// data; an offset outside data is taken as its nearest end.
func LineColumn(data []byte, offset int64) (line, column int) {
	offset = min(max(offset, 0), int64(len(data)))
	line, start := 1, 0
	for i, c := range data[:offset] {
		if c == '\n' {
			line++
			start = i + 1
		}
	}
	return line, int(offset) - start + 1
}
