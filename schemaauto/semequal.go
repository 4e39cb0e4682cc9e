package schemaauto

// The API server decides whether the versions of a v1 CRD share one schema
// (and so whether its errors are reported under spec.validation or under
// spec.versions[i].schema, and which versions' subresources the status rule
// on the root schema sees) by comparing the versions' schemas in its
// internal form with apimachinery's semantic equality
// (Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec):
// a field with its zero value is the field absent (an empty string, false,
// an empty or null list or map), while a pointer field set to its zero
// value is not (`$ref: ""`, `default: null`...), and JSON values are
// compared as encoding/json decodes them into interface{} (every number a
// float64). sameInternalSchema is that comparison on the schemas as read.

// sameInternalSchema reports whether the schemas a and b (JSON values as
// read) convert to semantically equal internal JSONSchemaProps.
func sameInternalSchema(a, b any) bool {
	if ta, ok := a.(*rawToken); ok { // dropRaw's tokens
		tb, ok := b.(*rawToken)
		return ok && ta.other == tb.other
	}
	if _, ok := b.(*rawToken); ok {
		return false
	}
	ma, oka := a.(map[string]any)
	mb, okb := b.(map[string]any)
	if !oka || !okb {
		return oka == okb && sameJSON(a, b)
	}
	for _, f := range internalFields {
		va, seta := ma[f.key]
		vb, setb := mb[f.key]
		seta, setb = seta && va != nil, setb && vb != nil
		if !sameField(f.kind, va, seta, vb, setb) {
			return false
		}
	}
	return true
}

// sameField compares one field read from both schemas (set: present and
// not null).
func sameField(k fieldKind, a any, seta bool, b any, setb bool) bool {
	switch k {
	case kString:
		x, _ := a.(string)
		y, _ := b.(string)
		return x == y
	case kBool:
		x, _ := a.(bool)
		y, _ := b.(bool)
		return x == y
	case kValues, kStrings, kSchemas, kSchemaMap, kDependencies, kRules:
		// slices and maps: nil and empty are equal
		if length(a) != length(b) {
			return false
		}
		if length(a) == 0 {
			return true
		}
	default:
		// pointers: unset and set differ, whatever the value
		if seta != setb {
			return false
		}
		if !seta {
			return true
		}
	}
	switch k {
	case kSchema:
		return sameInternalSchema(a, b)
	case kSchemas:
		x, _ := a.([]any)
		y, _ := b.([]any)
		for i := range x {
			if !sameInternalSchema(x[i], y[i]) {
				return false
			}
		}
		return true
	case kSchemaMap:
		x, _ := a.(map[string]any)
		y, _ := b.(map[string]any)
		for key, v := range x {
			w, ok := y[key]
			if !ok || !sameInternalSchema(v, w) {
				return false
			}
		}
		return true
	case kItems:
		x, xl := a.([]any)
		y, yl := b.([]any)
		if xl != yl {
			return false
		}
		if xl {
			return sameField(kSchemas, x, true, y, true)
		}
		return sameInternalSchema(a, b)
	case kOrBool:
		x, xb := a.(bool)
		y, yb := b.(bool)
		switch {
		case xb && yb:
			return x == y
		case xb || yb: // {Allows: x} against {Allows: true, Schema: ...}
			return false
		}
		return sameInternalSchema(a, b)
	case kDependencies:
		x, _ := a.(map[string]any)
		y, _ := b.(map[string]any)
		for key, v := range x {
			w, ok := y[key]
			if !ok {
				return false
			}
			vl, vIsList := v.([]any)
			wl, wIsList := w.([]any)
			if vIsList != wIsList {
				return false
			}
			if vIsList && !sameJSON(vl, wl) || !vIsList && !sameInternalSchema(v, w) {
				return false
			}
		}
		return true
	case kExternalDocs:
		x, _ := a.(map[string]any)
		y, _ := b.(map[string]any)
		return sameField(kString, x["description"], true, y["description"], true) &&
			sameField(kString, x["url"], true, y["url"], true)
	case kRules:
		x, _ := a.([]any)
		y, _ := b.([]any)
		for i := range x {
			rx, _ := x[i].(map[string]any)
			ry, _ := y[i].(map[string]any)
			for _, f := range [...]struct {
				key  string
				kind fieldKind
			}{{"rule", kString}, {"message", kString}, {"messageExpression", kString}, {"fieldPath", kString}, {"reason", kStringPtr}, {"optionalOldSelf", kBoolPtr}} {
				vx, sx := rx[f.key]
				vy, sy := ry[f.key]
				if !sameField(f.kind, vx, sx && vx != nil, vy, sy && vy != nil) {
					return false
				}
			}
		}
		return true
	case kValues:
		return sameJSON(a, b)
	}
	// the scalars behind pointers, and *JSON values
	return sameJSON(a, b)
}

// length is the length of a list or map (0 for anything else).
func length(v any) int {
	switch v := v.(type) {
	case []any:
		return len(v)
	case map[string]any:
		return len(v)
	}
	return 0
}

// sameJSON compares JSON values as semantic equality compares what
// encoding/json decodes them to: numbers as float64, and a null or empty
// list or map inside equal to an empty one only where both are lists or
// both maps.
func sameJSON(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case int64, float64:
		fx, okx := asFloat(a)
		fy, oky := asFloat(b)
		return okx && oky && fx == fy
	}
	return a == b
}

func asFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}
