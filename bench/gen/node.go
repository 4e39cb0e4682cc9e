package gen

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// NodeKind is the kind of a JSON value in a Node tree.
type NodeKind int

// The node kinds. Raw is text inserted verbatim (e.g. a very deep nesting written at once).
const (
	Null NodeKind = iota
	Bool
	Number
	String
	Object
	Array
	Raw
)

// Node is a JSON value that keeps what encoding/json loses: member order, duplicate keys and
// the exact spelling of keys, strings and numbers (escapes, invalid UTF-8 bytes, 1e3 vs 1000).
type Node struct {
	Kind NodeKind
	// Text is the literal token for Null, Bool, Number and String (with its quotes and escapes
	// as written) and the verbatim text of a Raw node.
	Text    string
	Members []Member // Object
	Elems   []*Node  // Array
}

// Member is an object member. Key is the key token as written, quotes included.
type Member struct {
	Key   string
	Value *Node
}

// Name decodes the member's key the way a JSON decoder does (escapes resolved, invalid UTF-8
// and lone surrogates replaced by U+FFFD).
func (m Member) Name() string { return decodeString(m.Key) }

func decodeString(tok string) string {
	var s string
	if err := json.Unmarshal([]byte(tok), &s); err != nil {
		return strings.Trim(tok, `"`)
	}
	return s
}

// Clone returns a deep copy.
func (n *Node) Clone() *Node {
	if n == nil {
		return nil
	}
	c := &Node{Kind: n.Kind, Text: n.Text}
	if n.Members != nil {
		c.Members = make([]Member, len(n.Members))
		for i, m := range n.Members {
			c.Members[i] = Member{Key: m.Key, Value: m.Value.Clone()}
		}
	}
	if n.Elems != nil {
		c.Elems = make([]*Node, len(n.Elems))
		for i, e := range n.Elems {
			c.Elems[i] = e.Clone()
		}
	}
	return c
}

// Lookup returns the value of the last member whose decoded key is k (last wins, as in the
// decoders), or nil.
func (n *Node) Lookup(k string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Name() == k {
			return n.Members[i].Value
		}
	}
	return nil
}

// Constructors for the generators.

// Str is a string node with standard JSON escaping (invalid UTF-8 bytes are kept raw).
func Str(s string) *Node { return &Node{Kind: String, Text: Quote(s)} }

// Num is a number node with the given literal text.
func Num(lit string) *Node { return &Node{Kind: Number, Text: lit} }

// Int is a number node for an integer.
func Int(i int64) *Node { return Num(strconv.FormatInt(i, 10)) }

// BoolNode is a boolean node.
func BoolNode(b bool) *Node { return &Node{Kind: Bool, Text: strconv.FormatBool(b)} }

// NullNode is a null node.
func NullNode() *Node { return &Node{Kind: Null, Text: "null"} }

// Obj builds an object from alternating key (string) and value (*Node) arguments.
func Obj(kv ...any) *Node {
	n := &Node{Kind: Object, Members: []Member{}}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Members = append(n.Members, Member{Key: Quote(kv[i].(string)), Value: kv[i+1].(*Node)})
	}
	return n
}

// Arr builds an array.
func Arr(elems ...*Node) *Node { return &Node{Kind: Array, Elems: append([]*Node{}, elems...)} }

// RawNode is verbatim text.
func RawNode(text string) *Node { return &Node{Kind: Raw, Text: text} }

// Quote renders s as a JSON string token: `"` and `\` escaped, control characters as \t, \n,
// \r, \b, \f or \u00XX, everything else (non-ASCII and invalid UTF-8 bytes included) raw.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// QuoteEscaped renders s with every character at the rune positions in esc written as a \uXXXX
// escape (surrogate pairs above U+FFFF), the rest as Quote does.
func QuoteEscaped(s string, esc func(i int, r rune) bool) string {
	var b strings.Builder
	b.WriteByte('"')
	i := 0
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		if r != utf8.RuneError || size > 1 {
			if esc(i, r) {
				if r > 0xFFFF {
					r -= 0x10000
					fmt.Fprintf(&b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
				} else {
					fmt.Fprintf(&b, `\u%04x`, r)
				}
			} else {
				q := Quote(s[:size])
				b.WriteString(q[1 : len(q)-1])
			}
		} else {
			b.WriteByte(s[0])
		}
		s = s[size:]
		i++
	}
	b.WriteByte('"')
	return b.String()
}

// Parse reads one JSON value into a Node tree, keeping duplicates and spellings. Trailing
// whitespace is allowed, anything else after the value is an error.
func Parse(data []byte) (*Node, error) {
	p := &parser{data: data}
	p.ws()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.data) {
		return nil, fmt.Errorf("gen: trailing data at offset %d", p.i)
	}
	return n, nil
}

type parser struct {
	data []byte
	i    int
}

func (p *parser) ws() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) errf(format string, args ...any) error {
	return fmt.Errorf("gen: offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *parser) value(depth int) (*Node, error) {
	if depth > 10000 {
		return nil, p.errf("exceeded max depth")
	}
	if p.i >= len(p.data) {
		return nil, p.errf("unexpected end of input")
	}
	switch c := p.data[p.i]; {
	case c == '{':
		p.i++
		n := &Node{Kind: Object, Members: []Member{}}
		p.ws()
		if p.i < len(p.data) && p.data[p.i] == '}' {
			p.i++
			return n, nil
		}
		for {
			p.ws()
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.ws()
			if p.i >= len(p.data) || p.data[p.i] != ':' {
				return nil, p.errf("expected ':'")
			}
			p.i++
			p.ws()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.Members = append(n.Members, Member{Key: k, Value: v})
			p.ws()
			if p.i < len(p.data) && p.data[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.data) && p.data[p.i] == '}' {
				p.i++
				return n, nil
			}
			return nil, p.errf("expected ',' or '}'")
		}
	case c == '[':
		p.i++
		n := &Node{Kind: Array, Elems: []*Node{}}
		p.ws()
		if p.i < len(p.data) && p.data[p.i] == ']' {
			p.i++
			return n, nil
		}
		for {
			p.ws()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.Elems = append(n.Elems, v)
			p.ws()
			if p.i < len(p.data) && p.data[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.data) && p.data[p.i] == ']' {
				p.i++
				return n, nil
			}
			return nil, p.errf("expected ',' or ']'")
		}
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &Node{Kind: String, Text: s}, nil
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if strings.HasPrefix(string(p.data[p.i:min(p.i+5, len(p.data))]), lit) {
				p.i += len(lit)
				if lit == "null" {
					return NullNode(), nil
				}
				return &Node{Kind: Bool, Text: lit}, nil
			}
		}
		return nil, p.errf("invalid literal")
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.i
		for p.i < len(p.data) && strings.IndexByte("+-0123456789.eE", p.data[p.i]) >= 0 {
			p.i++
		}
		lit := string(p.data[start:p.i])
		if !json.Valid([]byte(lit)) {
			return nil, p.errf("invalid number %q", lit)
		}
		return Num(lit), nil
	default:
		return nil, p.errf("invalid character %q", c)
	}
}

// str reads a string token and returns it as written.
func (p *parser) str() (string, error) {
	if p.i >= len(p.data) || p.data[p.i] != '"' {
		return "", p.errf("expected string")
	}
	start := p.i
	p.i++
	for p.i < len(p.data) {
		switch c := p.data[p.i]; {
		case c == '\\':
			p.i += 2
		case c == '"':
			p.i++
			return string(p.data[start:p.i]), nil
		case c < 0x20:
			return "", p.errf("control character in string")
		default:
			p.i++
		}
	}
	return "", p.errf("unterminated string")
}

// Write renders the tree compactly.
func (n *Node) Write() []byte {
	var b strings.Builder
	n.write(&b, nil)
	return []byte(b.String())
}

// String is Write as a string.
func (n *Node) String() string { return string(n.Write()) }

// write renders n; ws, when non-nil, is called between tokens to add whitespace.
func (n *Node) write(b *strings.Builder, ws func(*strings.Builder)) {
	pad := func() {
		if ws != nil {
			ws(b)
		}
	}
	switch n.Kind {
	case Object:
		b.WriteByte('{')
		for i, m := range n.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			pad()
			b.WriteString(m.Key)
			pad()
			b.WriteByte(':')
			pad()
			m.Value.write(b, ws)
			pad()
		}
		b.WriteByte('}')
	case Array:
		b.WriteByte('[')
		for i, e := range n.Elems {
			if i > 0 {
				b.WriteByte(',')
			}
			pad()
			e.write(b, ws)
			pad()
		}
		b.WriteByte(']')
	default:
		b.WriteString(n.Text)
	}
}
