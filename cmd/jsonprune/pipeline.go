package main

import (
	"errors"
	"io"
	"io/fs"
	"sync"
)

// The pipeline: one goroutine reads the inputs one after another and cuts
// them into batches of units; N workers prune batches, each with its own
// decoder; the calling goroutine writes the batches in the order they were
// cut. A batch goes to the writer's queue before it goes to the workers, so
// the writer waits for each in turn; the bounded queues keep memory flat.
func runPipeline(o *options, inputs []input, stdin io.Reader, newWorker func() *worker, w *writer, prog *progress) {
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
			wk := newWorker()
			for b := range jobs {
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
	prog.in.Add(split(newSource(r, bl, maxDoc), bl))
	return !bl.stop
}

// split cuts a stream into units: JSON if it starts with "{" or "[",
// YAML otherwise. It returns the length of the stream.
func split(s *source, bl *builder) int64 {
	s.skipBOM()
	if c, ok := s.firstByte(); ok {
		if c == '{' || c == '[' {
			splitJSON(s, bl)
		} else {
			splitYAML(s, bl)
		}
	} else if msg := s.readError(); msg != "" {
		bl.fail(unit{doc: -1, item: -1}, msg)
	}
	return s.base + int64(s.end)
}
