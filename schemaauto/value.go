package schemaauto

import (
	"bytes"
	"fmt"
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
		v, err := readJSONValue(dec)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
}

func readJSONValue(dec *jsontext.Decoder) (any, error) {
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
		return jsonvalue.ParseNumber([]byte(tok.String()))
	case '{':
		m := map[string]any{}
		for dec.PeekKind() != '}' {
			kt, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			k := kt.String() // before the next read voids the token
			v, err := readJSONValue(dec)
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
			v, err := readJSONValue(dec)
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

// isJSON reports whether data looks like JSON rather than YAML: its first
// non-space byte opens an object or array.
func isJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// marshalCanonical renders v as encoding/json renders the reference's maps.
func marshalCanonical(v any) []byte { return jsonvalue.AppendCanonical(nil, v) }

func deepCopy(v any) any { return jsonvalue.DeepCopy(v) }
