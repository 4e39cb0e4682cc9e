package validate

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// enumDetail is the NotSupported detail: each member strconv.Quote'd, a string
// member as is, any other as its JSON.
func enumDetail(members []any) string {
	var sb strings.Builder
	sb.WriteString("supported values: ")
	for i, m := range members {
		if i > 0 {
			sb.WriteString(", ")
		}
		s, ok := m.(string)
		if !ok {
			b, _ := json.Marshal(m)
			s = string(b)
		}
		sb.WriteString(strconv.Quote(s))
	}
	return sb.String()
}

// HasEnum reports whether the node has an enum.
func (r *Rules) HasEnum() bool { return r != nil && r.enum != nil }

// matchScalar reports whether a scalar (not null) matches a member, with Go
// conversion semantics (reference 4.2 "Enum matching"), without allocating.
func (r *Rules) matchScalar(v Scalar) bool {
	if v.Kind == String && r.enumSimple {
		for _, m := range r.enumStrs {
			if string(v.Str) == m {
				return true
			}
		}
		return false
	}
	for _, m := range r.enum {
		switch mt := m.(type) {
		case string:
			switch v.Kind {
			case String:
				if string(v.Str) == mt {
					return true
				}
			case Int:
				// int64 → string converts as a rune; beyond int32 it is U+FFFD.
				rn := rune(utf8.RuneError)
				if int64(rune(v.Int)) == v.Int {
					rn = rune(v.Int)
				}
				if !utf8.ValidRune(rn) {
					rn = utf8.RuneError
				}
				var buf [utf8.UTFMax]byte
				n := utf8.EncodeRune(buf[:], rn)
				if string(buf[:n]) == mt {
					return true
				}
			}
		case int64:
			switch v.Kind {
			case Int:
				if v.Int == mt {
					return true
				}
			case Float:
				if int64(v.Float) == mt {
					return true
				}
			}
		case float64:
			switch v.Kind {
			case Int:
				if float64(v.Int) == mt {
					return true
				}
			case Float:
				if v.Float == mt {
					return true
				}
			}
		case bool:
			if v.Kind == Bool && v.Bool == mt {
				return true
			}
		case nil:
		default:
			if matchAny(v.Value(), m) {
				return true
			}
		}
	}
	return false
}

// matchAny is the general rule: the value converted to the member's Go type
// (when Go allows the conversion) deep-equals the member.
func matchAny(v, m any) bool {
	mt := reflect.TypeOf(m)
	if mt == nil || v == nil {
		return false
	}
	vv := reflect.ValueOf(v)
	if !vv.Type().ConvertibleTo(mt) {
		return false
	}
	return reflect.DeepEqual(vv.Convert(mt).Interface(), m)
}

// CheckEnum reports whether a value (a decoded value tree: nil, bool, int64,
// float64, string, map[string]any, []any) matches an enum member, as the server
// matches it: null never matches; scalars are converted to the member's Go type
// (an int64 to a string member as a rune, a float64 to an int64 member by
// truncation); objects and arrays must be deeply equal, never converted. A node
// without enum accepts everything.
func (r *Rules) CheckEnum(v any) bool {
	if r == nil || r.enum == nil {
		return true
	}
	if v == nil {
		return false
	}
	if s, ok := ScalarOf(v); ok && s.Kind != Object && s.Kind != Array {
		return r.matchScalar(s)
	}
	for _, m := range r.enum {
		if matchAny(v, m) {
			return true
		}
	}
	return false
}

// AppendEnumErrors appends the enum error of a value tree if CheckEnum fails:
// "<p>: Unsupported value: <v>: supported values: ...".
func (r *Rules) AppendEnumErrors(dst jperrors.FieldErrors, path string, v any) jperrors.FieldErrors {
	if r.CheckEnum(v) {
		return dst
	}
	return append(dst, r.enumError(path, v))
}

func (r *Rules) enumError(path string, v any) *jperrors.FieldError {
	return &jperrors.FieldError{Type: jperrors.FieldNotSupported, Field: fieldOf(path), BadValue: v, Detail: r.enumDetail}
}

// ---- containers ----

// CheckArray reports whether an array of n items passes minItems and maxItems.
func (r *Rules) CheckArray(n int) bool {
	if r == nil {
		return true
	}
	return !(r.hasMinItems && int64(n) < r.minItems) && !(r.hasMaxItems && int64(n) > r.maxItems)
}

// AppendArrayErrors appends the minItems then maxItems errors of an array of n
// items. The server reports them after the items' own errors and before
// uniqueItems and enum.
func (r *Rules) AppendArrayErrors(dst jperrors.FieldErrors, path string, n int) jperrors.FieldErrors {
	if r == nil {
		return dst
	}
	if r.hasMinItems && int64(n) < r.minItems {
		dst = append(dst, invalid(path, int64(n), path+" in body should have at least "+strconv.FormatInt(r.minItems, 10)+" items"))
	}
	if r.hasMaxItems && int64(n) > r.maxItems {
		dst = append(dst, tooMany(path, n, r.maxItems))
	}
	return dst
}

// tooMany is field.TooMany: "Too many: <n>: must have at most <max> items".
func tooMany(path string, n int, max int64) *jperrors.FieldError {
	detail := "has too many items"
	if max >= 0 {
		unit := "items"
		if max == 1 {
			unit = "item"
		}
		detail = "must have at most " + strconv.FormatInt(max, 10) + " " + unit
	}
	return &jperrors.FieldError{Type: jperrors.FieldTooMany, Field: fieldOf(path), BadValue: n, Detail: detail}
}

// UniqueItems reports whether the node declares uniqueItems: true (which the
// API server refuses at CRD creation; reference 9).
func (r *Rules) UniqueItems() bool { return r != nil && r.uniqueItems }

// CheckUnique reports whether no two items of an array are deeply equal
// (uniqueItems; true when the node does not declare it).
func (r *Rules) CheckUnique(items []any) bool {
	if !r.UniqueItems() {
		return true
	}
	for i := range items {
		for j := 0; j < i; j++ {
			if reflect.DeepEqual(items[i], items[j]) {
				return false
			}
		}
	}
	return true
}

// AppendUniqueErrors appends the uniqueItems error of an array if
// CheckUnique fails: "<p>: Invalid value: "": <p> in body shouldn't contain
// duplicates".
func (r *Rules) AppendUniqueErrors(dst jperrors.FieldErrors, path string, items []any) jperrors.FieldErrors {
	if r.CheckUnique(items) {
		return dst
	}
	return append(dst, invalid(path, "", path+" in body shouldn't contain duplicates"))
}

// CheckObject reports whether an object of n keys passes minProperties and
// maxProperties.
func (r *Rules) CheckObject(n int) bool {
	if r == nil {
		return true
	}
	return !(r.hasMinProps && int64(n) < r.minProps) && !(r.hasMaxProps && int64(n) > r.maxProps)
}

// AppendObjectErrors appends the minProperties then maxProperties errors of an
// object of n keys (maxProperties says "items", as the server does).
func (r *Rules) AppendObjectErrors(dst jperrors.FieldErrors, path string, n int) jperrors.FieldErrors {
	if r == nil {
		return dst
	}
	if r.hasMinProps && int64(n) < r.minProps {
		dst = append(dst, invalid(path, int64(n), path+" in body should have at least "+strconv.FormatInt(r.minProps, 10)+" properties"))
	}
	if r.hasMaxProps && int64(n) > r.maxProps {
		dst = append(dst, tooMany(path, n, r.maxProps))
	}
	return dst
}

// AdditionalPropertiesFalse reports whether the node forbids every key that is
// not a declared property (additionalProperties: false).
func (r *Rules) AdditionalPropertiesFalse() bool { return r != nil && r.noAdditional }

// ObjectRequiredOnly reports whether, on an object, Check's and a
// validation tree's verdict of this node alone is whether every Required
// key is present: its type admits objects, and it has no property counts,
// no additionalProperties: false and no enum. (Its properties, if any, are
// the tree's.)
func (r *Rules) ObjectRequiredOnly() bool {
	if r == nil {
		return true
	}
	return r.CheckType(Object) && r.typePasses(Scalar{Kind: Object}) && r.enum == nil &&
		!r.hasMinProps && !r.hasMaxProps && !r.noAdditional
}

// ForbiddenProperty is the error of a key that additionalProperties: false
// forbids: "<p>: Invalid value: "<key>": <p>.<key> in body is a forbidden
// property" (at the root: "<nil>: Invalid value: "<key>": .<key> in body ...").
func ForbiddenProperty(path, key string) *jperrors.FieldError {
	return invalid(path, key, path+"."+key+" in body is a forbidden property")
}

// Required returns the required keys in list order. The caller must not
// modify the slice.
func (r *Rules) Required() []string {
	if r == nil {
		return nil
	}
	return r.required
}

// RequiredError is the error of a required key that is absent from the object
// at path: "<p>.<key>: Required value" ("<key>: Required value" at the root).
func RequiredError(path, key string) *jperrors.FieldError {
	return &jperrors.FieldError{Type: jperrors.FieldRequired, Field: fieldOf(path + "." + key)}
}
