// Package jsonsyntax checks that a text is one JSON value, grammar only:
// what jsontext.Value.IsValid says with jsontext.AllowDuplicateNames(true)
// and jsontext.AllowInvalidUTF8(true), at the speed of a byte loop that
// builds nothing (jsontext tracks names and runs a general state machine,
// at a fraction of that speed). The command line asks it of a JSON line
// the decoder refused for a value's reason before reading it to its end.
package jsonsyntax

// MaxDepth is the deepest nesting Valid accepts, jsontext's.
const MaxDepth = 10000

// Valid reports whether b is one JSON value (RFC 8259's grammar), with
// white space around it allowed, duplicate names allowed, and bytes that
// are not UTF-8 allowed inside strings, nested at most MaxDepth deep.
func Valid(b []byte) bool {
	var buf [64]byte
	stack := buf[:0] // the open composites' openers, '{' or '['
	i := space(b, 0)
	for {
		// a value starts at i
		if i >= len(b) {
			return false
		}
		switch c := b[i]; c {
		case '{', '[':
			if len(stack) >= MaxDepth {
				return false
			}
			i = space(b, i+1)
			if i < len(b) && b[i] == c+2 { // {} or []
				i++
				break
			}
			stack = append(stack, c)
			if c == '{' {
				if i = member(b, i); i < 0 {
					return false
				}
			}
			continue
		case '"':
			if i = str(b, i); i < 0 {
				return false
			}
		case 't':
			if i = lit(b, i, "true"); i < 0 {
				return false
			}
		case 'f':
			if i = lit(b, i, "false"); i < 0 {
				return false
			}
		case 'n':
			if i = lit(b, i, "null"); i < 0 {
				return false
			}
		default:
			if i = number(b, i); i < 0 {
				return false
			}
		}
		// after a value: a separator and the next value, or closers
		for {
			i = space(b, i)
			if len(stack) == 0 {
				return i == len(b)
			}
			if i >= len(b) {
				return false
			}
			top := stack[len(stack)-1]
			if b[i] == top+2 { // the matching closer
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if b[i] != ',' {
				return false
			}
			i = space(b, i+1)
			if top == '{' {
				if i = member(b, i); i < 0 {
					return false
				}
			}
			break
		}
	}
}

// space skips white space from b[i].
func space(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// member reads a name and its colon from b[i] and returns where the value
// starts, -1 if there is none.
func member(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	if i = str(b, i); i < 0 {
		return -1
	}
	if i = space(b, i); i >= len(b) || b[i] != ':' {
		return -1
	}
	return space(b, i+1)
}

// str reads the string at b[i] (its opening quote) and returns the index
// after its closing quote, -1 if it is not one: a control character, an
// escape JSON does not have, or no end.
func str(b []byte, i int) int {
	for i++; i < len(b); i++ {
		for i < len(b) && plain[b[i]] {
			i++
		}
		if i >= len(b) {
			break
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			i++
			if i >= len(b) {
				return -1
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) || !hex(b[i+1]) || !hex(b[i+2]) || !hex(b[i+3]) || !hex(b[i+4]) {
					return -1
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

// plain is the bytes a string holds as they are: not '"', '\\' nor a
// control character.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func hex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f' }

// lit reads the literal word at b[i].
func lit(b []byte, i int, word string) int {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// number reads the number at b[i]: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func number(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i+1)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}
