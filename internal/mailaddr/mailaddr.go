// Copyright 2011 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package mailaddr decides what the API server's "email" format accepts: a
// string for which Go's net/mail.ParseAddress succeeds with a non-empty
// address (kube-openapi's strfmt checks exactly that).
//
// It is a port of net/mail's address parser (Go 1.26), reduced to deciding
// whether a string parses: the same grammar and the same order of attempts,
// the same permissions (dot-atoms in phrases, obsolete groups) and the same
// errors, but no Address is built. The reason it exists: net/mail imports
// package net, whose resolver is built with cgo where cgo is on, and that
// alone made every jsonprune binary dynamically linked, about 1 ms slower to
// start and unable to run where glibc is missing (cmd/jsonprune/README.md,
// "Install"). Domain literals are checked as net.ParseIP checks them
// (net/netip, no zone); RFC 2047 encoded words are decoded by package mime,
// as net/mail decodes them. FuzzValid compares Valid with net/mail itself.
//
// The license of the Go code it is ported from is in this directory's
// LICENSE file.
package mailaddr

import (
	"errors"
	"io"
	"mime"
	"net/netip"
	"strings"
	"unicode/utf8"
)

// Valid reports whether net/mail.ParseAddress(s) succeeds with a non-empty
// address, as the API server's "email" format requires.
func Valid(s string) bool {
	p := parser{s: s}
	n, ok := p.address(true)
	// an address found is never empty: it holds at least local@domain
	return ok && p.skipCFWS() && p.s == "" && n == 1
}

// parser holds the text not yet consumed, as net/mail's addrParser.
type parser struct{ s string }

// address parses one address at the start of p.s (a mailbox, or with
// group a group of them) and returns how many addresses it held
// (parseAddress).
func (p *parser) address(group bool) (n int, ok bool) {
	p.skipSpace()
	if p.s == "" {
		return 0, false
	}
	// addr-spec first, its grammar being the narrower; then name-addr
	if p.addrSpec() {
		p.skipSpace()
		if p.s != "" && p.s[0] == '(' {
			return 1, p.displayNameComment()
		}
		return 1, true
	}
	if p.s[0] != '<' && !p.phrase() {
		return 0, false
	}
	p.skipSpace()
	if group && p.consume(':') {
		return p.groupList()
	}
	if !p.consume('<') || !p.addrSpec() || !p.consume('>') {
		return 0, false
	}
	return 1, true
}

// groupList parses the members of a group after its ':' (consumeGroupList).
func (p *parser) groupList() (n int, ok bool) {
	p.skipSpace()
	if p.consume(';') {
		return 0, p.skipCFWS()
	}
	for {
		p.skipSpace()
		if _, ok := p.address(false); !ok { // no group within a group
			return 0, false
		}
		n++
		if !p.skipCFWS() {
			return 0, false
		}
		if p.consume(';') {
			return n, p.skipCFWS()
		}
		if !p.consume(',') {
			return 0, false
		}
	}
}

// addrSpec parses local-part "@" domain; on failure nothing is consumed
// (consumeAddrSpec).
func (p *parser) addrSpec() (ok bool) {
	orig := p.s
	defer func() {
		if !ok {
			p.s = orig
		}
	}()
	p.skipSpace()
	if p.s == "" {
		return false
	}
	if p.s[0] == '"' {
		// a quoted local part may not be empty
		if q, ok := p.quotedString(); !ok || q == 0 {
			return false
		}
	} else if !p.atom(false) {
		return false
	}
	if !p.consume('@') {
		return false
	}
	p.skipSpace()
	if p.s == "" {
		return false
	}
	if p.s[0] == '[' {
		return p.domainLiteral()
	}
	return p.atom(false)
}

// phrase parses a display name, one word or more (consumePhrase). A word
// that fails ends the phrase, which fails only when it has no word. A run
// of encoded words makes one word, and only when it decodes to text.
func (p *parser) phrase() bool {
	words, pending := 0, 0 // words kept; bytes decoded from encoded words not yet kept
	failed := false
	for {
		if words > 0 && !p.skipCFWS() {
			return false
		}
		p.skipSpace()
		if p.s == "" {
			break
		}
		encoded := false
		decoded := 0
		if p.s[0] == '"' {
			_, ok := p.quotedString()
			failed = !ok
		} else {
			start := p.s
			if !p.atom(true) {
				failed = true
			} else {
				var bad bool
				decoded, encoded, bad = decodeWord(start[:len(start)-len(p.s)])
				failed = bad
			}
		}
		if failed {
			break
		}
		switch {
		case encoded:
			pending += decoded
		case pending > 0:
			words, pending = words+2, 0
		default:
			words++
		}
	}
	if pending > 0 {
		words++
	}
	return !failed || words > 0
}

// quotedString parses a quoted string; n is the number of runes it holds
// (consumeQuotedString). On failure nothing is consumed.
func (p *parser) quotedString() (n int, ok bool) {
	i := 1 // p.s[0] is '"'
	escaped := false
	for {
		r, size := utf8.DecodeRuneInString(p.s[i:])
		switch {
		case size == 0:
			return 0, false // unclosed
		case size == 1 && r == utf8.RuneError:
			return 0, false // invalid UTF-8
		case escaped:
			if !isVchar(r) && !isWSP(r) {
				return 0, false
			}
			n++
			escaped = false
		case isQtext(r) || isWSP(r):
			n++
		case r == '"':
			p.s = p.s[i+1:]
			return n, true
		case r == '\\':
			escaped = true
		default:
			return 0, false
		}
		i += size
	}
}

// atom parses a dot-atom (consumeAtom, which net/mail's address parser
// only ever asks for dot-atoms). Unless permissive, it may not start or
// end with a dot nor hold two in a row; that check comes after the atom is
// consumed, as in net/mail (the callers that care restore the text).
func (p *parser) atom(permissive bool) bool {
	i := 0
	for {
		r, size := utf8.DecodeRuneInString(p.s[i:])
		if size == 1 && r == utf8.RuneError {
			return false // invalid UTF-8, nothing consumed
		}
		if size == 0 || !isAtext(r) {
			break
		}
		i += size
	}
	if i == 0 {
		return false
	}
	atom := p.s[:i]
	p.s = p.s[i:]
	return permissive || atom[0] != '.' && atom[len(atom)-1] != '.' && !strings.Contains(atom, "..")
}

// domainLiteral parses "[" dtext "]" holding an IP address as net.ParseIP
// reads one (consumeDomainLiteral).
func (p *parser) domainLiteral() bool {
	if !p.consume('[') {
		return false
	}
	start := p.s
	for {
		if p.s == "" {
			return false // unclosed
		}
		if p.s[0] == ']' {
			break
		}
		r, size := utf8.DecodeRuneInString(p.s)
		if size == 1 && r == utf8.RuneError || !isDtext(r) {
			return false
		}
		p.s = p.s[size:]
	}
	dtext := start[:len(start)-len(p.s)]
	p.s = p.s[1:] // the ']'
	ip, err := netip.ParseAddr(dtext)
	return err == nil && ip.Zone() == ""
}

// displayNameComment parses the comment after an addr-spec, taken as the
// display name; it fails where a word of it names a charset the decoder
// does not know (consumeDisplayNameComment).
func (p *parser) displayNameComment() bool {
	if !p.consume('(') {
		return false
	}
	comment, ok := p.comment()
	if !ok {
		return false
	}
	for _, w := range strings.FieldsFunc(comment, func(r rune) bool { return r == ' ' || r == '\t' }) {
		if _, _, bad := decodeWord(w); bad {
			return false
		}
	}
	return true
}

func (p *parser) consume(c byte) bool {
	if p.s == "" || p.s[0] != c {
		return false
	}
	p.s = p.s[1:]
	return true
}

// skipSpace skips spaces and tabs.
func (p *parser) skipSpace() { p.s = strings.TrimLeft(p.s, " \t") }

// skipCFWS skips spaces, tabs and comments; it fails on a comment left
// open.
func (p *parser) skipCFWS() bool {
	p.skipSpace()
	for p.consume('(') {
		if _, ok := p.comment(); !ok {
			return false
		}
		p.skipSpace()
	}
	return true
}

// comment parses a comment after its '(' (nested comments, backslash
// escapes) and returns its text (consumeComment).
func (p *parser) comment() (string, bool) {
	depth := 1
	var b strings.Builder
	for p.s != "" && depth > 0 {
		switch {
		case p.s[0] == '\\' && len(p.s) > 1:
			p.s = p.s[1:]
		case p.s[0] == '(':
			depth++
		case p.s[0] == ')':
			depth--
		}
		if depth > 0 {
			b.WriteByte(p.s[0])
		}
		p.s = p.s[1:]
	}
	return b.String(), depth == 0
}

var errCharset = errors.New("charset not supported")

// decodeWord decodes w if it is an RFC 2047 encoded word: n is the length
// of its text, encoded whether it is one; bad reports an encoded word in a
// charset other than UTF-8, US-ASCII and ISO-8859-1, which net/mail refuses
// (decodeRFC2047Word). A word that is not well-formed is a plain word.
func decodeWord(w string) (n int, encoded, bad bool) {
	charset := false
	dec := mime.WordDecoder{CharsetReader: func(string, io.Reader) (io.Reader, error) {
		charset = true
		return nil, errCharset
	}}
	text, err := dec.Decode(w)
	switch {
	case err == nil:
		return len(text), true, false
	case charset:
		return 0, true, true
	}
	return 0, false, false
}

// isAtext reports whether r is RFC 5322 atext or a '.'.
func isAtext(r rune) bool {
	switch r {
	case '(', ')', '<', '>', '[', ']', ':', ';', '@', '\\', ',', '"': // specials
		return false
	}
	return isVchar(r)
}

// isQtext reports whether r is RFC 5322 qtext.
func isQtext(r rune) bool { return r != '\\' && r != '"' && isVchar(r) }

// isVchar reports whether r is visible ASCII or a multi-byte rune (RFC
// 6532).
func isVchar(r rune) bool { return '!' <= r && r <= '~' || r >= utf8.RuneSelf }

func isWSP(r rune) bool { return r == ' ' || r == '\t' }

// isDtext reports whether r is RFC 5322 dtext.
func isDtext(r rune) bool { return r != '[' && r != ']' && r != '\\' && isVchar(r) }
