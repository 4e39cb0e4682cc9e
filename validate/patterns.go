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
	re   *regexp.Regexp
	err  error
}

// CompilePattern compiles a schema's pattern as regexp.Compile does, once
// per distinct string: the *regexp.Regexp returned is shared (it is safe
// for concurrent use), and so is the error.
func CompilePattern(pattern string) (*regexp.Regexp, error) {
	v, ok := patterns.Load(pattern)
	if !ok {
		v, _ = patterns.LoadOrStore(pattern, new(compiledPattern))
	}
	p := v.(*compiledPattern)
	p.once.Do(func() { p.re, p.err = regexp.Compile(pattern) })
	return p.re, p.err
}
