package yamlbridge

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/internal/jsonvalue"
	"github.com/jsonprune/jsonprune/internal/yaml11"
	yaml "go.yaml.in/yaml/v3"
)

// Rewrite returns a new DocumentNode that reads as pruned, the decoder's JSON output for this
// document (AppendPruneSource), while keeping as much of the original as the node API allows:
// comments, key order, quoting and block styles, anchors and aliases. It walks the original tree
// alongside the pruned value:
//   - a member the pruned value lacks is dropped (with its comments), and of a key written twice
//     only the occurrence whose value won is kept;
//   - a scalar whose value changed (a default replacing a null) is replaced, its comments kept;
//   - a member the original lacks (a default) is appended at the end of its mapping;
//   - an alias stays an alias when its anchor, as rewritten, still gives the pruned value; else it
//     is replaced by a rewritten copy of its anchor's node (without the anchor);
//   - a mapping with merge keys ("<<") keeps them when the rewritten mapping still gives the
//     pruned value; else it is flattened into its merged members.
//
// The original node is not modified. The result, encoded (AppendYAML) and read again as the
// Kubernetes YAML path reads YAML, gives pruned.
func (d *Document) Rewrite(pruned []byte) (*yaml.Node, error) {
	v, err := parseValue(pruned)
	if err != nil {
		return nil, err
	}
	return d.rewriter().doc(d.Node, v)
}

// RewriteMap is Rewrite for the decoder's map output (DecodeMapSource). Members a map adds are
// appended in the order of their names (a map has no order).
func (d *Document) RewriteMap(pruned map[string]any) (*yaml.Node, error) {
	v, err := fromGo(pruned)
	if err != nil {
		return nil, err
	}
	return d.rewriter().doc(d.Node, v)
}

// RewriteItems is Rewrite for a List document (IsList) whose items were pruned one by one
// (with the Sources of Items): pruned[i] is the JSON output for item i. The rest of the document
// is kept as it is.
func (d *Document) RewriteItems(pruned [][]byte) (*yaml.Node, error) {
	items, ok := d.items()
	if !ok {
		return nil, fmt.Errorf("yamlbridge: the document is not a List")
	}
	if len(pruned) != len(items) {
		return nil, fmt.Errorf("yamlbridge: %d pruned items for a List of %d", len(pruned), len(items))
	}
	r := d.rewriter()
	r.subst = map[*yaml.Node]any{}
	for i, it := range items {
		v, err := parseValue(pruned[i])
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		r.subst[it] = v
	}
	orig, err := r.original(d.Node)
	if err != nil {
		return nil, err
	}
	return r.doc(d.Node, orig)
}

// AppendYAML appends the rewritten document (Rewrite) to dst, encoded with AppendNode.
func (d *Document) AppendYAML(dst, pruned []byte) ([]byte, error) {
	n, err := d.Rewrite(pruned)
	if err != nil {
		return dst, err
	}
	return AppendNode(dst, n)
}

// RewriteNode is Rewrite for a node parsed by the caller (a DocumentNode from yaml.Unmarshal, or
// any node of one). Scalars written with the non-specific tag "!" ("! 12", a string for the
// Kubernetes YAML path) cannot be told apart here: such a scalar is written again as a quoted
// string. Use Document.Rewrite for documents read with Reader.
func RewriteNode(n *yaml.Node, pruned []byte) (*yaml.Node, error) {
	v, err := parseValue(pruned)
	if err != nil {
		return nil, err
	}
	r := &rewriter{w: yaml11.NewWalker(n, nil, yaml11.Options{}), anchors: map[string]*yaml.Node{}, values: map[*yaml.Node]any{}}
	if n.Kind == yaml.DocumentNode {
		return r.doc(n, v)
	}
	return r.node(n, v, false), nil
}

// AppendNode appends n encoded as YAML to dst, indented as the nodes that came from the parser
// were (the indentation of the first nested block mapping, two spaces when there is none; block
// sequences at the column of their key, or indented, as the first one was).
func AppendNode(dst []byte, n *yaml.Node) ([]byte, error) {
	indent, compact := layout(n)
	b := bytes.NewBuffer(dst) // appends in dst's spare capacity, without copying dst
	e := yaml.NewEncoder(b)
	e.SetIndent(indent)
	if compact {
		e.CompactSeqIndent()
	}
	if err := e.Encode(n); err != nil {
		return dst, err
	}
	if err := e.Close(); err != nil {
		return dst, err
	}
	out := b.Bytes()
	if taggedBlock(n) && !readsBack(out[len(dst):]) {
		// yaml v3's emitter puts a block collection's tag after a comment
		// on its line, on a line of its own, where it no longer belongs to
		// the value ("k: #\n!t\n  a: 1"): without the comments the
		// document is written right (FuzzBridge found it)
		return AppendNode(dst, withoutComments(n))
	}
	return out, nil
}

// taggedBlock reports whether n holds a block mapping or sequence with an
// explicit tag, which the emitter can misplace after a comment.
func taggedBlock(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	if (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && n.Style&yaml.TaggedStyle != 0 && n.Style&yaml.FlowStyle == 0 {
		return true
	}
	for _, c := range n.Content {
		if taggedBlock(c) {
			return true
		}
	}
	return false
}

// readsBack reports whether out parses as YAML.
func readsBack(out []byte) bool {
	var v yaml.Node
	return yaml.Unmarshal(out, &v) == nil
}

// withoutComments returns a copy of n without comments.
func withoutComments(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.HeadComment, c.LineComment, c.FootComment = "", "", ""
	if len(n.Content) > 0 {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, x := range n.Content {
			c.Content[i] = withoutComments(x)
		}
	}
	return &c
}

// layout finds the indentation of the first block mapping nested in a block mapping, and whether
// the first block sequence that is a mapping value starts at its key's column.
func layout(n *yaml.Node) (indent int, compact bool) {
	indent = 0
	seqSeen := false
	var walk func(n *yaml.Node) bool
	walk = func(n *yaml.Node) bool {
		if n == nil {
			return false
		}
		if n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle == 0 {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Line == 0 || v.Line == 0 || v.Style&yaml.FlowStyle != 0 || v.Line == k.Line {
					continue
				}
				switch v.Kind {
				case yaml.MappingNode:
					if indent == 0 && v.Column > k.Column && v.Column-k.Column <= 9 {
						indent = v.Column - k.Column
					}
				case yaml.SequenceNode:
					if !seqSeen {
						seqSeen, compact = true, v.Column == k.Column
					}
				}
			}
		}
		if indent != 0 && seqSeen {
			return true
		}
		for _, c := range n.Content {
			if walk(c) {
				return true
			}
		}
		return false
	}
	walk(n)
	if indent < 2 {
		indent = 2
	}
	return indent, compact
}

func (d *Document) rewriter() *rewriter {
	return &rewriter{w: d.walker(), nonSpecific: d.nonSpecific, anchors: map[string]*yaml.Node{}, values: map[*yaml.Node]any{}}
}

// rewriter builds the rewritten tree.
type rewriter struct {
	w           *yaml11.Walker
	nonSpecific map[*yaml.Node]bool
	// anchors maps each anchor name to the rewritten node that defines it last so far, in the
	// order the output is written: an alias refers to it.
	anchors map[string]*yaml.Node
	values  map[*yaml.Node]any // value of rewritten anchored nodes, computed once
	subst   map[*yaml.Node]any // RewriteItems: the pruned value of these nodes
	scratch []byte
	flow    int // flow collections open around the node being rewritten
}

func (r *rewriter) doc(n *yaml.Node, v any) (*yaml.Node, error) {
	out := *n
	if len(n.Content) == 1 {
		out.Content = []*yaml.Node{r.node(n.Content[0], v, false)}
	} else {
		out.Content = []*yaml.Node{newNode(v)}
	}
	return &out, nil
}

// node rewrites n to give v. strip drops anchor definitions: n is being copied in place of an
// alias (or out of a merged mapping), so that its anchors stay defined where they were.
func (r *rewriter) node(n *yaml.Node, v any, strip bool) *yaml.Node {
	if sv, ok := r.subst[n]; ok {
		v = sv
	}
	if n.Style&yaml.FlowStyle != 0 && (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) {
		r.flow++
		defer func() { r.flow-- }()
	}
	switch n.Kind {
	case yaml.AliasNode:
		if t := r.anchors[n.Value]; t != nil && equalValue(r.valueOf(t), v) {
			out := *n
			out.Alias = t
			return &out
		}
		out := r.node(n.Alias, v, true)
		keepComments(out, n)
		return out
	case yaml.ScalarNode:
		if r.scalarIs(n, v) {
			return r.scalarCopy(n, strip)
		}
	case yaml.SequenceNode:
		arr, ok := v.([]any)
		if !ok || len(arr) != len(n.Content) {
			break
		}
		out := *n
		r.define(&out, strip)
		out.Content = make([]*yaml.Node, len(n.Content))
		for i, e := range n.Content {
			out.Content[i] = r.node(e, arr[i], strip)
		}
		return &out
	case yaml.MappingNode:
		obj, ok := v.(*object)
		if !ok {
			break
		}
		if r.hasMerge(n) {
			return r.mergeMapping(n, obj, strip)
		}
		return r.mapping(n, obj, strip)
	}
	// replaced: a new node for v, with the comments (and the anchor) of n
	out := newNode(v)
	keepComments(out, n)
	if !strip && n.Anchor != "" && n.Kind != yaml.AliasNode {
		out.Anchor = n.Anchor
		r.define(out, false)
	}
	return out
}

// define records out's anchor (or drops it when strip).
func (r *rewriter) define(out *yaml.Node, strip bool) {
	if out.Anchor == "" {
		return
	}
	if strip {
		out.Anchor = ""
		return
	}
	r.anchors[out.Anchor] = out
	delete(r.values, out)
}

// scalarCopy copies scalar n. A scalar written with the non-specific tag "!", which the encoder
// cannot write back, is quoted when it would not read as the same string without it.
func (r *rewriter) scalarCopy(n *yaml.Node, strip bool) *yaml.Node {
	out := *n
	if r.nonSpecific[n] && out.Style&quotedStyles == 0 && !yaml11.PlainIsString(n.Value) {
		out.Style, out.Tag = yaml.DoubleQuotedStyle, "!!str"
	}
	if r.flow > 0 && out.Value == "" && out.Style&(quotedStyles|yaml.TaggedStyle) == 0 && !r.nonSpecific[n] {
		out.Value = "null" // the encoder writes an empty plain scalar in a flow collection as ''
	}
	r.define(&out, strip)
	return &out
}

const quotedStyles = yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle

// valueOf is the value a rewritten anchored node gives.
func (r *rewriter) valueOf(t *yaml.Node) any {
	if v, ok := r.values[t]; ok {
		return v
	}
	var v any = errValue{}
	if jv, err := yaml11.ToValue(t, yaml11.Options{}); err == nil {
		v = jv
	}
	r.values[t] = v
	return v
}

// errValue stands for a node that cannot be converted: equal to nothing.
type errValue struct{}

// scalarIs reports whether scalar n resolves to v.
func (r *rewriter) scalarIs(n *yaml.Node, v any) bool {
	raw, finite, err := r.w.AppendScalar(r.scratch[:0], n)
	r.scratch = raw
	if err != nil || !finite {
		return false
	}
	switch raw[0] {
	case 'n':
		return v == nil
	case 't', 'f':
		b, ok := v.(bool)
		return ok && b == (raw[0] == 't')
	case '"':
		s, ok := v.(string)
		if !ok || len(s) > len(raw) {
			return false
		}
		u, err := jsontext.AppendUnquote(nil, raw)
		return err == nil && string(u) == s
	}
	return equalValue(parseNumber(raw), v)
}

// keyName is the JSON name of key node k.
func (r *rewriter) keyName(k *yaml.Node) (string, bool) {
	if k.Kind == yaml.AliasNode {
		k = k.Alias
	}
	if k == nil || k.Kind != yaml.ScalarNode {
		return "", false
	}
	raw, ok, err := r.w.AppendKey(r.scratch[:0], k)
	r.scratch = raw
	if err != nil || !ok {
		return "", false
	}
	s, err := jsontext.AppendUnquote(nil, raw)
	return string(s), err == nil
}

// key rewrites key node k, whose name is name.
func (r *rewriter) key(k *yaml.Node, name string, strip bool) *yaml.Node {
	if k.Kind == yaml.AliasNode {
		if t := r.anchors[k.Value]; t != nil && t.Kind == yaml.ScalarNode {
			if n, ok := r.keyName(t); ok && n == name {
				out := *k
				out.Alias = t
				return &out
			}
		}
		out := newKey(name)
		keepComments(out, k)
		return out
	}
	if r.w.IsMerge(k) {
		out := *k // a merge key: "! <<" is written "<<"
		out.Style &^= quotedStyles
		r.define(&out, strip)
		return &out
	}
	return r.scalarCopy(k, strip)
}

func (r *rewriter) hasMerge(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if r.w.IsMerge(n.Content[i]) {
			return true
		}
	}
	return false
}

// mapping rewrites a mapping without merge keys.
func (r *rewriter) mapping(n *yaml.Node, obj *object, strip bool) *yaml.Node {
	out := *n
	r.define(&out, strip)
	names := make([]string, len(n.Content)/2)
	last := make(map[string]int, len(names))
	for i := range names {
		names[i], _ = r.keyName(n.Content[2*i])
		last[names[i]] = i
	}
	out.Content = make([]*yaml.Node, 0, len(n.Content))
	written := make(map[string]bool, len(names))
	for i, name := range names {
		if last[name] != i {
			continue // a duplicate key: the later value won
		}
		v, ok := obj.get(name)
		if !ok {
			continue // pruned
		}
		written[name] = true
		out.Content = appendPair(out.Content, r.key(n.Content[2*i], name, strip), r.node(n.Content[2*i+1], v, strip))
	}
	return r.appendNew(&out, obj, written)
}

// appendNew appends the members of obj not written yet (defaults).
func (r *rewriter) appendNew(out *yaml.Node, obj *object, written map[string]bool) *yaml.Node {
	for i, name := range obj.keys {
		if !written[name] {
			out.Content = append(out.Content, newKey(name), newNode(obj.vals[i]))
		}
	}
	return out
}

// entry is a member of a mapping with merge keys, as go-yaml v2 sets it.
type entry struct {
	name   string
	k, v   *yaml.Node
	merged bool // from a merged mapping, not written in this one
}

// mergeMapping rewrites a mapping with merge keys: kept as it is when its members still give
// obj, else flattened.
func (r *rewriter) mergeMapping(n *yaml.Node, obj *object, strip bool) *yaml.Node {
	// the effective members, in go-yaml v2's order; the last occurrence of a name wins
	var entries []entry
	pos := map[string]int{}
	budget := typeMetaBudget * 10
	own := map[*yaml.Node]bool{}
	for i := 0; i < len(n.Content); i += 2 {
		own[n.Content[i]] = true
	}
	eachPair(n, r.w, &budget, func(k, v *yaml.Node) bool {
		name, ok := r.keyName(k)
		if !ok {
			return true
		}
		if i, dup := pos[name]; dup {
			entries[i].name = "" // overridden
		}
		pos[name] = len(entries)
		entries = append(entries, entry{name: name, k: k, v: v, merged: !own[k]})
		return true
	})

	// first try: keep the merge keys, rewrite the members written here
	saved := make(map[string]*yaml.Node, len(r.anchors))
	for k, v := range r.anchors {
		saved[k] = v
	}
	try := *n
	r.define(&try, strip)
	try.Content = make([]*yaml.Node, 0, len(n.Content))
	written := map[string]bool{}
	for _, e := range entries {
		if e.name != "" && e.merged {
			written[e.name] = true // given by a merge key
		}
	}
	kept := true
	for i := 0; i < len(n.Content) && kept; i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if r.w.IsMerge(k) {
			orig, err := r.original(v)
			if err != nil {
				kept = false
				break
			}
			try.Content = appendPair(try.Content, r.key(k, "<<", strip), r.node(v, orig, strip))
			continue
		}
		name, _ := r.keyName(k)
		if e := pos[name]; entries[e].k != k {
			continue // overridden by a later member: not needed
		}
		pv, ok := obj.get(name)
		if !ok {
			continue
		}
		written[name] = true
		try.Content = appendPair(try.Content, r.key(k, name, strip), r.node(v, pv, strip))
	}
	if kept {
		r.appendNew(&try, obj, written)
		if got, err := yaml11.ToValue(&try, yaml11.Options{}); err == nil && equalValue(got, obj) {
			return &try
		}
	}
	r.anchors = saved

	// flattened: the effective members in go-yaml v2's order
	out := *n
	r.define(&out, strip)
	out.Content = make([]*yaml.Node, 0, 2*len(entries))
	written = map[string]bool{}
	for _, e := range entries {
		if e.name == "" {
			continue
		}
		pv, ok := obj.get(e.name)
		if !ok {
			continue
		}
		written[e.name] = true
		var k *yaml.Node
		if e.merged {
			k = newKey(e.name)
		} else {
			k = r.key(e.k, e.name, strip)
		}
		out.Content = appendPair(out.Content, k, r.node(e.v, pv, strip || e.merged))
	}
	return r.appendNew(&out, obj, written)
}

// original is the value node n gives in the original document.
func (r *rewriter) original(n *yaml.Node) (any, error) {
	v, err := yaml11.ToValue(n, yaml11.Options{})
	if err != nil {
		if _, dup := err.(*yaml11.DuplicateKeysError); !dup {
			return nil, err
		}
	}
	return fromGo(v)
}

// appendPair appends a key and its value to a mapping's content. A line comment of the key is
// moved above the value's first member when the value is an anchored block collection: the
// encoder would write the anchor on a line of its own, at the wrong indentation. When the value
// is a block collection left empty, it is written in flow style ({} or []) and the comment after
// it: the encoder would write the key's comment, then {} on the next line at column 0, which is
// not YAML.
func appendPair(content []*yaml.Node, k, v *yaml.Node) []*yaml.Node {
	if k.LineComment != "" && (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode) &&
		v.Style&yaml.FlowStyle == 0 && len(v.Content) == 0 {
		v.Style |= yaml.FlowStyle
		if v.LineComment != "" {
			v.LineComment = k.LineComment + " " + v.LineComment
		} else {
			v.LineComment = k.LineComment
		}
		k.LineComment = ""
	}
	if k.LineComment != "" && v.Anchor != "" && (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode) &&
		v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 {
		if v.HeadComment != "" {
			v.HeadComment = k.LineComment + "\n" + v.HeadComment
		} else {
			v.HeadComment = k.LineComment
		}
		k.LineComment = ""
	}
	return append(content, k, v)
}

func keepComments(out, n *yaml.Node) {
	out.HeadComment, out.LineComment, out.FootComment = n.HeadComment, n.LineComment, n.FootComment
}

// newKey is a new string key node.
func newKey(name string) *yaml.Node { return newNode(name) }

// newNode builds a node for a value, written so that the Kubernetes YAML path reads it back as
// that value (strings quoted when they would read as something else).
func newNode(v any) *yaml.Node {
	switch t := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(t)}
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(t, 10)}
	case float64:
		text := jsonvalue.AppendFloat(nil, t)
		if !bytes.ContainsAny(text, ".eE") {
			if math.Abs(t) < 1<<63 {
				// an integral float64 (JSON 1.0): "1.0", which the Kubernetes YAML path reads
				// back as the integer 1, the same JSON value
				text = append(text, ".0"...)
			} else {
				// beyond int64 (2^63 and up): in exponent form, it reads back as a float (in
				// plain digits it would read as an integer, or fail as a !!float)
				text = strconv.AppendFloat(text[:0], t, 'e', -1, 64)
			}
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: string(text)}
	case string:
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t}
		if !yaml11.PlainIsString(t) {
			n.Style = yaml.DoubleQuotedStyle
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range t {
			n.Content = append(n.Content, newNode(e))
		}
		return n
	case *object:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for i, k := range t.keys {
			n.Content = append(n.Content, newKey(k), newNode(t.vals[i]))
		}
		return n
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

// object is a JSON object with its members in order.
type object struct {
	keys []string
	vals []any
	idx  map[string]int // built for larger objects
}

func (o *object) get(name string) (any, bool) {
	if len(o.keys) > 8 {
		if o.idx == nil {
			o.idx = make(map[string]int, len(o.keys))
			for i, k := range o.keys {
				o.idx[k] = i
			}
		}
		i, ok := o.idx[name]
		if !ok {
			return nil, false
		}
		return o.vals[i], true
	}
	for i, k := range o.keys {
		if k == name {
			return o.vals[i], true
		}
	}
	return nil, false
}

// parseValue reads JSON text into values: *object (members in order, the last of a duplicate
// name winning), []any, string, bool, nil, and numbers as the reference reads them (int64 when
// the literal has no '.' and fits, float64 otherwise).
func parseValue(data []byte) (any, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
	v, err := readValue(dec)
	if err != nil {
		return nil, fmt.Errorf("yamlbridge: pruned JSON: %w", err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, fmt.Errorf("yamlbridge: pruned JSON: data after the value")
	}
	return v, nil
}

func readValue(dec *jsontext.Decoder) (any, error) {
	switch dec.PeekKind() {
	case '{':
		dec.ReadToken()
		o := &object{}
		for dec.PeekKind() != '}' {
			t, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			name := t.String()
			v, err := readValue(dec)
			if err != nil {
				return nil, err
			}
			if i := slices.Index(o.keys, name); i >= 0 {
				o.keys = slices.Delete(o.keys, i, i+1)
				o.vals = slices.Delete(o.vals, i, i+1)
			}
			o.keys = append(o.keys, name)
			o.vals = append(o.vals, v)
		}
		_, err := dec.ReadToken()
		return o, err
	case '[':
		dec.ReadToken()
		a := []any{}
		for dec.PeekKind() != ']' {
			v, err := readValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.ReadToken()
		return a, err
	}
	raw, err := dec.ReadValue()
	if err != nil {
		return nil, err
	}
	switch raw[0] {
	case 'n':
		return nil, nil
	case 't':
		return true, nil
	case 'f':
		return false, nil
	case '"':
		s, err := jsontext.AppendUnquote(nil, raw)
		return string(s), err
	}
	return parseNumber(raw), nil
}

// parseNumber applies sigs.k8s.io/json's PreserveInts rule.
func parseNumber(raw []byte) any {
	if bytes.IndexByte(raw, '.') < 0 {
		if i, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return i
		}
	}
	f, _ := strconv.ParseFloat(string(raw), 64)
	return f
}

// fromGo converts a value of the decoder's map output (or yaml11's) to the rewriter's values.
func fromGo(v any) (any, error) {
	switch t := v.(type) {
	case nil, bool, int64, float64, string:
		return t, nil
	case int:
		return int64(t), nil
	case map[string]any:
		o := &object{keys: make([]string, 0, len(t))}
		for k := range t {
			o.keys = append(o.keys, k)
		}
		slices.Sort(o.keys)
		o.vals = make([]any, len(o.keys))
		for i, k := range o.keys {
			e, err := fromGo(t[k])
			if err != nil {
				return nil, err
			}
			o.vals[i] = e
		}
		return o, nil
	case []any:
		a := make([]any, len(t))
		for i, e := range t {
			c, err := fromGo(e)
			if err != nil {
				return nil, err
			}
			a[i] = c
		}
		return a, nil
	}
	return nil, fmt.Errorf("yamlbridge: unsupported value of type %T", v)
}

// equalValue compares a value of yaml11 (map[string]any...) with a rewriter value, or two
// rewriter values.
func equalValue(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		o, ok := b.(*object)
		if !ok || len(o.keys) != len(x) {
			return false
		}
		for i, k := range o.keys {
			e, ok := x[k]
			if !ok || !equalValue(e, o.vals[i]) {
				return false
			}
		}
		return true
	case *object:
		o, ok := b.(*object)
		if !ok || len(o.keys) != len(x.keys) {
			return false
		}
		for i, k := range x.keys {
			e, ok := o.get(k)
			if !ok || !equalValue(x.vals[i], e) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case errValue:
		return false
	}
	switch b.(type) {
	case map[string]any, *object, []any, errValue:
		return false
	}
	// numbers compare as numbers: YAML cannot write a float64 with an integral value below 2^63
	// (the Kubernetes YAML path reads 3.0 as the integer 3), and JSON makes no difference
	if x, ok := a.(int64); ok {
		if y, ok := b.(int64); ok {
			return x == y
		}
	}
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	return a == b
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}
