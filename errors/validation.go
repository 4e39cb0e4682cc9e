package errors

import "strconv"

// InvalidMessage is the message of the API server's 422 response for the
// errors of one object: `<kind>.<group> "<name>" is invalid: <list>`, where
// the list holds each distinct error text once (the first occurrence, in
// order), one alone and several as "[e1, e2, ...]". Without errors it is
// `<kind>.<group> "<name>" is invalid`. An empty group gives `<kind> "<name>"`.
func InvalidMessage(kind, group, name string, errs FieldErrors) string {
	qualified := kind
	if group != "" {
		qualified += "." + group
	}
	head := qualified + " " + strconv.Quote(name) + " is invalid"
	if len(errs) == 0 {
		return head
	}
	return head + ": " + errs.Error()
}

// StatusCause is one entry of a 422 Status's details.causes: the error's
// reason ("FieldValueInvalid"), its body without the path, and its field ("<nil>"
// for a nil path).
type StatusCause struct {
	Reason  string `json:"reason"`
	Message string `json:"message"`
	Field   string `json:"field"`
}

// Causes returns the Status causes of a list, one per error, in order and
// duplicates kept.
func (l FieldErrors) Causes() []StatusCause {
	out := make([]StatusCause, len(l))
	for i, e := range l {
		out[i] = StatusCause{Reason: string(e.Type), Message: e.Body(), Field: e.Field}
	}
	return out
}
