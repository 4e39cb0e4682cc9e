package stream

import (
	"math"

	"github.com/jsonprune/jsonprune/internal/opts"
)

// Defaults of the options: those of the jsonprune command line.
const (
	defaultMaxDocumentSize = 256 << 20
	defaultListThreshold   = 1 << 20
)

type options struct {
	format    Format // 0: detect
	maxDoc    int
	threshold int
	window    int // the read window's first size (tests make it small)
}

// An Option configures a Reader. It is decoder.Option, the library's one
// option type (internal/opts): the Reader reads ForceFormat, ListThreshold
// and decoder.MaxDocumentSize, and ignores the others, so that one set of
// options serves the stream and the decoder of its documents. A bad value
// is an error of NewReader that names the option and the value.
type Option = opts.Option

// newOptions applies options to the defaults.
func newOptions(list []Option) (options, error) {
	var c opts.Config
	if err := c.Apply(list); err != nil {
		return options{}, err
	}
	o := options{format: Format(c.Format), maxDoc: defaultMaxDocumentSize, threshold: defaultListThreshold, window: defaultWindow}
	if c.MaxDocumentSize > 0 {
		o.maxDoc = int(min(c.MaxDocumentSize, math.MaxInt)) // an int64 limit beyond int: no limit the window could reach
	}
	if c.HasListThreshold {
		o.threshold = c.ListThreshold
	}
	if c.Window > 0 {
		o.window = c.Window
	}
	return o, nil
}

// ForceFormat reads the stream as JSON or YAML, whatever its first byte.
// By default the format is detected from the first byte that is not white
// space (after a UTF-8 byte order mark): "{" or "[" is JSON, anything else
// YAML.
func ForceFormat(f Format) Option {
	return func(c *opts.Config) {
		if f != JSON && f != YAML {
			c.Fail("ForceFormat", uint8(f), "must be JSON or YAML")
		}
		c.Format = uint8(f)
	}
}

// decoder.MaxDocumentSize is the size limit, in bytes, of a document, and
// of a List's head, item or tail (0, the default: 256 MiB; the Reader
// holds a document whole). A larger one is reported by an *Error
// (ErrTooLarge) and skipped, without keeping its bytes; a List head or tail
// too large is returned with an empty Text.

// ListThreshold is the size, in bytes, from which a YAML List is streamed
// item by item (default 1 MiB; 0: every List of two items or more). A YAML
// List is recognised in kubectl's layout: "items:" at column 0, followed by
// a block sequence. A smaller List is one Whole document. A JSON List (a
// top-level object with an "items" array) is always streamed.
func ListThreshold(n int) Option {
	return func(c *opts.Config) {
		if n < 0 {
			c.Fail("ListThreshold", n, "must not be negative")
		}
		c.ListThreshold, c.HasListThreshold = n, true
	}
}
