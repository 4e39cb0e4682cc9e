package main

import (
	"fmt"
	"sync"
)

// A unit is one piece of work cut from an input (by a stream.Reader): a document,
// an item of a list, the start or the end of a list, or the report that an
// input could not be read further. Workers fill in its results.
type unit struct {
	kind   unitKind
	format format
	doc    int      // the document's index in its input, from 0
	item   int      // the item's index in its list, -1 when not an item
	indent int      // YAML list items: the column of the item's "-"
	pos    position // where the data starts in the (decompressed) input
	spaced bool     // JSON: the text has white space outside its strings
	data   span     // the text, in batch.data (a message for unitFail)

	// results (its stderr lines and report records are in batch.msgs and
	// batch.rep, in unit order)
	out   span         // output bytes, in batch.out
	tally tally        // counts for the exit status and the summary
	objs  []objSummary // --summary only
}

type unitKind uint8

const (
	unitDoc  unitKind = iota // a document, pruned by its own kind
	unitItem                 // an item of a list, pruned by its own kind
	unitHead                 // a list up to its items: {..."items":[
	unitTail                 // a list after its items: ]...}
	unitFail                 // an input that cannot be read (further), or a syntax error between items; data is the message
)

type format uint8

const (
	formatJSON format = iota
	formatYAML
)

// position is a place in an input: a byte offset in the decompressed
// stream and a 1-based line and byte column.
type position struct {
	offset int64
	line   int
	col    int
}

// span is a range of one of a batch's buffers.
type span struct{ start, end int }

func (s span) of(b []byte) []byte { return b[s.start:s.end] }

// A batch is a run of units of one input, handed to a worker as one job and
// written in input order. Its buffers are reused through batchPool.
type batch struct {
	in    *input
	units []unit
	data  []byte // the units' texts
	out   []byte // their outputs
	msgs  []byte // their stderr lines
	rep   []byte // their report lines
	once  []onceMsg
	done  chan struct{}

	// a block of JSON Lines the worker cuts (data is the block's text;
	// nil when the reader cut the units)
	lines *lineJob

	// the sum of the units' tallies, added up by the worker (sumTallies),
	// not by the one writer
	tally tally

	// the next batch of a chain handed on as one job (runPipeline); done
	// is the first one's
	next *batch
	// the first of a chain: the texts' bytes of the whole chain, held in
	// flight (runPipeline's textBudget)
	held int
}

// sumTallies adds up the units' tallies into b.tally (and lets their maps
// go: the units then hold no reference but --summary's objs).
func (b *batch) sumTallies() {
	for i := range b.units {
		t := &b.units[i].tally
		b.tally.add(*t)
		t.byReason = nil
	}
}

// A onceMsg is stderr lines to be written once per run, at their first
// place in input order, of those the workers wrote (the writer drops the
// later ones with the same key).
type onceMsg struct {
	key  string
	msgs span // in batch.msgs
}

// Batch limits: a batch is handed on when its texts reach batchBytes or it
// holds batchUnits units (a larger document makes a batch of its own).
const (
	batchBytes = 256 << 10
	batchUnits = 512
)

var batchPool = sync.Pool{New: func() any { return new(batch) }}

func newBatch(in *input) *batch {
	b := batchPool.Get().(*batch)
	b.in = in
	b.units, b.data, b.out, b.msgs, b.rep, b.once = b.units[:0], b.data[:0], b.out[:0], b.msgs[:0], b.rep[:0], b.once[:0]
	b.done = make(chan struct{})
	b.lines, b.next, b.held = nil, nil, 0
	b.tally = tally{}
	return b
}

// freeBatch gives a batch, and the batches chained after it, back to the
// pool.
func freeBatch(b *batch) {
	for b != nil {
		next := b.next
		b.next = nil
		freeOne(b)
		b = next
	}
}

func freeOne(b *batch) {
	for i := range b.units {
		b.units[i] = unit{}
	}
	if cap(b.data) > 16*batchBytes || cap(b.out) > 16*batchBytes {
		return // one huge document: let its buffers go
	}
	b.in, b.lines = nil, nil
	batchPool.Put(b)
}

// A builder collects the units cut from an input into batches: each unit's
// text is copied into its batch once; a batch is handed on when it is full.
type builder struct {
	in   *input
	b    *batch
	send func(*batch) bool
	stop bool // send refused: the output is closed
	keep bool // one batch: never hand it on (a block cut by a worker)
}

func newBuilder(in *input, send func(*batch) bool) *builder {
	return &builder{in: in, b: newBatch(in), send: send}
}

// add makes text (which the builder copies) a unit.
func (bl *builder) add(u unit, text []byte) {
	b := bl.b
	start := len(b.data)
	b.data = append(b.data, text...)
	bl.commit(u, start)
}

// addSpan makes text, the bytes of the batch's data at s, a unit.
func (bl *builder) addSpan(u unit, s span) {
	u.data = s
	bl.b.units = append(bl.b.units, u)
}

// fail adds a unitFail with its message.
func (bl *builder) fail(u unit, msg string) {
	b := bl.b
	start := len(b.data)
	b.data = append(b.data, msg...)
	u.kind = unitFail
	bl.commit(u, start)
}

// commit makes the bytes of the batch's data from start a unit.
func (bl *builder) commit(u unit, start int) {
	b := bl.b
	u.data = span{start, len(b.data)}
	b.units = append(b.units, u)
	if !bl.keep && (len(b.data) >= batchBytes || len(b.units) >= batchUnits) {
		bl.flush()
	}
}

// flush hands the batch on.
func (bl *builder) flush() {
	if len(bl.b.units) == 0 {
		return
	}
	if !bl.send(bl.b) {
		bl.stop = true
	}
	bl.b = newBatch(bl.in)
}

// close hands on the last batch.
func (bl *builder) close() {
	bl.flush()
	freeBatch(bl.b)
	bl.b = nil
}

// tooLarge is the message of a document or item past --max-doc-size.
func tooLarge(max int) string {
	return fmt.Sprintf("larger than the limit of %d bytes (--max-doc-size)", max)
}
