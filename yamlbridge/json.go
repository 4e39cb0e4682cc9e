package yamlbridge

import (
	"io"
	"slices"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// AppendJSON appends the document src reads as compact JSON, without a schema: what the
// Kubernetes YAML path converts it to (sigs.k8s.io/yaml.YAMLToJSON), except that members keep
// the document's order (merged members in go-yaml v2's order) and a name that occurs more than
// once is written once, with its last value, at the place of its last occurrence. It reads src to
// the end; on an error dst is returned unchanged with the error. To prune, use the decoder's
// AppendPruneSource instead.
func AppendJSON(dst []byte, src *Source) ([]byte, error) {
	out, err := appendJSONValue(dst, src)
	if err == nil {
		if _, err = src.ReadToken(); err == io.EOF {
			return out, nil
		}
		if err == nil {
			err = &jperrors.DecodeError{Offset: src.LastOffset(), Msg: "yamlbridge: data after the top-level value"}
		}
	}
	return dst, err
}

type jsonMember struct {
	name       string
	start, end int
}

func appendJSONValue(dst []byte, src *Source) ([]byte, error) {
	switch src.PeekKind() {
	case 0:
		_, err := src.ReadToken()
		return dst, err
	case '[':
		src.ReadToken()
		dst = append(dst, '[')
		for i := 0; src.PeekKind() != ']'; i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendJSONValue(dst, src); err != nil {
				return dst, err
			}
		}
		if _, err := src.ReadToken(); err != nil {
			return dst, err
		}
		return append(dst, ']'), nil
	case '{':
		src.ReadToken()
		dst = append(dst, '{')
		start := len(dst)
		var members []jsonMember
		for src.PeekKind() != '}' {
			name, err := src.ReadValue()
			if err != nil {
				return dst, err
			}
			if len(members) > 0 {
				dst = append(dst, ',')
			}
			m := jsonMember{name: string(name), start: len(dst)}
			dst = append(append(dst, name...), ':')
			if dst, err = appendJSONValue(dst, src); err != nil {
				return dst, err
			}
			m.end = len(dst)
			members = append(members, m)
		}
		if _, err := src.ReadToken(); err != nil {
			return dst, err
		}
		// drop the earlier occurrences of repeated names (compared as JSON text: the bridge
		// writes every name the same way)
		if last := lastOccurrences(members); last != nil {
			body := slices.Clone(dst[start:])
			dst = dst[:start]
			for i, m := range members {
				if last[m.name] != i {
					continue
				}
				if len(dst) > start {
					dst = append(dst, ',')
				}
				dst = append(dst, body[m.start-start:m.end-start]...)
			}
		}
		return append(dst, '}'), nil
	}
	raw, err := src.ReadValue()
	if err != nil {
		return dst, err
	}
	return append(dst, raw...), nil
}

// lastOccurrences maps each name to the index of its last member, or is nil when no name repeats.
func lastOccurrences(members []jsonMember) map[string]int {
	if len(members) < 2 {
		return nil
	}
	last := make(map[string]int, len(members))
	for i, m := range members {
		last[m.name] = i
	}
	if len(last) == len(members) {
		return nil
	}
	return last
}
