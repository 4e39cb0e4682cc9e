package validate

import (
	"regexp/syntax"
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"
)

// A dfa answers Match for a pattern the Matcher's shapes do not cover, on
// ASCII text, with one table look-up a byte: the deterministic automaton
// of the pattern's program, built from regexp/syntax's instructions, so
// that every character class means exactly what regexp makes of it.
//
// The model. A state is the set of program threads waiting at a position
// of the text, before their empty-width instructions are followed (so
// that `^` can be decided by the position: at the text's start or not).
// From a state, a byte of the text:
//
//  1. follows each thread's alternations, captures and empty-width
//     assertions (`^` only at the text's start, `$` never: a byte
//     follows) to the instructions that consume a rune (the closure);
//  2. keeps the threads whose instruction matches the byte, moved to the
//     instruction after it;
//  3. adds a thread at the program's start: Match finds a match anywhere
//     in the text, as if the pattern began with `(?s:.)*?`.
//
// A state whose closure reaches the program's Match instruction has found
// a match: Match is true whatever follows (dfaMatch). At the text's end
// the closure is taken once more with `$` holding (dfaEnd). A state that
// every byte leads back to itself (dfaSink) decides the answer then and
// there: its dfaEnd, the rest of the text being ASCII.
//
// Bytes are grouped in classes that every instruction treats alike, so a
// state's row has a column a class. A text with a byte past ASCII goes to
// regexp, as does a pattern with other assertions than `^` and `$` (`\b`,
// multi-line anchors) or more than maxDFAStates states.
type dfa struct {
	class  [utf8.RuneSelf]uint8 // a byte's class
	stride int                  // classes, a state's row
	// next[row+class] is the state after the byte: its row (the state's
	// number times stride) and its flags (dfaEnd, dfaMatch, dfaSink,
	// shifted by flagShift), so that a byte costs one dependent load
	next  []uint32
	first uint32 // the initial state, as an entry of next
}

const (
	dfaEnd   = 1 << iota // a match ends at the text's end, if it ends here
	dfaMatch             // a match ends in the text read
	dfaSink              // every byte leads back here

	flagShift = 29
	rowMask   = 1<<flagShift - 1
	stopAt    = dfaMatch << flagShift // entries from here on stop the walk

	maxDFAStates = 512
	maxDFACells  = 1 << 13 // states × classes (32 KiB of table)
	maxDFAWork   = 1 << 20 // instructions visited building it
	maxDFAInsts  = 1 << 12 // in the program
)

// A lazyDFA builds a pattern's dfa on first use: a schema's patterns are
// compiled with the CRD, many are never matched, and building costs the
// program's compilation and a closure a state and class.
type lazyDFA struct {
	re *syntax.Regexp // simplified, as regexp.Compile compiles it
	mu sync.Mutex
	d  atomic.Pointer[dfa] // noDFA: none (past the limits, or assertions it cannot follow)
}

var noDFA = new(dfa)

// get is the automaton, nil if there is none (see newDFA, dfaEligible).
func (l *lazyDFA) get() *dfa {
	d := l.d.Load()
	if d == nil {
		d = l.build()
	}
	if d == noDFA {
		return nil
	}
	return d
}

func (l *lazyDFA) build() *dfa {
	l.mu.Lock()
	defer l.mu.Unlock()
	if d := l.d.Load(); d != nil {
		return d
	}
	var d *dfa
	if prog, err := syntax.Compile(l.re); err == nil && dfaEligible(prog) {
		d = newDFA(prog) // regexp.Compile's program
	}
	if d == nil {
		d = noDFA
	}
	l.d.Store(d)
	return d
}

// match reports whether s matches; ok is false when s has a byte past
// ASCII (regexp decides then).
func (d *dfa) match(s []byte) (matched, ok bool) {
	e := d.first
	for i, c := range s {
		if e >= stopAt {
			if e&(dfaMatch<<flagShift) != 0 {
				return true, true // whatever follows
			}
			return e&(dfaEnd<<flagShift) != 0, isASCII(s[i:])
		}
		if c >= utf8.RuneSelf {
			return false, false
		}
		e = d.next[e&rowMask+uint32(d.class[c])]
	}
	return e&((dfaMatch|dfaEnd)<<flagShift) != 0, true
}

func isASCII(s []byte) bool {
	for _, c := range s {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// dfaSyntax reports whether a pattern's syntax tree has no assertion
// but ^ and $ of the whole text (see dfaEligible).
func dfaSyntax(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return false
	}
	for _, sub := range re.Sub {
		if !dfaSyntax(sub) {
			return false
		}
	}
	return true
}

// dfaEligible reports whether prog's assertions are only `^` and `$` of
// the whole text (the others need context a byte table does not keep),
// and it has at most maxDFAInsts instructions. dfaSyntax decides the
// Matcher's kind from the syntax tree without compiling it; this is the
// check on what the automaton actually follows.
func dfaEligible(prog *syntax.Prog) bool {
	if len(prog.Inst) > maxDFAInsts {
		return false
	}
	for i := range prog.Inst {
		if in := &prog.Inst[i]; in.Op == syntax.InstEmptyWidth && syntax.EmptyOp(in.Arg)&^(syntax.EmptyBeginText|syntax.EmptyEndText) != 0 {
			return false
		}
	}
	return true
}

// newDFA builds prog's automaton (see dfa), or returns nil when it has
// more than maxDFAStates states or maxDFACells cells, or would take more
// than maxDFAWork steps to build (a pattern of thousands of instructions).
func newDFA(prog *syntax.Prog) *dfa {
	b := &dfaBuilder{prog: prog, mark: make([]uint32, len(prog.Inst)), index: map[string]int{}}
	d := b.classes()
	b.state([]uint32{uint32(prog.Start)}, true)
	var next []int // states, by row
	var flag []uint32
	for s := 0; s < len(b.sets); s++ {
		if len(b.sets) > maxDFAStates || len(b.sets)*d.stride > maxDFACells || b.work > maxDFAWork {
			return nil
		}
		cons, match := b.closure(b.sets[s], b.begin[s], false)
		if match { // Match is true here: the row is not read
			next = append(next, make([]int, d.stride)...)
			flag = append(flag, dfaMatch)
			continue
		}
		var f uint32
		if _, end := b.closure(b.sets[s], b.begin[s], true); end {
			f |= dfaEnd
		}
		sink := true
		for k := range d.stride {
			u := []uint32{uint32(prog.Start)}
			b.work += len(cons)
			for _, pc := range cons {
				if b.matches(pc, b.rep[k]) {
					u = append(u, prog.Inst[pc].Out)
				}
			}
			t := b.state(u, false)
			next = append(next, t)
			sink = sink && t == s
		}
		if sink {
			f |= dfaSink
		}
		flag = append(flag, f)
	}
	if len(b.sets) > maxDFAStates || len(b.sets)*d.stride > maxDFACells || b.work > maxDFAWork {
		return nil
	}
	entry := func(s int) uint32 { return uint32(s*d.stride) | flag[s]<<flagShift }
	d.next = make([]uint32, len(next))
	for i, t := range next {
		d.next[i] = entry(t)
	}
	d.first = entry(0)
	return d
}

type dfaBuilder struct {
	prog  *syntax.Prog
	mark  []uint32 // closure's visited marks, by generation
	gen   uint32
	stack []uint32
	rep   []rune     // a byte of each class
	sets  [][]uint32 // each state's threads, sorted
	begin []bool     // each state's "at the text's start"
	index map[string]int
	work  int // instructions visited and matched so far
}

// classes groups the ASCII bytes by the consuming instructions that match
// them.
func (b *dfaBuilder) classes() *dfa {
	d := &dfa{}
	var cons []int
	for pc := range b.prog.Inst {
		switch b.prog.Inst[pc].Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			cons = append(cons, pc)
		}
	}
	b.work += utf8.RuneSelf * len(cons)
	seen := map[string]uint8{}
	sig := make([]byte, len(cons))
	for c := range rune(utf8.RuneSelf) {
		for i, pc := range cons {
			sig[i] = 0
			if b.matches(uint32(pc), c) {
				sig[i] = 1
			}
		}
		k, ok := seen[string(sig)]
		if !ok {
			k = uint8(len(b.rep))
			seen[string(sig)] = k
			b.rep = append(b.rep, c)
		}
		d.class[c] = k
	}
	d.stride = len(b.rep)
	return d
}

// matches reports whether the consuming instruction at pc matches r, as
// regexp's machines decide it.
func (b *dfaBuilder) matches(pc uint32, r rune) bool {
	in := &b.prog.Inst[pc]
	switch in.Op {
	case syntax.InstRune:
		return in.MatchRune(r)
	case syntax.InstRune1:
		return r == in.Rune[0]
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return r != '\n'
	}
	return false
}

// state is the number of the state with threads u (sorted and made
// unique here), added if new.
func (b *dfaBuilder) state(u []uint32, begin bool) int {
	slices.Sort(u)
	u = slices.Compact(u)
	key := string(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(u))), 4*len(u)))
	if begin {
		key = "^" + key
	}
	if s, ok := b.index[key]; ok {
		return s
	}
	s := len(b.sets)
	b.index[key] = s
	b.sets = append(b.sets, u)
	b.begin = append(b.begin, begin)
	return s
}

// closure follows threads u through everything that consumes no rune, at
// the text's start (begin) or end (end): the consuming instructions
// reached, and whether Match is.
func (b *dfaBuilder) closure(u []uint32, begin, end bool) (cons []uint32, match bool) {
	var ctx syntax.EmptyOp
	if begin {
		ctx |= syntax.EmptyBeginText
	}
	if end {
		ctx |= syntax.EmptyEndText
	}
	b.gen++
	st := append(b.stack[:0], u...)
	for len(st) > 0 {
		pc := st[len(st)-1]
		st = st[:len(st)-1]
		if b.mark[pc] == b.gen {
			continue
		}
		b.mark[pc] = b.gen
		b.work++
		in := &b.prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			st = append(st, in.Out, in.Arg)
		case syntax.InstCapture, syntax.InstNop:
			st = append(st, in.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(in.Arg)&^ctx == 0 {
				st = append(st, in.Out)
			}
		case syntax.InstMatch:
			match = true
		case syntax.InstFail:
		default:
			cons = append(cons, pc)
		}
	}
	b.stack = st
	slices.Sort(cons)
	return cons, match
}
