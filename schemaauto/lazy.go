package schemaauto

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
)

// CRDSource is a CRD known by its names and versions, parsed and compiled
// when an object first needs it (NewLazySet).
type CRDSource struct {
	// CRD holds at least Name, Group, Kind and the versions' Name and
	// Served (IndexCRDs's CRDs); its schemas are not read.
	CRD *CRD
	// Load returns the whole CRD. The CRD it returns must have the names
	// and versions of CRD.
	Load func() (*CRD, error)
	// Where names the CRD's file in errors ("" for none).
	Where string
	// Size is the size of the CRD's text, the measure of what its compiled
	// form holds in memory (see Set.SetCacheLimit); 0 when unknown.
	Size int
	// Cache, when not nil and Text is set, keeps the CRD compiled across
	// runs, under the SHA-256 of the text Text returns (the CRD's
	// document, what Load parses): a later run reads the compiled form
	// instead of loading and compiling the CRD. The entries of a CRD read
	// from it, or compiled and stored in it, have a CRD and versions
	// without schemas: Entry.Schema reads them on first use (from the CRD
	// compiled in this run, from the cache, where the first run that needs
	// them stores them, or else through Load).
	Cache *Cache
	Text  func() ([]byte, error)
	// Key, when not "", is the hex SHA-256 of the text Text returns, known
	// beforehand (the command line keeps it with the CRD file's stat): the
	// compiled form is then read without calling Text, which is called
	// (and its text hashed) only if the cache does not hold it.
	Key string
}

// lazyIndex is a lazy Set's index: per group and kind, the CRDs serving
// it. It is read-only once built.
type lazyIndex struct {
	byGK     map[groupKind][]*lazyCRD
	all      []*lazyCRD
	crds     []*CRD
	options  []Option
	skeleton bool // options has AllowSkeleton(true)
	report   func(error)

	// the compiled CRDs held, and their sizes: past limit, the least
	// recently used are let go (compiled again when needed again)
	mu        sync.Mutex
	limit     int
	held      int
	clock     atomic.Int64
	evictions atomic.Uint64
	compiled  []*lazyCRD

	prefetchers atomic.Int32 // running
	maxPrefetch int32
}

// lazyCRD is one CRD of a lazy Set, compiled on first use.
type lazyCRD struct {
	src         CRDSource
	res         atomic.Pointer[compiled]
	lastUse     atomic.Int64
	mu          sync.Mutex
	reported    bool
	prefetching atomic.Bool
}

// compiled is a CRD's compiled Set, or its error.
type compiled struct {
	set *Set
	err error
}

// defaultCacheLimit is the text size of the compiled CRDs a lazy Set holds
// at most by default (their compiled forms take some 6 times as much).
const defaultCacheLimit = 6 << 20

// NewLazySet returns a Set serving the CRDs of srcs that compiles each CRD
// when an object first needs its group and kind (Resolve, Lookup,
// LookupGVK; Entries compiles them all). A CRD that does not compile is
// the error of Resolve for its objects, and report (when not nil) is called
// with it once. Two CRDs serving the same group, version and kind are an
// error now, as in CompileCRDs. The Set is safe for concurrent use: after
// its first use, a CRD's lookup takes no lock and allocates nothing.
func NewLazySet(srcs []CRDSource, report func(error), options ...Option) (*Set, error) {
	co, err := newCompileOptions(options)
	if err != nil {
		return nil, err
	}
	ix := &lazyIndex{byGK: map[groupKind][]*lazyCRD{}, options: options, skeleton: co.skeleton, report: report, limit: defaultCacheLimit, maxPrefetch: 1}
	served := map[GroupVersionKind]bool{}
	for _, s := range srcs {
		c := s.CRD
		for _, v := range c.Versions {
			gvk := GroupVersionKind{c.Group, v.Name, c.Kind}
			if served[gvk] {
				return nil, s.errorf(&CRDError{CRD: c.Name, Err: fmt.Errorf("%s is served by another CustomResourceDefinition too", gvk)})
			}
			served[gvk] = true
		}
		l := &lazyCRD{src: s}
		gk := groupKind{c.Group, c.Kind}
		ix.byGK[gk] = append(ix.byGK[gk], l)
		ix.all = append(ix.all, l)
		ix.crds = append(ix.crds, c)
	}
	return &Set{lazy: ix}, nil
}

// errorf names the source's file in err.
func (s CRDSource) errorf(err error) error {
	if s.Where == "" {
		return err
	}
	return &SourceError{Where: s.Where, Err: err}
}

// SourceError is an error of the CRD of a file.
type SourceError struct {
	Where string
	Err   error
}

func (e *SourceError) Error() string { return e.Where + ": " + e.Err.Error() }
func (e *SourceError) Unwrap() error { return e.Err }

// get compiles the CRD on first use (and again after it was let go).
func (ix *lazyIndex) get(l *lazyCRD) (*Set, error) {
	if c := l.res.Load(); c != nil {
		l.lastUse.Store(ix.clock.Add(1))
		return c.set, c.err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.res.Load()
	if c == nil {
		c = &compiled{}
		c.set, c.err = ix.compile(l.src)
		if c.err != nil && ix.report != nil && !l.reported {
			ix.report(c.err)
		}
		l.reported = l.reported || c.err != nil
		l.lastUse.Store(ix.clock.Add(1))
		l.res.Store(c)
		if c.err == nil {
			ix.hold(l)
		}
	}
	return c.set, c.err
}

// hold counts a CRD just compiled and lets the least recently used others
// go while the compiled CRDs are over the limit.
func (ix *lazyIndex) hold(l *lazyCRD) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.compiled = append(ix.compiled, l)
	ix.held += l.src.weight()
	for ix.held > ix.limit && len(ix.compiled) > 1 {
		oldest := -1
		for i, x := range ix.compiled {
			if x != l && (oldest < 0 || x.lastUse.Load() < ix.compiled[oldest].lastUse.Load()) {
				oldest = i
			}
		}
		x := ix.compiled[oldest]
		ix.compiled = append(ix.compiled[:oldest], ix.compiled[oldest+1:]...)
		ix.held -= x.src.weight()
		x.res.Store(nil)
		ix.evictions.Add(1)
	}
}

func (s CRDSource) weight() int {
	if s.Size <= 0 {
		return 1 << 20
	}
	return s.Size
}

// SetCacheLimit sets how much a lazy Set (NewLazySet) keeps compiled: the
// compiled CRDs whose texts add up to at most limit bytes, the least
// recently used let go past it (and compiled again when an object needs
// them again); the CRD in use is always kept. The default is 6 MiB; a
// limit <= 0 keeps every CRD. Call it before the Set is used.
func (s *Set) SetCacheLimit(limit int) {
	if s != nil && s.lazy != nil {
		if limit <= 0 {
			limit = math.MaxInt
		}
		s.lazy.limit = limit
	}
}

// Evictions counts the compiled CRDs a lazy Set has let go. Whoever keeps
// what Resolve returned (a decoder caches it) keeps them in memory: a
// caller that wants the memory back makes new decoders when it changes.
func (s *Set) Evictions() uint64 {
	if s == nil || s.lazy == nil {
		return 0
	}
	return s.lazy.evictions.Load()
}

func (ix *lazyIndex) compile(src CRDSource) (*Set, error) {
	if src.Cache != nil && src.Text != nil && src.Cache.directory() != "" {
		return ix.compileCached(src)
	}
	c, err := src.Load()
	if err != nil {
		return nil, src.errorf(err)
	}
	return ix.compileLoaded(src, c)
}

// compileLoaded compiles the CRD c that src loaded.
func (ix *lazyIndex) compileLoaded(src CRDSource, c *CRD) (*Set, error) {
	if got, want := c.shell(), src.CRD.shell(); got != want {
		return nil, src.errorf(&CRDError{CRD: src.CRD.Name, Err: fmt.Errorf("internal error (please report it): indexed as %s, parsed as %s", want, got)})
	}
	// the tokens stay: a Load that returns the same CRD again (compiled
	// again after being let go) gets the same comparison
	dropRaw(c)
	set, err := CompileCRDs([]*CRD{c}, ix.options...)
	if err != nil {
		return nil, src.errorf(err)
	}
	return set, nil
}

// A rawToken stands for a version's schema as read once dropRaw has let it
// go: whether it is the first version's (other < 0) or not, and what the
// status-subresource rule on the root schema needs of it.
type rawToken struct {
	other  int // -1: the same schema as the first version's; else the version's index
	status statusCheck
}

// dropRaw lets the schemas as read (value trees as large as the parsed
// schemas) go before the CRD compiles, so that a large CRD's compile does
// not hold both: Validate reads them only to tell whether every version's
// schema is the first one's (topLevelSchema: tokens that compare as the
// schemas did give it the same answer) and for the status-subresource rule
// on the root schema (kept as its verdict, statusCheck).
func dropRaw(c *CRD) {
	if len(c.Versions) == 0 {
		return
	}
	first := c.Versions[0].raw
	if _, done := first.(*rawToken); done {
		return
	}
	for i, v := range c.Versions {
		switch {
		case v.raw == nil:
		case i == 0 || sameInternalSchema(v.raw, first):
			v.raw = &rawToken{other: -1, status: statusCheckOf(v.raw)}
		default:
			v.raw = &rawToken{other: i, status: statusCheckOf(v.raw)}
		}
	}
}

// shell renders what an index reads of a CRD.
func (c *CRD) shell() string {
	s := fmt.Sprintf("%q %q %q", c.Name, c.Group, c.Kind)
	for _, v := range c.Versions {
		s += fmt.Sprintf(" %q/%v", v.Name, v.Served)
	}
	return s
}

// pick finds the CRD serving group, version and kind: the one listing the
// version, else the last one of the group and kind (as CompileCRDs keeps
// the last one's automaton without schema).
func (ix *lazyIndex) pick(group, version, kind string) *lazyCRD {
	ls := ix.byGK[groupKind{group, kind}]
	for _, l := range ls {
		for _, v := range l.src.CRD.Versions {
			if v.Name == version {
				return l
			}
		}
	}
	if len(ls) == 0 {
		return nil
	}
	return ls[len(ls)-1]
}

// resolve is Resolve on a lazy Set.
func (ix *lazyIndex) resolve(apiVersion, group, version, kind string) (*Automaton, *Entry, error) {
	l := ix.pick(group, version, kind)
	if l == nil {
		return nil, nil, nil
	}
	set, err := ix.get(l)
	if err != nil {
		// the object is of this CRD's group and kind, and fails with its
		// error: an entry stands for the CRD so that nothing takes the
		// object for one no CRD serves
		c := l.src.CRD
		v := c.Version(version)
		if v == nil {
			v = &Version{Name: version, Served: true}
		}
		return PassThrough(), &Entry{GVK: GroupVersionKind{group, version, kind}, CRD: c, Version: v, Automaton: PassThrough(), scale: v.Scale, status: v.StatusSubresource}, err
	}
	return set.Resolve(apiVersion, kind)
}

// lookup is LookupGVK on a lazy Set.
func (ix *lazyIndex) lookup(gvk GroupVersionKind) (*Entry, bool) {
	l := ix.pick(gvk.Group, gvk.Version, gvk.Kind)
	if l == nil {
		return nil, false
	}
	set, err := ix.get(l)
	if err != nil {
		return nil, false
	}
	return set.LookupGVK(gvk)
}

// entries compiles every CRD; it returns the entries of those that
// compile and the first error.
func (ix *lazyIndex) entries() ([]*Entry, error) {
	var list []*Entry
	var first error
	for _, l := range ix.all {
		set, err := ix.get(l)
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		list = append(list, set.list...)
	}
	return list, first
}

// CRDs returns the CRDs of the Set, in order. For a lazy Set they are the
// index's: names and versions, without schemas; nothing is compiled.
func (s *Set) CRDs() []*CRD {
	if s == nil {
		return nil
	}
	if s.lazy != nil {
		return s.lazy.crds
	}
	var out []*CRD
	for _, e := range s.list {
		if len(out) == 0 || out[len(out)-1] != e.CRD {
			out = append(out, e.CRD)
		}
	}
	return out
}

// CompileAll compiles every CRD of a lazy Set now and returns the first
// error; on a Set made by CompileCRDs it does nothing.
func (s *Set) CompileAll() error {
	if s == nil || s.lazy == nil {
		return nil
	}
	_, err := s.lazy.entries()
	return err
}

// Prefetch starts compiling, in the background, the CRD an object of
// apiVersion and kind will need, unless it is compiled, being compiled, or
// as many prefetches as SetPrefetch allows are running (then it does
// nothing), or it would not fit in the cache without letting another
// compiled CRD go (see SetCacheLimit). It never blocks: a reader that sees the kinds of the objects
// ahead calls it so that several CRDs compile at once while the objects
// before them are decoded. On a Set made by CompileCRDs it does nothing.
func (s *Set) Prefetch(apiVersion, kind string) {
	if s == nil || s.lazy == nil {
		return
	}
	ix := s.lazy
	g, v, err := ParseGroupVersion(apiVersion)
	if err != nil {
		return
	}
	l := ix.pick(g, v, kind)
	if l == nil || l.res.Load() != nil || l.prefetching.Load() || !ix.room(l) {
		return
	}
	if ix.prefetchers.Add(1) > ix.maxPrefetch {
		ix.prefetchers.Add(-1)
		return
	}
	if !l.prefetching.CompareAndSwap(false, true) {
		ix.prefetchers.Add(-1)
		return
	}
	go func() {
		defer ix.prefetchers.Add(-1)
		ix.get(l)
		l.prefetching.Store(false)
	}()
}

// room reports whether l fits in the cache without letting another CRD go:
// a prefetch never evicts (what it would evict may be in use).
func (ix *lazyIndex) room(l *lazyCRD) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.held+l.src.weight() <= ix.limit
}

// SetPrefetch sets how many CRDs Prefetch compiles at once (default 1; 0
// turns Prefetch off). Call it before the Set is used.
func (s *Set) SetPrefetch(n int) {
	if s != nil && s.lazy != nil {
		s.lazy.maxPrefetch = int32(max(n, 0))
	}
}

// Names returns what an index keeps of a CRD: its APIVersion, names and
// versions (Name, Served, Storage), without schemas.
func (c *CRD) Names() *CRD {
	s := &CRD{APIVersion: c.APIVersion, Name: c.Name, Group: c.Group, Kind: c.Kind, Plural: c.Plural}
	for _, v := range c.Versions {
		s.Versions = append(s.Versions, &Version{Name: v.Name, Served: v.Served, Storage: v.Storage})
	}
	return s
}

// DocumentLoader returns a CRDSource.Load for a CRD IndexCRDs found: it
// reads the data again with read and parses bytes start to end of it,
// which must hold that one CRD, through the cache c when it is not nil.
func DocumentLoader(c *Cache, read func() ([]byte, error), start, end int) func() (*CRD, error) {
	return func() (*CRD, error) {
		data, err := read()
		if err != nil {
			return nil, err
		}
		if end > len(data) {
			return nil, errChanged
		}
		return c.ParseCRD(data[start:end])
	}
}

var errChanged = errors.New("changed since it was indexed")
