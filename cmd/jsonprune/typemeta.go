package main

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// typeMeta is what messages and records say of an object.
type typeMeta struct {
	object                            bool
	apiVersion, kind, namespace, name string
	// notString: an apiVersion or kind member that is not a string (the
	// reference's version/kind pre-scan refuses it)
	notString bool
}

// typeMetaReader reads an object's typeMeta (first occurrences).
type typeMetaReader struct {
	rd bytes.Reader
	jd *jsontext.Decoder
}

func (t *typeMetaReader) read(obj []byte) typeMeta {
	t.rd.Reset(obj)
	opts := []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}
	if t.jd == nil {
		t.jd = jsontext.NewDecoder(&t.rd, opts...)
	} else {
		t.jd.Reset(&t.rd, opts...)
	}
	var tm typeMeta
	jd := t.jd
	if jd.PeekKind() != '{' {
		return tm
	}
	jd.ReadToken()
	tm.object = true
	str := func(dst *string) {
		if jd.PeekKind() == '"' {
			if v, err := jd.ReadToken(); err == nil && *dst == "" {
				*dst = v.String()
			}
			return
		}
		jd.SkipValue()
	}
	for jd.PeekKind() == '"' {
		name, err := jd.ReadToken()
		if err != nil {
			break
		}
		switch name.String() {
		case "apiVersion":
			tm.notString = tm.notString || jd.PeekKind() != '"' && jd.PeekKind() != 'n'
			str(&tm.apiVersion)
		case "kind":
			tm.notString = tm.notString || jd.PeekKind() != '"' && jd.PeekKind() != 'n'
			str(&tm.kind)
		case "metadata":
			if jd.PeekKind() != '{' {
				jd.SkipValue()
				continue
			}
			jd.ReadToken()
			for jd.PeekKind() == '"' {
				n, err := jd.ReadToken()
				if err != nil {
					return tm
				}
				switch n.String() {
				case "name":
					str(&tm.name)
				case "namespace":
					str(&tm.namespace)
				default:
					jd.SkipValue()
				}
			}
			jd.ReadToken()
		default:
			if jd.SkipValue() != nil {
				return tm
			}
		}
	}
	return tm
}
