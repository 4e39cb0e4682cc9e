package validate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// Node is one schema node's value keywords as the CRD declares them (a
// JSONSchemaProps of the openAPIV3Schema as written, not the structural
// schema).
type Node struct {
	// Type is the declared type ("object", "array", "string", "integer",
	// "number", "boolean") or "" for an untyped node.
	Type string
	// Format is the format as written; Compile keeps it only where the API
	// server does (see the package documentation).
	Format string
	// Nullable lets null pass the type check (and nothing else).
	Nullable bool
	// IntOrString is x-kubernetes-int-or-string: the type list becomes
	// [integer, string], whatever Type says.
	IntOrString bool
	// Pattern is the pattern keyword as written.
	Pattern string
	// Keywords holds the other value keywords verbatim as decoded from
	// JSON/YAML (int64, float64, string, bool, []any, []string,
	// map[string]any): maximum, exclusiveMaximum, minimum, exclusiveMinimum,
	// multipleOf, maxLength, minLength, maxItems, minItems, maxProperties,
	// minProperties, enum, required, uniqueItems. Other keys are ignored.
	// The Rules keep the enum members: do not modify them after Compile.
	Keywords map[string]any
	// AdditionalPropertiesFalse is additionalProperties: false.
	AdditionalPropertiesFalse bool
}

// Kind is the JSON kind of a value as the API server's decoder produces it.
type Kind uint8

// The kinds. Null is the zero Kind.
const (
	Null   Kind = iota // JSON null (Go nil)
	Bool               // true or false (Go bool)
	Int                // a number without '.', 'e', 'E' that fits int64 (Go int64)
	Float              // any other number (Go float64)
	String             // a string (Go string)
	Object             // an object (Go map[string]any)
	Array              // an array (Go []any)
)

// String names the kind ("null", "boolean", "integer", "number", "string",
// "object", "array"): the JSON type the validator infers for it.
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Int:
		return "integer"
	case Float:
		return "number"
	case String:
		return "string"
	case Object:
		return "object"
	case Array:
		return "array"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Scalar is one value as the API server's decoder classifies it. Only the
// field of its Kind is read: Str for String (already unescaped, invalid UTF-8
// replaced by U+FFFD), Int for Int, Float for Float, Bool for Bool. Object and
// Array carry no value; they are only meaningful to CheckType.
type Scalar struct {
	Kind  Kind
	Str   []byte
	Int   int64
	Float float64
	Bool  bool
}

// ParseNumber classifies a JSON number literal as the API server's decoder
// does: without '.', 'e' or 'E' and within int64 it is an Int, otherwise a
// Float (strconv.ParseFloat; a literal beyond float64 gives ±Inf). It does not
// check the literal's syntax.
func ParseNumber(raw []byte) Scalar {
	if v, ok := parseInt64(raw); ok {
		return Scalar{Kind: Int, Int: v}
	}
	f, _ := strconv.ParseFloat(string(raw), 64)
	return Scalar{Kind: Float, Float: f}
}

// parseInt64 parses an optionally negative run of decimal digits within int64.
func parseInt64(raw []byte) (int64, bool) {
	s := raw
	neg := false
	if len(s) > 0 && s[0] == '-' {
		neg, s = true, s[1:]
	}
	if len(s) == 0 || len(s) > 19 {
		return 0, false
	}
	var u uint64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// Value returns the Go value of a scalar as the decoder would hold it (nil,
// bool, int64, float64, string); Object and Array give nil.
func (v Scalar) Value() any {
	switch v.Kind {
	case Bool:
		return v.Bool
	case Int:
		return v.Int
	case Float:
		return v.Float
	case String:
		return string(v.Str)
	}
	return nil
}

// ScalarOf classifies a decoded value (nil, bool, int64, float64, string,
// map[string]any, []any; also int, int32 and float32) for a value-tree walker,
// without allocating: a string's Str shares the string's bytes and must not be
// modified. ok is false for any other Go type.
func ScalarOf(v any) (s Scalar, ok bool) {
	switch t := v.(type) {
	case nil:
		return Scalar{Kind: Null}, true
	case bool:
		return Scalar{Kind: Bool, Bool: t}, true
	case int64:
		return Scalar{Kind: Int, Int: t}, true
	case int:
		return Scalar{Kind: Int, Int: int64(t)}, true
	case int32:
		return Scalar{Kind: Int, Int: int64(t)}, true
	case float64:
		return Scalar{Kind: Float, Float: t}, true
	case float32:
		return Scalar{Kind: Float, Float: float64(t)}, true
	case string:
		return Scalar{Kind: String, Str: unsafe.Slice(unsafe.StringData(t), len(t))}, true
	case map[string]any:
		return Scalar{Kind: Object}, true
	case []any:
		return Scalar{Kind: Array}, true
	}
	return Scalar{}, false
}

// numeric formats kept on single-typed integer and number nodes.
const (
	numNone = iota
	numInt32
	numInt64
	numFloat
	numDouble
)

// rangeKind is the type the number range check (kube-openapi's
// IsValueValidAgainstRange) uses: only single-typed integer and number nodes
// have one.
const (
	rangeNone = iota
	rangeInteger
	rangeNumber
)

// bound is one of maximum, minimum, multipleOf.
type bound struct {
	set       bool
	v         float64
	exclusive bool
	// rangeErr is the pathless "<prefix> value must be of type ..." error's
	// text without the path when the bound itself fails the node's range
	// check; then the value is compared in float64.
	rangeErr string
}

// Rules are the compiled value checks of one schema node. They are immutable
// and safe for concurrent use. A nil *Rules checks nothing.
type Rules struct {
	// The fields Check reads on the usual values come first, in the
	// object's first 64 bytes: one cache line for most checks.

	// typeOK has bit k set when CheckType(k) passes.
	typeOK uint8
	// scalarChecks is false when Check can only fail through the type check
	// and enum (no string, format or number keyword).
	scalarChecks         bool
	hasInt               bool // types contains "integer"
	hasNumber            bool // types contains "number"
	hasPattern           bool // pattern != ""
	hasMaxLen, hasMinLen bool
	enum                 []any
	re                   *Matcher
	strFormat            int // the string format's checker (fmtNone for numeric formats)
	maxLen, minLen       int64

	hasNull  bool // types contains "null"
	nullable bool
	// enumStrs are the enum's string members, when its members are all
	// strings, int64, float64, bool or nil (only strings match a string
	// value then: matchScalar)
	enumStrs    []string
	enumSimple  bool
	pattern     string
	rangeType   int      // rangeNone, rangeInteger, rangeNumber
	rangeFormat int      // numNone, numInt32, numInt64, numFloat, numDouble
	types       []string // the type list ("integer", "string" for int-or-string)
	typeList    string   // types joined with ","

	format      string // kept format as written, "" when stripped or absent
	rangeSuffix string

	patternErr string // the compile error of an invalid pattern

	max, min, mult bound

	enumDetail string // "supported values: ..."

	hasMaxItems, hasMinItems bool
	maxItems, minItems       int64
	uniqueItems              bool
	hasMaxProps, hasMinProps bool
	maxProps, minProps       int64
	required                 []string
	noAdditional             bool
}

// Compile compiles one node's value checks. It returns nil, nil when the node
// validates nothing. A keyword of the wrong Go type is an error; an invalid
// pattern is not (the API server refuses it at CRD creation; were it served,
// every string would fail with "..., but pattern is invalid: ...", which is what
// the compiled Rules report).
func Compile(n Node) (*Rules, error) {
	r := &Rules{nullable: n.Nullable}
	if n.IntOrString {
		r.types = []string{"integer", "string"}
	} else if n.Type != "" {
		r.types = []string{n.Type}
	}
	for _, t := range r.types {
		switch t {
		case "integer":
			r.hasInt = true
		case "number":
			r.hasNumber = true
		case "null":
			r.hasNull = true
		}
	}
	r.typeList = strings.Join(r.types, ",")

	// Formats (reference 3.1): kept per the single type, else stripped.
	single := ""
	if len(r.types) == 1 {
		single = r.types[0]
	}
	if n.Format != "" {
		switch single {
		case "", "string":
			if f, ok := stringFormats[strings.ReplaceAll(n.Format, "-", "")]; ok {
				r.format, r.strFormat = n.Format, f
			}
		case "integer":
			if n.Format == "int32" || n.Format == "int64" {
				r.format = n.Format
			}
		case "number":
			if n.Format == "float" || n.Format == "double" {
				r.format = n.Format
			}
		}
	}
	switch single {
	case "integer":
		r.rangeType = rangeInteger
		switch r.format {
		case "int32":
			r.rangeFormat = numInt32
		case "int64":
			r.rangeFormat = numInt64
		}
	case "number":
		r.rangeType = rangeNumber
		switch r.format {
		case "float":
			r.rangeFormat = numFloat
		case "double":
			r.rangeFormat = numDouble
		}
	}
	if r.rangeType != rangeNone {
		tn := "integer"
		if r.rangeType == rangeNumber {
			tn = "number"
		}
		if r.format != "" {
			r.rangeSuffix = " value must be of type " + tn + " with format " + r.format + " in "
		} else {
			r.rangeSuffix = " value must be of type " + tn + " (default format) in "
		}
	}

	r.pattern = n.Pattern
	if n.Pattern != "" {
		re, err := CompileMatcher(n.Pattern)
		if err != nil {
			r.patternErr = err.Error()
		} else {
			r.re = re
		}
	}
	r.noAdditional = n.AdditionalPropertiesFalse

	var err error
	kw := n.Keywords
	if r.max, err = floatKeyword(kw, "maximum"); err != nil {
		return nil, err
	}
	if r.min, err = floatKeyword(kw, "minimum"); err != nil {
		return nil, err
	}
	if r.mult, err = floatKeyword(kw, "multipleOf"); err != nil {
		return nil, err
	}
	if r.max.exclusive, err = boolKeyword(kw, "exclusiveMaximum"); err != nil {
		return nil, err
	}
	if r.min.exclusive, err = boolKeyword(kw, "exclusiveMinimum"); err != nil {
		return nil, err
	}
	if r.uniqueItems, err = boolKeyword(kw, "uniqueItems"); err != nil {
		return nil, err
	}
	for _, ik := range []struct {
		name string
		has  *bool
		v    *int64
	}{
		{"maxLength", &r.hasMaxLen, &r.maxLen},
		{"minLength", &r.hasMinLen, &r.minLen},
		{"maxItems", &r.hasMaxItems, &r.maxItems},
		{"minItems", &r.hasMinItems, &r.minItems},
		{"maxProperties", &r.hasMaxProps, &r.maxProps},
		{"minProperties", &r.hasMinProps, &r.minProps},
	} {
		if *ik.v, *ik.has, err = intKeyword(kw, ik.name); err != nil {
			return nil, err
		}
	}
	if v, ok := kw["enum"]; ok && v != nil {
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("validate: enum is %T, not a list", v)
		}
		if len(list) > 0 {
			r.enum = append([]any(nil), list...)
			r.enumDetail = enumDetail(list)
			r.enumSimple = true
			for _, m := range list {
				switch m := m.(type) {
				case string:
					r.enumStrs = append(r.enumStrs, m)
				case int64, float64, bool, nil:
				default:
					r.enumSimple = false
				}
			}
		}
	}
	if v, ok := kw["required"]; ok && v != nil {
		switch t := v.(type) {
		case []string:
			r.required = append([]string(nil), t...)
		case []any:
			for _, e := range t {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("validate: required holds %T, not a string", e)
				}
				r.required = append(r.required, s)
			}
		default:
			return nil, fmt.Errorf("validate: required is %T, not a list", v)
		}
	}
	for _, b := range []struct {
		p      *bound
		prefix string
	}{{&r.mult, "MultipleOf"}, {&r.max, "Maximum boundary"}, {&r.min, "Minimum boundary"}} {
		if b.p.set && !r.inRange(Scalar{Kind: Float, Float: b.p.v}) {
			b.p.rangeErr = b.prefix + r.rangeSuffix
		}
	}

	r.hasPattern = r.pattern != ""
	r.scalarChecks = r.hasMaxLen || r.hasMinLen || r.pattern != "" || r.strFormat != fmtNone ||
		r.rangeType != rangeNone || r.max.set || r.min.set || r.mult.set
	if len(r.types) == 0 && r.format == "" && !r.scalarChecks && r.enum == nil &&
		!r.hasMaxItems && !r.hasMinItems && !r.uniqueItems && !r.hasMaxProps && !r.hasMinProps &&
		r.required == nil && !r.noAdditional {
		return nil, nil
	}
	for k := Null; k <= Array; k++ { // the type check depends on the kind alone
		if r.checkType(k) {
			r.typeOK |= 1 << k
		}
	}
	return r, nil
}

func floatKeyword(kw map[string]any, name string) (bound, error) {
	v, ok := kw[name]
	if !ok || v == nil {
		return bound{}, nil
	}
	switch t := v.(type) {
	case float64:
		return bound{set: true, v: t}, nil
	case int64:
		return bound{set: true, v: float64(t)}, nil
	case int:
		return bound{set: true, v: float64(t)}, nil
	}
	return bound{}, fmt.Errorf("validate: %s is %T, not a number", name, v)
}

func intKeyword(kw map[string]any, name string) (int64, bool, error) {
	v, ok := kw[name]
	if !ok || v == nil {
		return 0, false, nil
	}
	switch t := v.(type) {
	case int64:
		return t, true, nil
	case int:
		return int64(t), true, nil
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<63 {
			return int64(t), true, nil
		}
	}
	return 0, false, fmt.Errorf("validate: %s is %v (%T), not an integer", name, v, v)
}

func boolKeyword(kw map[string]any, name string) (bool, error) {
	v, ok := kw[name]
	if !ok || v == nil {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("validate: %s is %T, not a boolean", name, v)
	}
	return b, nil
}

// Check reports whether the value passes every check of the node that applies
// to it (type, string, format, number, enum; reference 4.1 steps 1, 3, 4, 5, 7).
// For an Object or Array it is CheckType. It does not allocate.
func (r *Rules) Check(v Scalar) bool {
	if r == nil {
		return true
	}
	if !r.CheckType(v.Kind) {
		return false
	}
	switch v.Kind {
	case Null:
		return r.enum == nil
	case Object, Array:
		return true
	}
	if !r.checkTypeScalar(v) {
		return false
	}
	if r.scalarChecks {
		switch v.Kind {
		case String:
			if !r.checkString(v.Str) {
				return false
			}
			if r.strFormat != fmtNone && !checkFormat(r.strFormat, v.Str) {
				return false
			}
		case Int, Float:
			if !r.checkNumber(v) {
				return false
			}
		}
	}
	return r.enum == nil || r.matchScalar(v)
}

// AppendErrors appends the errors of the value's checks, in the server's
// order: type, string (maxLength, minLength, pattern: the first failure ends
// it), format, number (range check, multipleOf, minimum, maximum), enum. path
// is the validator's dotted path ("" at the root). For an Object or Array only
// the type check runs (see AppendTypeErrors). It appends nothing when Check
// returns true.
func (r *Rules) AppendErrors(dst jperrors.FieldErrors, path string, v Scalar) jperrors.FieldErrors {
	if r == nil {
		return dst
	}
	dst = r.AppendTypeErrors(dst, path, v)
	switch v.Kind {
	case Null:
		if r.enum != nil {
			dst = append(dst, r.enumError(path, nil))
		}
		return dst
	case Object, Array:
		return dst
	}
	switch v.Kind {
	case String:
		dst = r.appendStringErrors(dst, path, v.Str)
		if r.strFormat != fmtNone && !checkFormat(r.strFormat, v.Str) {
			s := string(v.Str)
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldTypeInvalid, Field: fieldOf(path), BadValue: s,
				Detail: path + " in body must be of type " + r.format + ": " + strconv.Quote(s)})
		}
	case Int, Float:
		dst = r.appendNumberErrors(dst, path, v)
	}
	if r.enum != nil && !r.matchScalar(v) {
		dst = append(dst, r.enumError(path, v.Value()))
	}
	return dst
}

// fieldOf is the field of an error whose kube-openapi name is path: the
// converter drops a leading "." and gives a nil path ("<nil>") for "" and ".".
func fieldOf(path string) string {
	if path == "" || path == "." {
		return "<nil>"
	}
	return strings.TrimPrefix(path, ".")
}

// pathless is an error without a path (range checks): "<nil>: Invalid value: "": <msg>".
func pathless(msg string) *jperrors.FieldError {
	return &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: "<nil>", BadValue: "", Detail: msg}
}

// invalid is a FieldValueInvalid error at path with the kube-openapi message.
func invalid(path string, value any, msg string) *jperrors.FieldError {
	return &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: fieldOf(path), BadValue: value, Detail: msg}
}

// ---- type ----

// CheckType reports whether a value of kind k passes the node's type check
// (reference 4.2 "type" with the format rules of 3.4). For Float values it
// accepts all floats on an integer node; the integer decision needs the value
// and is made by Check.
func (r *Rules) CheckType(k Kind) bool {
	return r == nil || r.typeOK&(1<<k) != 0
}

// TypeOnly reports whether Check judges a scalar by its kind alone (the
// node has a type and no string, format, number or enum keyword, and is
// not an integer node, which looks at a float's value), and then the kinds
// that pass: bit 1<<k for Kind k. A walker can skip Check, and the Scalar
// it would build, for such nodes. A nil Rules passes every kind.
func (r *Rules) TypeOnly() (kinds uint8, ok bool) {
	if r == nil {
		return 0xFF, true
	}
	if r.scalarChecks || r.enum != nil || r.hasInt && !r.hasNumber {
		return 0, false
	}
	return r.typeOK, true
}

// KindsPassing returns the kinds (bit 1<<k for Kind k) whose every value
// passes Check: the kind alone decides for them, whatever the value. It
// holds the kinds TypeOnly gives when that is ok, and more where TypeOnly
// is not: an integer node's Int values when it has no bounds, multipleOf
// or int32 format, a string node's Bool or Null values... A walker can skip
// Check for a value of such a kind. A nil Rules passes every kind.
func (r *Rules) KindsPassing() uint8 {
	if r == nil {
		return 0xFF
	}
	if r.enum != nil {
		return 0
	}
	k := r.typeOK &^ (1<<Int | 1<<Float | 1<<String)
	bounds := r.mult.set || r.min.set || r.max.set
	if !bounds && !(r.rangeType == rangeInteger && r.rangeFormat == numInt32) {
		k |= r.typeOK & (1 << Int)
	}
	floatByValue := r.hasInt && !r.hasNumber && (len(r.types) > 0 || r.format != "") // checkTypeScalar
	if !bounds && !floatByValue && r.rangeType != rangeInteger && !(r.rangeType == rangeNumber && r.rangeFormat == numFloat) {
		k |= r.typeOK & (1 << Float)
	}
	if !r.hasMaxLen && !r.hasMinLen && r.pattern == "" && r.strFormat == fmtNone {
		k |= r.typeOK & (1 << String)
	}
	return k
}

// Int32Only reports whether an Int value passes Check exactly when it is
// within the int32 range: an integer node of format int32 with no bounds,
// multipleOf or enum.
func (r *Rules) Int32Only() bool {
	return r != nil && r.typeOK&(1<<Int) != 0 && r.enum == nil && r.rangeType == rangeInteger && r.rangeFormat == numInt32 &&
		!r.mult.set && !r.min.set && !r.max.set
}

// checkType is CheckType's rule, tabled by Compile in typeOK.
func (r *Rules) checkType(k Kind) bool {
	if len(r.types) == 0 && r.format == "" {
		return true
	}
	if k == Null {
		return len(r.types) == 0 || r.hasNull || r.nullable
	}
	st := k.String()
	if k != String && k != Array && r.format != "" && !(r.hasType(st) || (k == Int && r.format == "int64") ||
		k == Float && r.hasInt || k == Int && r.hasNumber) {
		return false
	}
	if !(r.hasInt || r.hasNumber) && r.format != "" && (k == String || k == Array) {
		return true
	}
	return r.hasType(st) || k == Float && r.hasInt || k == Int && r.hasNumber
}

// checkTypeScalar is the value-dependent part of the type check: a float64 on
// an integer node (that has no number type) must be a JSON integer.
func (r *Rules) checkTypeScalar(v Scalar) bool {
	if v.Kind != Float || !r.hasInt || r.hasNumber || (len(r.types) == 0 && r.format == "") {
		return true
	}
	return isJSONInteger(v.Float)
}

func (r *Rules) hasType(t string) bool {
	for _, x := range r.types {
		if x == t {
			return true
		}
	}
	return false
}

// inferredFormat is the format kube-openapi infers from a decoded value's Go type.
func inferredFormat(k Kind) string {
	switch k {
	case Int:
		return "int64"
	case Float:
		return "float64"
	}
	return ""
}

// AppendTypeErrors appends the type error of a value (any kind), if any.
func (r *Rules) AppendTypeErrors(dst jperrors.FieldErrors, path string, v Scalar) jperrors.FieldErrors {
	if r == nil || (len(r.types) == 0 && r.format == "") {
		return dst
	}
	k := v.Kind
	if k == Null {
		if len(r.types) > 0 && !r.hasNull && !r.nullable {
			dst = append(dst, r.typeError(path, r.typeList, "null"))
		}
		return dst
	}
	st := k.String()
	isFloatInt := k == Float && isJSONInteger(v.Float) && r.hasInt
	isIntFloat := k == Int && r.hasNumber
	if k != String && k != Array && r.format != "" &&
		!(r.hasType(st) || inferredFormat(k) == r.format || isFloatInt || isIntFloat) {
		return append(dst, r.typeError(path, r.format, inferredFormat(k)))
	}
	if !(r.hasInt || r.hasNumber) && r.format != "" && (k == String || k == Array) {
		return dst
	}
	if !(r.hasType(st) || isFloatInt || isIntFloat) {
		dst = append(dst, r.typeError(path, r.typeList, st))
	}
	return dst
}

func (r *Rules) typeError(path, typeName, value string) *jperrors.FieldError {
	return &jperrors.FieldError{Type: jperrors.FieldTypeInvalid, Field: fieldOf(path), BadValue: value,
		Detail: path + " in body must be of type " + typeName + ": " + strconv.Quote(value)}
}

// isJSONInteger is go-openapi's IsFloat64AJSONInteger: within ±(2^53-1) and an
// integer, or within 1e-9 (relative) of a non-zero integer.
func isJSONInteger(f float64) bool {
	const maxJSON = 1<<53 - 1
	if math.IsNaN(f) || math.IsInf(f, 0) || f < -maxJSON || f > maxJSON {
		return false
	}
	rounded := math.Round(f)
	if f == rounded {
		return true
	}
	if rounded == 0 {
		return false
	}
	return math.Abs(f-rounded) < 1e-9*math.Abs(rounded)
}

// ---- strings ----

func (r *Rules) checkString(s []byte) bool {
	if r.hasMaxLen || r.hasMinLen {
		n := int64(utf8.RuneCount(s))
		if r.hasMaxLen && n > r.maxLen || r.hasMinLen && n < r.minLen {
			return false
		}
	}
	if r.hasPattern {
		return r.re != nil && r.re.Match(s)
	}
	return true
}

func (r *Rules) appendStringErrors(dst jperrors.FieldErrors, path string, b []byte) jperrors.FieldErrors {
	n := int64(utf8.RuneCount(b))
	if r.hasMaxLen && n > r.maxLen {
		detail := "value is too long"
		if r.maxLen >= 0 {
			unit := "bytes"
			if r.maxLen == 1 {
				unit = "byte"
			}
			detail = "may not be more than " + strconv.FormatInt(r.maxLen, 10) + " " + unit
		}
		return append(dst, &jperrors.FieldError{Type: jperrors.FieldTooLong, Field: fieldOf(path), BadValue: "<value omitted>", Detail: detail})
	}
	if r.hasMinLen && n < r.minLen {
		return append(dst, invalid(path, string(b), path+" in body should be at least "+strconv.FormatInt(r.minLen, 10)+" chars long"))
	}
	if r.pattern != "" {
		if r.re == nil {
			return append(dst, invalid(path, string(b), path+" in body should match '"+r.pattern+", but pattern is invalid: "+r.patternErr+"'"))
		}
		if !r.re.Match(b) {
			return append(dst, invalid(path, string(b), path+" in body should match '"+r.pattern+"'"))
		}
	}
	return dst
}

// ---- numbers ----

// inRange is kube-openapi's IsValueValidAgainstRange for the node's single
// type and format: the value printed (integers in decimal, floats with
// FormatFloat 'f' -1) must parse as int32 (int32), int64 (integer otherwise) or
// float32 (float).
func (r *Rules) inRange(v Scalar) bool {
	switch r.rangeType {
	case rangeInteger:
		lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
		if r.rangeFormat == numInt32 {
			lo, hi = math.MinInt32, math.MaxInt32
		}
		if v.Kind == Int {
			return v.Int >= lo && v.Int <= hi
		}
		f := v.Float
		if f != math.Trunc(f) || math.IsInf(f, 0) || math.IsNaN(f) {
			return false // printed with a '.' (or Inf/NaN)
		}
		if math.Abs(f) < 1<<53 {
			return int64(f) >= lo && int64(f) <= hi
		}
		// Large integral floats: FormatFloat prints the shortest digits padded
		// with zeros, which may differ from the exact value; parse that text.
		var buf [400]byte
		return parseDigitsIn(strconv.AppendFloat(buf[:0], f, 'f', -1, 64), lo, hi)
	case rangeNumber:
		if r.rangeFormat != numFloat || v.Kind == Int || math.IsInf(v.Float, 0) || math.IsNaN(v.Float) {
			// int64 values are far below the float32 limit; "+Inf" and
			// "NaN" parse as float32 (no JSON value is either).
			return true
		}
		a := math.Abs(v.Float)
		if a < 3.4e38 {
			return true
		}
		if a > 3.41e38 {
			return false
		}
		_, err := strconv.ParseFloat(strconv.FormatFloat(v.Float, 'f', -1, 64), 32)
		return err == nil
	}
	return true
}

// parseDigitsIn reports whether s (an optional '-' then digits) is an integer in [lo, hi].
func parseDigitsIn(s []byte, lo, hi int64) bool {
	v, ok := parseInt64(s)
	return ok && v >= lo && v <= hi
}

func (r *Rules) checkNumber(v Scalar) bool {
	if !r.inRange(v) {
		return false
	}
	if r.mult.set && !r.multipleOK(v) {
		return false
	}
	if r.min.set && !r.minOK(v) {
		return false
	}
	if r.max.set && !r.maxOK(v) {
		return false
	}
	return true
}

// native reports whether a bound is compared in the value's own Go type (its
// range check passed) and the int64 value is compared as an integer.
func native(b bound, v Scalar) bool { return b.rangeErr == "" && v.Kind == Int }

func asFloat(v Scalar) float64 {
	if v.Kind == Int {
		return float64(v.Int)
	}
	return v.Float
}

func (r *Rules) multipleOK(v Scalar) bool {
	if r.mult.rangeErr != "" {
		return false
	}
	if v.Kind == Int {
		f := int64(r.mult.v)
		return f > 0 && v.Int/f*f == v.Int
	}
	return floatMultiple(v.Float, r.mult.v)
}

func floatMultiple(data, factor float64) bool {
	if factor <= 0 {
		return false
	}
	var m float64
	if factor < 1 {
		m = 1 / factor * data
	} else {
		m = data / factor
	}
	return isJSONInteger(m)
}

func (r *Rules) minOK(v Scalar) bool {
	if r.min.rangeErr != "" {
		return false
	}
	if v.Kind == Int {
		m := int64(r.min.v)
		return !(!r.min.exclusive && v.Int < m || r.min.exclusive && v.Int <= m)
	}
	return !(!r.min.exclusive && v.Float < r.min.v || r.min.exclusive && v.Float <= r.min.v)
}

func (r *Rules) maxOK(v Scalar) bool {
	if r.max.rangeErr != "" {
		return false
	}
	if v.Kind == Int {
		m := int64(r.max.v)
		return !(!r.max.exclusive && v.Int > m || r.max.exclusive && v.Int >= m)
	}
	return !(!r.max.exclusive && v.Float > r.max.v || r.max.exclusive && v.Float >= r.max.v)
}

func (r *Rules) appendNumberErrors(dst jperrors.FieldErrors, path string, v Scalar) jperrors.FieldErrors {
	if !r.inRange(v) {
		dst = append(dst, pathless("Checked"+r.rangeSuffix+path))
	}
	data := asFloat(v)
	if r.mult.set {
		if native(r.mult, v) {
			f := int64(r.mult.v)
			if f <= 0 {
				dst = append(dst, invalid(path, f, "factor MultipleOf declared for "+path+" must be positive: "+fmt.Sprint(f)))
			} else if v.Int/f*f != v.Int {
				dst = append(dst, invalid(path, v.Int, path+" in body should be a multiple of "+fmt.Sprint(f)))
			}
		} else {
			if r.mult.rangeErr != "" {
				dst = append(dst, pathless(r.mult.rangeErr+path))
			}
			if r.mult.v <= 0 {
				dst = append(dst, invalid(path, r.mult.v, "factor MultipleOf declared for "+path+" must be positive: "+fmt.Sprint(r.mult.v)))
			} else if !floatMultiple(data, r.mult.v) {
				dst = append(dst, invalid(path, data, path+" in body should be a multiple of "+fmt.Sprint(r.mult.v)))
			}
		}
	}
	if r.min.set && !r.minOK(v) || r.min.rangeErr != "" {
		dst = r.appendBoundError(dst, path, v, r.min, "greater than")
	}
	if r.max.set && !r.maxOK(v) || r.max.rangeErr != "" {
		dst = r.appendBoundError(dst, path, v, r.max, "less than")
	}
	return dst
}

// appendBoundError appends the range error of a fractional bound on an
// integer node, then the comparison's error if the value fails it.
func (r *Rules) appendBoundError(dst jperrors.FieldErrors, path string, v Scalar, b bound, rel string) jperrors.FieldErrors {
	var value any
	var printed string
	var fails bool
	lessThan := rel == "less than"
	if native(b, v) {
		m := int64(b.v)
		value, printed = v.Int, strconv.FormatInt(m, 10)
		if lessThan {
			fails = !b.exclusive && v.Int > m || b.exclusive && v.Int >= m
		} else {
			fails = !b.exclusive && v.Int < m || b.exclusive && v.Int <= m
		}
	} else {
		if b.rangeErr != "" {
			dst = append(dst, pathless(b.rangeErr+path))
		}
		data := asFloat(v)
		value, printed = data, fmt.Sprint(b.v)
		if lessThan {
			fails = !b.exclusive && data > b.v || b.exclusive && data >= b.v
		} else {
			fails = !b.exclusive && data < b.v || b.exclusive && data <= b.v
		}
	}
	if !fails {
		return dst
	}
	msg := path + " in body should be " + rel
	if !b.exclusive {
		msg += " or equal to"
	}
	return append(dst, invalid(path, value, msg+" "+printed))
}

// StringChecks describes Check on String values when it depends on their
// length and pattern alone (no enum, no format): ok reports that a String
// s passes Check exactly when its rune count is at least minLen and at
// most maxLen (-1: no such bound) and m (nil: none) matches it; a
// negative bound in the schema gives ok false. A walker
// can then check strings with these, without the Rules.
func (r *Rules) StringChecks() (minLen, maxLen int64, m *Matcher, ok bool) {
	if r == nil || r.typeOK&(1<<String) == 0 || r.enum != nil || r.strFormat != fmtNone || r.hasPattern && r.re == nil ||
		r.hasMinLen && r.minLen < 0 || r.hasMaxLen && r.maxLen < 0 {
		return 0, 0, nil, false
	}
	minLen, maxLen = -1, -1
	if r.hasMinLen {
		minLen = r.minLen
	}
	if r.hasMaxLen {
		maxLen = r.maxLen
	}
	if r.hasPattern {
		m = r.re
	}
	return minLen, maxLen, m, true
}

// StringEnum reports, with ok, that a String passes Check exactly when it
// is one of strs (a string enum and no other string check).
func (r *Rules) StringEnum() (strs []string, ok bool) {
	if r == nil || r.typeOK&(1<<String) == 0 || r.enum == nil || !r.enumSimple || r.scalarChecks {
		return nil, false
	}
	return r.enumStrs, true
}
