package schemaauto

import (
	"bytes"
	"io"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/internal/jsonvalue"
)

// Values in this package are JSON value trees with the number semantics of
// the reference (sigs.k8s.io/json with PreserveInts): map[string]any, []any,
// string, bool, nil, int64 (a literal without '.' that fits) or float64.

// parseJSONValues parses every top-level JSON value of data.
func parseJSONValues(data []byte) ([]any, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
	var out []any
	for {
		v, err := jsonvalue.Read(dec)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
}

// isJSON reports whether data looks like JSON rather than YAML: its first
// non-space byte opens an object or array.
func isJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// marshalCanonical renders v as encoding/json renders the reference's maps.
func marshalCanonical(v any) []byte { return jsonvalue.AppendCanonical(nil, v) }

func deepCopy(v any) any { return jsonvalue.DeepCopy(v) }
