package yaml11

import (
	"fmt"
	"math"
	"reflect"
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// jsonKey converts a resolved scalar key to its JSON object key (as convertToJSONableObject in
// sigs.k8s.io/yaml's yaml.go does):
// strings as they are (with U+FFFD for bytes that are not UTF-8, as json.Marshal writes them), ints
// in decimal, floats with strconv.FormatFloat(f, 'g', -1, 32) (float32 precision: 16777217.0 is
// "1.6777216e+07"), except that +Inf, -Inf and NaN are ".inf", "-.inf" and ".nan", bools "true" or
// "false". plain reports that the key is a string equal to its JSON key. ok is false for the keys
// the reference rejects: null and integers above math.MaxInt64 (go-yaml v2's uint64).
func jsonKey(s scalar) (key string, plain, ok bool) {
	switch s.kind {
	case kString:
		k := jsonString(s.s)
		return k, len(k) == len(s.s), true
	case kBool:
		if s.b {
			return "true", false, true
		}
		return "false", false, true
	case kInt:
		return strconv.FormatInt(s.i, 10), false, true
	case kFloat:
		switch {
		case math.IsInf(s.f, 1):
			return ".inf", false, true
		case math.IsInf(s.f, -1):
			return "-.inf", false, true
		case math.IsNaN(s.f):
			return ".nan", false, true
		}
		return strconv.FormatFloat(s.f, 'g', -1, 32), false, true
	}
	return "", false, false
}

// unsupportedKeyMessage is the reference's text for a null or uint64 key. value is go-yaml v2's
// value for the key; withValue false leaves the ", value: …" part out (KeyString sees no value).
func unsupportedKeyMessage(key any, value any, withValue bool) string {
	msg := fmt.Sprintf("unsupported map key of type: %s, key: %+#v", reflect.TypeOf(key), key)
	if withValue {
		msg += fmt.Sprintf(", value: %+#v", value)
	}
	return msg
}

// invalidKeyMessage is the reference's text for a mapping or sequence used as a key.
func invalidKeyMessage(n *yaml.Node, nonSpecific map[*yaml.Node]bool) string {
	return fmt.Sprintf("yaml: invalid map key: %#v", nativeValue(n, nonSpecific))
}

// KeyString converts a mapping key node to the JSON object key the Kubernetes YAML path gives it
// (convertToJSONableObject in sigs.k8s.io/yaml's yaml.go): the scalar is resolved as in ResolveScalar, then a string stays
// as it is, an int is written in decimal, a float with float32 precision in 'g' format (1e3 is
// "1000", 1.10 is "1.1", .inf is ".inf"), a bool is "true" or "false". So the plain keys y, yes,
// on are "true" and n, no, off are "false".
//
// An alias is followed. The errors are *Error values with the reference's texts:
//   - a mapping or sequence key: "yaml: invalid map key: map[interface {}]interface {}{\"a\":1}";
//   - a null key: "unsupported map key of type: %!s(<nil>), key: <nil>", and an integer above
//     math.MaxInt64: "unsupported map key of type: uint64, key: 0x…". The reference's text goes on
//     with ", value: …", which KeyString cannot know; ToValue's errors include it.
//   - the resolution errors of ResolveScalar for a wrongly tagged key.
//
// A merge key "<<" is the string "<<" here; ToValue treats it as a merge instead.
func KeyString(n *yaml.Node) (string, error) {
	if n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n == nil {
		return "", newError(n, "yaml11: KeyString needs a node")
	}
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		return "", newError(n, invalidKeyMessage(n, nil))
	case yaml.ScalarNode:
	default:
		return "", newError(n, "yaml11: KeyString needs a scalar node")
	}
	s, err := resolveNode(n)
	if err != nil {
		return "", err
	}
	k, _, ok := jsonKey(s)
	if !ok {
		return "", newError(n, unsupportedKeyMessage(s.native(), nil, false))
	}
	return k, nil
}

// nativeValue decodes n the way go-yaml v2 decodes into interface{} (map[interface{}]interface{}
// with merges applied and the last value winning, []interface{}, int, uint64, float64, bool, nil,
// string), for error texts only. It is not bounded by the limits of Options: callers reach it only
// for subtrees the converter has already walked within them. Cycles and unhashable keys, which the
// converter rejects first, are rendered as placeholders instead of failing. nonSpecific is the
// converter's set of scalars tagged "!" (may be nil).
func nativeValue(n *yaml.Node, nonSpecific map[*yaml.Node]bool) any {
	r := nativeRenderer{active: map[*yaml.Node]bool{}, nonSpecific: nonSpecific}
	return r.value(n)
}

type nativeRenderer struct {
	active      map[*yaml.Node]bool
	nonSpecific map[*yaml.Node]bool
}

func (r *nativeRenderer) value(n *yaml.Node) any {
	if n == nil {
		return nil
	}
	if r.active[n] {
		return "<cycle>"
	}
	r.active[n] = true
	defer delete(r.active, n)
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 1 {
			return r.value(n.Content[0])
		}
		return nil
	case yaml.AliasNode:
		return r.value(n.Alias)
	case yaml.ScalarNode:
		if r.nonSpecific[n] {
			return n.Value
		}
		s, err := resolveNode(n)
		if err != nil {
			return n.Value
		}
		return s.native()
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, r.value(c))
		}
		return out
	case yaml.MappingNode:
		out := map[any]any{}
		r.fill(n, out)
		return out
	}
	return nil
}

func (r *nativeRenderer) fill(n *yaml.Node, out map[any]any) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if isMerge(k) || r.nonSpecific[k] && k.Value == "<<" {
			r.merge(v, out)
			continue
		}
		key := r.value(k)
		if key != nil && !reflect.TypeOf(key).Comparable() {
			key = fmt.Sprintf("%#v", key)
		}
		out[key] = r.value(v)
	}
}

func (r *nativeRenderer) merge(v *yaml.Node, out map[any]any) {
	if v == nil || r.active[v] {
		return
	}
	r.active[v] = true
	defer delete(r.active, v)
	switch v.Kind {
	case yaml.MappingNode:
		r.fill(v, out)
	case yaml.AliasNode:
		r.merge(v.Alias, out)
	case yaml.SequenceNode:
		for i := len(v.Content) - 1; i >= 0; i-- {
			r.merge(v.Content[i], out)
		}
	}
}
