package stream

import "fmt"

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

// An Option configures a Reader. An Option made from a bad value makes
// NewReader fail with an error that names the option and the value.
type Option func(*options) error

// ForceFormat reads the stream as JSON or YAML, whatever its first byte.
// By default the format is detected from the first byte that is not white
// space (after a UTF-8 byte order mark): "{" or "[" is JSON, anything else
// YAML.
func ForceFormat(f Format) Option {
	return func(o *options) error {
		if f != JSON && f != YAML {
			return fmt.Errorf("stream: ForceFormat(%d): must be JSON or YAML", uint8(f))
		}
		o.format = f
		return nil
	}
}

// MaxDocumentSize is the size limit, in bytes, of a document, and of a
// List's head, item or tail (default 256 MiB). A larger one is reported by
// an *Error (ErrTooLarge) and skipped, without keeping its bytes; a List
// head or tail too large is returned with an empty Text.
func MaxDocumentSize(n int) Option {
	return func(o *options) error {
		if n <= 0 {
			return fmt.Errorf("stream: MaxDocumentSize(%d): must be positive", n)
		}
		o.maxDoc = n
		return nil
	}
}

// ListThreshold is the size, in bytes, from which a YAML List is streamed
// item by item (default 1 MiB; 0: every List of two items or more). A YAML
// List is recognised in kubectl's layout: "items:" at column 0, followed by
// a block sequence. A smaller List is one Whole document. A JSON List (a
// top-level object with an "items" array) is always streamed.
func ListThreshold(n int) Option {
	return func(o *options) error {
		if n < 0 {
			return fmt.Errorf("stream: ListThreshold(%d): must not be negative", n)
		}
		o.threshold = n
		return nil
	}
}
