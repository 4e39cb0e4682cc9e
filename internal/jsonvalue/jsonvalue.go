package jsonvalue

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// ParseNumber applies sigs.k8s.io/json's PreserveInts rule to a number
// literal: int64 when it has no '.' and fits, float64 otherwise. A literal
// a float64 cannot hold (1e400, see Overflows) is an error with the
// reference's text.
func ParseNumber(lit []byte) (any, error) {
	s := string(lit)
	if bytes.IndexByte(lit, '.') < 0 {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return nil, err
		}
		if overflow(f) {
			return nil, fmt.Errorf("json: cannot unmarshal number %s into Go value of type float64", lit)
		}
	}
	return f, nil
}

// MayOverflow reports whether the valid JSON number literal lit may be one
// a float64 cannot hold: it has an exponent, or 309 bytes or more (the
// largest float64 has 309 digits). Other literals never overflow; this is
// the cheap test in front of Overflows.
func MayOverflow(lit []byte) bool {
	if len(lit) >= 309 {
		return true
	}
	for _, c := range lit { // a loop: bytes.IndexAny builds a set per call
		if c == 'e' || c == 'E' {
			return true
		}
	}
	return false
}

// Overflows reports whether the valid JSON number literal lit is one a
// float64 cannot hold (1e400, -1e400), which the reference's decoding into
// an interface{} rejects ("json: cannot unmarshal number 1e400 into Go value
// of type float64", as ParseNumber says). Underflow (1e-400) is not an
// overflow: it decodes to 0.
func Overflows(lit []byte) bool {
	if !MayOverflow(lit) {
		return false
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return overflow(f)
	}
	return false
}

// overflow tells ParseFloat's ErrRange result for an overflow (±Inf) from
// one for an underflow (±0).
func overflow(f float64) bool { return f > 1 || f < -1 }

// RoundTripFloat returns the value a finite float64 becomes when
// encoding/json marshals it and sigs.k8s.io/json decodes it back with
// PreserveInts (as the reference's YAML path and its unstructured converter
// do): Marshal writes an integral value below 1e21 in plain digits (the
// shortest round-trip digits padded with zeros), and PreserveInts makes
// digits without '.' an int64 when ParseInt accepts them. So 1.0 and 1e3
// are int64, -0.0 is int64 0, and 4611686018427387904.0 is int64
// 4611686018427388000 (the padded digits), while 9223372036854775807.0
// (2^63), 1e21 and 1.5 stay float64.
func RoundTripFloat(f float64) any {
	if f != math.Trunc(f) || math.Abs(f) >= 1e21 {
		return f
	}
	if math.Abs(f) < 1<<53 {
		return int64(f)
	}
	if i, err := strconv.ParseInt(strconv.FormatFloat(f, 'f', -1, 64), 10, 64); err == nil {
		return i
	}
	return f
}

// AppendCanonical renders v as compact JSON with object keys sorted, as
// encoding/json renders the reference's maps. Strings are quoted minimally
// (invalid UTF-8 becomes U+FFFD).
func AppendCanonical(b []byte, v any) []byte {
	switch t := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, t)
	case int64:
		return strconv.AppendInt(b, t, 10)
	case float64:
		return AppendFloat(b, t)
	case string:
		b, _ = jsontext.AppendQuote(b, t)
		return b
	case []any:
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendCanonical(b, e)
		}
		return append(b, ']')
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b, _ = jsontext.AppendQuote(b, k)
			b = append(b, ':')
			b = AppendCanonical(b, t[k])
		}
		return append(b, '}')
	}
	panic(fmt.Sprintf("jsonvalue: not a JSON value: %T", v))
}

// AppendFloat formats f as encoding/json does (ES6 number formatting).
// Infinities and NaN, which JSON cannot hold, render as null.
func AppendFloat(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(b, "null"...)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// DeepCopy copies a value tree.
func DeepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = DeepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, e := range t {
			a[i] = DeepCopy(e)
		}
		return a
	}
	return v
}

// ReplaceInvalidUTF8 returns s with each byte that is not part of valid
// UTF-8 replaced by U+FFFD, one per byte, as encoding/json writes such a
// string and a JSON decoder reads it back.
func ReplaceInvalidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Read reads the next JSON value of dec into the reference's value tree:
// map[string]any (the last of a duplicate name winning, as the reference's
// map decoding), []any, string, bool, nil, and numbers as ParseNumber reads
// them.
func Read(dec *jsontext.Decoder) (any, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case 'n':
		return nil, nil
	case 't', 'f':
		return tok.Bool(), nil
	case '"':
		return tok.String(), nil
	case '0':
		return ParseNumber([]byte(tok.String()))
	case '{':
		m := map[string]any{}
		for dec.PeekKind() != '}' {
			kt, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			k := kt.String() // before the next read voids the token
			v, err := Read(dec)
			if err != nil {
				return nil, err
			}
			m[k] = v // last wins, as the reference's map decoding
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		return m, nil
	case '[':
		a := []any{}
		for dec.PeekKind() != ']' {
			v, err := Read(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		return a, nil
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

// Parse reads one JSON value (see Read); duplicate names are allowed, the
// last one winning.
func Parse(data []byte) (any, error) {
	return Read(jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true)))
}
