package main

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// outFormat is the -o format. Workers render each object's output (so
// that a slow format, YAML, runs in parallel) and the writer only joins
// them: it puts the separators between the items of a list.
type outFormat uint8

const (
	outJSON   outFormat = iota // one compact document per line; a list stays a list
	outNDJSON                  // one compact object per line; a list's items each on its own
	outNone                    // nothing
	outYAML                    // multi-document YAML ("---" between documents); a list stays a list
)

func parseOutput(s string) (outFormat, error) {
	switch s {
	case "json":
		return outJSON, nil
	case "ndjson", "jsonl":
		return outNDJSON, nil
	case "none":
		return outNone, nil
	case "yaml":
		return outYAML, nil
	}
	return 0, fmt.Errorf("-o must be json, ndjson, yaml or none, not %q", s)
}

// object finishes the output of an object, written as compact JSON at
// dst[start:]; item says it is an item of a list. (-o yaml: the worker's
// yamlWriter.)
func (f outFormat) object(dst []byte, start int, item bool) []byte {
	switch f {
	case outJSON:
		if !item {
			dst = append(dst, '\n')
		}
	case outNDJSON:
		dst = append(dst, '\n')
	default:
		dst = dst[:start]
	}
	return dst
}

// head appends the start of a list (compact JSON up to "items":[).
func (f outFormat) head(dst, js []byte) []byte {
	if f == outJSON {
		dst = append(dst, js...)
	}
	return dst
}

// tail appends the end of a list (compact JSON from "]").
func (f outFormat) tail(dst, js []byte) []byte {
	if f == outJSON {
		dst = append(append(dst, js...), '\n')
	}
	return dst
}

// sep separates two items of a list.
func (f outFormat) sep() []byte {
	if f == outJSON {
		return []byte{','}
	}
	return nil
}

// compressor wraps stdout for --compress.
func compressor(w io.Writer, kind string) (io.Writer, func() error, error) {
	switch kind {
	case "":
		return w, func() error { return nil }, nil
	case "gzip":
		z, err := gzip.NewWriterLevel(w, gzip.DefaultCompression)
		if err != nil {
			return nil, nil, err
		}
		return z, z.Close, nil
	case "zstd":
		z, err := zstd.NewWriter(w, zstd.WithEncoderConcurrency(runtime.GOMAXPROCS(0)))
		if err != nil {
			return nil, nil, err
		}
		return z, z.Close, nil
	}
	return nil, nil, fmt.Errorf("--compress must be gzip or zstd, not %q", kind)
}

// A writer writes the results of batches in input order: outputs to
// stdout, messages to stderr, records to the report; it adds up the tallies.
type writer struct {
	out   *bufio.Writer
	errs  *console
	rep   *bufio.Writer   // nil without --report
	rf    reportFormatter // nil: JSON Lines, as the workers write them
	form  outFormat
	items int // items written in the open list
	docs  int // -o yaml: documents written
	tally tally
	sum   *summary // nil without --summary
	prog  *progress
	err   error           // the first error writing stdout or the report
	said  map[string]bool // the keys of the onceMsgs written
}

// write writes a batch's results. Its units are visited only for what
// they write and for --summary: the worker added up their tallies.
func (w *writer) write(b *batch) {
	w.messages(b)
	w.tally.add(b.tally)
	if w.form == outNone && w.sum == nil {
		// nothing to write (-o none), and no reference to clear in the
		// units (sumTallies): freeBatch need not visit them either
		b.units = b.units[:0]
	}
	for i := range b.units {
		u := &b.units[i]
		if w.sum != nil {
			for _, o := range u.objs {
				w.sum.add(o)
			}
		}
		out := u.out.of(b.out)
		switch u.kind {
		case unitDoc:
			w.document(out)
		case unitHead:
			w.document(out)
			w.items = 0
		case unitTail:
			if w.form == outYAML && w.items == 0 {
				w.put([]byte(" []")) // after "items:"
			}
		case unitItem:
			if len(out) > 0 {
				if w.items > 0 {
					w.put(w.form.sep())
				}
				w.items++
			}
		}
		w.put(out)
	}
	if w.rep != nil && len(b.rep) > 0 {
		var err error
		if w.rf != nil {
			err = formatRecords(w.rf, b.rep)
		} else {
			_, err = w.rep.Write(b.rep)
		}
		if err != nil && w.err == nil {
			w.err = fmt.Errorf("report: %w", err)
		}
	}
	if w.prog != nil {
		w.prog.objects.Store(int64(w.tally.objects))
	}
}

// messages writes a batch's stderr lines, but for the onceMsgs already
// written.
func (w *writer) messages(b *batch) {
	msgs := b.msgs
	if len(b.once) > 0 {
		if w.said == nil {
			w.said = map[string]bool{}
		}
		var keep []byte
		at := 0
		for _, o := range b.once {
			if !w.said[o.key] {
				w.said[o.key] = true
				continue
			}
			keep = append(keep, msgs[at:o.msgs.start]...)
			at = o.msgs.end
		}
		if at > 0 {
			msgs = append(keep, msgs[at:]...)
		}
	}
	if len(msgs) > 0 {
		w.errs.Write(msgs)
	}
}

// document starts a document: -o yaml puts "---" between documents.
func (w *writer) document(out []byte) {
	if w.form != outYAML || len(out) == 0 {
		return
	}
	if w.docs > 0 {
		w.put([]byte("---\n"))
	}
	w.docs++
}

func (w *writer) put(p []byte) {
	if len(p) == 0 || w.err != nil {
		return
	}
	if _, err := w.out.Write(p); err != nil {
		w.err = err
	}
}

// A console is stderr, shared by the messages and the progress bar: a
// message first clears the bar, which the next tick draws again.
type console struct {
	mu  sync.Mutex
	w   io.Writer
	bar bool
}

func (c *console) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bar {
		io.WriteString(c.w, "\r\033[K")
		c.bar = false
	}
	return c.w.Write(p)
}

// status draws the progress bar.
func (c *console) status(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	io.WriteString(c.w, "\r"+line+"\033[K")
	c.bar = true
}

// clear removes the progress bar.
func (c *console) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bar {
		io.WriteString(c.w, "\r\033[K")
		c.bar = false
	}
}
