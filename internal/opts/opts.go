// Package opts is the one option type of the library's packages, as
// jsontext's and json's options share jsonopts: decoder.Option,
// yamlbridge.Option and schemaauto.Option are this Option, so an option made
// by one package can be given to another (yamlbridge.Parse(data,
// decoder.MaxDepth(50)) bounds the bridge's depth as the decoder's), and
// each package reads the settings that concern it.
//
// A constructor given a bad value records an error, which the function the
// option is given to returns; no value is clamped in silence.
//
// The exported API: [Option], [Config] ([Config.Apply], [Config.Fail]).
package opts

import "fmt"

// Option sets one setting of a Config.
type Option func(*Config)

// Config is every package's settings. A zero field is the package's default.
type Config struct {
	// decoder
	Mode             uint8 // decoder.Mode
	NoDefaults       bool
	NoNullPruning    bool
	MaxDepth         int // 0: the default (10,000)
	MaxDocumentSize  int64
	MaxFindings      int // 0: the default
	AllowInvalidUTF8 bool
	Validate         bool

	// yamlbridge: 0 is the default, negative no limit
	MaxAliasNodes int
	MaxAliasRatio float64

	// schemaauto
	Skeleton bool

	// stream (MaxDocumentSize too: 0 is its default)
	Format           uint8 // stream.Format; 0: detect
	ListThreshold    int
	HasListThreshold bool
	Window           int // the read window's first size (tests)

	// Err is the first bad value an option was given.
	Err error
}

// Fail records the error of a bad option value, unless one was recorded
// before.
func (c *Config) Fail(option string, value any, rule string) {
	if c.Err == nil {
		c.Err = fmt.Errorf("jsonprune: %s(%v): %s", option, value, rule)
	}
}

// Apply applies options in order and returns the first bad value's error.
func (c *Config) Apply(options []Option) error {
	for _, o := range options {
		if o != nil {
			o(c)
		}
	}
	return c.Err
}
