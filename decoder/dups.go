package decoder

import (
	"bytes"
	"hash/maphash"
)

// The duplicate check. On the scanner's fast path and on the slow path the
// walk finds duplicate member names itself, per open object: a bit per
// declared property (seenBits, also what defaulting reads: which
// properties were present), and the other names, compared one by one while
// an object has few and through an open-addressing set once it is wide.
// On the slow path a duplicate is reported and the earlier member is
// retracted (its bytes and what its value recorded), so that the last
// value wins, as in the reference. Everything is stacked per open object
// and cut back when the object closes: no allocation in steady state.

// dupSets is the duplicate check's state for the open objects.
type dupSets struct {
	seenBits  []uint64     // per open object, a bit per declared property
	objNames  []nameSpan   // per open object, its other names, in seenNames
	seenNames []byte       // their bytes
	members   []member     // slow path: the members written, for retract
	setSlots  []int32      // the name sets of wide open objects (nameSet)
	seed      maphash.Seed // their hash seed
}

// nameSpan is a member name of an open object (slow path), in d.dups.seenNames.
type nameSpan struct{ start, end int32 }

// member is a written member of an open object (slow path, bytes output),
// so that a later duplicate can take its place.
type member struct {
	prop       int // property index, or -1
	name       nameSpan
	start, end int // its bytes in the output (d.outPos), when writing
	// the findings recorded while decoding its value (group prune,
	// root and embedded metadata), and the fatal error before it: a later
	// duplicate discards them, as the reference decodes only the last value
	recs   [numGroups][2]int32
	fatals [2]int32
	vals   [2]int32 // its validation errors
}

// seenBefore reports whether the member name (property idx) occurred
// earlier in the current object, and remembers it.
//
// Names are compared one by one while an object has few; a wide object
// (more than wideObject names) gets a set, so that the check stays linear.
func (d *Decoder) seenBefore(idx int, name []byte, seenBase, namesBase int, wide *nameSet) bool {
	if idx >= 0 {
		return d.dups.seenBits[seenBase+idx/64]&(1<<(idx%64)) != 0
	}
	slot := 0
	if wide.size > 0 {
		var found bool
		if slot, found = d.setFind(wide, name); found {
			return true
		}
	} else {
		for _, sp := range d.dups.objNames[namesBase:] {
			if bytes.Equal(d.dups.seenNames[sp.start:sp.end], name) {
				return true
			}
		}
	}
	start := int32(len(d.dups.seenNames))
	d.dups.seenNames = append(d.dups.seenNames, name...)
	d.dups.objNames = append(d.dups.objNames, nameSpan{start, int32(len(d.dups.seenNames))})
	switch {
	case wide.size > 0:
		d.dups.setSlots[wide.base+slot] = int32(len(d.dups.objNames) - 1)
		if wide.n++; 2*wide.n > wide.size {
			d.setBuild(wide, namesBase, 2*wide.size)
		}
	case len(d.dups.objNames)-namesBase > wideObject:
		wide.base = len(d.dups.setSlots)
		d.setBuild(wide, namesBase, 4*wideObject)
	}
	return false
}

// wideObject is the number of names from which the duplicate check uses
// a set.
const wideObject = 32

// nameSet is the set of a wide object's names: an open-addressing table,
// d.dups.setSlots[base:base+size], of indexes into d.dups.objNames (-1: empty), at
// most half full. The tables of the open objects are stacked in
// d.dups.setSlots (an object's is on top while it adds names), so a set costs
// no allocation in steady state.
type nameSet struct{ base, size, n int }

// setFind finds name in w: its slot, or the empty slot where it goes.
func (d *Decoder) setFind(w *nameSet, name []byte) (int, bool) {
	mask := uint64(w.size - 1)
	for i := maphash.Bytes(d.dups.seed, name) & mask; ; i = (i + 1) & mask {
		v := d.dups.setSlots[w.base+int(i)]
		if v < 0 {
			return int(i), false
		}
		if sp := d.dups.objNames[v]; bytes.Equal(d.dups.seenNames[sp.start:sp.end], name) {
			return int(i), true
		}
	}
}

// setBuild (re)builds w with size slots (a power of two) on top of
// d.dups.setSlots, from the object's names.
func (d *Decoder) setBuild(w *nameSet, namesBase, size int) {
	d.dups.setSlots = d.dups.setSlots[:w.base]
	for range size {
		d.dups.setSlots = append(d.dups.setSlots, -1)
	}
	w.size, w.n = size, 0
	for k := namesBase; k < len(d.dups.objNames); k++ {
		sp := d.dups.objNames[k]
		if slot, found := d.setFind(w, d.dups.seenNames[sp.start:sp.end]); !found {
			d.dups.setSlots[w.base+slot] = int32(k)
			w.n++
		}
	}
}

// lastName32 returns the span of the non-property name just seen: the last
// one seenBefore added (a duplicate's name is found by comparison instead).
func (d *Decoder) lastName32(idx int, dup bool, namesBase int) nameSpan {
	if idx >= 0 || len(d.dups.objNames) == namesBase {
		return nameSpan{}
	}
	if !dup {
		return d.dups.objNames[len(d.dups.objNames)-1]
	}
	name := d.lastName()
	for _, sp := range d.dups.objNames[namesBase:] {
		if bytes.Equal(d.dups.seenNames[sp.start:sp.end], name) {
			return sp
		}
	}
	return nameSpan{}
}

// retract undoes the earlier occurrence of a duplicated member, so that the
// last value wins: its bytes leave the output (the output has each name
// once), and the findings and fatal errors its value raised are dropped,
// as the reference never decodes that value into the object. Duplicate
// findings inside it stay: the reference's JSON decoder reports them.
// With validation, the member is no longer kept in the object of walk
// frame of: its presence bit is cleared and its validation frame's member
// count drops. writtenOut: PruneReader had written it out already, so its
// bytes stay, before the last value's.
func (d *Decoder) retract(idx int, name []byte, membersBase int, write bool, of *objFrame) (writtenOut bool) {
	for i := membersBase; i < len(d.dups.members); i++ {
		mb := d.dups.members[i]
		same := (idx >= 0 && mb.prop == idx) || (idx < 0 && mb.prop < 0 && bytes.Equal(d.dups.seenNames[mb.name.start:mb.name.end], name))
		if !same {
			continue
		}
		for g := range numGroups {
			if g == groupDup {
				continue
			}
			lo, hi := mb.recs[g][0], mb.recs[g][1]
			if n := hi - lo; n > 0 {
				d.find.recs[g] = append(d.find.recs[g][:lo], d.find.recs[g][hi:]...)
				for j := i + 1; j < len(d.dups.members); j++ {
					d.dups.members[j].recs[g][0] -= n
					d.dups.members[j].recs[g][1] -= n
				}
			}
		}
		// fatal errors raised inside the discarded value go too (those of
		// the root metadata and of embedded resources; a number too large
		// for float64 is fatal wherever it is, and stays)
		lo, hi := mb.fatals[0], mb.fatals[1]
		kept := d.fatals[:lo]
		for _, f := range d.fatals[lo:hi] {
			if f.rank != rankRootMeta && f.rank != rankCoerce {
				kept = append(kept, f)
			}
		}
		removed := hi - lo - (int32(len(kept)) - lo)
		d.fatals = append(kept, d.fatals[hi:]...)
		for j := i + 1; j < len(d.dups.members); j++ {
			d.dups.members[j].fatals[0] -= removed
			d.dups.members[j].fatals[1] -= removed
		}
		if lo, hi := mb.vals[0], mb.vals[1]; hi > lo {
			d.val.errs = append(d.val.errs[:lo], d.val.errs[hi:]...)
			for j := i + 1; j < len(d.dups.members); j++ {
				d.dups.members[j].vals[0] -= hi - lo
				d.dups.members[j].vals[1] -= hi - lo
			}
		}
		if d.val.on {
			d.unkeptMember(of, idx, name)
			if d.val.scaleOn {
				d.retractScale(of.top + 1)
			}
		}
		d.dups.members = append(d.dups.members[:i], d.dups.members[i+1:]...)
		if write && mb.start < d.strm.flushed {
			// written out already (PruneReader): it stays, and the last
			// value follows it (prunedAfterWritten: unless it is pruned)
			return true
		}
		cs, ce := mb.start-d.strm.flushed, mb.end-d.strm.flushed
		if write {
			if d.buf[cs] != ',' && ce < len(d.buf) && d.buf[ce] == ',' {
				ce++ // the first member: drop the comma after it
			}
			d.buf = append(d.buf[:cs], d.buf[ce:]...)
		}
		n := ce - cs
		cs, ce = cs+d.strm.flushed, ce+d.strm.flushed
		for j := i; j < len(d.dups.members); j++ {
			if write && d.dups.members[j].start < ce {
				d.dups.members[j].start = cs // its leading comma was cut
			} else {
				d.dups.members[j].start -= n
			}
			d.dups.members[j].end -= n
		}
		return
	}
	return false
}
