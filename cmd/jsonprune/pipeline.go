package main

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"sync"

	"github.com/jsonprune/jsonprune/decoder"
	"github.com/jsonprune/jsonprune/internal/opts"
	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/stream"
)

// The pipeline: one goroutine reads the inputs one after another and cuts
// them into batches of units; N workers prune batches, each with its own
// decoder; the calling goroutine writes the batches in the order they were
// cut. A batch goes to the writer's queue before it goes to the workers, so
// the writer waits for each in turn; the bounded queues keep memory flat.
// A worker whose decoder may hold compiled CRDs the set has let go since
// (set.Evictions) is made anew, so that they can be collected.
func runPipeline(o *options, inputs []input, stdin io.Reader, set *schemaauto.Set, newWorker func() *worker, w *writer, prog *progress) {
	n := max(1, o.jobs)
	// with several workers, one more goroutine compiles ahead the CRDs of
	// the documents cut (the workers would wait for them in turn)
	set.SetPrefetch(n - 1)
	pf := &prefetcher{set: set}
	jobs := make(chan *batch, n)
	order := make(chan *batch, 2*n+2)
	stop := make(chan struct{}) // closed when the output fails: read no more
	send := func(b *batch) bool {
		select {
		case order <- b:
		case <-stop:
			freeBatch(b)
			return false
		}
		jobs <- b
		return true
	}
	go func() {
		defer close(order)
		defer close(jobs)
		for i := range inputs {
			if !readInput(&inputs[i], stdin, o.maxDoc, send, prog, pf) {
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gen := set.Evictions()
			wk := newWorker()
			for b := range jobs {
				if g := set.Evictions(); g != gen {
					gen, wk = g, newWorker()
				}
				wk.run(b)
				close(b.done)
			}
		}()
	}
	stopped := false
	for b := range order {
		<-b.done
		if !stopped {
			w.write(b)
			if w.err != nil {
				close(stop)
				stopped = true
			}
		}
		freeBatch(b)
	}
	wg.Wait()
}

// readInput cuts one input into units; it returns false when the output
// refused more.
func readInput(in *input, stdin io.Reader, maxDoc int, send func(*batch) bool, prog *progress, pf *prefetcher) bool {
	bl := newBuilder(in, send)
	defer bl.close()
	r, closeInput, err := openInput(*in, stdin, &prog.read)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		bl.fail(unit{doc: -1, item: -1}, err.Error())
		return !bl.stop
	}
	defer closeInput()
	prog.in.Add(cut(r, bl, maxDoc, window(in), pf))
	return !bl.stop
}

// listThreshold is the size from which a YAML list is streamed (tests make
// it small).
var listThreshold = 1 << 20

// cut cuts a stream into units (see package stream: JSON if it starts with
// "{" or "[", YAML otherwise) until it ends or the output refuses more. It
// returns the number of bytes read.
func cut(r io.Reader, bl *builder, maxDoc, window int, pf *prefetcher) int64 {
	rd, err := stream.NewReader(r, decoder.MaxDocumentSize(int64(maxDoc)), stream.ListThreshold(listThreshold),
		func(c *opts.Config) { c.Window = window })
	if err != nil { // the flags are checked: a bug
		bl.fail(unit{doc: -1, item: -1}, "internal error (please report it): "+err.Error())
		return 0
	}
	for !bl.stop {
		d, err := rd.ReadDocument()
		if err == io.EOF {
			break
		}
		if err != nil {
			if !cutFail(bl, err, maxDoc) {
				break
			}
			continue
		}
		pf.see(&d)
		bl.add(unitOf(&d), d.Text)
	}
	return rd.BytesRead()
}

// prefetcher reads the root apiVersion and kind of the whole YAML documents
// cut (their lines at column 0, plain or quoted scalars) and has the set
// compile their CRDs ahead (Set.Prefetch). What it misreads costs a
// compilation at most: the decoder reads the kind of each document itself.
type prefetcher struct {
	set             *schemaauto.Set
	lastAV, lastKnd []byte
}

func (p *prefetcher) see(d *stream.Document) {
	if p == nil || p.set == nil || d.Format != stream.YAML || d.Part != stream.Whole {
		return
	}
	var av, kind []byte
	for text := d.Text; len(text) > 0 && (av == nil || kind == nil); {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		if v, ok := bytes.CutPrefix(line, []byte("apiVersion:")); ok {
			av = rootScalar(v)
		} else if v, ok := bytes.CutPrefix(line, []byte("kind:")); ok {
			kind = rootScalar(v)
		}
	}
	if len(av) == 0 || len(kind) == 0 || bytes.Equal(av, p.lastAV) && bytes.Equal(kind, p.lastKnd) {
		return
	}
	p.lastAV, p.lastKnd = append(p.lastAV[:0], av...), append(p.lastKnd[:0], kind...)
	p.set.Prefetch(string(av), string(kind))
}

// rootScalar is the value of a "key: value" line: trimmed, without a
// comment or quotes.
func rootScalar(v []byte) []byte {
	if i := bytes.Index(v, []byte(" #")); i >= 0 {
		v = v[:i]
	}
	v = bytes.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	return v
}

var unitKinds = [...]unitKind{stream.Whole: unitDoc, stream.ListHead: unitHead, stream.ListItem: unitItem, stream.ListTail: unitTail}

// unitOf is the unit of a document (its text apart).
func unitOf(d *stream.Document) unit {
	u := unit{kind: unitKinds[d.Part], doc: d.Index, item: d.Item, indent: d.Indent, spaced: d.Spaced,
		pos: position{offset: d.Offset, line: d.Line, col: d.Column}}
	if d.Format == stream.YAML {
		u.format = formatYAML
	}
	return u
}

// cutFail adds the unitFail of a stream error; it returns false if the
// stream cannot be read further.
func cutFail(bl *builder, err error, maxDoc int) bool {
	var e *stream.Error
	if !errors.As(err, &e) {
		bl.fail(unit{doc: -1, item: -1}, err.Error())
		return false
	}
	u := unit{doc: e.Index, item: e.Item, pos: position{offset: e.Offset, line: e.Line, col: e.Column}}
	switch {
	case errors.Is(e, stream.ErrTooLarge):
		bl.fail(u, tooLarge(maxDoc))
	case errors.Is(e, stream.ErrSyntax):
		bl.fail(u, e.Msg)
	default: // a read error: about the input
		u.doc, u.item = -1, -1
		bl.fail(u, e.Msg)
		return false
	}
	return true
}
