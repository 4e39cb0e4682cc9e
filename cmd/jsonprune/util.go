package main

import (
	"sort"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// appendJSON renders a value tree as compact JSON with sorted keys.
func appendJSON(b []byte, v any) []byte {
	switch t := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, t)
	case int64:
		return strconv.AppendInt(b, t, 10)
	case float64:
		return jsontext.AppendFloat(b, t, 64)
	case string:
		b, _ = jsontext.AppendQuote(b, t)
		return b
	case []any:
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, e)
		}
		return append(b, ']')
	case map[string]any:
		b = append(b, '{')
		for i, k := range sortedKeys(t) {
			if i > 0 {
				b = append(b, ',')
			}
			b, _ = jsontext.AppendQuote(b, k)
			b = append(b, ':')
			b = appendJSON(b, t[k])
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
