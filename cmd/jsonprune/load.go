package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/yamlbridge"
)

// crdLoad counts what loading the CRDs skipped: a directory (a GitOps
// repository, say) mixes CRDs with other manifests, Helm templates...
type crdLoad struct {
	files, docs     int      // read, and the CRD documents in them
	skippedDocs     int      // documents that are not CRDs
	skippedFiles    []string // files of a directory that do not parse (a template...)
	filesWithoutCRD int
	verbose         func(format string, a ...any)
	cache           *schemaauto.Cache // the CRDs parsed by earlier runs; nil: --no-cache
	cacheDir        func() string     // the cache's directory ("": none), when cache is not nil
	jobs            int               // -j: goroutines that may read and index CRD files
}

// crdCache is the cache of parsed CRDs under the user's cache directory,
// in a directory of this build of jsonprune (named after the hash of its
// executable, so that no build reads what another parsed; the hash is
// kept with the executable's stat: statindex.go), and that directory
// ("" for none), named on first use.
func crdCache() (*schemaauto.Cache, func() string) {
	dir := sync.OnceValue(func() string {
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		exe, err := os.Executable()
		if err != nil {
			return ""
		}
		sum, ok := exeHash(filepath.Join(base, "jsonprune"), exe, func() (string, bool) {
			f, err := os.Open(exe)
			if err != nil {
				return "", false
			}
			defer f.Close()
			h := sha256.New()
			if _, err := io.Copy(h, f); err != nil {
				return "", false
			}
			return hex.EncodeToString(h.Sum(nil)), true
		})
		if !ok {
			return ""
		}
		dir := filepath.Join(base, "jsonprune", "crds-"+sum[:20])
		forgetOldCaches(dir)
		return dir
	})
	return schemaauto.NewCacheFunc(dir), dir
}

// forgetOldCaches removes the caches of other builds unused for 30 days
// (a build's directory is touched when it is first used in a run).
func forgetOldCaches(dir string) {
	now := time.Now()
	os.Chtimes(dir, now, now)
	old, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), "crds-*"))
	for _, d := range old {
		if fi, err := os.Stat(d); err == nil && d != dir && now.Sub(fi.ModTime()) > 30*24*time.Hour {
			os.RemoveAll(d)
		}
	}
}

// crdFileList lists the files of a --crd path: itself, or every .yaml,
// .yml and .json file of a directory (recursively, in name order).
func crdFileList(path string) (files []string, dir bool, err error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, false, err
	}
	if !info.IsDir() {
		return []string{path}, false, nil
	}
	err = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ext := strings.ToLower(filepath.Ext(p))
		if !d.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, true, err
}

// readCRDs reads the CRDs of a file, or of every .yaml, .yml and .json file
// of a directory (recursively, in name order). Documents that are not CRDs
// are skipped (counted); so are, in a directory, files that do not parse.
func readCRDs(path string, ld *crdLoad) ([]*schemaauto.CRD, error) {
	files, dir, err := crdFileList(path)
	if err != nil {
		return nil, err
	}
	var all []*schemaauto.CRD
	for _, f := range files {
		crds, ok, err := parseCRDFile(f, dir, ld)
		if err != nil {
			return nil, err
		}
		if ok {
			ld.count(len(crds))
			all = append(all, crds...)
		}
	}
	if len(all) == 0 {
		return nil, noCRD(path, dir, len(files))
	}
	return all, nil
}

// indexCRDs indexes the CRDs of a --crd path as readCRDs reads them, without
// parsing their schemas where IndexCRDs can: each CRD is parsed when an
// object first needs it (schemaauto.NewLazySet).
func indexCRDs(path string, ld *crdLoad) ([]schemaauto.CRDSource, error) {
	// the index kept by an earlier run is found (the cache directory of
	// this build, on the first call) and read while the directory is
	// listed
	var memo *memoFile
	mp := ""
	memoRead := make(chan struct{})
	if ld.cache != nil && ld.cacheDir != nil {
		go func() {
			defer close(memoRead)
			mp = memoPath(ld.cacheDir(), path)
			memo = readMemo(mp)
		}()
	} else {
		close(memoRead)
	}
	files, dir, err := crdFileList(path)
	<-memoRead
	if err != nil {
		return nil, err
	}
	var all []schemaauto.CRDSource
	indexed := indexFiles(files, ld.jobs, memo, mp != "")
	writeMemo(mp, memo, files, indexed)
	for i, f := range files {
		r := &indexed[i]
		if r.err != nil {
			return nil, r.err
		}
		if ix, others := r.ix, r.others; r.ok {
			ld.files++
			ld.skippedDocs += others
			if others > 0 {
				ld.logf("--crd: %s: skipped %s that %s not a CustomResourceDefinition", f, plural(others, "document"), isAre(others))
			}
			ld.count(len(ix))
			read := func() ([]byte, error) { return readFile(f) }
			for j, e := range ix {
				src := schemaauto.CRDSource{CRD: e.CRD, Where: f, Size: e.End - e.Start, Load: schemaauto.DocumentLoader(ld.cache, read, e.Start, e.End)}
				if ld.cache != nil {
					// the compiled CRD is kept too, under its text
					src.Cache, src.Text = ld.cache, documentText(read, e.Start, e.End)
					if r.fromMemo {
						src.Key = r.keys[j]
					}
				}
				all = append(all, src)
			}
			continue
		}
		size := r.size
		crds, ok, err := parseCRDFile(f, dir, ld)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		ld.count(len(crds))
		for i, c := range crds {
			all = append(all, schemaauto.CRDSource{CRD: c.Names(), Where: f, Size: size / len(crds), Load: loadNth(f, i)})
		}
	}
	if len(all) == 0 {
		return nil, noCRD(path, dir, len(files))
	}
	return all, nil
}

// documentText returns the text of bytes start to end of a file that read
// reads.
func documentText(read func() ([]byte, error), start, end int) func() ([]byte, error) {
	return func() ([]byte, error) {
		data, err := read()
		if err != nil {
			return nil, err
		}
		if end > len(data) {
			return nil, fmt.Errorf("changed since it was indexed")
		}
		return data[start:end], nil
	}
}

// indexed is what IndexCRDs read of one CRD file (ok: it could), or the
// error reading it.
type indexed struct {
	ix     []schemaauto.IndexedCRD
	others int
	ok     bool
	size   int
	err    error

	// with the stat-keyed index (statindex.go): the file's stat before it
	// was read, the keys of its CRDs' texts, and whether it was read from
	// the index (not from the file)
	stat             fileStat
	statOK, fromMemo bool
	keys             []string
}

// indexFiles reads and indexes files, with up to jobs goroutines (the
// command line's -j): the index is read before the first object, so on a
// directory of hundreds of CRDs it is the part of a run the workers cannot
// share. The results are in the files' order; each goroutine holds one
// file's text at a time.
//
// With memo (keep: the index is to be kept), a file whose stat is the one
// memo recorded is not read: its index is memo's, keys included; another
// file's CRDs' texts are hashed for their keys as it is indexed.
func indexFiles(files []string, jobs int, memo *memoFile, keep bool) []indexed {
	out := make([]indexed, len(files))
	now := time.Now()
	one := func(i int) {
		var st fileStat
		statOK := false
		if keep {
			if st, statOK = statOf(files[i], now); statOK {
				if r, ok := memo.lookup(files[i], st); ok {
					r.fromMemo = true
					out[i] = r
					return
				}
			}
		}
		data, err := readFile(files[i])
		if err != nil {
			out[i].err = err
			return
		}
		r := &out[i]
		r.ix, r.others, r.ok = schemaauto.IndexCRDs(data)
		r.size = len(data)
		if statOK && st.settled() {
			r.stat, r.statOK = st, true
			if r.ok {
				r.keys = textKeys(data, r.ix)
			}
		}
	}
	n := min(jobs, len(files), runtime.GOMAXPROCS(0))
	if n <= 1 {
		for i := range files {
			one(i)
		}
		return out
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(files); i = int(next.Add(1) - 1) {
				one(i)
			}
		})
	}
	wg.Wait()
	return out
}

func noCRD(path string, dir bool, files int) error {
	if dir {
		return fmt.Errorf("%s: no CustomResourceDefinition in its %s", path, plural(files, ".yaml, .yml or .json file"))
	}
	return fmt.Errorf("%s: no CustomResourceDefinition in it", path)
}

// count counts the CRDs of a file read.
func (ld *crdLoad) count(crds int) {
	if crds == 0 {
		ld.filesWithoutCRD++
	}
	ld.docs += crds
}

// parseCRDFile parses the CRDs of a file; ok is false for a file of a
// directory that does not parse (skipped, counted).
func parseCRDFile(f string, dir bool, ld *crdLoad) (crds []*schemaauto.CRD, ok bool, err error) {
	data, err := readFile(f)
	if err != nil {
		return nil, false, err
	}
	ld.files++
	crds, err = schemaauto.ParseCRDs(data)
	if err != nil {
		// a file that mixes CRDs and other documents: its CRDs
		var skipped int
		crds, skipped, err = crdDocuments(data)
		if err != nil {
			if !dir {
				return nil, false, fmt.Errorf("%s: %w", f, err)
			}
			ld.skippedFiles = append(ld.skippedFiles, f)
			ld.logf("--crd: skipped %s: %v", f, err)
			return nil, false, nil
		}
		ld.skippedDocs += skipped
		if skipped > 0 {
			ld.logf("--crd: %s: skipped %s that %s not a CustomResourceDefinition", f, plural(skipped, "document"), isAre(skipped))
		}
	}
	return crds, true, nil
}

// loadNth parses the CRDs of a file again and returns the i-th.
func loadNth(f string, i int) func() (*schemaauto.CRD, error) {
	return func() (*schemaauto.CRD, error) {
		crds, _, err := parseCRDFile(f, false, &crdLoad{})
		if err != nil {
			return nil, err
		}
		if i >= len(crds) {
			return nil, fmt.Errorf("changed since it was read")
		}
		return crds[i], nil
	}
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func (ld *crdLoad) logf(format string, a ...any) {
	if ld.verbose != nil {
		ld.verbose(format, a...)
	}
}

// crdDocuments reads the CRDs among the documents of data, skipping the
// others; it returns how many it skipped. A syntax error is an error.
func crdDocuments(data []byte) ([]*schemaauto.CRD, int, error) {
	r := yamlbridge.NewReader(data)
	var crds []*schemaauto.CRD
	skipped := 0
	for {
		doc, err := r.Next()
		if err == io.EOF {
			return crds, skipped, nil
		}
		if err != nil {
			return nil, 0, err
		}
		tm := doc.Source().TypeMeta()
		switch string(tm.Kind) {
		case "CustomResourceDefinition", "CustomResourceDefinitionList", "List":
			cs, err := schemaauto.ParseCRDs(doc.Text())
			if err != nil {
				return nil, 0, fmt.Errorf("document %d: %w", doc.Index, err)
			}
			crds = append(crds, cs...)
		default:
			skipped++
		}
	}
}

// loadCRDs indexes the CRDs of every path; each is compiled when an object
// first needs it, and report is called with the error of one that does not
// compile.
func loadCRDs(paths []string, ld *crdLoad, report func(error), opts ...schemaauto.Option) (*schemaauto.Set, error) {
	var all []schemaauto.CRDSource
	for _, p := range paths {
		srcs, err := indexCRDs(p, ld)
		if err != nil {
			return nil, err
		}
		all = append(all, srcs...)
	}
	return schemaauto.NewLazySet(all, report, opts...)
}

// crdFailures reports the CRDs that do not compile, once each, as they are
// first needed; a run with one exits 2.
type crdFailures struct {
	mu     sync.Mutex
	w      io.Writer // stderr, or the console while the pipeline runs
	paths  []string
	failed bool
}

func (c *crdFailures) report(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.failed = true
	var b strings.Builder
	schemaError(&b, err, c.paths)
	io.WriteString(c.w, b.String())
}

func (c *crdFailures) setWriter(w io.Writer) {
	c.mu.Lock()
	c.w = w
	c.mu.Unlock()
}

func (c *crdFailures) any() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.failed
}

// loadSchema reads and compiles a bare OpenAPI v3 schema.
func loadSchema(path string, opts ...schemaauto.Option) (*schemaauto.Automaton, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	s, err := schemaauto.ParseSchema(data)
	if err != nil {
		return nil, err
	}
	return schemaauto.Compile(s, opts...)
}
