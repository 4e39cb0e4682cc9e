package errors

// ValueError is one value-validation error of a document: the API server's
// field error (its path, type, bad value and detail, rendered by Error
// exactly as the server renders a cause), and where the value is in the
// document: byte offset, line and column (1-based, as an editor counts
// them), and the value's RFC 6901 JSON Pointer.
type ValueError struct {
	FieldError
	Offset       int64
	Line, Column int
	Pointer      string
	// Step is the step of the server's create path that found it.
	Step Step
}

// Step is a step of the API server's create-path validation
// (reference/kubernetes-validation.md, section 0).
type Step uint8

// The steps, in the server's order.
const (
	StepObjectMeta Step = iota // 8b: the root's metadata
	StepSchema                 // 8c: the OpenAPI schema
	StepScale                  // 8d: the scale subresource's replica counts and label selector
	StepEmbedded               // 8e: embedded resources' apiVersion, kind and metadata
	StepListType               // 8f: x-kubernetes-list-type set and map
)

// String names the step.
func (s Step) String() string {
	switch s {
	case StepObjectMeta:
		return "metadata"
	case StepSchema:
		return "schema"
	case StepScale:
		return "scale"
	case StepEmbedded:
		return "embedded"
	case StepListType:
		return "list-type"
	}
	return "unknown"
}

// InvalidError is the API server's answer to an object it decodes but does
// not accept (HTTP 422 Invalid): the validation errors of its create path,
// in the server's order. Error renders the response's message:
// `Widget.example.com "w" is invalid: [spec.a: ..., spec.b: ...]` (the
// causes de-duplicated, first occurrence kept; one cause alone without
// brackets).
type InvalidError struct {
	// Kind and Group are the object's (Widget, example.com); Name its
	// metadata.name.
	Kind, Group, Name string
	Errors            []ValueError
}

// Error renders the message as the server's Status does (InvalidMessage).
func (e *InvalidError) Error() string {
	return InvalidMessage(e.Kind, e.Group, e.Name, e.FieldErrors())
}

// FieldErrors returns the errors without their locations, in order: their
// Causes are the Status's details.causes.
func (e *InvalidError) FieldErrors() FieldErrors {
	l := make(FieldErrors, len(e.Errors))
	for i := range e.Errors {
		l[i] = &e.Errors[i].FieldError
	}
	return l
}
