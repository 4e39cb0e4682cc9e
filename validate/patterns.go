package validate

import (
	"regexp"
	"sync"
)

// patterns caches the compiled regular expressions of schema patterns:
// one compilation per distinct pattern string for the whole process,
// shared by the structural check of a CRD (schemaauto) and Compile.
var patterns sync.Map // string → *compiledPattern

type compiledPattern struct {
	once sync.Once
	m    *Matcher
	err  error
}

// CompilePattern compiles a schema's pattern as regexp.Compile does, once
// per distinct string: the *regexp.Regexp returned is shared (it is safe
// for concurrent use), and so is the error.
func CompilePattern(pattern string) (*regexp.Regexp, error) {
	m, err := CompileMatcher(pattern)
	if err != nil {
		return nil, err
	}
	return m.Regexp(), nil
}

// CompileMatcher is CompilePattern's Matcher: the compiled pattern with
// its fast shape, once per distinct string.
func CompileMatcher(pattern string) (*Matcher, error) {
	v, ok := patterns.Load(pattern)
	if !ok {
		v, _ = patterns.LoadOrStore(pattern, new(compiledPattern))
	}
	p := v.(*compiledPattern)
	p.once.Do(func() { p.m, p.err = NewMatcher(pattern) })
	return p.m, p.err
}
