package schemaauto

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"unsafe"

	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/atomicfile"
)

// This file keeps compiled CRDs in the Cache (the encoding is
// compiledenc.go's) and loads, on first use, the schemas a Set read from
// it does not hold.

// crdSchemas loads, once, what reporting needs of the schemas of a CRD
// whose compiled form a Set was read from the cache: Entry.Schema (the
// versions' schemas, read from the cache's schema file of the CRD when
// there is one, else from the CRD loaded, and then stored there) and
// Automaton.Node (the schema node of each state, which takes loading and
// compiling the CRD again). It is safe for concurrent use.
type crdSchemas struct {
	load    func() (*CRD, error)
	options []Option
	cache   *Cache // nil: none
	key     string

	once sync.Once
	crd  *CRD // nil when it does not load

	versionsOnce sync.Once
	versions     []*Schema // nil when they do not load

	compileOnce sync.Once
	set         *Set // the CRD compiled afresh; nil when it does not compile
}

// get returns the whole CRD, or nil when it no longer loads.
func (l *crdSchemas) get() *CRD {
	l.once.Do(func() {
		if l.crd != nil || l.load == nil { // compiled in this run: given
			return
		}
		c, err := l.load()
		if err == nil {
			dropRaw(c)
			l.crd = c
		}
	})
	return l.crd
}

// version returns the schema of the i-th version (nil when it has none or
// does not load).
func (l *crdSchemas) version(i int) *Schema {
	l.versionsOnce.Do(func() {
		if l.cache != nil && l.crd == nil {
			if data, err := os.ReadFile(l.cache.schemasPath(l.key)); err == nil {
				head, body, ok := bytes.Cut(data, []byte("\n"))
				if ok && string(head)+"\n" == schemasHeader(body) {
					if vs, ok := decodeSchemas(string(body)); ok {
						l.versions = vs
						return
					}
				}
			}
		}
		c := l.get()
		if c == nil {
			return
		}
		l.versions = make([]*Schema, len(c.Versions))
		for i, v := range c.Versions {
			l.versions[i] = v.Schema
		}
		if l.cache != nil {
			if body, ok := encodeSchemas(c); ok {
				l.cache.write(l.cache.schemasPath(l.key), schemasHeader(body), body)
			}
		}
	})
	if i >= len(l.versions) {
		return nil
	}
	return l.versions[i]
}

// automaton returns the automaton of the i-th version compiled afresh
// from the CRD, or nil.
func (l *crdSchemas) automaton(i int) *Automaton {
	l.compileOnce.Do(func() {
		if c := l.get(); c != nil {
			l.set, _ = CompileCRDs([]*CRD{c}, l.options...)
		}
	})
	if l.set == nil || i >= len(l.set.list) {
		return nil
	}
	return l.set.list[i].Automaton
}

// Schema returns the version's schema (nil when it has none). It is
// Version.Schema, except for an entry of a CRD the Cache held compiled:
// its Version has no schema, and Schema reads the schemas on first use,
// from the cache (where they are stored the first time they are needed)
// or else by loading the CRD (nil if it no longer loads); they equal the
// CRD's, field by field. Safe for concurrent use.
func (e *Entry) Schema() *Schema {
	if e.schemas == nil {
		if e.Version == nil {
			return nil
		}
		return e.Version.Schema
	}
	return e.schemas.version(e.index)
}

// loadNodeSchemas sets NodeInfo.Schema of an automaton read from the
// cache, from the CRD compiled afresh (the same states in the same order).
func (a *Automaton) loadNodeSchemas() {
	if a.schemas == nil {
		return
	}
	a.nodeSchemas.Do(func() {
		f := a.schemas.automaton(a.version)
		if f == nil || len(f.nodes) != len(a.nodes) {
			return
		}
		for i := range a.nodes {
			a.nodes[i].Schema = f.nodes[i].Schema
		}
	})
}

// noSchemaAutomaton is the automaton of the versions a CRD does not list,
// which depends only on spec.preserveUnknownFields: compiled once per
// process for the Sets read from the cache.
func noSchemaAutomaton(preserveAll bool) *Automaton {
	if preserveAll {
		return noSchemaPreserve()
	}
	return noSchemaPrune()
}

var (
	noSchemaPrune    = sync.OnceValue(func() *Automaton { return mustCompileNone(false) })
	noSchemaPreserve = sync.OnceValue(func() *Automaton { return mustCompileNone(true) })
)

func mustCompileNone(preserveAll bool) *Automaton {
	a, err := compile(nil, preserveAll, jperrors.NewFieldPath("openAPIV3Schema"))
	if err != nil {
		panic(err) // compiling no schema cannot fail
	}
	return a
}

const (
	compiledMagic = "jsonprune-crd-compiled"
	schemasMagic  = "jsonprune-crd-schemas"
)

// schemasPath is the file of the versions' schemas of the CRD text of key
// (schemaenc.go).
func (c *Cache) schemasPath(key string) string {
	return filepath.Join(c.directory(), key[:2], key+".schema")
}

// schemasHeader is the first line of a schema file.
func schemasHeader(body []byte) string {
	return schemasMagic + " " + strconv.Itoa(compiledFormat) + " " + bodySum(body) + "\n"
}

// bodySum is the checksum of a cache file's body in its header: CRC-32C,
// which finds a corrupt or truncated file (the key, the file's name, is
// the SHA-256 of the CRD's text). It was SHA-256, which took a run over
// the corpus tree 3 ms of hashing the 6 MB of compiled files it reads;
// CRC-32C is computed by the processor's own instruction.
func bodySum(body []byte) string {
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], crc32.Checksum(body, castagnoli))
	return "crc32c:" + hex.EncodeToString(sum[:])
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// compiledPath is the file of the compiled form of the CRD text of key,
// compiled with or without AllowSkeleton.
func (c *Cache) compiledPath(key string, skeleton bool) string {
	name := key + ".auto"
	if skeleton {
		name = key + ".skel.auto"
	}
	return filepath.Join(c.directory(), key[:2], name)
}

// compiledHeader is the first line of a compiled file.
func compiledHeader(body []byte) string {
	return compiledMagic + " " + strconv.Itoa(compiledFormat) + " " + bodySum(body) + "\n"
}

// getCompiled returns the Set stored for the CRD text of key, if any: a
// file of this format whose body has the checksum its header says and
// reads whole. load loads the whole CRD, when the Set's schemas are asked
// for.
func (c *Cache) getCompiled(key string, skeleton bool, load func() (*CRD, error), options []Option) (*Set, bool) {
	data, err := os.ReadFile(c.compiledPath(key, skeleton))
	if err != nil {
		return nil, false
	}
	body, ok := compiledBody(data)
	if !ok {
		return nil, false
	}
	// data is this function's own and nothing writes it again: the Set's
	// strings (names, paths) are read in place, not from a copy of the
	// file (6 MB a run over the corpus tree)
	return decodeCompiled(unsafe.String(unsafe.SliceData(body), len(body)), &crdSchemas{load: load, options: options, cache: c, key: key})
}

// readCompiled reads a compiled file: its header, then its body (a copy of
// it: data stays the caller's).
func readCompiled(data []byte, schemas *crdSchemas) (*Set, bool) {
	body, ok := compiledBody(data)
	if !ok {
		return nil, false
	}
	return decodeCompiled(string(body), schemas)
}

// compiledBody returns the body of a compiled file whose header is the
// one of this format and of its body.
func compiledBody(data []byte) ([]byte, bool) {
	head, body, ok := bytes.Cut(data, []byte("\n"))
	if !ok || string(head)+"\n" != compiledHeader(body) {
		return nil, false
	}
	return body, true
}

// putCompiled stores the Set CompileCRDs made of crd, parsed from the text
// of key, when it encodes (ok).
func (c *Cache) putCompiled(key string, skeleton bool, crd *CRD, set *Set) (body []byte, ok bool) {
	body, ok = encodeCompiled(crd, set)
	if ok {
		c.write(c.compiledPath(key, skeleton), compiledHeader(body), body)
	}
	return body, ok
}

// write writes header and body to path through a temporary file renamed
// into place, so that concurrent runs never read half a file; a failed
// write is dropped (the entry is compiled again next time).
func (c *Cache) write(p, header string, body []byte) {
	_ = atomicfile.Write(p, []byte(header), body)
}

// compileCached compiles the CRD of src through the cache of compiled
// CRDs: the Set stored for its text, else the CRD parsed from its text
// (through the parsed CRDs of the cache) and compiled, and stored when it
// compiles. The parsed form is stored only when the compiled one is not
// (writing files is a good part of what a cold run costs): a run needs
// it to load the CRD's schemas (Entry.Schema), which the cache keeps too
// once a run needed them.
func (ix *lazyIndex) compileCached(src CRDSource) (*Set, error) {
	skeleton := ix.skeleton
	if src.Key != "" {
		if set, ok := src.Cache.getCompiled(src.Key, skeleton, src.Load, ix.options); ok {
			if got, want := set.list[0].CRD.shell(), src.CRD.shell(); got == want {
				return set, nil
			}
		}
	}
	text, err := src.Text()
	if err != nil {
		return nil, src.errorf(err)
	}
	key := cacheKey(text)
	if key != src.Key {
		if set, ok := src.Cache.getCompiled(key, skeleton, src.Load, ix.options); ok {
			if got, want := set.list[0].CRD.shell(), src.CRD.shell(); got == want {
				return set, nil
			}
		}
	}
	c, _, err := src.Cache.parseText(key, text)
	if err != nil {
		return nil, src.errorf(err)
	}
	set, err := ix.compileLoaded(src, c)
	var body []byte
	stored := false
	if err == nil {
		body, stored = src.Cache.putCompiled(key, skeleton, c, set)
	}
	if !stored {
		// parsed again, from the text: the compile may have changed
		// values the parsed CRD shares with the value tree it was read
		// from
		src.Cache.ParseCRD(text)
	}
	if err == nil {
		// the schemas a run needs of a CRD it compiled (Entry.Schema) are
		// stored for the runs that will read it compiled
		cs := &crdSchemas{crd: c, cache: src.Cache, key: key}
		if stored {
			// what the run holds is the Set as stored, decoded as a later
			// run reads it (from body, this function's own): compiled
			// afresh, a CRD's rules and trees take several times the
			// memory, and a cold run over the corpus tree spent a fifth
			// of its CPU collecting while it held them
			if d, ok := decodeCompiled(unsafe.String(unsafe.SliceData(body), len(body)), cs); ok && d.list[0].CRD.shell() == src.CRD.shell() {
				set = d
			}
		}
		for i, e := range set.list {
			e.schemas, e.index = cs, i
		}
	}
	return set, err
}
