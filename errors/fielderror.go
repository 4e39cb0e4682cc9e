package errors

import (
	"encoding/json"
	"fmt"
	"strings"
)

// FieldErrorType is the kind of a FieldError. Its value is the reason the API
// server puts in a Status cause ("FieldValueInvalid"); String gives the text
// printed after the path ("Invalid value").
type FieldErrorType string

// The field error types, as k8s.io/apimachinery's field.ErrorType.
const (
	FieldRequired     FieldErrorType = "FieldValueRequired"
	FieldForbidden    FieldErrorType = "FieldValueForbidden"
	FieldTooLong      FieldErrorType = "FieldValueTooLong"
	FieldTooMany      FieldErrorType = "FieldValueTooMany"
	FieldInvalid      FieldErrorType = "FieldValueInvalid"
	FieldTypeInvalid  FieldErrorType = "FieldValueTypeInvalid"
	FieldNotSupported FieldErrorType = "FieldValueNotSupported"
	FieldDuplicate    FieldErrorType = "FieldValueDuplicate"
)

// String is the text the reference prints after the path.
func (t FieldErrorType) String() string {
	switch t {
	case FieldRequired:
		return "Required value"
	case FieldForbidden:
		return "Forbidden"
	case FieldTooLong:
		return "Too long"
	case FieldTooMany:
		return "Too many"
	case FieldInvalid, FieldTypeInvalid:
		return "Invalid value"
	case FieldNotSupported:
		return "Unsupported value"
	case FieldDuplicate:
		return "Duplicate value"
	}
	return "internal error"
}

// FieldError is one violation reported against a FieldPath, rendered exactly
// like k8s.io/apimachinery's field.Error: "<path>: <type>[: <value>][: <detail>]".
type FieldError struct {
	Type     FieldErrorType
	Field    string // the FieldPath string
	BadValue any    // rendered for Invalid and Unsupported only
	Detail   string
}

// Required returns a "Required value" error.
func Required(p *FieldPath, detail string) *FieldError {
	return &FieldError{Type: FieldRequired, Field: p.String(), Detail: detail}
}

// Forbidden returns a "Forbidden" error.
func Forbidden(p *FieldPath, detail string) *FieldError {
	return &FieldError{Type: FieldForbidden, Field: p.String(), Detail: detail}
}

// Invalid returns an "Invalid value" error.
func Invalid(p *FieldPath, value any, detail string) *FieldError {
	return &FieldError{Type: FieldInvalid, Field: p.String(), BadValue: value, Detail: detail}
}

// NotSupported returns an "Unsupported value" error listing the supported values.
func NotSupported(p *FieldPath, value any, supported []string) *FieldError {
	quoted := make([]string, len(supported))
	for i, s := range supported {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	return &FieldError{Type: FieldNotSupported, Field: p.String(), BadValue: value,
		Detail: "supported values: " + strings.Join(quoted, ", ")}
}

// Error renders the error as the reference does.
func (e *FieldError) Error() string {
	return e.Field + ": " + e.Body()
}

// Body is the error without its path, as field.Error.ErrorBody renders it:
// Required, Forbidden and TooLong print no value; a BadValue of OmitValue
// prints none either.
func (e *FieldError) Body() string {
	s := e.Type.String()
	switch e.Type {
	case FieldRequired, FieldForbidden, FieldTooLong:
	default:
		if e.BadValue != OmitValue {
			s += ": " + RenderValue(e.BadValue)
		}
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

type omitValue struct{}

// OmitValue as a BadValue prints no value (the reference's field.OmitValueType).
var OmitValue any = omitValue{}

// RenderValue renders a bad value the way field.Error does: strings quoted
// with %q, numbers and booleans bare, anything else (nil included) as JSON.
func RenderValue(v any) string {
	switch t := v.(type) {
	case string:
		return fmt.Sprintf("%q", t)
	case int32, int64, float32, float64, bool:
		return fmt.Sprint(t)
	default:
		b, err := json.Marshal(t)
		if err != nil {
			return fmt.Sprintf("%#v", t)
		}
		return string(b)
	}
}

// FieldErrors is a list of field errors.
type FieldErrors []*FieldError

// Strings returns each error's text, in order.
func (l FieldErrors) Strings() []string {
	out := make([]string, len(l))
	for i, e := range l {
		out[i] = e.Error()
	}
	return out
}

// Error renders the list as utilerrors.NewAggregate does: one message as is,
// several as "[m1, m2, ...]", identical messages once.
func (l FieldErrors) Error() string {
	seen := make(map[string]bool, len(l))
	var msgs []string
	for _, e := range l {
		m := e.Error()
		if !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}
