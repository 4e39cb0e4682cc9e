package schemaauto

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"
)

// parseDocuments reads every document of data, JSON (one or several
// concatenated values) or YAML (one or several "---" documents).
func parseDocuments(data []byte) ([]any, error) {
	if isJSON(data) {
		docs, err := parseJSONValues(data)
		if err == nil {
			return docs, nil
		}
		// YAML flow style also starts with { or [.
		if ydocs, yerr := decodeYAML(data); yerr == nil {
			return ydocs, nil
		}
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	return decodeYAML(data)
}

// decodeYAML is an interim YAML reader (yaml v3 resolution).
func decodeYAML(data []byte) ([]any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []any
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue
		}
		out = append(out, normalizeYAMLValue(v))
	}
}

func normalizeYAMLValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = normalizeYAMLValue(e)
		}
		return t
	case []any:
		for i, e := range t {
			t[i] = normalizeYAMLValue(e)
		}
		return t
	case int:
		return int64(t)
	}
	return v
}
