package yaml11

import (
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Error is a fatal conversion error. Error() is exactly the reference's text, which has no
// position for these errors; Line and Column (1-based, 0 when unknown) locate the node at fault.
type Error struct {
	Line, Column int
	Msg          string
}

// Error returns the reference's text.
func (e *Error) Error() string { return e.Msg }

func newError(n *yaml.Node, msg string) *Error {
	e := &Error{Msg: msg}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	return e
}

// LimitError reports that a document exceeded one of the limits of Options (or go-yaml v2's own
// alias rule, which always applies). Its text names the limit and the line.
type LimitError struct {
	// Limit names the limit: "MaxDepth", "MaxAliasNodes", "MaxAliasRatio" or "go-yaml v2 alias
	// ratio".
	Limit string
	// Line and Column locate the node at which the limit was crossed (1-based).
	Line, Column int
	// Alias is the name of the outermost alias being expanded at that point, if any, and
	// AliasLine its line.
	Alias     string
	AliasLine int
	// Detail says by how much, in words.
	Detail string
}

// Error says which limit, where, and by how much: "yaml: line 3: document contains excessive
// aliasing: … (expanding alias *a of line 9) [MaxAliasNodes]".
func (e *LimitError) Error() string {
	var b strings.Builder
	b.WriteString("yaml: line ")
	b.WriteString(strconv.Itoa(e.Line))
	b.WriteString(": ")
	if e.Limit != "MaxDepth" {
		b.WriteString("document contains excessive aliasing: ")
	}
	b.WriteString(e.Detail)
	if e.Alias != "" {
		fmt.Fprintf(&b, " (expanding alias *%s of line %d)", e.Alias, e.AliasLine)
	}
	b.WriteString(" [")
	b.WriteString(e.Limit)
	b.WriteString("]")
	return b.String()
}

// DuplicateKey is one duplicate mapping key.
type DuplicateKey struct {
	// Document is the index of the document in the stream (counting empty documents); always 0
	// from ToValue.
	Document int
	// Line and Column are the position of the later key's value node, as go-yaml v2 reports it
	// (for a block mapping value, the line of its first key; inside a merged anchor, the line in
	// the anchored map).
	Line, Column int
	// Key is the resolved YAML key as Go's %#v renders go-yaml v2's value: "replicas" quoted,
	// true, 1, 1.5 bare.
	Key string
	// Path is the JSON path of the object holding the key: object keys and array indices (in
	// decimal), from the root. Empty for the root object.
	Path []string
	// Converted marks two different YAML keys that become the same JSON key (the int 1 and the
	// string "1", 1 and 1.0, two .nan keys, two !!binary keys made equal by U+FFFD replacement).
	// The reference reports no error for these and keeps either value at random; this package
	// keeps the later one and reports it here, so a caller that must match the reference's error
	// text drops these entries.
	Converted bool
}

// DuplicateKeysError lists every duplicate key of a document (or stream) in document order. It is
// not fatal: the value is returned with it, with the last value winning.
type DuplicateKeysError struct {
	Duplicates []DuplicateKey
}

// Error renders the reference's text: "yaml: unmarshal errors:" then one line per duplicate,
// "  line N: key K already set in map", joined with newlines.
func (e *DuplicateKeysError) Error() string {
	var b strings.Builder
	b.WriteString("yaml: unmarshal errors:")
	for _, d := range e.Duplicates {
		b.WriteString("\n  line ")
		b.WriteString(strconv.Itoa(d.Line))
		b.WriteString(": key ")
		b.WriteString(d.Key)
		b.WriteString(" already set in map")
	}
	return b.String()
}

// SyntaxError is an error of the YAML parser, returned by Decode. Error() is the parser's text
// unchanged (for example "yaml: line 6: found character that cannot start any token" or
// "yaml: invalid leading UTF-8 octet"); Line is the line it names, or for a UTF-8 error the line
// of the first invalid byte, 0 when unknown.
type SyntaxError struct {
	Line int
	Err  error
}

// Error returns the parser's text unchanged.
func (e *SyntaxError) Error() string { return e.Err.Error() }

// Unwrap returns the parser's error.
func (e *SyntaxError) Unwrap() error { return e.Err }
