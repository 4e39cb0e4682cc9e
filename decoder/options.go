package decoder

import "github.com/jsonprune/jsonprune/internal/opts"

// Mode is the field-validation directive of the API server
// (the fieldValidation query parameter): it decides what happens to the
// findings, never to the pruned object, which is the same in every mode.
type Mode uint8

const (
	// Warn keeps the document and reports every finding (the API server's
	// default).
	Warn Mode = iota
	// Strict rejects a document with findings: its output is not written
	// and the error is a *errors.StrictError.
	Strict
	// Ignore keeps the document and does not collect findings (faster: no
	// paths are recorded).
	Ignore
)

func (m Mode) String() string {
	switch m {
	case Strict:
		return "Strict"
	case Ignore:
		return "Ignore"
	}
	return "Warn"
}

// Mode returns the Decoder's field-validation mode.
func (d *Decoder) Mode() Mode { return d.cfg.mode }

// ParseMode parses "Strict", "Warn" or "Ignore", as the API server's
// fieldValidation parameter (the empty string is Warn).
func ParseMode(s string) (Mode, bool) {
	switch s {
	case "", "Warn":
		return Warn, true
	case "Strict":
		return Strict, true
	case "Ignore":
		return Ignore, true
	}
	return Warn, false
}

// Option configures a Decoder, in the style of jsontext's options: one
// type for every package of the library (yamlbridge.Option and
// schemaauto.Option are the same type), so that the options of a job can be
// given to each package it goes through, each reading its own. A bad value
// (MaxDepth(0)) is an error of New, never clamped in silence.
type Option = opts.Option

type config struct {
	mode          Mode
	noDefaults    bool
	noNullPruning bool
	maxDepth      int
	maxDocSize    int64
	maxFindings   int
	maxDups       int
	invalidUTF8   bool
	validate      bool
}

// newConfig applies options to the defaults.
func newConfig(options []Option) (config, error) {
	var o opts.Config
	if err := o.Apply(options); err != nil {
		return config{}, err
	}
	c := defaultConfig()
	c.mode, c.noDefaults, c.noNullPruning = Mode(o.Mode), o.NoDefaults, o.NoNullPruning
	c.maxDocSize, c.invalidUTF8, c.validate = o.MaxDocumentSize, o.AllowInvalidUTF8, o.Validate
	if o.MaxDepth != 0 {
		c.maxDepth = o.MaxDepth
	}
	if o.MaxFindings != 0 {
		c.maxFindings = o.MaxFindings
	}
	return c, nil
}

func defaultConfig() config {
	return config{maxDepth: DefaultMaxDepth, maxFindings: DefaultMaxFindings, maxDups: DefaultMaxDuplicates}
}

// Defaults for the limits.
const (
	// DefaultMaxDepth is the reference's nesting limit: every [ or {
	// counts, the root included.
	DefaultMaxDepth = 10000
	// DefaultMaxFindings bounds the findings kept per document.
	DefaultMaxFindings = 10000
	// DefaultMaxDuplicates is the reference's cap on duplicate-field errors
	// per document (sigs.k8s.io/json keeps at most 100 strict errors).
	DefaultMaxDuplicates = 100
)

// FieldValidation sets the field-validation mode (default Warn).
func FieldValidation(m Mode) Option {
	return func(c *opts.Config) {
		if m > Ignore {
			c.Fail("FieldValidation", uint8(m), "not a Mode: Warn, Strict or Ignore")
		}
		c.Mode = uint8(m)
	}
}

// Validation switches value validation on or off (default off). On, each
// document pruned against a schema is also checked as the API server's
// create path checks it after decoding: every value against its schema
// node's type, format, enum, pattern, bounds, lengths, counts and required
// keys (package validate has the rules and the messages). The errors come
// as Result.Invalid, in the server's order and located; a document with
// errors is rejected in every field-validation mode, as the server rejects
// it (an *errors.InvalidError, after a fatal error and, in Strict mode, the
// strict decoding error). Result.Unchecked says what the schema has that is
// not checked (x-kubernetes-validations: CEL rules).
//
// The default is off because the API server's decoder does not validate
// either: a serializer that stands in for it pays nothing for checks it
// does not ask for. The checks run in the same pass; a valid document
// allocates nothing more (BenchmarkCorpus, validate cases).
func Validation(on bool) Option { return func(c *opts.Config) { c.Validate = on } }

// Defaulting switches defaulting from the schema's default values on or off
// (default on).
func Defaulting(on bool) Option { return func(c *opts.Config) { c.NoDefaults = !on } }

// NullPruning switches the pruning of nulls of non-nullable fields without
// a default on or off (default on, as the reference).
func NullPruning(on bool) Option { return func(c *opts.Config) { c.NoNullPruning = !on } }

// MaxDepth limits the nesting depth of a document (default and upper
// bound DefaultMaxDepth). Deeper documents are a fatal error. Any limit
// keeps the fast path (BenchmarkOptions: the same speed as the default);
// only a document that nests deeper than the limit inside a value read
// whole is decoded again on the slow path, to report the error where it
// is.
//
// The YAML bridge takes the same limit: given to yamlbridge.Parse, it
// bounds the nesting of the YAML nodes it reads.
func MaxDepth(n int) Option {
	return func(c *opts.Config) {
		if n < 1 || n > DefaultMaxDepth {
			c.Fail("MaxDepth", n, "must be between 1 and 10000 (DefaultMaxDepth)")
		}
		c.MaxDepth = n
	}
}

// MaxDocumentSize limits the size of a document in bytes (0: no limit,
// the default). Larger documents are a fatal error.
func MaxDocumentSize(n int64) Option {
	return func(c *opts.Config) {
		if n < 0 {
			c.Fail("MaxDocumentSize", n, "must not be negative (0: no limit)")
		}
		c.MaxDocumentSize = n
	}
}

// MaxFindings limits the findings kept per document (default
// DefaultMaxFindings); further findings are counted in
// errors.StrictError.Dropped. Duplicates have their own cap of 100, as in
// the reference.
func MaxFindings(n int) Option {
	return func(c *opts.Config) {
		if n < 1 {
			c.Fail("MaxFindings", n, "must be at least 1")
		}
		c.MaxFindings = n
	}
}

// AllowInvalidUTF8 selects the UTF-8 policy. By default (false) invalid
// UTF-8 in a string or name is a fatal error with its offset, as RFC 8259
// asks. With true, each invalid byte becomes U+FFFD, as the reference
// (sigs.k8s.io/json) does; two names that differ only in invalid bytes then
// collide and are reported as duplicates, as in the reference.
//
// A document of valid UTF-8 without lone surrogate escapes, the usual
// case, is decoded on the fast path as without the option
// (BenchmarkOptions); strings and names are written as they were spelled,
// except those holding invalid bytes or lone surrogates, which are
// re-encoded. A document holding any is decoded on the slow path, the only
// one that sees names colliding once invalid bytes are replaced.
func AllowInvalidUTF8(v bool) Option { return func(c *opts.Config) { c.AllowInvalidUTF8 = v } }
