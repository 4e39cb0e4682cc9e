package schemaauto

import jperrors "github.com/jsonprune/jsonprune/errors"

// ValidateValue checks a decoded object against the version's schema as
// the API server's create path does after decoding, for callers that hold
// a value tree (map[string]any, []any, string, int64, float64, bool, nil)
// rather than JSON text: the OpenAPI schema step (8c: every keyword, the
// junctors included) and the list-type step (8f), in that order. obj
// should be what the server validates: pruned and defaulted (PruneValue
// prunes), status dropped where the version has the status subresource.
// The metadata steps (8b, 8e) and CEL are not run; the decoder's
// Validation option runs the metadata steps on documents. A version
// without a schema validates nothing.
func (v *Version) ValidateValue(obj any) (jperrors.FieldErrors, error) {
	if v.Schema == nil {
		return nil, nil
	}
	t, err := v.Schema.ValidationTree()
	if err != nil {
		return nil, err
	}
	errs := t.Validate("", obj)
	return append(errs, t.ListTypes("", obj)...), nil
}
