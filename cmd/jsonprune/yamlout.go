package main

import (
	"bytes"
	"fmt"

	"github.com/jsonprune/jsonprune/yamlbridge"
	yaml "go.yaml.in/yaml/v3"
)

// -o yaml. Workers turn each object's compact JSON output into YAML: for
// YAML input, the bridge's rewrite of the document (comments, key order and
// styles kept; Document.Rewrite), for JSON input a new tree
// (yamlbridge.RewriteNode of an empty document), encoded by
// yamlbridge.AppendNode; strings that would read back as something else
// ("yes", "1.0", "~") are quoted. The writer puts "---" between documents.
//
// A streamed list (a JSON list, or a large YAML list) is written as its
// start, its items and its end: the start is the YAML of the list's members
// before "items", then "items:"; each item written is "\n- " and the item's
// YAML, indented; the end is "\n" and the YAML of the members after the
// items. The writer writes " []" after "items:" when no item was written.
type yamlWriter struct {
	buf []byte
}

// object appends the YAML of an object whose compact JSON output is js
// (doc: the YAML document it was read from, nil for JSON input); item: as an
// entry of the streamed list being written. dst and js may share memory: js
// is read before dst is written.
func (yw *yamlWriter) object(dst, js []byte, doc *yamlbridge.Document, item bool) ([]byte, error) {
	var n *yaml.Node
	var err error
	if doc != nil {
		n, err = doc.Rewrite(js)
	} else {
		n, err = yamlbridge.RewriteNode(&yaml.Node{Kind: yaml.DocumentNode}, js)
	}
	if err != nil {
		return dst, err
	}
	if yw.buf, err = yamlbridge.AppendNode(yw.buf[:0], n); err != nil {
		return dst, err
	}
	if item {
		return appendEntry(dst, yw.buf), nil
	}
	return append(dst, yw.buf...), nil
}

// members appends the YAML of the members of a list around its items (obj,
// a JSON object without them); nothing when there are none.
func (yw *yamlWriter) members(dst, obj []byte, doc *yamlbridge.Document) ([]byte, error) {
	if string(obj) == "{}" {
		return dst, nil
	}
	return yw.object(dst, obj, doc, false)
}

// list appends the YAML of a YAML list read whole: full is its JSON with
// every item (pruned when written, as read when not), spans where the
// written items are (start -1: not written). The document is rewritten
// from full, then the items not written are dropped, so that the others
// keep their comments and styles; should that fail (the items are an alias,
// or a written item refers to an anchor of a dropped one), it is rewritten
// from the JSON of the items written alone.
func (yw *yamlWriter) list(dst, full []byte, doc *yamlbridge.Document, spans []span, kept []byte) ([]byte, error) {
	n, err := doc.Rewrite(full)
	if err != nil {
		return dst, err
	}
	dropped := false
	for _, s := range spans {
		dropped = dropped || s.start < 0
	}
	if dropped {
		if n = dropItems(n, spans); n == nil {
			if n, err = doc.Rewrite(kept); err != nil {
				return dst, err
			}
		}
	}
	if yw.buf, err = yamlbridge.AppendNode(yw.buf[:0], n); err != nil {
		return dst, err
	}
	return append(dst, yw.buf...), nil
}

// dropItems returns a copy of a rewritten list document without the items
// not written, or nil when it cannot.
func dropItems(doc *yaml.Node, spans []span) *yaml.Node {
	root := rootMapping(doc)
	if root == nil {
		return nil
	}
	for i := len(root.Content) - 2; i >= 0; i -= 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value != "items" {
			continue
		}
		if v.Kind != yaml.SequenceNode || len(v.Content) != len(spans) {
			return nil
		}
		gone := map[*yaml.Node]bool{} // anchored nodes of the dropped items
		seq := *v
		seq.Content = nil
		for j, it := range v.Content {
			if spans[j].start >= 0 {
				seq.Content = append(seq.Content, it)
			} else {
				anchors(it, gone)
			}
		}
		if len(gone) > 0 && refersTo(root, gone) {
			return nil
		}
		r := *root
		r.Content = append([]*yaml.Node(nil), root.Content...)
		r.Content[i+1] = &seq
		if len(seq.Content) == 0 {
			seq.Style |= yaml.FlowStyle // items: []
		}
		d := *doc
		d.Content = []*yaml.Node{&r}
		return &d
	}
	return nil
}

// anchors adds the anchored nodes of a tree to set.
func anchors(n *yaml.Node, set map[*yaml.Node]bool) {
	if n.Anchor != "" && n.Kind != yaml.AliasNode {
		set[n] = true
	}
	for _, c := range n.Content {
		anchors(c, set)
	}
}

// refersTo reports whether a tree has an alias of one of the nodes of set.
func refersTo(n *yaml.Node, set map[*yaml.Node]bool) bool {
	if n.Kind == yaml.AliasNode {
		return set[n.Alias]
	}
	for _, c := range n.Content {
		if refersTo(c, set) {
			return true
		}
	}
	return false
}

// appendEntry appends a YAML document (ending with a newline) as an entry
// of a block sequence at column 0: "\n- " and its first line, then its other
// lines indented by two spaces; no newline at the end.
func appendEntry(dst, doc []byte) []byte {
	doc = bytes.TrimSuffix(doc, []byte("\n"))
	dst = append(dst, "\n- "...)
	for first := true; ; first = false {
		line, rest, more := bytes.Cut(doc, []byte("\n"))
		if !first && len(line) > 0 {
			dst = append(dst, "  "...)
		}
		dst = append(dst, line...)
		if !more {
			return dst
		}
		dst = append(dst, '\n')
		doc = rest
	}
}

// yamlListStart is the YAML start of a streamed list whose members before
// the items are obj (a JSON object, without items).
func (yw *yamlWriter) listStart(dst, obj []byte, doc *yamlbridge.Document) ([]byte, error) {
	dst, err := yw.members(dst, obj, doc)
	if err != nil {
		return dst, fmt.Errorf("the start of the list: %w", err)
	}
	return append(dst, "items:"...), nil
}

// listEnd is the YAML end of a streamed list whose members after the items
// are obj (a JSON object, without items).
func (yw *yamlWriter) listEnd(dst, obj []byte, doc *yamlbridge.Document) ([]byte, error) {
	dst = append(dst, '\n')
	dst, err := yw.members(dst, obj, doc)
	if err != nil {
		return dst, fmt.Errorf("the end of the list: %w", err)
	}
	return dst, nil
}
