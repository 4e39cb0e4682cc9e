package yaml11

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// Decode converts every document of a YAML stream (documents separated by "---") with ToValue,
// in order.
//
// An empty document (no content, or only comments: "---\n---\n", "--- # note") gives no value and
// is skipped; a document that says null ("--- ~", "--- null", "--- !!null") gives nil. So the
// result may be shorter than the number of documents; DuplicateKey.Document counts every
// document, empty ones included. The reference itself reads only the first document.
//
// Duplicate keys of all documents are gathered into one *DuplicateKeysError returned with all the
// values. Any other error stops the decoding and is returned alone, with the values of the
// documents before it (duplicates found before it are dropped): so an error that is a
// *DuplicateKeysError always means every document was decoded. An error of the YAML parser is a *SyntaxError with the parser's text, which
// includes the line where the parser gives one ("yaml: line 6: found character that cannot start
// any token"); invalid UTF-8 is "yaml: invalid leading UTF-8 octet" (or the parser's other UTF-8
// texts), and the SyntaxError's Line is then the line of the first invalid byte.
//
// Unlike ToValue, Decode sees the text, so it finds the scalars written with the non-specific tag
// "!" (which the v3 parser drops) and treats them as go-yaml v2 does: "! 12" is the string "12",
// and "! <<" or `! "<<"` is a merge key.
//
// Known divergence: the v3 parser lets an alias refer to an anchor of an earlier document, where
// YAML says anchors do not cross documents; such aliases are expanded.
func Decode(data []byte, opts Options) ([]any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var (
		out  []any
		dups []DuplicateKey
		src  = source{data: data}
	)
	hasBang := bytes.IndexByte(data, '!') >= 0
	for i := 0; ; i++ {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return out, &SyntaxError{Line: errorLine(err, data), Err: err}
		}
		c := converter{opts: opts.withDefaults(), root: &doc, ownNodes: -1, doc: i}
		if hasBang {
			c.nonSpecific = src.nonSpecificScalars(&doc)
		}
		if isEmptyDocument(&doc) && (len(doc.Content) == 0 || !c.nonSpecific[doc.Content[0]]) {
			continue
		}
		v, err := c.run(&doc)
		var de *DuplicateKeysError
		if errors.As(err, &de) {
			dups = append(dups, de.Duplicates...)
		} else if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	if len(dups) > 0 {
		return out, &DuplicateKeysError{Duplicates: dups}
	}
	return out, nil
}

// isEmptyDocument reports a document whose content is the empty plain scalar the parser makes for
// a document without content, with no tag and no anchor.
func isEmptyDocument(doc *yaml.Node) bool {
	if len(doc.Content) == 0 {
		return true
	}
	if len(doc.Content) != 1 {
		return false
	}
	n := doc.Content[0]
	return n.Kind == yaml.ScalarNode && n.Value == "" && n.Anchor == "" &&
		n.Style&(quotedStyles|yaml.TaggedStyle) == 0
}

// errorLine finds the line of a parser error: the "line N:" of its text, or for a UTF-8 error the
// line of the first byte that is not UTF-8.
func errorLine(err error, data []byte) int {
	msg := err.Error()
	if _, rest, ok := strings.Cut(msg, "line "); ok {
		end := 0
		for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
			end++
		}
		if n, err := strconv.Atoi(rest[:end]); err == nil {
			return n
		}
	}
	if strings.Contains(msg, "UTF-8") {
		for i := 0; i < len(data); {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return bytes.Count(data[:i], []byte("\n")) + 1
			}
			i += size
		}
	}
	return 0
}

// source locates nodes in the text of a stream.
type source struct {
	data  []byte
	lines []int // offset of the start of each line, computed on first use
}

// nonSpecificScalars finds the scalars of doc without an explicit tag whose text starts with the
// non-specific tag "!" (possibly after an anchor). The parser marks a scalar at its first
// property, so the tag is found at the node's line and column (counted in characters, as the
// parser counts them), or after the anchor found there.
func (s *source) nonSpecificScalars(doc *yaml.Node) map[*yaml.Node]bool {
	if bytes.HasPrefix(s.data, []byte{0xfe, 0xff}) || bytes.HasPrefix(s.data, []byte{0xff, 0xfe}) {
		return nil // UTF-16: columns do not map to bytes simply; not worth it
	}
	var set map[*yaml.Node]bool
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil {
			return
		}
		if n.Kind == yaml.ScalarNode && n.Style&yaml.TaggedStyle == 0 && s.tagAt(n.Line, n.Column) {
			if set == nil {
				set = map[*yaml.Node]bool{}
			}
			set[n] = true
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(doc)
	return set
}

// tagAt reports whether the text at line, column (1-based, column in characters) is "!" followed
// by a blank, or an anchor and then such a "!".
func (s *source) tagAt(line, column int) bool {
	if s.lines == nil {
		s.lines = lineStarts(s.data)
	}
	if line < 1 || line > len(s.lines) || column < 1 {
		return false
	}
	d := s.data
	i := s.lines[line-1]
	if line == 1 && bytes.HasPrefix(d, []byte("\xef\xbb\xbf")) {
		i += 3
	}
	for range column - 1 {
		if i >= len(d) {
			return false
		}
		_, size := utf8.DecodeRune(d[i:])
		i += size
	}
	if i < len(d) && d[i] == '&' {
		for i < len(d) && !isBlank(d[i]) {
			i++
		}
		for i < len(d) {
			if isBlank(d[i]) {
				i++
			} else if d[i] == '#' {
				for i < len(d) && d[i] != '\n' && d[i] != '\r' {
					i++
				}
			} else {
				break
			}
		}
	}
	return i+1 < len(d) && d[i] == '!' && isBlank(d[i+1]) || i+1 == len(d) && d[i] == '!'
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// lineStarts returns the offset of each line of data, breaking lines as the parser does: at LF,
// CR LF, CR, NEL, LS and PS.
func lineStarts(data []byte) []int {
	starts := make([]int, 1, 1+bytes.Count(data, []byte{'\n'}))
	for i := 0; i < len(data); {
		// skip to the next byte that can start a break: '\n', '\r', or
		// the lead byte of NEL (C2 85), LS and PS (E2 80 A8, E2 80 A9)
		j := i
		for j < len(data) && !breakLead[data[j]] {
			j++
		}
		if i = j; i == len(data) {
			break
		}
		switch {
		case data[i] == '\n':
			i++
		case data[i] == '\r':
			i++
			if i < len(data) && data[i] == '\n' {
				i++
			}
		case bytes.HasPrefix(data[i:], []byte("\u0085")), bytes.HasPrefix(data[i:], []byte("\u2028")),
			bytes.HasPrefix(data[i:], []byte("\u2029")):
			_, size := utf8.DecodeRune(data[i:])
			i += size
		default:
			i++
			continue
		}
		starts = append(starts, i)
	}
	return starts
}

// breakLead marks the bytes lineStarts stops at.
var breakLead = [256]bool{'\n': true, '\r': true, 0xC2: true, 0xE2: true}
