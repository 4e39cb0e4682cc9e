package schemaauto

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"unicode/utf8"

	"github.com/jsonprune/jsonprune/internal/jsonvalue"
)

// A Cache keeps, across runs, CRDs in a directory, each under the SHA-256
// of its text: compiled (a lazy Set whose CRDSource has the Cache and the
// text: compiled.go, compiledenc.go), with the versions' schemas when a run
// needs them (schemaenc.go), and parsed from YAML as JSON text (ParseCRD):
// a later run reads the compiled form instead of parsing and compiling the
// CRD, or parses the JSON (several times faster) instead of the YAML.
//
// A JSON text is stored only when the CRD parsed from it is the CRD parsed
// from the YAML, equal in every field; a compiled form reads back as the
// Set compiled afresh, and the schemas as the CRD's; so a run gives the
// same results with the cache as without. Files are written to a
// temporary name and renamed, so concurrent runs never read half a file;
// each file carries the hash of its body (and the compiled and schema
// files the version of their encoding), and a file that does not match
// it, or does not read, is ignored (and written anew). Errors of the cache
// are never errors of the run: what cannot be read or written is parsed
// (and compiled) from the YAML.
//
// The directory must be private to one build of the parser (the command
// line names it after the executable's hash).
type Cache struct {
	once  sync.Once
	dirOf func() string
	dir   string // "" when there is none: nothing cached
}

// NewCache returns the cache of a directory, made when first written.
func NewCache(dir string) *Cache { return &Cache{dirOf: func() string { return dir }} }

// NewCacheFunc returns a cache whose directory dirOf names when the cache
// is first used ("": no cache after all).
func NewCacheFunc(dirOf func() string) *Cache { return &Cache{dirOf: dirOf} }

func (c *Cache) directory() string {
	c.once.Do(func() { c.dir = c.dirOf() })
	return c.dir
}

const cacheMagic = "jsonprune-crd-json 1 "

func (c *Cache) path(key string) string {
	return filepath.Join(c.directory(), key[:2], key+".json")
}

// get returns the CRD stored for the YAML text of key, if any.
func (c *Cache) get(key string) (*CRD, bool) {
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil, false
	}
	head, body, ok := bytes.Cut(data, []byte("\n"))
	sum := sha256.Sum256(body)
	if !ok || string(head) != cacheMagic+hex.EncodeToString(sum[:]) {
		return nil, false
	}
	crds, err := ParseCRDs(body)
	if err != nil || len(crds) != 1 {
		return nil, false
	}
	return crds[0], true
}

// put stores the JSON text of doc, the value the YAML text of key parses
// to, when the JSON parser reads that text back as the same value (so that
// the CRD read from it is the same).
func (c *Cache) put(key string, doc any) {
	if !roundTrips(doc) {
		return
	}
	body := jsonvalue.AppendCanonical(nil, doc)
	sum := sha256.Sum256(body)
	c.write(c.path(key), cacheMagic+hex.EncodeToString(sum[:])+"\n", body)
}

// roundTrips reports whether the JSON parser (parseJSONValues) reads the
// canonical JSON text of v back as v: strings of valid UTF-8, and numbers
// whose text parses back to the same type and value (a float64 with an
// integral value would come back as an int64).
func roundTrips(v any) bool {
	switch t := v.(type) {
	case nil, bool, int64:
		return true
	case string:
		return utf8.ValidString(t)
	case float64:
		x, err := jsonvalue.ParseNumber(jsonvalue.AppendFloat(nil, t))
		f, ok := x.(float64)
		return err == nil && ok && f == t
	case map[string]any:
		for k, x := range t {
			if !utf8.ValidString(k) || !roundTrips(x) {
				return false
			}
		}
		return true
	case []any:
		for _, x := range t {
			if !roundTrips(x) {
				return false
			}
		}
		return true
	}
	return false
}

func cacheKey(text []byte) string {
	sum := sha256.Sum256(text)
	return hex.EncodeToString(sum[:])
}

// ParseCRD parses the one CRD of a document's text (YAML or JSON) as
// ParseCRDs does, through the cache when it is not nil.
func (c *Cache) ParseCRD(text []byte) (*CRD, error) {
	if c == nil || c.directory() == "" {
		return parseOneCRD(text)
	}
	key := cacheKey(text)
	crd, doc, err := c.parseText(key, text)
	if doc != nil {
		c.put(key, doc)
	}
	return crd, err
}

// parseText parses the one CRD of text, whose key is key, as ParseCRD
// does, storing nothing: doc is the value the YAML parsed to (nil when the
// cache had the CRD, or on an error), which ParseCRD stores.
func (c *Cache) parseText(key string, text []byte) (crd *CRD, doc any, err error) {
	if crd, ok := c.get(key); ok {
		return crd, nil, nil
	}
	docs, err := parseDocuments(text)
	if err != nil || len(docs) != 1 {
		crd, err := parseOneCRD(text) // its error, as ParseCRDs words it
		return crd, nil, err
	}
	m, ok := docs[0].(map[string]any)
	if !ok || m["kind"] != "CustomResourceDefinition" {
		crd, err := parseOneCRD(text)
		return crd, nil, err
	}
	if crd, err = crdFromValue(m); err != nil {
		crd, err := parseOneCRD(text)
		return crd, nil, err
	}
	return crd, docs[0], nil
}

// parseOneCRD is ParseCRDs of a text that holds one CRD.
func parseOneCRD(text []byte) (*CRD, error) {
	crds, err := ParseCRDs(text)
	if err != nil {
		return nil, err
	}
	if len(crds) != 1 {
		return nil, errChanged
	}
	return crds[0], nil
}
