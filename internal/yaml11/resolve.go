package yaml11

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jsonprune/jsonprune/internal/jsonvalue"

	yaml "go.yaml.in/yaml/v3"
)

// Short tags as the v3 parser spells explicit tags (it shortens "tag:yaml.org,2002:x" to "!!x").
const (
	tagStr       = "!!str"
	tagBool      = "!!bool"
	tagInt       = "!!int"
	tagFloat     = "!!float"
	tagNull      = "!!null"
	tagTimestamp = "!!timestamp"
	tagBinary    = "!!binary"
	tagMerge     = "!!merge"
)

// kind is the Go type go-yaml v2 gives a scalar when it decodes into interface{}.
type kind uint8

const (
	kNull   kind = iota // nil
	kBool               // bool
	kInt                // int (always 64 bits here)
	kUint               // uint64: integers above math.MaxInt64
	kFloat              // float64, including ±Inf and NaN
	kString             // string (timestamps, sexagesimals, !!binary and everything else)
)

// scalar is a resolved YAML scalar in go-yaml v2's terms, kept unboxed on the hot path.
type scalar struct {
	kind kind
	b    bool
	i    int64
	u    uint64
	f    float64
	s    string
}

// native is the value go-yaml v2 would hold for s, used only to render error texts with fmt.
func (s scalar) native() any {
	switch s.kind {
	case kBool:
		return s.b
	case kInt:
		return int(s.i)
	case kUint:
		return s.u
	case kFloat:
		return s.f
	case kString:
		return s.s
	}
	return nil
}

// tag is the short tag of the kind s was resolved to, as go-yaml v2 names it in its messages.
func (s scalar) tag() string {
	switch s.kind {
	case kBool:
		return tagBool
	case kInt, kUint:
		return tagInt
	case kFloat:
		return tagFloat
	case kString:
		return tagStr
	}
	return tagNull
}

// plainWords is the table of plain scalars that resolve by exact spelling (YAML 1.1 as go-yaml v2
// implements it). Only these spellings count: "TrUe" or "NULL " stay strings.
var plainWords = []struct {
	v     scalar
	words []string
}{
	{scalar{kind: kBool, b: true}, []string{"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}},
	{scalar{kind: kBool, b: false}, []string{"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}},
	{scalar{kind: kNull}, []string{"", "~", "null", "Null", "NULL"}},
	{scalar{kind: kFloat, f: math.NaN()}, []string{".nan", ".NaN", ".NAN"}},
	{scalar{kind: kFloat, f: math.Inf(1)}, []string{".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}},
	{scalar{kind: kFloat, f: math.Inf(-1)}, []string{"-.inf", "-.Inf", "-.INF"}},
}

// Hints by first byte: a plain scalar whose first byte has no hint is a string without further
// look-up (so "<<", "_1", "x1" are strings). hintWord: only the word table can match; hintDot: the
// word table, then a float; hintNumber: the word table, then an int or a float.
const (
	hintNone = iota
	hintWord
	hintDot
	hintNumber
)

var (
	wordTable     map[string]scalar
	maxWordLen    int
	firstByteHint [256]uint8
)

func init() {
	wordTable = make(map[string]scalar)
	for _, row := range plainWords {
		for _, w := range row.words {
			wordTable[w] = row.v
			maxWordLen = max(maxWordLen, len(w))
		}
	}
	for _, c := range "yYnNtTfFoO~" {
		firstByteHint[c] = hintWord
	}
	firstByteHint['.'] = hintDot
	for _, c := range "+-0123456789" {
		firstByteHint[c] = hintNumber
	}
}

// resolvePlain resolves the text of an untagged plain scalar (or of one tagged !!bool, !!int,
// !!float, !!null or !!timestamp, which go-yaml v2 resolves the same way and then checks).
//
// The rules, in order (go-yaml v2 behaviour, checked against it where the reference is silent):
//  1. the empty text is null;
//  2. a text whose first byte is not one of "yYnNtTfFoO~.+-0123456789" is a string;
//  3. a text spelled exactly as in plainWords is that bool, null or special float;
//  4. a text starting with '.' is a float if strconv.ParseFloat accepts it (".5", ".5e3", even
//     ".5_0"), otherwise a string;
//  5. a text starting with a sign or a digit, with every '_' removed: an int if
//     strconv.ParseInt(t, 0, 64) accepts it (decimal, 0x, 0o, 0b and leading-0 octal, with a
//     sign), else a uint64 if strconv.ParseUint(t, 0, 64) does, else a float if t matches
//     [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? and ParseFloat succeeds (so "08" is the
//     float 8 and "1e400", out of range, falls through), else for "0b…" the rest in base 2 as
//     int or uint64 (which makes "0b-101" -5), else for "-0b…" the negated rest in base 2;
//  6. anything else is a string, with its original text: "1e400", "1:20", "2001-12-14", "0x".
//
// Timestamps are strings in go-yaml v2's interface{} decoding, and no timestamp parses as a number,
// so an untagged timestamp needs no test of its own (see resolveNode for !!timestamp).
func resolvePlain(text string) scalar {
	if text == "" {
		return scalar{kind: kNull}
	}
	hint := firstByteHint[text[0]]
	if hint == hintNone {
		return scalar{kind: kString, s: text}
	}
	if len(text) <= maxWordLen {
		if v, ok := wordTable[text]; ok {
			return v
		}
	}
	switch hint {
	case hintDot:
		if f, err := strconv.ParseFloat(text, 64); err == nil {
			return scalar{kind: kFloat, f: f}
		}
	case hintNumber:
		t := text
		if strings.IndexByte(t, '_') >= 0 {
			t = strings.ReplaceAll(t, "_", "")
		}
		if i, err := strconv.ParseInt(t, 0, 64); err == nil {
			return scalar{kind: kInt, i: i}
		}
		if u, err := strconv.ParseUint(t, 0, 64); err == nil {
			return scalar{kind: kUint, u: u}
		}
		if isYAMLFloat(t) {
			if f, err := strconv.ParseFloat(t, 64); err == nil {
				return scalar{kind: kFloat, f: f}
			}
		}
		if rest, ok := strings.CutPrefix(t, "0b"); ok {
			if i, err := strconv.ParseInt(rest, 2, 64); err == nil {
				return scalar{kind: kInt, i: i}
			}
			if u, err := strconv.ParseUint(rest, 2, 64); err == nil {
				return scalar{kind: kUint, u: u}
			}
		} else if rest, ok := strings.CutPrefix(t, "-0b"); ok {
			if i, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
				return scalar{kind: kInt, i: i}
			}
		}
	}
	return scalar{kind: kString, s: text}
}

// isYAMLFloat reports whether s matches [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? in
// full: go-yaml v2's test for a decimal float.
func isYAMLFloat(s string) bool {
	i, n := 0, len(s)
	digits := func() int {
		start := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < n && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i < n && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < n && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == n
}

// timestampLayouts are the time.Parse layouts go-yaml v2 accepts for a !!timestamp. Notably
// "2001-12-14 21:59:43.10 -5" from the YAML 1.1 examples is not among them.
var timestampLayouts = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// isTimestamp reports whether s is a timestamp go-yaml v2 recognises: four digits, '-', and one
// of timestampLayouts.
func isTimestamp(s string) bool {
	if len(s) < 5 || s[4] != '-' {
		return false
	}
	for i := range 4 {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	for _, layout := range timestampLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// explicitTag returns the tag written in the document for n, or "" when there is none. The v3
// parser sets TaggedStyle exactly when a tag other than the non-specific "!" was written; without
// it, n.Tag is v3's own (YAML 1.2) resolution, which this package ignores.
func explicitTag(n *yaml.Node) string {
	if n.Style&yaml.TaggedStyle != 0 {
		return n.Tag
	}
	return ""
}

const quotedStyles = yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle

// resolveNode resolves a ScalarNode as go-yaml v2 does:
//   - an untagged quoted, literal or folded scalar is a string;
//   - an untagged plain scalar follows resolvePlain;
//   - !!str gives the text; !!binary gives the base64-decoded bytes (newlines ignored) as a
//     string, and invalid base64 is the error "yaml: !!binary value contains invalid base64 data";
//   - !!bool, !!int, !!float, !!null and !!timestamp resolve the text with resolvePlain (quoted or
//     not) and fail unless the outcome has that tag: "yaml: cannot decode !!str `foo` as a !!int".
//     !!float accepts an int and makes it a float (but not a uint64 one, as go-yaml v2);
//     !!timestamp accepts a timestamp and keeps its text;
//   - any other tag (!!merge, !!map, !!seq, !foo, verbatim tags) gives the text as a string.
//
// The non-specific tag "!" cannot be seen through the v3 Node API (the parser drops it), so
// "! 12" resolves like "12" here although go-yaml v2 makes it the string "12"; Decode, which has
// the text, finds such scalars and gets them right.
func resolveNode(n *yaml.Node) (scalar, error) {
	tag := explicitTag(n)
	if tag == "" && n.Style&quotedStyles != 0 {
		return scalar{kind: kString, s: n.Value}, nil
	}
	switch tag {
	case "":
		return resolvePlain(n.Value), nil
	case tagStr:
		return scalar{kind: kString, s: n.Value}, nil
	case tagBinary:
		b, err := base64.StdEncoding.DecodeString(n.Value)
		if err != nil {
			return scalar{}, newError(n, "yaml: !!binary value contains invalid base64 data")
		}
		return scalar{kind: kString, s: string(b)}, nil
	case tagBool, tagInt, tagFloat, tagNull, tagTimestamp:
		if tag == tagTimestamp && isTimestamp(n.Value) {
			return scalar{kind: kString, s: n.Value}, nil
		}
		v := resolvePlain(n.Value)
		got := v.tag()
		if got == tag {
			return v, nil
		}
		if tag == tagFloat && v.kind == kInt {
			return scalar{kind: kFloat, f: float64(v.i)}, nil
		}
		return scalar{}, newError(n, fmt.Sprintf("yaml: cannot decode %s `%s` as a %s", got, n.Value, tag))
	}
	return scalar{kind: kString, s: n.Value}, nil
}

// jsonValue is the value s has after encoding/json.Marshal and a PreserveInts decode. The second
// result is false for ±Inf and NaN, which json.Marshal rejects.
func (s scalar) jsonValue() (any, bool) {
	switch s.kind {
	case kNull:
		return nil, true
	case kBool:
		return s.b, true
	case kInt:
		return s.i, true
	case kUint:
		// Marshalled as decimal digits, too big for ParseInt: read back as the nearest float64.
		return float64(s.u), true
	case kFloat:
		if math.IsInf(s.f, 0) || math.IsNaN(s.f) {
			return s.f, false
		}
		return jsonvalue.RoundTripFloat(s.f), true
	}
	return jsonString(s.s), true
}

// jsonString is s as json.Marshal writes it and a decoder reads it back: every byte that is not
// part of valid UTF-8 becomes U+FFFD (one per byte). Only !!binary can produce such strings; the
// parser rejects invalid UTF-8 in the text.
func jsonString(s string) string { return jsonvalue.ReplaceInvalidUTF8(s) }

// unsupportedValue is encoding/json's error text for a non-finite float.
func unsupportedValue(f float64) string {
	return "json: unsupported value: " + strconv.FormatFloat(f, 'g', -1, 64)
}

// ResolveScalar resolves a ScalarNode (or an AliasNode whose anchor is a scalar) to the JSON value
// the Kubernetes YAML path produces for it: nil, bool, int64, float64 or string.
//
// The outcomes (go-yaml v2's resolve in go.yaml.in/yaml/v2 resolve.go, then sigs.k8s.io/yaml's
// YAMLToJSON and sigs.k8s.io/json's PreserveInts decoding): y/yes/on/true (all of the YAML 1.1 spellings)
// are true, n/no/off/false false, ~/null/empty nil; ints in decimal, 0x, 0o, 0b and leading-0
// octal, with '_' separators and a sign; integral floats (1.0, 1e3, -0.0) become int64, other
// floats float64; integers beyond int64 become float64; "1e400" (out of range) stays the string
// "1e400"; sexagesimals (1:20) and timestamps stay strings; quoted scalars are strings; explicit
// tags are honoured (see resolvePlain and resolveNode for the exact rules). A non-finite value is
// an error with encoding/json's text: "json: unsupported value: +Inf" (or -Inf, NaN).
//
// Known divergence: a plain scalar written with the non-specific tag "!" ("! 12") resolves as if
// untagged, because the v3 parser drops that tag; go-yaml v2 makes it a string. Decode handles it.
//
// Errors are *Error values.
func ResolveScalar(n *yaml.Node) (any, error) {
	if n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n == nil || n.Kind != yaml.ScalarNode {
		return nil, newError(n, "yaml11: ResolveScalar needs a scalar node")
	}
	s, err := resolveNode(n)
	if err != nil {
		return nil, err
	}
	v, ok := s.jsonValue()
	if !ok {
		return nil, newError(n, unsupportedValue(s.f))
	}
	return v, nil
}
