package main

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/decoder"
)

// typeMeta is what messages and records say of an object. Its apiVersion
// and kind are the decoder's (decoder.Result.APIVersion and Kind: the
// strings the API server reads, the last occurrence winning), never read a
// second time here: the command line has one reading of type meta, the
// library's. Only the namespace and name, which the decoder does not hand
// out, are read here, for messages, as the API server's decoding reads them
// (the last metadata member, the last name and namespace in it).
type typeMeta struct {
	apiVersion, kind, namespace, name string
}

// setTypeMeta notes the decoder's result of the object, whose apiVersion
// and kind gvk reads when a message or the summary needs them (before the
// decoder's next call: an origin lives while its object is processed).
func (a *origin) setTypeMeta(res *decoder.Result) { a.res = res }

// gvk is the object's apiVersion and kind, as the decoder read them (empty
// when it was not decoded), without its namespace and name.
func (a *origin) gvk() *typeMeta {
	if a.tm == nil {
		a.tm = &typeMeta{}
		if a.res != nil {
			a.tm.apiVersion, a.tm.kind = a.res.APIVersion(), a.res.Kind()
		}
	}
	return a.tm
}

// nameReader reads an object's metadata.namespace and metadata.name.
type nameReader struct {
	rd bytes.Reader
	jd *jsontext.Decoder
}

// read fills in tm's namespace and name from the JSON text obj.
func (t *nameReader) read(obj []byte, tm *typeMeta) {
	t.rd.Reset(obj)
	opts := []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}
	if t.jd == nil {
		t.jd = jsontext.NewDecoder(&t.rd, opts...)
	} else {
		t.jd.Reset(&t.rd, opts...)
	}
	jd := t.jd
	if jd.PeekKind() != '{' {
		return
	}
	jd.ReadToken()
	str := func() string {
		if jd.PeekKind() == '"' {
			if v, err := jd.ReadToken(); err == nil {
				return v.String()
			}
			return ""
		}
		jd.SkipValue()
		return ""
	}
	for jd.PeekKind() == '"' {
		name, err := jd.ReadToken()
		if err != nil {
			return
		}
		if name.String() != "metadata" {
			if jd.SkipValue() != nil {
				return
			}
			continue
		}
		// a later metadata member replaces an earlier one
		tm.namespace, tm.name = "", ""
		if jd.PeekKind() != '{' {
			jd.SkipValue()
			continue
		}
		jd.ReadToken()
		for jd.PeekKind() == '"' {
			n, err := jd.ReadToken()
			if err != nil {
				return
			}
			switch n.String() {
			case "name":
				tm.name = str()
			case "namespace":
				tm.namespace = str()
			default:
				if jd.SkipValue() != nil {
					return
				}
			}
		}
		if _, err := jd.ReadToken(); err != nil {
			return
		}
	}
}
