package main

import (
	"errors"
	"sort"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/internal/yaml11"
	"github.com/jsonprune/jsonprune/schemaauto"
)

func asDuplicates(err error, dst **yaml11.DuplicateKeysError) bool {
	return errors.As(err, dst)
}

func loadSchema(path string, opts schemaauto.Options) (*schemaauto.Automaton, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	s, err := schemaauto.ParseSchema(data)
	if err != nil {
		return nil, err
	}
	return schemaauto.Compile(s, opts)
}

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
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for i, k := range keys {
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
