package main

import (
	"bytes"
	"unicode/utf8"

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

// quickNames is nameReader.read for obj known to be one valid JSON value
// (the decoder read it to its end, or fatalLine checked it): it follows
// strings and brackets only, as package stream's splitter does, instead
// of reading every token. It reports false, leaving tm alone, where it
// would have to unquote: a member name with an escape, or a name or
// namespace that is not plain valid UTF-8 without escapes (nameReader
// reads those).
func quickNames(obj []byte, tm *typeMeta) bool {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return true // not an object: no names (as nameReader)
	}
	ns, name := tm.namespace, tm.name
	var ok bool
	for i = skipSpace(obj, i+1); i < len(obj) && obj[i] == '"'; {
		var key []byte
		if key, i, ok = quickName(obj, i); !ok {
			return false
		}
		if string(key) == "metadata" && obj[i] != '{' {
			ns, name = "", "" // as nameReader: the names are gone
		}
		if string(key) != "metadata" || obj[i] != '{' {
			i = skipSpace(obj, skipValue(obj, i))
			if i < len(obj) && obj[i] == ',' {
				i = skipSpace(obj, i+1)
			}
			continue
		}
		// a later metadata member replaces an earlier one
		ns, name = "", ""
		for i = skipSpace(obj, i+1); i < len(obj) && obj[i] == '"'; {
			if key, i, ok = quickName(obj, i); !ok {
				return false
			}
			switch string(key) {
			case "name", "namespace":
				v := ""
				if obj[i] == '"' {
					end := skipString(obj, i)
					raw := obj[i+1 : end-1]
					if bytes.IndexByte(raw, '\\') >= 0 || !utf8.Valid(raw) {
						return false
					}
					v = string(raw)
				}
				if string(key) == "name" {
					name = v
				} else {
					ns = v
				}
			}
			i = skipSpace(obj, skipValue(obj, i))
			if i < len(obj) && obj[i] == ',' {
				i = skipSpace(obj, i+1)
			}
		}
		i = skipSpace(obj, i+1) // past the metadata's "}"
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
	tm.namespace, tm.name = ns, name
	return true
}

// quickName reads the member name at obj[i] (a quote) and its colon; it
// returns the name's raw bytes and the start of the value, false if the
// name has an escape.
func quickName(obj []byte, i int) ([]byte, int, bool) {
	end := skipString(obj, i)
	key := obj[i+1 : end-1]
	if bytes.IndexByte(key, '\\') >= 0 {
		return nil, 0, false
	}
	i = skipSpace(obj, end) // at the colon
	i = skipSpace(obj, i+1) // at the value
	return key, min(i, len(obj)-1), true
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(obj []byte, i int) int {
	for i < len(obj) && (obj[i] == ' ' || obj[i] == '\t' || obj[i] == '\n' || obj[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string whose opening quote is at
// obj[i] (valid JSON: it has a closing quote).
func skipString(obj []byte, i int) int {
	for {
		q := bytes.IndexByte(obj[i+1:], '"')
		if q < 0 {
			return len(obj)
		}
		i += q + 1
		n := 0
		for obj[i-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return i + 1
		}
	}
}

// skipValue returns the index after the value at obj[i] (valid JSON).
func skipValue(obj []byte, i int) int {
	switch obj[i] {
	case '"':
		return skipString(obj, i)
	case '{', '[':
		depth := 0
		for ; i < len(obj); i++ {
			switch obj[i] {
			case '"':
				i = skipString(obj, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for i < len(obj) && !scalarEnd[obj[i]] {
		i++
	}
	return i
}

// scalarEnd are the bytes that end a number, true, false or null.
var scalarEnd = [256]bool{',': true, '}': true, ']': true, ' ': true, '\t': true, '\n': true, '\r': true}
