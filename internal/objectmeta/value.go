package objectmeta

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/jsonprune/jsonprune/internal/jsonvalue"
)

// isNull reports whether v marshals as JSON null: nil, or a nil map or
// slice.
func isNull(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		return x == nil
	case []any:
		return x == nil
	}
	return false
}

// kindOf names the JSON kind of v as encoding/json's UnmarshalTypeError
// does.
func kindOf(v any) string {
	if isNull(v) {
		return "null"
	}
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "bool"
	case int64, float64:
		return "number"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return fmt.Sprintf("%T", v)
}

// reparse returns v as it comes back from being marshalled and decoded
// again under the PreserveInts convention (what the unstructured converter
// does to a FieldsV1): a float64 whose rendering is an integer literal that
// fits int64 becomes int64; strings are UTF-8 repaired.
func reparse(v any) any {
	switch x := v.(type) {
	case string:
		return jsonvalue.ReplaceInvalidUTF8(x)
	case float64:
		var buf [32]byte
		lit := jsonvalue.AppendFloat(buf[:0], x)
		for _, c := range lit {
			if c == '.' || c == 'e' {
				return x
			}
		}
		if n, err := strconv.ParseInt(string(lit), 10, 64); err == nil {
			return n
		}
		return x
	case map[string]any:
		if x == nil {
			return nil
		}
		out := make(map[string]any, len(x))
		collide := false
		for k, e := range x {
			sk := jsonvalue.ReplaceInvalidUTF8(k)
			collide = collide || sk != k
			out[sk] = reparse(e)
		}
		if collide {
			for _, k := range sortedKeys(x) {
				out[jsonvalue.ReplaceInvalidUTF8(k)] = reparse(x[k])
			}
		}
		return out
	case []any:
		if x == nil {
			return nil
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = reparse(e)
		}
		return out
	}
	return v // nil, bool, int64
}

// checkMarshalable fails where encoding/json.Marshal of v fails (NaN and
// infinite floats), with its error, and on Go types outside the value-tree
// convention.
func checkMarshalable(v any) error {
	badFloat := false
	var walk func(any) error
	walk = func(v any) error {
		switch x := v.(type) {
		case nil, string, bool, int64:
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				badFloat = true
			}
		case map[string]any:
			for _, e := range x {
				if err := walk(e); err != nil {
					return err
				}
			}
		case []any:
			for _, e := range x {
				if err := walk(e); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("objectmeta: unsupported value of type %T", v)
		}
		return nil
	}
	if err := walk(v); err != nil {
		return err
	}
	if badFloat {
		// Marshal walks in sorted key order: let it name the first bad value.
		if _, err := json.Marshal(v); err != nil {
			return err
		}
	}
	return nil
}

// renderBadValue renders a field.Error bad value: strings quoted (%q),
// int64/float64/bool bare (%v), anything else as JSON.
func renderBadValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case int64, float64, bool:
		return fmt.Sprintf("%v", x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}
