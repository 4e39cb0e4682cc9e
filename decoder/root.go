package decoder

import (
	"bytes"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// ciValue is a root member whose name equals apiVersion or kind ignoring
// case, as the reference's version/kind pre-scan (stdlib encoding/json,
// case-insensitive, last wins) reads it.
type ciValue struct {
	set      bool
	isString bool
	str      string
	jsonType string // the JSON type of a non-string value, as encoding/json names it
	offset   int64
}

// selectAutomaton reads the root's exact apiVersion and kind (the strings
// the reference's coercer reads from the decoded map) and picks the
// automaton. In the fast path (no duplicate names) the first occurrences
// are the only ones and the scan stops there; in the slow path it reads the
// whole root, the last occurrence winning.
func (d *Decoder) selectAutomaton() error {
	d.res.Entry, d.res.Pruned = nil, false
	apiVersion, kind, isObject := d.prescan()
	if !isObject {
		d.a = schemaauto.PassThrough()
		if d.fixed != nil {
			d.a = d.fixed
		}
		return nil
	}
	if kind == nil {
		d.setFatal(rankKindMissing, &jperrors.DecodeError{Msg: fmt.Sprintf("Object 'Kind' is missing in '%s'", d.doc)})
	}
	av := ""
	if apiVersion != nil {
		av = *apiVersion
	}
	k := ""
	if kind != nil {
		k = *kind
	}
	if d.fixed != nil {
		d.a, d.res.Pruned = d.fixed, true
		if _, _, err := schemaauto.ParseGroupVersion(av); err != nil {
			d.setFatal(rankGroupVersion, &jperrors.DecodeError{Msg: err.Error()})
		}
		return nil
	}
	a, e, err := d.set.Resolve(av, k)
	if err != nil {
		d.setFatal(rankGroupVersion, &jperrors.DecodeError{Msg: err.Error()})
	}
	if a == nil {
		d.a = schemaauto.PassThrough()
		return nil
	}
	d.a, d.entry, d.res.Entry, d.res.Pruned = a, e, e, true
	return nil
}

// prescan finds the exact "apiVersion" and "kind" strings of the root.
func (d *Decoder) prescan() (apiVersion, kind *string, isObject bool) {
	d.preRd = *bytes.NewBuffer(d.doc) // jsontext reads a bytes.Buffer in place
	opts := jsontext.AllowDuplicateNames(true)
	if d.pre == nil {
		d.pre = jsontext.NewDecoder(&d.preRd, opts)
	} else {
		d.pre.Reset(&d.preRd, opts)
	}
	if d.pre.PeekKind() != '{' {
		return nil, nil, false
	}
	if _, err := d.pre.ReadToken(); err != nil {
		return nil, nil, false
	}
	var av, k string
	for d.pre.PeekKind() != '}' {
		name, err := d.pre.ReadValue()
		if err != nil {
			break
		}
		isAV, isKind := string(name) == `"apiVersion"`, string(name) == `"kind"`
		if !isAV && !isKind {
			if d.pre.SkipValue() != nil {
				break
			}
			continue
		}
		v, err := d.pre.ReadValue()
		if err != nil {
			break
		}
		var sp *string
		if v.Kind() == '"' {
			s, err := jsontext.AppendUnquote(nil, v)
			if err == nil || d.cfg.invalidUTF8 {
				str := string(s)
				sp = &str
			}
		}
		if isAV {
			apiVersion = sp
			if sp != nil {
				av = *sp
				apiVersion = &av
			}
		} else {
			kind = sp
			if sp != nil {
				k = *sp
				kind = &k
			}
		}
		if !d.ownDups && apiVersion != nil && kind != nil {
			break
		}
	}
	return apiVersion, kind, true
}

// noteRootName records a root member whose name is apiVersion or kind
// ignoring case, as the reference's pre-scan reads it. raw is the value
// when it was read already (a string), else nil and k its kind.
func (d *Decoder) noteRootName(name []byte, k jsontext.Kind, str []byte, offset int64) {
	var v *ciValue
	switch {
	case bytes.EqualFold(name, []byte("apiVersion")):
		v = &d.ciAPIVersion
	case bytes.EqualFold(name, []byte("kind")):
		v = &d.ciKind
	default:
		return
	}
	switch k {
	case 'n':
		return // null into a Go string leaves it as it was
	case '"':
		*v = ciValue{set: true, isString: true, str: string(str), offset: offset}
	default:
		*v = ciValue{set: true, jsonType: jsonTypeName(k), offset: offset}
	}
}

// jsonTypeName names a JSON kind as encoding/json's UnmarshalTypeError does.
func jsonTypeName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case '0':
		return "number"
	case '"':
		return "string"
	}
	return "null"
}

// finishRoot applies, at the end of the document, the checks of the
// reference's version/kind pre-scan: the last apiVersion and kind (ignoring
// case) must be strings, and the apiVersion must parse.
func (d *Decoder) finishRoot() error {
	const prefix = "couldn't get version/kind; json parse error: "
	for _, c := range []struct {
		v     *ciValue
		field string
	}{{&d.ciAPIVersion, "apiVersion"}, {&d.ciKind, "kind"}} {
		if c.v.set && !c.v.isString {
			d.setFatal(rankVersionKind, &jperrors.DecodeError{Offset: c.v.offset,
				Msg: prefix + "json: cannot unmarshal " + c.v.jsonType + " into Go struct field ." + c.field + " of type string"})
		}
	}
	if v := d.ciAPIVersion; v.set && v.isString {
		if _, _, err := schemaauto.ParseGroupVersion(v.str); err != nil {
			d.setFatal(rankVersionKind, &jperrors.DecodeError{Offset: v.offset, Msg: err.Error()})
		}
	}
	return nil
}
