package errors

import (
	"encoding/json"
	"fmt"
	"strings"
)

// FieldErrorType is the kind of a FieldError; its String is the text the
// reference prints after the path.
type FieldErrorType string

// The field error types used by jsonprune, with the reference's texts.
const (
	FieldRequired     FieldErrorType = "Required value"
	FieldForbidden    FieldErrorType = "Forbidden"
	FieldInvalid      FieldErrorType = "Invalid value"
	FieldNotSupported FieldErrorType = "Unsupported value"
	FieldDuplicate    FieldErrorType = "Duplicate value"
)

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

// Body is the error without its path.
func (e *FieldError) Body() string {
	s := string(e.Type)
	switch e.Type {
	case FieldRequired, FieldForbidden:
	default:
		s += ": " + RenderValue(e.BadValue)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

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
