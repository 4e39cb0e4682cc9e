package validate

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// A Matcher reports whether a string matches a schema's pattern, with
// exactly the result of the pattern's *regexp.Regexp Match. The shapes
// most schemas use are recognised when the pattern is compiled, from its
// syntax tree, and matched without regexp:
//
//   - a run of one character class, anchored at both ends: ^[...]+$,
//     ^[...]*$, ^[...]{m,n}$ (names, tokens);
//   - a head and a run: ^[A][B]*$, ^[A][B]+$ (identifiers);
//   - a label: ^[A]([B]*[C])?$ (DNS-1123 labels and the like);
//   - dot-separated labels: ^[A]([B]*[C])?(\.[A]([B]*[C])?)*$ (DNS-1123
//     subdomains), '.' being in none of the classes;
//   - the Kubernetes quantity pattern (resource.Quantity's text,
//     written the way the generated CRDs write it);
//   - any of these as an alternative to the empty string: ^$|X or X|^$;
//   - DNS-1123 subdomains with an optional "*." (wildcard hosts), and the
//     duration patterns of matchunits.go, by their exact text.
//
// Every other pattern whose only assertions are ^ and $ is matched on
// ASCII text by a deterministic automaton of its program, built on first
// use (dfa.go); regexp matches the rest, and text with bytes past ASCII.
// A Matcher is immutable and safe for concurrent use; the fast shapes and
// the automaton allocate nothing.
type Matcher struct {
	re   *regexp.Regexp
	kind matcherKind
	// the character classes of the shape: run (first), label (first,
	// middle, last)
	first, middle, last charClass
	min                 int  // a run's least length (0 or 1; in runes for matchRepeat)
	max                 int  // matchRepeat's greatest length in runes (-1: none)
	empty               bool // the empty string matches too (^$|X)
	units               *unitShape
	dfa                 *lazyDFA // matchDFA's automaton, built on first use
	// the classes of each ASCII byte (inFirst, inMiddle, inLast): one
	// load a byte where a bitmap took a shift
	tab [utf8.RuneSelf]uint8
}

// The bits of Matcher.tab.
const (
	inFirst uint8 = 1 << iota
	inMiddle
	inLast
)

// setTab fills m.tab from the classes first, middle and last, for the
// shapes that read it.
func (m *Matcher) setTab() {
	switch m.kind {
	case matchRun, matchLabel, matchLabels, matchHeadRun, matchWildcardLabels:
	default:
		return
	}
	for b := range rune(utf8.RuneSelf) {
		var t uint8
		if m.first.has(b) {
			t |= inFirst
		}
		if m.middle.has(b) {
			t |= inMiddle
		}
		if m.last.has(b) {
			t |= inLast
		}
		m.tab[b] = t
	}
}

type matcherKind uint8

const (
	matchRegexp matcherKind = iota
	matchRun
	matchLabel
	matchLabels
	matchQuantity
	matchHeadRun // first, then a run of middle of at least min runes
	matchRepeat  // a run of first of min to max runes
	matchUnits   // a duration pattern (units)
	matchWildcardLabels
	matchDFA // any other pattern, on ASCII text (dfa.go)
)

// Match reports whether s matches the pattern, as the regexp's Match does.
func (m *Matcher) Match(s []byte) bool {
	if m.empty && len(s) == 0 {
		return true
	}
	switch m.kind {
	case matchRun:
		if len(s) < m.min {
			return false
		}
		return m.allIn(&m.first, inFirst, s)
	case matchLabel:
		return m.label(s)
	case matchLabels:
		return m.labels(s)
	case matchQuantity:
		return matchQuantityText(s)
	case matchHeadRun:
		r, n := decodeRune(s)
		if n == 0 || !m.first.has(r) {
			return false
		}
		rest := s[n:]
		return len(rest) >= m.min && m.allIn(&m.middle, inMiddle, rest)
	case matchRepeat:
		return m.repeat(s)
	case matchUnits:
		return m.units.match(s)
	case matchWildcardLabels:
		if len(s) >= 2 && s[0] == '*' && s[1] == '.' {
			s = s[2:]
		}
		return m.labels(s)
	case matchDFA:
		if d := m.dfa.get(); d != nil {
			if matched, ok := d.match(s); ok {
				return matched
			}
		}
	}
	return m.re.Match(s)
}

// Regexp is the compiled pattern.
func (m *Matcher) Regexp() *regexp.Regexp { return m.re }

// Fast reports whether the pattern is matched without regexp (on ASCII
// text, for the patterns the automaton matches).
func (m *Matcher) Fast() bool {
	return m.kind != matchRegexp && (m.kind != matchDFA || m.dfa.get() != nil)
}

func indexDot(s []byte) int {
	for i, c := range s {
		if c == '.' {
			return i
		}
	}
	return -1
}

// labels matches dot-separated labels: ASCII text in one pass, byte by
// byte, a label's bytes checked against first, middle or last by where
// they stand ('.' is in none of the classes); text past ASCII label by
// label (labelRunes).
func (m *Matcher) labels(s []byte) bool {
	start := 0 // the current label's first byte
	for i, b := range s {
		switch {
		case b >= utf8.RuneSelf:
			return m.labelRunes(s)
		case i == start:
			if m.tab[b]&inFirst == 0 {
				return false // '.' too: an empty label
			}
		case b == '.':
			start = i + 1 // the byte before was checked as the label's last
		case i+1 == len(s) || s[i+1] == '.':
			if m.tab[b]&inLast == 0 {
				return false
			}
		case m.tab[b]&inMiddle == 0:
			return false
		}
	}
	return start < len(s) // not empty, no empty label after a final '.'
}

// labelRunes is labels for text past ASCII, rune by rune.
func (m *Matcher) labelRunes(s []byte) bool {
	for {
		i := indexDot(s)
		if i < 0 {
			return m.label(s)
		}
		if !m.label(s[:i]) {
			return false
		}
		s = s[i+1:]
	}
}

// label matches first (middle* last)?: one rune of first, then, if more
// follows, runes of middle and a last rune of last.
func (m *Matcher) label(s []byte) bool {
	r, n := decodeRune(s)
	if n == 0 || !m.first.has(r) {
		return false
	}
	s = s[n:]
	if len(s) == 0 {
		return true
	}
	r, n = decodeLastRune(s)
	if !m.last.has(r) {
		return false
	}
	return m.allIn(&m.middle, inMiddle, s[:len(s)-n])
}

// allIn reports whether every rune of s is in c, whose ASCII bytes have
// bit in m.tab.
func (m *Matcher) allIn(c *charClass, bit uint8, s []byte) bool {
	for i, b := range s {
		if b >= utf8.RuneSelf {
			return c.all(s[i:])
		}
		if m.tab[b]&bit == 0 {
			return false
		}
	}
	return true
}

// repeat matches a run of first of m.min to m.max runes (each invalid
// UTF-8 byte a rune, U+FFFD, as regexp reads it).
func (m *Matcher) repeat(s []byte) bool {
	n := 0
	for i := 0; i < len(s); n++ {
		r, w := decodeRune(s[i:])
		if !m.first.has(r) || m.max >= 0 && n >= m.max {
			return false
		}
		i += w
	}
	return n >= m.min
}

// decodeRune is the rune regexp reads at the start of s: invalid UTF-8 is
// U+FFFD of width 1.
func decodeRune(s []byte) (rune, int) {
	if len(s) == 0 {
		return 0, 0
	}
	if s[0] < utf8.RuneSelf {
		return rune(s[0]), 1
	}
	return utf8.DecodeRune(s)
}

// decodeLastRune is the last rune regexp reads in s (non-empty): the
// forward decoding's, which for invalid UTF-8 may differ from
// utf8.DecodeLastRune's, so a non-ASCII end is decoded forward.
func decodeLastRune(s []byte) (rune, int) {
	if c := s[len(s)-1]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	var r rune
	n := 0
	for i := 0; i < len(s); i += n {
		r, n = decodeRune(s[i:])
	}
	return r, n
}

// charClass is a set of runes: an ASCII bitmap and the ranges above.
type charClass struct {
	ascii  [2]uint64
	ranges []rune // pairs lo, hi of runes >= 0x80, sorted
}

func (c *charClass) has(r rune) bool {
	if r < utf8.RuneSelf {
		return c.ascii[r>>6]&(1<<(r&63)) != 0
	}
	for i := 0; i+1 < len(c.ranges); i += 2 {
		if r < c.ranges[i] {
			return false
		}
		if r <= c.ranges[i+1] {
			return true
		}
	}
	return false
}

// all reports whether every rune of s is in c.
func (c *charClass) all(s []byte) bool {
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if c.ascii[b>>6]&(1<<(b&63)) == 0 {
				return false
			}
			i++
			continue
		}
		if len(c.ranges) == 0 {
			return false
		}
		r, n := utf8.DecodeRune(s[i:])
		if !c.has(r) {
			return false
		}
		i += n
	}
	return true
}

func classOf(re *syntax.Regexp) (charClass, bool) {
	var c charClass
	switch re.Op {
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
				c.ascii[r>>6] |= 1 << (r & 63)
			}
			if hi >= utf8.RuneSelf {
				c.ranges = append(c.ranges, max(lo, utf8.RuneSelf), hi)
			}
		}
		return c, true
	case syntax.OpLiteral:
		if len(re.Rune) != 1 || re.Flags&syntax.FoldCase != 0 || re.Rune[0] >= utf8.RuneSelf {
			return c, false
		}
		r := re.Rune[0]
		c.ascii[r>>6] |= 1 << (r & 63)
		return c, true
	}
	return c, false
}

// NewMatcher compiles pattern as regexp.Compile does and recognises the
// shapes Matcher matches without regexp.
func NewMatcher(pattern string) (*Matcher, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	m := &Matcher{re: re}
	if pattern == quantityPattern {
		m.kind = matchQuantity
		return m, nil
	}
	if u, ok := unitPatterns[pattern]; ok {
		m.kind, m.units = matchUnits, &u
		return m, nil
	}
	if pattern == wildcardSubdomainPattern {
		inner, _ := NewMatcher(subdomainPattern)
		if inner.kind == matchLabels {
			m.kind, m.first, m.middle, m.last = matchWildcardLabels, inner.first, inner.middle, inner.last
			m.setTab()
			return m, nil
		}
	}
	tree, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return m, nil
	}
	simple := tree.Simplify()
	recognise(m, simple, tree)
	if m.kind == matchRegexp && dfaSyntax(simple) {
		m.kind, m.dfa = matchDFA, &lazyDFA{re: simple}
	}
	m.setTab()
	return m, nil
}

// subdomainPattern is a DNS-1123 subdomain, and wildcardSubdomainPattern one
// with an optional "*." before it (a wildcard host name).
const (
	subdomainPattern         = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	wildcardSubdomainPattern = `^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
)

// quantityPattern is the pattern of resource.Quantity in generated CRDs.
const quantityPattern = `^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`

// recognise sets m's shape from the pattern's simplified syntax tree (re)
// and its tree as parsed (orig, which keeps counted repetitions).
func recognise(m *Matcher, re, orig *syntax.Regexp) {
	// ^$|X and X|^$
	if re.Op == syntax.OpAlternate && len(re.Sub) == 2 {
		for i, alt := range re.Sub {
			if alt.Op == syntax.OpConcat && len(alt.Sub) == 2 && alt.Sub[0].Op == syntax.OpBeginText && alt.Sub[1].Op == syntax.OpEndText {
				var origAlt *syntax.Regexp
				if orig.Op == syntax.OpAlternate && len(orig.Sub) == 2 {
					origAlt = orig.Sub[1-i]
				}
				recognise(m, re.Sub[1-i], origAlt)
				m.empty = m.kind != matchRegexp
				return
			}
		}
		return
	}
	// ^[...]{m,n}$
	if orig != nil && orig.Op == syntax.OpConcat && len(orig.Sub) == 3 && orig.Sub[0].Op == syntax.OpBeginText &&
		orig.Sub[2].Op == syntax.OpEndText && orig.Sub[1].Op == syntax.OpRepeat && len(orig.Sub[1].Sub) == 1 {
		if c, ok := classOf(orig.Sub[1].Sub[0]); ok {
			m.kind, m.first, m.min, m.max = matchRepeat, c, orig.Sub[1].Min, orig.Sub[1].Max
		}
		return
	}
	if re.Op != syntax.OpConcat || len(re.Sub) < 3 ||
		re.Sub[0].Op != syntax.OpBeginText || re.Sub[len(re.Sub)-1].Op != syntax.OpEndText {
		return
	}
	body := re.Sub[1 : len(re.Sub)-1]
	// ^[...]+$ and ^[...]*$
	if len(body) == 1 && (body[0].Op == syntax.OpPlus || body[0].Op == syntax.OpStar) && len(body[0].Sub) == 1 {
		if c, ok := classOf(body[0].Sub[0]); ok {
			m.kind, m.first = matchRun, c
			if body[0].Op == syntax.OpPlus {
				m.min = 1
			}
		}
		return
	}
	// ^AB*$ and ^AB+$
	if len(body) == 2 && (body[1].Op == syntax.OpStar || body[1].Op == syntax.OpPlus) && len(body[1].Sub) == 1 {
		a, ok := classOf(body[0])
		b, ok2 := classOf(body[1].Sub[0])
		if ok && ok2 {
			m.kind, m.first, m.middle = matchHeadRun, a, b
			if body[1].Op == syntax.OpPlus {
				m.min = 1
			}
		}
		return
	}
	// ^A(B*C)?$
	if len(body) == 2 {
		if a, b, c, ok := labelShape(body[0], body[1]); ok {
			m.kind, m.first, m.middle, m.last = matchLabel, a, b, c
		}
		return
	}
	// ^A(B*C)?(\.A(B*C)?)*$
	if len(body) == 3 {
		a, b, c, ok := labelShape(body[0], body[1])
		if !ok || body[2].Op != syntax.OpStar {
			return
		}
		rep := unCapture(body[2].Sub[0])
		if rep.Op != syntax.OpConcat || len(rep.Sub) != 3 {
			return
		}
		dot := rep.Sub[0]
		if dot.Op != syntax.OpLiteral || len(dot.Rune) != 1 || dot.Rune[0] != '.' || dot.Flags&syntax.FoldCase != 0 {
			return
		}
		a2, b2, c2, ok := labelShape(rep.Sub[1], rep.Sub[2])
		if !ok || !a.equal(&a2) || !b.equal(&b2) || !c.equal(&c2) || a.has('.') || b.has('.') || c.has('.') {
			return
		}
		m.kind, m.first, m.middle, m.last = matchLabels, a, b, c
	}
}

// labelShape recognises A (B*C)? as two nodes of a concatenation.
func labelShape(first, opt *syntax.Regexp) (a, b, c charClass, ok bool) {
	a, ok = classOf(first)
	if !ok || opt.Op != syntax.OpQuest {
		return a, b, c, false
	}
	in := unCapture(opt.Sub[0])
	if in.Op != syntax.OpConcat || len(in.Sub) != 2 || in.Sub[0].Op != syntax.OpStar {
		return a, b, c, false
	}
	if b, ok = classOf(in.Sub[0].Sub[0]); !ok {
		return a, b, c, false
	}
	c, ok = classOf(in.Sub[1])
	return a, b, c, ok
}

func unCapture(re *syntax.Regexp) *syntax.Regexp {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	return re
}

func (c *charClass) equal(d *charClass) bool {
	if c.ascii != d.ascii || len(c.ranges) != len(d.ranges) {
		return false
	}
	for i := range c.ranges {
		if c.ranges[i] != d.ranges[i] {
			return false
		}
	}
	return true
}

// matchQuantityText matches quantityPattern:
//
//	^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$
func matchQuantityText(s []byte) bool {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	n, ok := quantityNumber(s)
	if !ok {
		return false
	}
	s = s[n:]
	switch len(s) {
	case 0:
		return true
	case 1:
		switch s[0] {
		case 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E':
			return true
		}
	case 2:
		if s[1] == 'i' {
			switch s[0] {
			case 'K', 'M', 'G', 'T', 'P', 'E':
				return true
			}
		}
	}
	// the exponent: [eE](\+|-)?number, to the end
	if s[0] != 'e' && s[0] != 'E' {
		return false
	}
	s = s[1:]
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	n, ok = quantityNumber(s)
	return ok && n == len(s)
}

// quantityNumber reads ([0-9]+(\.[0-9]*)?)|(\.[0-9]+) at the start of s,
// as long as it goes (the pattern's suffixes start with no digit or '.').
func quantityNumber(s []byte) (int, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	digits := i > 0
	if i < len(s) && s[i] == '.' {
		i++
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if !digits && i == j {
			return 0, false
		}
		return i, true
	}
	return i, digits
}
