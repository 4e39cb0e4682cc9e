package main

import (
	"fmt"
	"sync"
)

// A unit is one piece of work cut from an input by a splitter: a document,
// an item of a list, the start or the end of a list, or the report that an
// input could not be read further. Workers fill in its results.
type unit struct {
	kind   unitKind
	format format
	doc    int      // the document's index in its input, from 0
	item   int      // the item's index in its list, -1 when not an item
	indent int      // YAML list items: the column of the item's "-"
	pos    position // where the data starts in the (decompressed) input
	first  int      // YAML: the line of the document's first content line
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
	done  chan struct{}
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
	b.units, b.data, b.out, b.msgs, b.rep = b.units[:0], b.data[:0], b.out[:0], b.msgs[:0], b.rep[:0]
	b.done = make(chan struct{})
	return b
}

func freeBatch(b *batch) {
	for i := range b.units {
		b.units[i] = unit{}
	}
	if cap(b.data) > 16*batchBytes || cap(b.out) > 16*batchBytes {
		return // one huge document: let its buffers go
	}
	b.in = nil
	batchPool.Put(b)
}

// A builder collects the units a splitter cuts into batches. The splitter
// appends a unit's bytes as it reads them (pending), then commits them as a
// unit; a batch is handed on only between units.
type builder struct {
	in    *input
	b     *batch
	start int // where the pending bytes start in b.data
	send  func(*batch) bool
	stop  bool // send refused: the output is closed
}

func newBuilder(in *input, send func(*batch) bool) *builder {
	return &builder{in: in, b: newBatch(in), send: send}
}

// write appends bytes to the pending unit.
func (bl *builder) write(p []byte) { bl.b.data = append(bl.b.data, p...) }

// size is the length of the pending bytes.
func (bl *builder) size() int { return len(bl.b.data) - bl.start }

// discard drops the pending bytes.
func (bl *builder) discard() { bl.b.data = bl.b.data[:bl.start] }

// drop drops the first n pending bytes.
func (bl *builder) drop(n int) { bl.start += n }

// commit makes the first n pending bytes a unit (all of them when n < 0).
func (bl *builder) commit(u unit, n int) {
	if n < 0 {
		n = bl.size()
	}
	u.data = span{bl.start, bl.start + n}
	bl.b.units = append(bl.b.units, u)
	bl.start += n
	if bl.start == len(bl.b.data) && (len(bl.b.data) >= batchBytes || len(bl.b.units) >= batchUnits) {
		bl.flush()
	}
}

// fail commits a unitFail with its message (dropping pending bytes).
func (bl *builder) fail(u unit, msg string) {
	bl.discard()
	u.kind = unitFail
	bl.write([]byte(msg))
	bl.commit(u, -1)
}

// flush hands the batch on; no bytes are pending.
func (bl *builder) flush() {
	if len(bl.b.units) == 0 {
		return
	}
	if !bl.send(bl.b) {
		bl.stop = true
	}
	bl.b, bl.start = newBatch(bl.in), 0
}

// close hands on the last batch; the pending bytes are dropped.
func (bl *builder) close() {
	bl.discard()
	bl.flush()
	freeBatch(bl.b)
	bl.b = nil
}

// tooLarge is the message of a document or item past --max-doc-size.
func tooLarge(max int) string {
	return fmt.Sprintf("larger than the limit of %d bytes (--max-doc-size)", max)
}
