package validate

import (
	"regexp"
	"runtime"
	"sync"
	"weak"
)

// patterns caches the compiled regular expressions of schema patterns:
// one compilation per distinct pattern string while something holds it,
// shared by the structural check of a CRD (schemaauto) and Compile. An
// entry goes when its Matcher is collected (as ValidationTree's trees go
// with their schemas), so that a process that compiles CRDs for as long as
// it runs holds the patterns of the schemas it holds, not of every schema
// it has seen. A pattern that does not compile is not kept: its CRD fails.
var patterns sync.Map // string → weak.Pointer[Matcher]

// CompilePattern compiles a schema's pattern as regexp.Compile does, once
// per distinct string while one is in use: the *regexp.Regexp returned is
// shared (it is safe for concurrent use).
func CompilePattern(pattern string) (*regexp.Regexp, error) {
	m, err := CompileMatcher(pattern)
	if err != nil {
		return nil, err
	}
	return m.Regexp(), nil
}

// CompileMatcher is CompilePattern's Matcher: the compiled pattern with
// its fast shape, shared by every caller while one holds it.
func CompileMatcher(pattern string) (*Matcher, error) {
	if w, ok := patterns.Load(pattern); ok {
		if m := w.(weak.Pointer[Matcher]).Value(); m != nil {
			return m, nil
		}
	}
	m, err := NewMatcher(pattern)
	if err != nil {
		return nil, err
	}
	w := weak.Make(m)
	for {
		old, loaded := patterns.LoadOrStore(pattern, w)
		if !loaded {
			break
		}
		if held := old.(weak.Pointer[Matcher]).Value(); held != nil {
			return held, nil // compiled at the same time by another caller
		}
		if patterns.CompareAndSwap(pattern, old, w) {
			break // the entry of a collected Matcher, whose cleanup is to come
		}
	}
	runtime.AddCleanup(m, func(p string) { patterns.CompareAndDelete(p, w) }, pattern)
	return m, nil
}
