package schemaauto

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
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
		return parseNumber(tok.String())
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

// parseNumber applies the reference's PreserveInts rule: int64 if the
// literal has no '.' and ParseInt succeeds, float64 otherwise.
func parseNumber(lit string) (any, error) {
	if !strings.Contains(lit, ".") {
		if i, err := strconv.ParseInt(lit, 10, 64); err == nil {
			return i, nil
		}
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange && (f > 1 || f < -1) {
			return nil, fmt.Errorf("json: cannot unmarshal number %s into Go value of type float64", lit)
		}
		if ne == nil || ne.Err != strconv.ErrRange {
			return nil, err
		}
	}
	return f, nil
}

// isJSON reports whether data looks like JSON rather than YAML: its first
// non-space byte opens an object or array.
func isJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// marshalCanonical renders v as compact JSON with object keys sorted, as
// encoding/json renders the reference's maps.
func marshalCanonical(v any) []byte {
	var b []byte
	return appendCanonical(b, v)
}

func appendCanonical(b []byte, v any) []byte {
	switch t := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, t)
	case int64:
		return strconv.AppendInt(b, t, 10)
	case float64:
		return appendFloat(b, t)
	case string:
		b, _ = jsontext.AppendQuote(b, t) // invalid UTF-8 is replaced
		return b
	case []any:
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonical(b, e)
		}
		return append(b, ']')
	case map[string]any:
		keys := sortedKeys(t)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b, _ = jsontext.AppendQuote(b, k)
			b = append(b, ':')
			b = appendCanonical(b, t[k])
		}
		return append(b, '}')
	}
	panic(fmt.Sprintf("schemaauto: not a JSON value: %T", v))
}

// appendFloat formats like encoding/json (ES6 number formatting).
func appendFloat(b []byte, f float64) []byte {
	abs := f
	if abs < 0 {
		abs = -abs
	}
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// deepCopy copies a value tree.
func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, e := range t {
			a[i] = deepCopy(e)
		}
		return a
	}
	return v
}
