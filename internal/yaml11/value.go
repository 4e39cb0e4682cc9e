package yaml11

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// Defaults of Options.
const (
	// DefaultMaxDepth is the deepest nesting of objects and arrays a value may have, the root
	// counting as 1. It is the reference's limit: go-yaml v2 stops source nesting past 10000 and
	// the JSON decoders of the reference path reject the 10001st level.
	DefaultMaxDepth = 10000
	// DefaultMaxAliasNodes caps the nodes one document may produce through alias expansion. It is
	// the size go-yaml v2's own rule is built around (400,000 decoded nodes, about 100 MB in the
	// worst case), which that rule alone would let a document of about a million nodes exceed
	// threefold.
	DefaultMaxAliasNodes = 400_000
	// DefaultMaxAliasRatio caps alias-expanded nodes per node of the document itself, once the
	// expansion exceeds AliasRatioFloor nodes. go-yaml v2 allows up to 99 for documents under
	// 400,000 nodes.
	DefaultMaxAliasRatio = 10
	// AliasRatioFloor is the expansion (in nodes) below which MaxAliasRatio is not applied, so that
	// small documents may alias freely.
	AliasRatioFloor = 1000
)

// Options bounds the work ToValue and Decode do for one document. The zero value selects the
// defaults; a negative value switches that limit off.
//
// Whatever the options, go-yaml v2's own "excessive aliasing" rule is applied exactly as the
// reference applies it (every decoded node counts, nodes reached through an alias count as
// aliased, and once more than 100 are aliased and more than 1000 decoded, the aliased share may
// not exceed 99% up to 400,000 decoded nodes, falling linearly to 10% at 4,000,000). So every
// document the reference rejects for aliasing is rejected here too; MaxAliasNodes and
// MaxAliasRatio only add stricter bounds. With their defaults, a document the reference accepts is
// rejected only if it expands more than 400,000 nodes through aliases, or more than 1000 nodes and
// more than ten times its own size.
type Options struct {
	// MaxDepth is the deepest nesting of objects and arrays in a value, the root counting as 1
	// (DefaultMaxDepth when 0).
	MaxDepth int
	// MaxAliasNodes is the most nodes one document may produce through aliases, counting every
	// node visited inside an alias's anchor, keys included, once per expansion
	// (DefaultMaxAliasNodes when 0).
	MaxAliasNodes int
	// MaxAliasRatio is the most alias-expanded nodes per node of the document itself (counted
	// without following aliases), applied once the expansion exceeds AliasRatioFloor nodes
	// (DefaultMaxAliasRatio when 0).
	MaxAliasRatio float64
}

func (o Options) withDefaults() Options {
	if o.MaxDepth == 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxAliasNodes == 0 {
		o.MaxAliasNodes = DefaultMaxAliasNodes
	}
	if o.MaxAliasRatio == 0 {
		o.MaxAliasRatio = DefaultMaxAliasRatio
	}
	return o
}

// ToValue converts a DocumentNode (or any node) to the JSON value the Kubernetes YAML path gives
// it: map[string]any, []any, nil, bool, int64, float64 or string. A document without content, and
// the zero Node that yaml.Unmarshal leaves for an empty input, are nil.
//
// Scalars resolve as in ResolveScalar and keys as in KeyString. Tags on mappings and sequences are
// ignored, as go-yaml v2 ignores them. Aliases are expanded (each expansion is a fresh copy). A
// merge key (a plain "<<", or one tagged !!merge) takes a mapping or a sequence of mappings (or
// aliases of them) and sets their keys into the mapping at the place of the merge key; anything
// else is "yaml: map merge requires map or sequence of maps as the value". As in go-yaml v2, the
// keys are set in order, so a key after the merge key overrides the merged one and a key before
// it is overridden by it, and the maps of a sequence are merged from the last to the first, so the
// first one wins.
//
// Duplicate keys are not fatal: the value is returned with a *DuplicateKeysError that lists, in
// go-yaml v2's order, every key set into a mapping that already holds it, merged keys included (an
// explicit key overriding a merged one, two merged maps sharing a key). A duplicate inside an
// anchor is listed again for every expansion of the anchor, as the reference does. The last value
// wins. Keys that differ in YAML but become the same JSON key (the int 1 and the string "1", or 1
// and 1.0) are resolved the same way, deterministically (document order, last wins), where the
// reference picks one at random and reports nothing; they are listed too, with Converted set.
//
// Fatal errors, and which one wins when there are several, follow the reference's pipeline: first
// the first error of go-yaml v2's decoding in document order (a bad tagged scalar, invalid base64,
// an invalid merge, a mapping or sequence used as a key, an alias that contains itself, excessive
// aliasing) together with the limits of opts (*LimitError); then an unsupported key (null, or an
// integer above math.MaxInt64), whose text includes the key's value as the reference renders it
// (where there are several, the first met walking the document in order, a key before the keys
// inside its value, with the last value given to that key in its mapping; the reference picks one
// at random among the keys of a mapping); then a non-finite float, the first in json.Marshal's
// order (object keys sorted).
//
// ToValue sees nodes only, so a scalar written with the non-specific tag "!" is resolved as if
// untagged (see ResolveScalar); Decode gets it right.
func ToValue(doc *yaml.Node, opts Options) (any, error) {
	c := converter{opts: opts.withDefaults(), root: doc, ownNodes: -1}
	return c.run(doc)
}

// converter walks one document. Its counters mirror go-yaml v2's decoder so that the alias rule
// trips at the same node.
type converter struct {
	opts Options
	root *yaml.Node
	doc  int // document index for DuplicateKey.Document

	depth int
	path  []pathSeg
	dups  []DuplicateKey

	decoded, aliased int // go-yaml v2's decodeCount and aliasCount
	aliasDepth       int
	aliasStack       []*yaml.Node // alias nodes being expanded, outermost first
	ownNodes         int          // nodes of the document without following aliases; -1 until needed

	// nonSpecific holds the scalars written with the non-specific tag "!", which the v3 Node API
	// cannot show (see Decode); nil from ToValue.
	nonSpecific map[*yaml.Node]bool

	nextMapID int
	keyErr    *keyError // first unsupported key, reported after the walk
	nonFinite bool      // a ±Inf or NaN was put in the value
}

type pathSeg struct {
	key   string
	index int // -1 for an object key
}

type keyError struct {
	mapID int
	node  *yaml.Node // the key node, for the position
	key   scalar
	value *yaml.Node // the last value node given to that key in that mapping
}

// mapState is an object being filled; merges fill the same one.
type mapState struct {
	m  map[string]any
	id int
	// keys is created at the first key that is not a plain string: then the set of YAML keys
	// differs from the set of JSON keys and both have to be tracked.
	keys *yamlKeys
}

type yamlKeys struct {
	plain map[string]struct{} // plain string keys seen
	other map[any]struct{}    // other keys seen, as go-yaml v2 values
}

func (c *converter) run(doc *yaml.Node) (any, error) {
	v, err := c.value(doc)
	if err != nil {
		return nil, err
	}
	if c.keyErr != nil {
		ke := c.keyErr
		return nil, newError(ke.node, unsupportedKeyMessage(ke.key.native(), nativeValue(ke.value, c.nonSpecific), true))
	}
	if c.nonFinite {
		if f, ok := firstNonFinite(v); ok {
			return nil, &Error{Msg: unsupportedValue(f)}
		}
	}
	if len(c.dups) > 0 {
		return v, &DuplicateKeysError{Duplicates: c.dups}
	}
	return v, nil
}

// count is go-yaml v2's bookkeeping at the start of decoding a node, with the limits of Options.
func (c *converter) count(n *yaml.Node) error {
	c.decoded++
	if c.aliasDepth > 0 {
		c.aliased++
		if max := c.opts.MaxAliasNodes; max > 0 && c.aliased > max {
			return c.limitError(n, "MaxAliasNodes", fmt.Sprintf("alias expansion exceeds %d nodes", max))
		}
		if r := c.opts.MaxAliasRatio; r > 0 && c.aliased > AliasRatioFloor {
			if c.ownNodes < 0 {
				c.ownNodes = countNodes(c.root)
			}
			if float64(c.aliased) > r*float64(c.ownNodes) {
				return c.limitError(n, "MaxAliasRatio", fmt.Sprintf(
					"alias expansion of %d nodes exceeds %g times the document's own %d nodes",
					c.aliased, r, c.ownNodes))
			}
		}
	}
	if c.aliased > 100 && c.decoded > 1000 {
		if share := float64(c.aliased) / float64(c.decoded); share > allowedAliasShare(c.decoded) {
			return c.limitError(n, "go-yaml v2 alias ratio", fmt.Sprintf(
				"%d of %d decoded nodes come from aliases, over the %.1f%% the reference allows",
				c.aliased, c.decoded, 100*allowedAliasShare(c.decoded)))
		}
	}
	return nil
}

// allowedAliasShare is go-yaml v2's allowed share of aliased nodes among decoded ones: 99% up to
// 400,000 decoded nodes, 10% from 4,000,000, linear in between.
func allowedAliasShare(decoded int) float64 {
	const low, high = 400_000, 4_000_000
	switch {
	case decoded <= low:
		return 0.99
	case decoded >= high:
		return 0.10
	}
	return 0.99 - 0.89*float64(decoded-low)/float64(high-low)
}

func (c *converter) limitError(n *yaml.Node, limit, detail string) *LimitError {
	e := &LimitError{Limit: limit, Detail: detail}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	if len(c.aliasStack) > 0 {
		a := c.aliasStack[0]
		e.Alias, e.AliasLine = a.Value, a.Line
	}
	return e
}

// countNodes counts the nodes of the tree under n without following aliases.
func countNodes(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	total := 1
	for _, c := range n.Content {
		total += countNodes(c)
	}
	return total
}

// enterAlias starts the expansion of alias node a (go-yaml v2 fails on an alias that is already
// being expanded: its anchor contains it).
func (c *converter) enterAlias(a *yaml.Node) error {
	if a.Alias == nil {
		return newError(a, fmt.Sprintf("yaml: unknown anchor '%s' referenced", a.Value))
	}
	if slices.Contains(c.aliasStack, a) {
		return newError(a, fmt.Sprintf("yaml: anchor '%s' value contains itself", a.Value))
	}
	c.aliasStack = append(c.aliasStack, a)
	c.aliasDepth++
	return nil
}

func (c *converter) leaveAlias() {
	c.aliasStack = c.aliasStack[:len(c.aliasStack)-1]
	c.aliasDepth--
}

// value decodes n into a fresh value (go-yaml v2's unmarshal into an interface{}).
func (c *converter) value(n *yaml.Node) (any, error) {
	if n == nil {
		return nil, &Error{Msg: "yaml11: nil node"}
	}
	if err := c.count(n); err != nil {
		return nil, err
	}
	return c.decode(n)
}

// decode is value without the bookkeeping of count.
func (c *converter) decode(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 1 {
			return c.value(n.Content[0])
		}
		return nil, nil
	case yaml.AliasNode:
		if err := c.enterAlias(n); err != nil {
			return nil, err
		}
		v, err := c.value(n.Alias)
		c.leaveAlias()
		return v, err
	case yaml.ScalarNode:
		s, err := c.resolve(n)
		if err != nil {
			return nil, err
		}
		v, finite := s.jsonValue()
		if !finite {
			c.nonFinite = true
		}
		return v, nil
	case yaml.SequenceNode:
		if err := c.enter(n); err != nil {
			return nil, err
		}
		out := make([]any, len(n.Content))
		for i, e := range n.Content {
			c.path = append(c.path, pathSeg{index: i})
			v, err := c.value(e)
			c.path = c.path[:len(c.path)-1]
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		c.depth--
		return out, nil
	case yaml.MappingNode:
		if err := c.enter(n); err != nil {
			return nil, err
		}
		ms := &mapState{m: make(map[string]any, len(n.Content)/2), id: c.nextMapID}
		c.nextMapID++
		if err := c.fill(n, ms); err != nil {
			return nil, err
		}
		c.depth--
		return ms.m, nil
	case 0:
		if len(n.Content) == 0 {
			return nil, nil // a zero Node: what yaml.Unmarshal leaves for an empty input
		}
	}
	return nil, newError(n, fmt.Sprintf("yaml11: unknown node kind %d", n.Kind))
}

func (c *converter) enter(n *yaml.Node) error {
	c.depth++
	if c.opts.MaxDepth > 0 && c.depth > c.opts.MaxDepth {
		return c.limitError(n, "MaxDepth", fmt.Sprintf("exceeded max depth of %d", c.opts.MaxDepth))
	}
	return nil
}

// resolve is resolveNode, except that a scalar tagged "!" is a string, as go-yaml v2 has it
// (quoted ones are anyway).
func (c *converter) resolve(n *yaml.Node) (scalar, error) {
	if c.nonSpecific[n] {
		return scalar{kind: kString, s: n.Value}, nil
	}
	return resolveNode(n)
}

// isMerge reports whether a key node is a merge key: "<<" plain and untagged, or tagged !!merge.
// (go-yaml v2 also takes "<<" with the non-specific tag "!", quoted or not, which only Decode can
// see.)
func isMerge(k *yaml.Node) bool {
	if k == nil || k.Kind != yaml.ScalarNode || k.Value != "<<" {
		return false
	}
	if k.Style&yaml.TaggedStyle != 0 {
		return k.Tag == tagMerge
	}
	return k.Style&quotedStyles == 0
}

// fill decodes the pairs of mapping n into ms (go-yaml v2's mapping decoding, into a new map or,
// for a merge, into the map holding the merge key).
func (c *converter) fill(n *yaml.Node, ms *mapState) error {
	if len(n.Content)%2 != 0 {
		return newError(n, "yaml11: mapping node with an odd number of children")
	}
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if isMerge(k) || c.nonSpecific[k] && k.Value == "<<" {
			if err := c.merge(v, ms); err != nil {
				return err
			}
			continue
		}
		key, err := c.key(k)
		if err != nil {
			return err
		}
		jk, plain, ok := jsonKey(key)
		if !ok {
			// Recorded before the value is walked: the reference meets a bad key before the
			// keys inside its value.
			c.badKey(ms, k, key, v)
		}
		c.path = append(c.path, pathSeg{key: jk, index: -1})
		val, err := c.value(v)
		c.path = c.path[:len(c.path)-1]
		if err != nil {
			return err
		}
		if ok {
			c.set(ms, jk, plain, key, val, v)
		}
	}
	return nil
}

// key decodes a key node; a mapping or sequence key is decoded (as go-yaml v2 does, so that errors
// inside it come first) and then rejected.
func (c *converter) key(k *yaml.Node) (scalar, error) {
	if k == nil {
		return scalar{}, &Error{Msg: "yaml11: nil node"}
	}
	if err := c.count(k); err != nil {
		return scalar{}, err
	}
	switch k.Kind {
	case yaml.ScalarNode:
		return c.resolve(k)
	case yaml.AliasNode:
		if err := c.enterAlias(k); err != nil {
			return scalar{}, err
		}
		s, err := c.key(k.Alias)
		c.leaveAlias()
		return s, err
	case yaml.MappingNode, yaml.SequenceNode:
		if _, err := c.decode(k); err != nil {
			return scalar{}, err
		}
		return scalar{}, newError(k, invalidKeyMessage(k, c.nonSpecific))
	}
	return scalar{}, newError(k, fmt.Sprintf("yaml11: unknown node kind %d", k.Kind))
}

// merge applies the value of a merge key to ms.
func (c *converter) merge(v *yaml.Node, ms *mapState) error {
	wantMap := func(n *yaml.Node) error {
		return newError(n, "yaml: map merge requires map or sequence of maps as the value")
	}
	if v == nil {
		return wantMap(v)
	}
	switch v.Kind {
	case yaml.MappingNode:
		return c.mergeOne(v, ms)
	case yaml.AliasNode:
		if v.Alias != nil && v.Alias.Kind != yaml.MappingNode {
			return wantMap(v)
		}
		return c.mergeOne(v, ms)
	case yaml.SequenceNode:
		// From the last to the first, so that earlier maps win.
		for i := len(v.Content) - 1; i >= 0; i-- {
			e := v.Content[i]
			if e == nil {
				return wantMap(v)
			}
			switch e.Kind {
			case yaml.AliasNode:
				if e.Alias != nil && e.Alias.Kind != yaml.MappingNode {
					return wantMap(e)
				}
			case yaml.MappingNode:
			default:
				return wantMap(e)
			}
			if err := c.mergeOne(e, ms); err != nil {
				return err
			}
		}
		return nil
	}
	return wantMap(v)
}

// mergeOne decodes a mapping node, or an alias of one, into ms.
func (c *converter) mergeOne(n *yaml.Node, ms *mapState) error {
	if err := c.count(n); err != nil {
		return err
	}
	if n.Kind == yaml.AliasNode {
		if err := c.enterAlias(n); err != nil {
			return err
		}
		err := c.mergeOne(n.Alias, ms)
		c.leaveAlias()
		return err
	}
	return c.fill(n, ms)
}

// set stores a converted pair, recording duplicates.
func (c *converter) set(ms *mapState, jk string, plain bool, key scalar, val any, vn *yaml.Node) {
	if ms.keys == nil {
		if plain {
			// Every key so far was a plain string: YAML keys and JSON keys are the same set.
			before := len(ms.m)
			ms.m[jk] = val
			if len(ms.m) == before {
				c.duplicate(vn, key, false)
			}
			return
		}
		ms.keys = &yamlKeys{plain: make(map[string]struct{}, len(ms.m)), other: map[any]struct{}{}}
		for k := range ms.m {
			ms.keys.plain[k] = struct{}{}
		}
	}
	var yamlDup bool
	if plain {
		_, yamlDup = ms.keys.plain[jk]
		ms.keys.plain[jk] = struct{}{}
	} else {
		nk := key.native()
		_, yamlDup = ms.keys.other[nk] // NaN never finds itself, as in a Go map
		ms.keys.other[nk] = struct{}{}
	}
	_, exists := ms.m[jk]
	ms.m[jk] = val
	if yamlDup || exists {
		c.duplicate(vn, key, !yamlDup)
	}
}

func (c *converter) duplicate(vn *yaml.Node, key scalar, converted bool) {
	path := make([]string, len(c.path))
	for i, s := range c.path {
		if s.index >= 0 {
			path[i] = strconv.Itoa(s.index)
		} else {
			path[i] = s.key
		}
	}
	c.dups = append(c.dups, DuplicateKey{
		Document:  c.doc,
		Line:      vn.Line,
		Column:    vn.Column,
		Key:       fmt.Sprintf("%#v", key.native()),
		Path:      path,
		Converted: converted,
	})
}

// badKey records a null or uint64 key; the reference fails on it only after decoding the whole
// document, so the walk goes on.
func (c *converter) badKey(ms *mapState, k *yaml.Node, key scalar, v *yaml.Node) {
	if c.keyErr == nil {
		c.keyErr = &keyError{mapID: ms.id, node: k, key: key, value: v}
		return
	}
	if c.keyErr.mapID == ms.id && c.keyErr.key.kind == key.kind && c.keyErr.key.u == key.u {
		c.keyErr.value = v
	}
}

// firstNonFinite finds the first ±Inf or NaN of v in json.Marshal's order (object keys sorted).
func firstNonFinite(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return v, true
		}
	case []any:
		for _, e := range v {
			if f, ok := firstNonFinite(e); ok {
				return f, true
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if f, ok := firstNonFinite(v[k]); ok {
				return f, true
			}
		}
	}
	return 0, false
}
