package main

import (
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
			if !readInput(&inputs[i], stdin, o.maxDoc, send, prog) {
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
func readInput(in *input, stdin io.Reader, maxDoc int, send func(*batch) bool, prog *progress) bool {
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
	prog.in.Add(cut(r, bl, maxDoc, window(in)))
	return !bl.stop
}

// listThreshold is the size from which a YAML list is streamed (tests make
// it small).
var listThreshold = 1 << 20

// cut cuts a stream into units (see package stream: JSON if it starts with
// "{" or "[", YAML otherwise) until it ends or the output refuses more. It
// returns the number of bytes read.
func cut(r io.Reader, bl *builder, maxDoc, window int) int64 {
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
		bl.add(unitOf(&d), d.Text)
	}
	return rd.BytesRead()
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
