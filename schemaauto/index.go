package schemaauto

import (
	"bytes"
)

// IndexedCRD is a CRD found by IndexCRDs: its names and versions, without
// its schemas, and where its document is in the data.
type IndexedCRD struct {
	// CRD holds APIVersion, Name, Group, Kind, Plural and, for each
	// version, Name, Served and Storage; no schema.
	CRD *CRD
	// Start and End delimit the CRD's document in the data: parsing
	// data[Start:End] with ParseCRDs gives the CRD.
	Start, End int
}

// IndexCRDs reads the names and versions of the CustomResourceDefinitions
// of a YAML stream without parsing their schemas: a scan of its lines that
// descends only into metadata, spec.group, spec.names and spec.versions and
// skips everything else by its indentation. It reads the common layout
// (block style, apiextensions.k8s.io/v1, one CRD per document, plain or
// simply quoted scalars where it looks); anything else (JSON, flow style
// where it looks, anchors, tags, Lists, v1beta1, multi-line scalars...)
// makes it give up (ok false), and the caller parses the data instead.
// others counts the documents that are not CRDs.
func IndexCRDs(data []byte) (crds []IndexedCRD, others int, ok bool) {
	if len(data) > 0 && (data[0] == '{' || data[0] == '[') || bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, 0, false
	}
	ix := &indexer{data: data}
	for !ix.eof() {
		start := ix.pos
		c, empty := ix.document()
		if ix.failed {
			return nil, 0, false
		}
		switch {
		case c != nil:
			crds = append(crds, IndexedCRD{CRD: c, Start: start, End: ix.docEnd})
		case !empty:
			others++
		}
	}
	return crds, others, true
}

// indexer scans the lines of a YAML stream.
type indexer struct {
	data   []byte
	pos    int // the start of the next line
	docEnd int // the end of the document read last
	failed bool
	// the current line, when peeked
	has          bool
	indent       int
	text         []byte // after the indentation, without the line break and trailing spaces
	next         int    // the start of the line after it
	sep, docStop bool   // the line is "---" or "..."
}

func (ix *indexer) eof() bool { return !ix.has && ix.pos >= len(ix.data) }

// peek finds the next line with content (not blank, not a comment).
// It returns false at the end of the data or at a document separator.
func (ix *indexer) peek() bool {
	for !ix.has {
		if ix.pos >= len(ix.data) {
			return false
		}
		line := ix.data[ix.pos:]
		next := len(ix.data)
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, next = line[:i], ix.pos+i+1
		}
		// a line break is "\n" or "\r\n"; a carriage return anywhere else
		// breaks the line too for YAML, which this scan does not follow
		line = bytes.TrimSuffix(line, []byte("\r"))
		if bytes.IndexByte(line, '\r') >= 0 {
			ix.failed = true
			return false
		}
		line = bytes.TrimRight(line, " ")
		n := 0
		for n < len(line) && line[n] == ' ' {
			n++
		}
		text := line[n:]
		if len(text) == 0 || text[0] == '#' {
			ix.pos = next
			continue
		}
		if text[0] == '\t' {
			ix.failed = true
			return false
		}
		ix.has, ix.indent, ix.text, ix.next = true, n, text, next
		ix.sep = n == 0 && (bytes.Equal(text, []byte("---")) || bytes.HasPrefix(text, []byte("--- ")))
		ix.docStop = n == 0 && (bytes.Equal(text, []byte("...")) || bytes.HasPrefix(text, []byte("... ")))
		if n == 0 && (text[0] == '%' || ix.sep && len(text) > 3 && !isComment(text[3:])) {
			ix.failed = true // a directive, or content after "---"
			return false
		}
	}
	return !ix.failed && !ix.sep && !ix.docStop
}

func (ix *indexer) consume() { ix.pos, ix.has = ix.next, false }

func isComment(b []byte) bool {
	b = bytes.TrimLeft(b, " ")
	return len(b) == 0 || b[0] == '#'
}

// document reads one document up to its separator or the end. It returns
// the CRD it holds, or nil; empty when it has no content.
func (ix *indexer) document() (crd *CRD, empty bool) {
	if ix.peek(); ix.has && ix.sep { // the separator opening this document
		ix.consume()
	}
	var apiVersion, kind, name string
	var spec *CRD
	empty = true
	seen := map[string]bool{}
	ix.mapping(0, nil, func(key string, rest []byte, ind int) {
		empty = false
		if seen[key] {
			ix.failed = true
			return
		}
		seen[key] = true
		switch key {
		case "apiVersion":
			apiVersion = ix.scalar(rest, ind)
		case "kind":
			kind = ix.scalar(rest, ind)
		case "metadata":
			if seen["kind"] && kind != "CustomResourceDefinition" {
				ix.skip(rest, ind) // another kind's: not read
				return
			}
			ix.child(rest, ind, func(key string, rest []byte, ind int) {
				if key == "name" {
					name = ix.scalar(rest, ind)
				} else {
					ix.skip(rest, ind)
				}
			})
		case "spec":
			if seen["kind"] && kind != "CustomResourceDefinition" {
				ix.skip(rest, ind)
				return
			}
			spec = ix.spec(rest, ind)
		case "items":
			ix.failed = true // a List
		default:
			ix.skip(rest, ind)
		}
	})
	if ix.peek(); ix.has && ix.docStop {
		ix.consume()
	}
	if ix.has && !ix.sep && !ix.failed {
		ix.failed = true // content the mapping did not take (indentation)
	}
	ix.docEnd = ix.pos
	if ix.failed {
		return nil, false
	}
	if kind == "" && !seen["kind"] {
		return nil, empty
	}
	switch kind {
	case "CustomResourceDefinition":
	case "CustomResourceDefinitionList", "List":
		ix.failed = true
		return nil, false
	default:
		return nil, empty
	}
	if apiVersion != crdV1 || spec == nil || spec.Group == "" || spec.Kind == "" || len(spec.Versions) == 0 {
		ix.failed = true // v1beta1, or an error the parser words
		return nil, false
	}
	spec.APIVersion, spec.Name = apiVersion, name
	return spec, false
}

// spec reads spec.group, spec.names and spec.versions.
func (ix *indexer) spec(rest []byte, ind int) *CRD {
	c := &CRD{}
	seen := map[string]bool{}
	ix.child(rest, ind, func(key string, rest []byte, ind int) {
		switch key {
		case "group", "names", "versions", "version", "validation":
			if seen[key] {
				ix.failed = true
				return
			}
			seen[key] = true
		}
		switch key {
		case "group":
			c.Group = ix.scalar(rest, ind)
		case "names":
			ix.child(rest, ind, func(key string, rest []byte, ind int) {
				switch key {
				case "kind":
					c.Kind = ix.scalar(rest, ind)
				case "plural":
					c.Plural = ix.scalar(rest, ind)
				default:
					ix.skip(rest, ind)
				}
			})
		case "versions":
			ix.sequence(rest, ind, func(first []byte, itemInd int) {
				v := &Version{}
				vseen := map[string]bool{}
				ix.mapping(itemInd, first, func(key string, rest []byte, ind int) {
					switch key {
					case "name", "served", "storage":
						if vseen[key] {
							ix.failed = true
							return
						}
						vseen[key] = true
					}
					switch key {
					case "name":
						v.Name = ix.scalar(rest, ind)
					case "served":
						v.Served = ix.boolean(rest, ind)
					case "storage":
						v.Storage = ix.boolean(rest, ind)
					default:
						ix.skip(rest, ind)
					}
				})
				c.Versions = append(c.Versions, v)
			})
		case "version", "validation":
			ix.failed = true // v1beta1's
		default:
			ix.skip(rest, ind)
		}
	})
	return c
}

// mapping reads the entries of a block mapping at indentation ind; first
// is the text of an entry on the line of a sequence's "- ", if any. visit
// is called with each key, the text after its colon and the key's
// indentation, and must consume the value's lines.
func (ix *indexer) mapping(ind int, first []byte, visit func(key string, rest []byte, ind int)) {
	if first != nil {
		key, rest, ok := splitKey(first)
		if !ok {
			ix.failed = true
			return
		}
		visit(key, rest, ind)
	}
	for !ix.failed && ix.peek() {
		if ix.indent < ind {
			return
		}
		if ix.indent > ind {
			ix.failed = true
			return
		}
		key, rest, ok := splitKey(ix.text)
		if !ok {
			ix.failed = true
			return
		}
		ix.consume()
		visit(key, rest, ind)
	}
}

// child reads the block mapping that is the value of a key at indentation
// ind (rest is the text after its colon: it must be empty).
func (ix *indexer) child(rest []byte, ind int, visit func(key string, rest []byte, ind int)) {
	if !isComment(rest) {
		ix.failed = true // flow style, an anchor, a tag...
		return
	}
	if !ix.peek() || ix.indent <= ind {
		ix.failed = true // null, or a sequence: the parser words the error
		return
	}
	ix.mapping(ix.indent, nil, visit)
}

// sequence reads the block sequence that is the value of a key at
// indentation ind; item is called with the text after each "- " (nil when
// empty) and the indentation of the item's mapping.
func (ix *indexer) sequence(rest []byte, ind int, item func(first []byte, ind int)) {
	if !isComment(rest) || !ix.peek() || ix.indent < ind || !isDash(ix.text) {
		ix.failed = true
		return
	}
	dash := ix.indent
	for !ix.failed && ix.peek() && ix.indent == dash && isDash(ix.text) {
		text := ix.text[1:]
		n := 0
		for n < len(text) && text[n] == ' ' {
			n++
		}
		ix.consume()
		if n == len(text) || text[n] == '#' { // "-" alone: the mapping is on the next lines
			if !ix.peek() || ix.indent <= dash {
				ix.failed = true
				return
			}
			item(nil, ix.indent)
			continue
		}
		if text[n] == '-' {
			ix.failed = true // a nested sequence
			return
		}
		item(text[n:], dash+1+n)
	}
	if !ix.failed && ix.peek() && ix.indent > dash {
		ix.failed = true
	}
}

func isDash(text []byte) bool { return text[0] == '-' && (len(text) == 1 || text[1] == ' ') }

// skip consumes the value of a key at indentation ind that the index does
// not need: the lines indented more, and a block sequence at the key's own
// indentation.
func (ix *indexer) skip(rest []byte, ind int) {
	for ix.peek() && (ix.indent > ind || ix.indent == ind && isDash(ix.text)) {
		ix.consume()
	}
	_ = rest
}

// scalar reads a scalar value that must be a string on one line: plain
// (not one YAML 1.1 reads as a boolean, a number or null) or quoted without
// escapes.
func (ix *indexer) scalar(rest []byte, ind int) string {
	s, ok := plainString(rest)
	if !ok {
		ix.failed = true
		return ""
	}
	if ix.peek() && ix.indent > ind {
		ix.failed = true // a multi-line scalar, or worse
	}
	return s
}

// boolean reads a YAML 1.1 boolean on one line.
func (ix *indexer) boolean(rest []byte, ind int) bool {
	v := string(bytes.TrimSpace(stripComment(rest)))
	var b bool
	switch v {
	case "true", "True", "TRUE", "yes", "Yes", "YES", "y", "Y", "on", "On", "ON":
		b = true
	case "false", "False", "FALSE", "no", "No", "NO", "n", "N", "off", "Off", "OFF":
	default:
		ix.failed = true
	}
	if ix.peek() && ix.indent > ind {
		ix.failed = true
	}
	return b
}

// stripComment cuts a " #" comment from a plain value.
func stripComment(b []byte) []byte {
	if len(b) > 0 && b[0] == '#' {
		return nil
	}
	if i := bytes.Index(b, []byte(" #")); i >= 0 {
		return b[:i]
	}
	return b
}

// splitKey splits "key: rest" (a plain or simply quoted key).
func splitKey(text []byte) (key string, rest []byte, ok bool) {
	if len(text) == 0 {
		return "", nil, false
	}
	switch text[0] {
	case '"', '\'':
		end := bytes.IndexByte(text[1:], text[0])
		if end < 0 {
			return "", nil, false
		}
		k := text[1 : 1+end]
		after := text[2+end:]
		if bytes.IndexByte(k, '\\') >= 0 || len(after) == 0 || after[0] != ':' || len(after) > 1 && after[1] != ' ' {
			return "", nil, false
		}
		return string(k), after[1:], true
	case '?', '[', '{', '&', '*', '!', '|', '>', '@', '`', '%', '-', ':', '#':
		return "", nil, false
	}
	i := bytes.Index(text, []byte(": "))
	if i < 0 {
		if text[len(text)-1] != ':' {
			return "", nil, false
		}
		i = len(text) - 1
	}
	k := text[:i]
	if bytes.Contains(k, []byte(" #")) || k[len(k)-1] == ' ' || string(k) == "<<" {
		return "", nil, false
	}
	return string(k), text[i+1:], true
}

// plainString reads a one-line string value: plain, starting with a letter
// and made of letters, digits, ".", "-", "_" and "/" (so YAML 1.1 reads it
// as a string unless it is a boolean or null word), or quoted without
// escapes.
func plainString(rest []byte) (string, bool) {
	v := bytes.TrimLeft(rest, " ")
	if len(v) == 0 {
		return "", false
	}
	if v[0] == '"' || v[0] == '\'' {
		end := bytes.IndexByte(v[1:], v[0])
		if end < 0 {
			return "", false
		}
		s := v[1 : 1+end]
		if bytes.IndexByte(s, '\\') >= 0 || !isComment(v[2+end:]) {
			return "", false
		}
		if v[0] == '\'' && len(v) > 2+end && v[2+end] == '\'' {
			return "", false // '' escapes a quote
		}
		return string(s), true
	}
	v = bytes.TrimRight(stripComment(v), " ")
	if len(v) == 0 || !(v[0] >= 'a' && v[0] <= 'z' || v[0] >= 'A' && v[0] <= 'Z') {
		return "", false
	}
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' || c == '/') {
			return "", false
		}
	}
	switch string(v) {
	case "true", "True", "TRUE", "yes", "Yes", "YES", "y", "Y", "on", "On", "ON",
		"false", "False", "FALSE", "no", "No", "NO", "n", "N", "off", "Off", "OFF",
		"null", "Null", "NULL":
		return "", false
	}
	return string(v), true
}
