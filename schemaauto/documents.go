package schemaauto

import (
	"fmt"

	"github.com/jsonprune/jsonprune/internal/yaml11"
)

// parseDocuments reads every document of data, JSON (one or several
// concatenated values) or YAML (one or several "---" documents, resolved as
// the Kubernetes YAML path resolves them: YAML 1.1 scalars, so a property
// written `y:` is named "true"). Duplicate keys are an error, as the API
// server's strict decoding makes them; empty and null documents are
// skipped.
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

func decodeYAML(data []byte) ([]any, error) {
	docs, err := yaml11.Decode(data, yaml11.Options{})
	if err != nil {
		return nil, err
	}
	out := docs[:0]
	for _, d := range docs {
		if d != nil {
			out = append(out, d)
		}
	}
	return out, nil
}
