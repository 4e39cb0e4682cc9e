package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"runtime"
	"sync"

	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/jsonsyntax"
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
// (set.Evictions) is made anew, so that they can be collected. With one
// job there is no reader beside the worker: see runSequential. The reader
// shares the cores with the workers: a worker that takes a job from a
// queue running low lets it run first (yieldToReader).
//
// The small batches of regular files (a tree of small inputs gives one
// batch a file) are handed on chained (batch.next), chainBytes of texts at
// a time: a hand-off wakes the worker and then the writer, and one a file
// was a good part of what a tree of thousands of files spent beside its
// work. A batch of another input (stdin, a pipe), which may take its time
// to come, or a block of JSON Lines, goes on its own, after the chain.
func runPipeline(o *options, inputs []input, stdin io.Reader, set *schemaauto.Set, newWorker func() *worker, w *writer, prog *progress) {
	n := max(1, o.jobs)
	if n == 1 {
		runSequential(o, inputs, stdin, set, newWorker, w, prog)
		return
	}
	// with several workers, one more goroutine compiles ahead the CRDs of
	// the documents cut (the workers would wait for them in turn)
	set.SetPrefetch(n - 1)
	pf := &prefetcher{set: set}
	// the reader runs up to a few jobs a worker ahead: it shares the cores
	// with the workers, and while it waits for one a worker with an empty
	// queue would wait for it (on the tree, with one job a worker queued,
	// the two workers of -j 2 waited 25-31 ms a run for work; with four,
	// 5-7 ms)
	ahead := min(4*n, n+8)
	jobs := make(chan *batch, ahead)
	order := make(chan *batch, ahead+n+2)
	// and holds at most n+2 blocks of text in flight, however many jobs:
	// blocks of JSON Lines (1 MiB) are many texts each, and more of
	// them cost memory and its page faults, not less waiting
	room := newTextBudget((n + 2) * blockSize)
	stop := make(chan struct{}) // closed when the output fails: read no more
	handOn := func(b *batch) bool {
		for c := b; c != nil; c = c.next {
			b.held += len(c.data)
		}
		room.take(b.held)
		select {
		case order <- b:
		case <-stop:
			room.give(b.held)
			freeBatch(b)
			return false
		}
		jobs <- b
		return true
	}
	var head, tail *batch // the chain not yet handed on
	chained := 0          // its texts' bytes
	flushChain := func() bool {
		if head == nil {
			return true
		}
		b := head
		head, tail, chained = nil, nil, 0
		return handOn(b)
	}
	send := func(b *batch) bool {
		if b.lines != nil || !b.in.regular {
			if !flushChain() {
				freeBatch(b)
				return false
			}
			return handOn(b)
		}
		if head == nil {
			head = b
		} else {
			tail.next = b
		}
		tail = b
		if chained += len(b.data); chained >= chainBytes {
			return flushChain()
		}
		return true
	}
	go func() {
		defer close(order)
		defer close(jobs)
		for i := range inputs {
			read := readInputLines
			if !linesInBlocks {
				read = readInput
			}
			if !inputs[i].regular && !flushChain() {
				return
			}
			if !read(&inputs[i], stdin, o.maxDoc, send, prog, pf) {
				return // the chain was handed on (or freed) by the send that failed
			}
		}
		flushChain()
	}()
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gen := set.Evictions()
			wk := newWorker()
			for b := range jobs {
				yieldToReader(len(jobs), n)
				if g := set.Evictions(); g != gen {
					gen, wk = g, newWorker()
				}
				for c := b; c != nil; c = c.next {
					if c.lines != nil {
						wk.runLines(c)
					} else {
						wk.run(c)
					}
					c.sumTallies()
				}
				close(b.done)
			}
		}()
	}
	stopped := false
	for b := range order {
		<-b.done
		for c := b; c != nil && !stopped; c = c.next {
			w.write(c)
			if w.err != nil {
				close(stop)
				stopped = true
			}
		}
		held := b.held
		freeBatch(b)
		room.give(held)
	}
	wg.Wait()
}

// yieldToReader is called by a worker that has taken a job, with the jobs
// still queued: when they run low (fewer than two a worker), it yields
// its core (runtime.Gosched) before it starts on it. The reader is
// a goroutine like the workers, and the Go scheduler runs a goroutine that
// becomes ready (the reader, once a worker has taken a job off the full
// queue) only when a running one blocks or has run 10 ms: with -j 2 on two
// cores the workers kept both, the queue ran dry while the reader waited
// its turn, and then a worker waited for it. The execution trace of -j 2
// (JSONPRUNE_TRACE) showed it: on the validating dump the workers waited
// for a job 132 times, 109 ms of a 0.93 s run, the reader ready but not
// running up to 8 ms at a time; on the corpus tree, 8 times, 17 ms of 111.
// Yielding, the worker runs the reader in its place (the goroutine a
// channel operation made ready runs next on that core), which cuts until
// the queue is full or the text budget spent, and the worker goes on: the
// waits fell to 8 (41 ms, most of them at the start, while the first
// CRDs compile) on the dump and 2 on the tree. A yield with nothing else
// to run costs a microsecond or so; a job is a block of JSON Lines (1 MiB)
// or a chain of small files (chainBytes). README, "The reader's turn",
// gives the measurement.
func yieldToReader(queued, workers int) {
	if queued < 2*workers {
		runtime.Gosched()
	}
}

// A textBudget bounds the bytes of text the pipeline holds in flight: take
// waits until they fit (a text larger than the whole budget goes alone).
type textBudget struct {
	mu        sync.Mutex
	freed     sync.Cond
	used, max int
}

func newTextBudget(max int) *textBudget {
	t := &textBudget{max: max}
	t.freed.L = &t.mu
	return t
}

func (t *textBudget) take(n int) {
	t.mu.Lock()
	for t.used > 0 && t.used+n > t.max {
		t.freed.Wait()
	}
	t.used += n
	t.mu.Unlock()
}

func (t *textBudget) give(n int) {
	t.mu.Lock()
	t.used -= n
	t.mu.Unlock()
	t.freed.Signal()
}

// runSequential is the pipeline of -j 1: one goroutine reads, cuts,
// prunes and writes each batch in turn, so that one job is one core (a
// reader beside the worker kept 1.3 cores busy, and a CI runner given one
// core paid for the hand-offs between them besides). Nothing is compiled
// ahead: the one goroutine would wait for it anyway.
func runSequential(o *options, inputs []input, stdin io.Reader, set *schemaauto.Set, newWorker func() *worker, w *writer, prog *progress) {
	set.SetPrefetch(0)
	gen := set.Evictions()
	wk := newWorker()
	send := func(b *batch) bool {
		if g := set.Evictions(); g != gen {
			gen, wk = g, newWorker()
		}
		if b.lines != nil {
			wk.runLines(b)
		} else {
			wk.run(b)
		}
		b.sumTallies()
		w.write(b)
		freeBatch(b)
		return w.err == nil
	}
	for i := range inputs {
		read := readInputLines
		if !linesInBlocks {
			read = readInput
		}
		if !read(&inputs[i], stdin, o.maxDoc, send, prog, nil) {
			return
		}
	}
}

// chainBytes is how much text the chained batches of small regular files
// hold before they are handed on together (see runPipeline): a few files
// of a tree. Larger chains let the reader, and the CRDs it has compiled
// ahead, run further ahead of the workers (the queues hold up to 5N+2 chains).
const chainBytes = 16 << 10

// readInput cuts one input into units; it returns false when the output
// refused more.
func readInput(in *input, stdin io.Reader, maxDoc int, send func(*batch) bool, prog *progress, pf *prefetcher) bool {
	bl := newBuilder(in, send)
	defer bl.close()
	r, closeInput, err := openInput(in, stdin, &prog.read)
	if err != nil {
		openFailed(bl, err)
		return !bl.stop
	}
	defer closeInput()
	prog.in.Add(cut(r, bl, maxDoc, window(in), pf))
	return !bl.stop
}

// openFailed reports an input that cannot be opened.
func openFailed(bl *builder, err error) {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	bl.fail(unit{doc: -1, item: -1}, err.Error())
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
	return cutReader(rd, err, bl, maxDoc, pf)
}

// cutReader is cut with a stream reader made (err is NewReader's).
func cutReader(rd *stream.Reader, err error, bl *builder, maxDoc int, pf *prefetcher) int64 {
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
	p.prefetch(av, kind)
}

// prefetch has the set compile the CRD of apiVersion av and kind ahead,
// unless it asked for the same just before.
func (p *prefetcher) prefetch(av, kind []byte) {
	if len(av) == 0 || len(kind) == 0 || bytes.Equal(av, p.lastAV) && bytes.Equal(kind, p.lastKnd) {
		return
	}
	p.lastAV, p.lastKnd = append(p.lastAV[:0], av...), append(p.lastKnd[:0], kind...)
	p.set.Prefetch(string(av), string(kind))
}

// seeLines reads the apiVersion and kind of the lines of a block of JSON
// Lines that start as kubectl and jq write objects, {"apiVersion":"…",
// "kind":"…" (or kind first; plain strings, no white space), and has the
// set compile their CRDs ahead, so that with several workers the CRDs of
// the first blocks, which every worker waits for, compile at once. It
// returns the block's line breaks. Every line is read in the first
// scanBlocks blocks of an input (first: the block's number in it); after
// them, only a block's first and last lines (where a dump sorted by kind
// turns to the next kind, as the block after starts), since this runs on
// the one reading goroutine, whose time -j 2 pays in full: the block's
// line breaks are then counted with bytes.Count.
func (p *prefetcher) seeLines(block []byte, first int) int {
	if p == nil || p.set == nil {
		return bytes.Count(block, []byte{'\n'})
	}
	if first >= scanBlocks {
		n := bytes.Count(block, []byte{'\n'})
		line := block
		if i := bytes.IndexByte(block, '\n'); i >= 0 {
			line = block[:i]
		}
		p.seeLine(line)
		end := len(block) // the last line, before the block's final line break
		if end > 0 && block[end-1] == '\n' {
			end--
		}
		p.seeLine(block[bytes.LastIndexByte(block[:end], '\n')+1 : end])
		return n
	}
	n := 0
	for len(block) > 0 {
		line := block
		if i := bytes.IndexByte(block, '\n'); i >= 0 {
			line, block = block[:i], block[i+1:]
			n++
		} else {
			block = nil
		}
		p.seeLine(line)
	}
	return n
}

// scanBlocks is how many blocks of an input seeLines reads every line of.
const scanBlocks = 4

// seeLine has the CRD of a JSON line that starts with its apiVersion and
// kind compiled ahead.
func (p *prefetcher) seeLine(line []byte) {
	name1, v1, rest := plainMember(line, '{')
	name2, v2, _ := plainMember(rest, ',')
	switch {
	case string(name1) == "apiVersion" && string(name2) == "kind":
		p.prefetch(v1, v2)
	case string(name1) == "kind" && string(name2) == "apiVersion":
		p.prefetch(v2, v1)
	}
}

// plainMember reads, after the byte lead, a member "name":"value" whose
// strings hold no quote or backslash, and returns the rest; nothing if the
// text does not start so.
func plainMember(text []byte, lead byte) (name, value, rest []byte) {
	str := func(b []byte) ([]byte, []byte) {
		if len(b) == 0 || b[0] != '"' {
			return nil, nil
		}
		i := bytes.IndexByte(b[1:], '"')
		if i < 0 || bytes.IndexByte(b[1:1+i], '\\') >= 0 {
			return nil, nil
		}
		return b[1 : 1+i], b[2+i:]
	}
	if len(text) == 0 || text[0] != lead {
		return nil, nil, nil
	}
	name, rest = str(text[1:])
	if len(rest) == 0 || rest[0] != ':' {
		return nil, nil, nil
	}
	if value, rest = str(rest[1:]); value == nil {
		return nil, nil, nil
	}
	return name, value, rest
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

// JSON Lines in blocks. The reader of a JSON Lines input
// (stream.JSONLines) does not cut it into documents itself: that scan
// would be a quarter of a dump's CPU, on one goroutine. It reads blocks of
// about blockSize bytes, each cut after its last line break (found with
// bytes.LastIndexByte, no JSON scanned), counts their lines, and hands
// each on as a batch whose data is the block; the worker that takes it
// reads it line by line, in place (runLines): each line goes to the
// decoder as it is, and only a line that is not one plain object is cut
// with the splitter of the whole stream (stream.NewLinesReader: in line
// mode every line is read afresh, so the units, messages and positions are
// the same). A block's document indices count from the documents of the
// blocks before it, which the block before passes on (a docLink) once it
// is done; the writer writes the blocks in order as any batches. A line
// longer than maxBlockLine, or a read error, ends the blocks: the reader
// cuts the rest of the input itself, from where the blocks ended.

// linesInBlocks: JSON Lines inputs are read in blocks (readInputLines);
// tests turn it off to have the splitter cut the whole stream (readInput),
// the reference the blocks must match.
var linesInBlocks = true

// blockSize is the size of a block of JSON Lines, and maxBlockLine the
// longest line a block is grown to hold (bounding the memory of the
// blocks in flight: the queues hold about 3 per worker). Tests make them
// small.
var (
	blockSize    = 1 << 20
	maxBlockLine = 4 << 20
)

// A lineJob is a block of JSON Lines for a worker to cut.
type lineJob struct {
	at         stream.Place // where the block starts (Doc is 0: see prev)
	lines      int          // its line breaks; -1 until runLines counts them (see readInputLines)
	maxDoc     int
	prev, next *docLink
	base       int  // the documents before the block, once known
	known      bool // base is known: the block's units are numbered after them
}

// A docLink passes the number of documents before a block from the worker
// of the block before it, once that one is cut.
type docLink struct {
	ready chan struct{} // closed when docs is set
	docs  int
}

func newDocLink() *docLink { return &docLink{ready: make(chan struct{})} }

// readInputLines reads an input as readInput does, but hands a JSON Lines
// input on in blocks that the workers cut (see above). pf is nil when send
// processes each batch before it returns (runSequential): a block's line
// breaks are then counted by runLines, which finds them anyway, rather
// than once more before it.
func readInputLines(in *input, stdin io.Reader, maxDoc int, send func(*batch) bool, prog *progress, pf *prefetcher) bool {
	r, closeInput, err := openInput(in, stdin, &prog.read)
	if err != nil {
		bl := newBuilder(in, send)
		defer bl.close()
		openFailed(bl, err)
		return !bl.stop
	}
	defer closeInput()

	b := newBlock(in, 0)
	n, err := io.ReadFull(r, b.data[:blockSize])
	eof := err == io.EOF || err == io.ErrUnexpectedEOF
	if (err != nil && !eof) || !stream.JSONLines(b.data[:n]) {
		// not JSON Lines (or a read error at once): the reader cuts it
		bl := newBuilder(in, send)
		defer bl.close()
		defer freeBatch(b)
		var rest io.Reader = bytes.NewReader(b.data[:n])
		if _, plain := r.(*bufio.Reader); !eof || !plain {
			// a plain file at its end is not read once more for it; a
			// decompressor is (its reads report a truncated stream)
			rest = io.MultiReader(rest, errorAfter(r, err))
		}
		prog.in.Add(cut(rest, bl, maxDoc, window(in), pf))
		return !bl.stop
	}
	at := stream.Place{Line: 1}
	blocks := 0 // handed on
	link := &docLink{ready: make(chan struct{})}
	close(link.ready)
	for {
		data := b.data[:n]
		end := len(data)
		if !eof {
			end = bytes.LastIndexByte(data, '\n') + 1
		}
		if end == 0 { // a line longer than the block
			if len(data) < maxBlockLine {
				if cap(b.data) < 2*len(data) {
					b.data = append(b.data[:len(data)], make([]byte, len(data))...)
				}
				m, err2 := io.ReadFull(r, b.data[len(data):cap(b.data)])
				n += m
				eof, err = err2 == io.EOF || err2 == io.ErrUnexpectedEOF, err2
				if err2 != nil && !eof {
					return cutRest(in, b.data[:n], r, err2, at, link, maxDoc, send, prog, pf, b)
				}
				continue
			}
			return cutRest(in, data, r, nil, at, link, maxDoc, send, prog, pf, b)
		}
		var next *batch
		if !eof {
			next = newBlock(in, len(data)-end)
			next.data = append(next.data[:0], data[end:]...)
		}
		b.data = data[:end]
		lj := &lineJob{at: at, lines: -1, maxDoc: maxDoc, prev: link, next: newDocLink()}
		if pf != nil {
			lj.lines = pf.seeLines(b.data, blocks)
		}
		blocks++
		b.lines = lj
		link = lj.next
		at.Offset += int64(end)
		prog.in.Add(int64(end))
		nl := lj.lines
		if !send(b) {
			if next != nil {
				freeBatch(next)
			}
			return false
		}
		if nl < 0 {
			nl = lj.lines // counted by runLines, done
		}
		at.Line += nl
		if eof {
			return true
		}
		b = next
		carry := len(b.data)
		b.data = b.data[:cap(b.data)]
		m, err2 := io.ReadFull(r, b.data[carry:max(carry+blockSize/2, blockSize)])
		n = carry + m
		eof = err2 == io.EOF || err2 == io.ErrUnexpectedEOF
		if err2 != nil && !eof {
			return cutRest(in, b.data[:n], r, err2, at, link, maxDoc, send, prog, pf, b)
		}
	}
}

// newBlock is a batch whose data can hold a block and carry bytes more.
func newBlock(in *input, carry int) *batch {
	b := newBatch(in)
	if size := max(blockSize, carry+blockSize/2); cap(b.data) < size {
		b.data = make([]byte, 0, size)
	}
	b.data = b.data[:cap(b.data)]
	return b
}

// cutRest cuts the rest of a JSON Lines input, data (read, not handed on)
// and then r, itself, from at, once the blocks before are cut; err, if
// not nil, is the read error after data. It frees b (whose data is data).
func cutRest(in *input, data []byte, r io.Reader, err error, at stream.Place, link *docLink, maxDoc int, send func(*batch) bool, prog *progress, pf *prefetcher, b *batch) bool {
	defer freeBatch(b)
	<-link.ready
	at.Doc = link.docs
	bl := newBuilder(in, send)
	defer bl.close()
	rest := io.MultiReader(bytes.NewReader(data), errorAfter(r, err))
	rd, err := stream.NewLinesReaderOf(rest, at, decoder.MaxDocumentSize(int64(maxDoc)), stream.ListThreshold(listThreshold))
	prog.in.Add(cutReader(rd, err, bl, maxDoc, pf) - at.Offset)
	return !bl.stop
}

// errorAfter is r, or a reader of err alone when err is a read error.
func errorAfter(r io.Reader, err error) io.Reader {
	if err == nil || err == io.EOF || err == io.ErrUnexpectedEOF {
		return r
	}
	return errReader{err}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// runLines cuts a block of JSON Lines into b's units and processes them,
// line by line. A line is not scanned twice: its text (without the white
// space around it) goes to the decoder as it is, which reads it strictly
// anyway; if the decoder read one object to its end (no syntax error,
// nothing after it) that is not a List, the line is the one document the
// splitter would cut. Otherwise (a List, several values, a syntax error,
// not an object...) its output is dropped and the line is cut by the
// stream's splitter (cutLine), as a block was cut before, so the units,
// messages and positions are the same.
//
// The documents of a block are numbered after those of the blocks before
// it: from the start if the block before is done when the worker takes
// this one (always with -j 1), else as soon as a message needs an index
// (origin.docIndex), which waits for it. When many messages do (with
// --report or --kubectl, each finding) and several workers run, that wait
// would make them take turns: the worker then first counts the block's
// documents with the splitter (countDocs, the cost of the cutting this
// saves elsewhere) and passes the count on before it processes the block.
func (w *worker) runLines(b *batch) {
	lj := b.lines
	counted := w.countFirst()
	if counted {
		docs := countDocs(b)
		<-lj.prev.ready
		lj.base, lj.known = lj.prev.docs, true
		lj.next.docs = lj.base + docs
		close(lj.next.ready)
	} else {
		select {
		case <-lj.prev.ready:
			lj.base, lj.known = lj.prev.docs, true
		default:
		}
	}
	data := b.data
	if n := lj.lines + 1; cap(b.units) < n {
		b.units = make([]unit, 0, n)
	}
	docs, line, breaks := 0, lj.at.Line, 0
	for off := 0; off < len(data); line++ {
		end, next := len(data), len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			end, next = off+i, off+i+1
			breaks++
		}
		start := off
		for start < end && lineSpace(data[start]) {
			start++
		}
		for end > start && lineSpace(data[end-1]) {
			end--
		}
		if start < end {
			pos := position{offset: lj.at.Offset + int64(start), line: line, col: start - off + 1}
			if w.plainLine(b, span{start, end}, docs, pos) {
				docs++
			} else {
				docs = w.cutLine(b, off, next, line, docs)
			}
		}
		off = next
	}
	if lj.lines < 0 {
		lj.lines = breaks
	}
	if counted {
		return
	}
	if lj.known {
		lj.next.docs = lj.base + docs
		close(lj.next.ready)
		return
	}
	// the units keep their indices in the block: nothing reads them now
	prev, nextLink := lj.prev, lj.next
	go func() {
		<-prev.ready
		nextLink.docs = prev.docs + docs
		close(nextLink.ready)
	}()
}

// countFirst reports whether runLines counts a block's documents before it
// processes it: with several workers, when messages name documents by
// their index (report records, --kubectl's lines).
func (w *worker) countFirst() bool {
	switch numbering {
	case numberLazily:
		return false
	case numberFirst:
		return true
	}
	return w.o.jobs > 1 && (w.o.report != "" || w.o.kubectl)
}

// numbering is how runLines numbers documents: as countFirst says, or
// (tests) always or never counting first.
var numbering = numberAuto

const (
	numberAuto = iota
	numberFirst
	numberLazily
)

// countDocs counts the documents of a block of JSON Lines as cutLine
// numbers them (with the errors that have an index).
func countDocs(b *batch) int {
	lj := b.lines
	rd, err := stream.NewLinesReader(b.data, stream.Place{Offset: lj.at.Offset, Line: lj.at.Line}, decoder.MaxDocumentSize(int64(lj.maxDoc)), stream.ListThreshold(listThreshold))
	docs := 0
	for err == nil {
		var d stream.Document
		d, err = rd.ReadDocument()
		if err == nil {
			docs = max(docs, d.Index+1)
			continue
		}
		var e *stream.Error
		if errors.As(err, &e) && (errors.Is(e, stream.ErrTooLarge) || errors.Is(e, stream.ErrSyntax)) {
			docs = max(docs, e.Index+1)
			err = nil
		}
	}
	return docs
}

// lineSpace reports the white space around a line's value (the newline
// apart).
func lineSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// docIndex is the index of the object's document in its input. In a block
// of JSON Lines numbered in the block (runLines), it waits until the blocks
// before are counted and numbers the block's units after them.
func (a *origin) docIndex() int {
	if lj := a.b.lines; lj != nil && !lj.known && a.u.doc >= 0 {
		<-lj.prev.ready
		lj.base, lj.known = lj.prev.docs, true
		for i := range a.b.units {
			if a.b.units[i].doc >= 0 {
				a.b.units[i].doc += lj.base
			}
		}
	}
	return a.u.doc
}

// plainLine processes text, the bytes of the block at s (a line without
// the white space around it), as the block's document doc (counted in the
// block) if it is one plain object; it reports whether it was, and leaves
// no trace if not.
func (w *worker) plainLine(b *batch, s span, doc int, pos position) bool {
	text := s.of(b.data)
	if text[0] != '{' || text[len(text)-1] != '}' || len(text) > b.lines.maxDoc {
		return false // not an object, or too large: the splitter says what it is
	}
	if b.lines.known {
		doc += b.lines.base
	}
	b.units = append(b.units, unit{kind: unitDoc, doc: doc, item: -1, pos: pos, spaced: true, data: s})
	u := &b.units[len(b.units)-1]
	mark := marks{len(b.out), len(b.msgs), len(b.rep), len(b.once)}
	if !w.lineObject(b, u, text) {
		b.units = b.units[:len(b.units)-1]
		b.out, b.msgs, b.rep, b.once = b.out[:mark.out], b.msgs[:mark.msgs], b.rep[:mark.rep], b.once[:mark.once]
		return false
	}
	u.out = span{mark.out, len(b.out)}
	return true
}

// marks are the lengths of a batch's buffers.
type marks struct{ out, msgs, rep, once int }

// lineObject decodes text as one document (w.unit and w.object for a
// JSON document, once the decoder said it is one); it returns false,
// having written only output (if any), when it is not one. A panic (a
// bug) gets a new decoder and returns false: the line is then processed
// as the splitter cuts it, and safeUnit reports the panic there.
func (w *worker) lineObject(b *batch, u *unit, text []byte) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			w.d = w.newDecoder()
			ok = false
		}
	}()
	a := &origin{b: b, u: u, item: -1, pos: u.pos}
	start := len(b.out)
	err := w.decode(a, text)
	if !w.oneObject(text, err) {
		return false
	}
	a.valid = true // read to its end by the decoder, or checked by fatalLine
	u.tally.docs++
	u.tally.objects++
	w.decided(a, text, start, err)
	return true
}

// oneObject reports whether the decoder, which returned err, read text as
// one object to its end, which is not a List (an object with a member
// "items" whose value is an array, as package stream cuts lists): the
// document the splitter would cut.
func (w *worker) oneObject(text []byte, err error) bool {
	if err != nil {
		// these are returned only once the whole text is read; any other
		// error (a syntax error, a fatal error) is left to the splitter's
		// path, which reports it as it always did
		switch err.(type) {
		case *jperrors.StrictError, *jperrors.InvalidError:
		default:
			var se *jperrors.StrictError
			var ie *jperrors.InvalidError
			if !errors.As(err, &se) && !errors.As(err, &ie) {
				return fatalLine(text, err)
			}
		}
	}
	res := w.d.Result()
	if res.Entry != nil && res.Len() == 0 && w.o.mode != decoder.Ignore && w.reportsItems(res.Entry.Automaton) {
		return true // a root member "items" would have been a finding
	}
	// "items", or a name with an escape that might spell it
	return !mayHoldItems(text)
}

// mayHoldItems reports whether JSON text may hold a member named "items":
// the word itself, or a \u escape of one of its letters (i, t, e, m, s),
// which a name may spell it with ("it\u0065ms"). Other escapes cannot
// spell it: the dump's "\u003c" in a string is not a List's "items".
func mayHoldItems(text []byte) bool {
	if bytes.Contains(text, []byte("items")) {
		return true
	}
	for i := 0; ; {
		k := bytes.Index(text[i:], []byte(`\u00`))
		if k < 0 {
			return false
		}
		i += k + 4
		if i+2 > len(text) {
			return true // cut short: not valid anyway
		}
		switch text[i] {
		case '6':
			switch text[i+1] | 0x20 { // the hex digit, lower-cased
			case '9', '5', 'd': // i, e, m
				return true
			}
		case '7':
			switch text[i+1] {
			case '4', '3': // t, s
				return true
			}
		}
	}
}

// fatalLine reports whether text, which the decoder refused with err, is
// still the one document the splitter would cut: err is an error the API
// server raises for a readable object (not a syntax error: the decoder
// may stop at it before the end of the text), the text is one valid JSON
// value (so the splitter cuts no other unit from it, nor reports a syntax
// error further on), and it is no List (no "items" member, which the
// decoder may not have reached, nor an escape that might spell it:
// mayHoldItems). Such a
// line (on the dump, an object whose metadata.name is an object) is then
// not decoded a second time after the splitter.
func fatalLine(text []byte, err error) bool {
	var de *jperrors.DecodeError
	if !errors.As(err, &de) || isSyntax(err, de) {
		return false
	}
	// the splitter follows strings and brackets only: duplicate names and
	// invalid UTF-8 (which the decoder did not reach, or it would have
	// said) cut as any value, and checking them costs
	return !mayHoldItems(text) && jsonsyntax.Valid(text)
}

// reportsItems reports whether the decoder reports a root member named
// "items" of an object of a as an unknown field: its root declares no
// such property and keeps no unknown members.
func (w *worker) reportsItems(a *schemaauto.Automaton) bool {
	if a == w.lastItems && a != nil {
		return w.lastReports
	}
	if r, ok := w.items[a]; ok {
		w.lastItems, w.lastReports = a, r
		return r
	}
	root := a.Root()
	r := false
	if root != schemaauto.Keep {
		st := a.State(root)
		r = a.Lookup(root, []byte("items")) < 0 && st.Additional == schemaauto.NoState && st.Flags&schemaauto.Preserve == 0
	}
	if w.items == nil {
		w.items = map[*schemaauto.Automaton]bool{}
	}
	w.items[a] = r
	w.lastItems, w.lastReports = a, r
	return r
}

// cutLine cuts the line of the block from off to next (its newline
// included) with the stream's splitter and processes its units; docs is
// the number of documents of the block before it, and it returns the
// number after it.
func (w *worker) cutLine(b *batch, off, next, line, docs int) int {
	lj := b.lines
	bl := &builder{in: b.in, b: b, keep: true}
	at := stream.Place{Offset: lj.at.Offset + int64(off), Line: line, Doc: docs}
	first := len(b.units)
	rd, err := stream.NewLinesReader(b.data[off:next], at, decoder.MaxDocumentSize(int64(lj.maxDoc)), stream.ListThreshold(listThreshold))
	if err != nil { // the flags are checked: a bug
		bl.fail(unit{doc: -1, item: -1}, "internal error (please report it): "+err.Error())
	}
	for err == nil {
		var d stream.Document
		d, err = rd.ReadDocument()
		if err == io.EOF {
			break
		}
		if err != nil {
			if !cutFail(bl, err, lj.maxDoc) {
				break
			}
			err = nil
			continue
		}
		start := int(d.Offset - lj.at.Offset)
		bl.addSpan(unitOf(&d), span{start, start + len(d.Text)})
	}
	for i := first; i < len(b.units); i++ {
		u := &b.units[i]
		docs = max(docs, u.doc+1)
		if u.doc >= 0 && lj.known {
			u.doc += lj.base
		}
	}
	for i := first; i < len(b.units); i++ {
		u := &b.units[i]
		o := len(b.out)
		w.safeUnit(b, u)
		u.out = span{o, len(b.out)}
	}
	return docs
}
