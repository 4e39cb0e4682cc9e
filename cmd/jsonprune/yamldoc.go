package main

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/yaml11"
)

// Until the YAML bridge lands, a YAML document is converted to a JSON value
// as the Kubernetes YAML path reads it (internal/yaml11) and decoded as
// JSON: its findings are located at the document's first line, and the
// positions of YAML errors are shifted from the document to the input.
// With the bridge, pruneYAML gives way to decoder.AppendPruneSource over the
// document's tokens, and findings get their own YAML lines.

// pruneYAML prunes a YAML document or list item.
func (w *worker) pruneYAML(a *origin, text []byte) {
	u := a.u
	if u.kind == unitItem && u.indent < len(text) && text[u.indent] == '-' {
		text[u.indent] = ' ' // the item is a document of its own
	}
	doc := parseYAML(text, u.pos.line)
	if e := doc.err; e != nil {
		u.tally.objects++
		if e.syntax {
			u.tally.unreadable++
		} else {
			u.tally.failed++
		}
		w.fail(a, nil, e.msg, "", u.pos.offset, e.line, e.col)
		return
	}
	if w.o.mode == decoder.Ignore {
		doc.dups = nil
	}
	if doc.value == nil {
		u.tally.empty++
		return
	}
	if u.kind == unitDoc {
		if m, items, ok := yamlList(doc.value); ok {
			w.yamlList(a, m, items, doc.dups)
			return
		}
	}
	a.dups, a.root = doc.dups, doc.value
	w.js = appendJSON(w.js[:0], doc.value)
	w.object(a, w.js)
}

// yamlDoc is a parsed YAML document.
type yamlDoc struct {
	value any
	dups  []yaml11.DuplicateKey // lines already in the input's numbering
	err   *yamlError            // a fatal error: no value
}

// yamlError is a YAML error with its line in the input.
type yamlError struct {
	msg    string
	line   int
	col    int
	syntax bool // the parser's: the document is unreadable
}

// parseYAML parses the text of one YAML document whose first line is line
// firstLine of the input.
func parseYAML(text []byte, firstLine int) yamlDoc {
	vals, err := yaml11.Decode(text, yaml11.Options{})
	var doc yamlDoc
	if len(vals) > 0 {
		doc.value = vals[0]
	}
	if err == nil {
		return doc
	}
	shift := firstLine - 1
	var dup *yaml11.DuplicateKeysError
	var syn *yaml11.SyntaxError
	var ye *yaml11.Error
	var le *yaml11.LimitError
	switch {
	case errors.As(err, &dup):
		for _, d := range dup.Duplicates {
			if d.Converted { // the reference reports none of these
				continue
			}
			d.Line += shift
			doc.dups = append(doc.dups, d)
		}
		return doc
	case errors.As(err, &syn):
		doc.err = &yamlError{msg: shiftLines(syn.Error(), shift), line: syn.Line + shift, syntax: true}
		if syn.Line == 0 {
			doc.err.line = 0
		}
	case errors.As(err, &ye):
		doc.err = &yamlError{msg: ye.Msg, line: ye.Line + shift, col: ye.Column}
	case errors.As(err, &le):
		doc.err = &yamlError{msg: shiftLines(le.Error(), shift), line: le.Line + shift, col: le.Column}
	default:
		doc.err = &yamlError{msg: err.Error(), line: firstLine}
	}
	doc.value = nil
	return doc
}

var yamlLinePrefix = regexp.MustCompile(`^yaml: line (\d+):`)

// shiftLines rewrites the "yaml: line N:" of a parser message from the
// document's numbering to the input's.
func shiftLines(msg string, shift int) string {
	m := yamlLinePrefix.FindStringSubmatchIndex(msg)
	if m == nil || shift == 0 {
		return msg
	}
	n, _ := strconv.Atoi(msg[m[2]:m[3]])
	return msg[:m[2]] + strconv.Itoa(n+shift) + msg[m[3]:]
}

// dupText is a duplicate key's line of the reference's YAML error, and its
// warning: `line 7: key "replicas" already set in map`.
func dupText(d yaml11.DuplicateKey) string {
	return fmt.Sprintf("line %d: key %s already set in map", d.Line, d.Key)
}

// dupsError is the reference's one strict error for a document's
// duplicate keys.
func dupsError(dups []yaml11.DuplicateKey) string {
	var b strings.Builder
	b.WriteString("yaml: unmarshal errors:")
	for _, d := range dups {
		b.WriteString("\n  ")
		b.WriteString(dupText(d))
	}
	return b.String()
}

// dupPath renders a duplicate key's path in the reference's pruning syntax
// and as a JSON Pointer, looking at the value to tell indices from keys.
func dupPath(root any, d yaml11.DuplicateKey) (path, pointer string) {
	var p strings.Builder
	var ptr []byte
	cur := root
	for _, seg := range d.Path {
		if c, ok := cur.([]any); ok {
			i, _ := strconv.Atoi(seg)
			p.WriteString("[" + seg + "]")
			cur = nil
			if i >= 0 && i < len(c) {
				cur = c[i]
			}
		} else {
			if p.Len() > 0 {
				p.WriteByte('.')
			}
			p.WriteString(seg)
			m, _ := cur.(map[string]any)
			cur = m[seg]
		}
		ptr = jperrors.AppendPointerToken(ptr, []byte(seg))
	}
	key := d.Key
	if k, err := strconv.Unquote(key); err == nil {
		key = k
	}
	if p.Len() > 0 {
		p.WriteByte('.')
	}
	p.WriteString(key)
	ptr = jperrors.AppendPointerToken(ptr, []byte(key))
	return p.String(), string(ptr)
}

// itemDups returns the duplicates of item i of a list read whole, their
// paths made relative to the item.
func itemDups(dups []yaml11.DuplicateKey, i int) []yaml11.DuplicateKey {
	var out []yaml11.DuplicateKey
	idx := strconv.Itoa(i)
	for _, d := range dups {
		if len(d.Path) >= 2 && d.Path[0] == "items" && d.Path[1] == idx {
			d.Path = d.Path[2:]
			out = append(out, d)
		}
	}
	return out
}

// yamlList returns the items of a YAML document that is a list (an object
// with an "items" array, as kubectl reads it).
func yamlList(v any) (m map[string]any, items []any, ok bool) {
	m, ok = v.(map[string]any)
	if !ok {
		return nil, nil, false
	}
	items, ok = m["items"].([]any)
	return m, items, ok
}

// appendMembers appends the members of m that keep selects, in name
// order, with a comma before each but the first (more: before all).
func appendMembers(dst []byte, m map[string]any, keep func(string) bool, more bool) []byte {
	for _, k := range sortedKeys(m) {
		if !keep(k) {
			continue
		}
		if more {
			dst = append(dst, ',')
		}
		dst = appendJSON(dst, k)
		dst = append(dst, ':')
		dst = appendJSON(dst, m[k])
		more = true
	}
	return dst
}
