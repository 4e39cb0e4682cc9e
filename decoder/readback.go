package decoder

import (
	"bytes"
	"strconv"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/validate"
)

// readBack reads a value back from the output (valid JSON as the decoder
// wrote it) as the reference's Go values (map[string]any, []any, string,
// int64 or float64, bool, nil), without allocating in steady state: its
// maps and slices are reused from document to document, its strings are
// views of the output (or of a scratch buffer for those with escapes), and
// its numbers and strings are boxed into interfaces whose data point into
// arenas the reader owns. Such a value is valid only until the next read
// and must not be kept: the checks that run on it keep nothing when the
// value is valid, and a value that fails is read again by jsonvalue.Parse
// (valFrame.enum) for the errors to keep.
type readBack struct {
	maps   []map[string]any
	slices [][]any
	nmaps  int
	nslice int
	strs   []string
	ints   []int64
	floats []float64
	esc    []byte // unquoted strings with escapes
}

// eface is the layout of an interface{} (the runtime's eface).
type eface struct {
	typ, data unsafe.Pointer
}

func typeWord(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }

var (
	stringType  = typeWord("")
	int64Type   = typeWord(int64(0))
	float64Type = typeWord(float64(0))
	sliceType   = typeWord([]any(nil))
)

// box is an interface of type typ whose data is p (not copied).
func box(typ, p unsafe.Pointer) any {
	var v any
	e := (*eface)(unsafe.Pointer(&v))
	e.typ, e.data = typ, p
	return v
}

func (r *readBack) reset() {
	r.nmaps, r.nslice = 0, 0
	r.strs, r.ints, r.floats, r.esc = r.strs[:0], r.ints[:0], r.floats[:0], r.esc[:0]
}

// value reads the value at b[i:]; ok is false for what jsonvalue.Parse
// would refuse (a number that overflows) or not read the same way.
func (r *readBack) value(b []byte, i int) (v any, end int, ok bool) {
	i = skipWS(b, i)
	if i >= len(b) {
		return nil, i, false
	}
	switch c := b[i]; c {
	case 'n':
		return nil, i + 4, true
	case 't':
		return true, i + 4, true
	case 'f':
		return false, i + 5, true
	case '"':
		end = stringEndUnchecked(b, i+1)
		s, ok := r.str(b[i:end])
		if !ok {
			return nil, end, false
		}
		r.strs = append(r.strs, s)
		return box(stringType, unsafe.Pointer(&r.strs[len(r.strs)-1])), end, true
	case '{':
		m := r.newMap()
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == '}' {
			return m, i + 1, true
		}
		for i < len(b) {
			i = skipWS(b, i)
			if i >= len(b) || b[i] != '"' {
				return nil, i, false
			}
			kend := stringEndUnchecked(b, i+1)
			k, ok := r.str(b[i:kend])
			if !ok {
				return nil, i, false
			}
			i = skipWS(b, kend)
			if i >= len(b) || b[i] != ':' {
				return nil, i, false
			}
			var e any
			e, i, ok = r.value(b, i+1)
			if !ok {
				return nil, i, false
			}
			m[k] = e // last wins, as the reference's map decoding
			i = skipWS(b, i)
			if i < len(b) && b[i] == ',' {
				i++
				continue
			}
			if i < len(b) && b[i] == '}' {
				return m, i + 1, true
			}
			return nil, i, false
		}
		return nil, i, false
	case '[':
		k := r.nslice
		r.nslice++
		if k == len(r.slices) {
			r.slices = append(r.slices, nil)
		}
		a := r.slices[k][:0]
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == ']' {
			r.slices[k] = a
			return box(sliceType, unsafe.Pointer(&r.slices[k])), i + 1, true
		}
		for i < len(b) {
			var e any
			e, i, ok = r.value(b, i)
			if !ok {
				return nil, i, false
			}
			a = append(a, e)
			i = skipWS(b, i)
			if i < len(b) && b[i] == ',' {
				i++
				continue
			}
			if i < len(b) && b[i] == ']' {
				r.slices[k] = a // keeps the capacity for the next read
				// boxed from r.slices (a grown r.slices leaves this one on
				// the array it points into; no read writes slot k twice)
				return box(sliceType, unsafe.Pointer(&r.slices[k])), i + 1, true
			}
			return nil, i, false
		}
		return nil, i, false
	default:
		end = i
		for end < len(b) && (b[end] >= '0' && b[end] <= '9' || b[end] == '-' || b[end] == '+' || b[end] == '.' || b[end] == 'e' || b[end] == 'E') {
			end++
		}
		lit := b[i:end]
		s := unsafe.String(unsafe.SliceData(lit), len(lit))
		if !bytes.ContainsAny(lit, ".eE") { // jsonvalue.ParseNumber's ParseInt would fail on an exponent
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				r.ints = append(r.ints, n)
				return box(int64Type, unsafe.Pointer(&r.ints[len(r.ints)-1])), end, true
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, end, false // out of range: jsonvalue.Parse decides
		}
		r.floats = append(r.floats, f)
		return box(float64Type, unsafe.Pointer(&r.floats[len(r.floats)-1])), end, true
	}
}

// str is the content of a quoted string: a view of q, or, with escapes,
// of the unquoted text in r.esc (a grown r.esc leaves the earlier views
// on the array they point into).
func (r *readBack) str(q []byte) (string, bool) {
	in := q[1 : len(q)-1]
	if bytes.IndexByte(in, '\\') < 0 && !hasEscapeOrHigh(in) {
		return unsafe.String(unsafe.SliceData(in), len(in)), true
	}
	start := len(r.esc)
	esc, err := jsontext.AppendUnquote(r.esc, q)
	if err != nil {
		return "", false
	}
	r.esc = esc
	u := esc[start:]
	return unsafe.String(unsafe.SliceData(u), len(u)), true
}

func (r *readBack) newMap() map[string]any {
	if r.nmaps == len(r.maps) {
		r.maps = append(r.maps, map[string]any{})
	}
	m := r.maps[r.nmaps]
	r.nmaps++
	clear(m)
	return m
}

// scalar is v as an interface without allocating: a string views v.Str,
// numbers are boxed from the arenas (valid until the next reset).
func (r *readBack) scalar(v validate.Scalar) any {
	switch v.Kind {
	case validate.String:
		r.strs = append(r.strs, unsafe.String(unsafe.SliceData(v.Str), len(v.Str)))
		return box(stringType, unsafe.Pointer(&r.strs[len(r.strs)-1]))
	case validate.Int:
		r.ints = append(r.ints, v.Int)
		return box(int64Type, unsafe.Pointer(&r.ints[len(r.ints)-1]))
	case validate.Float:
		r.floats = append(r.floats, v.Float)
		return box(float64Type, unsafe.Pointer(&r.floats[len(r.floats)-1]))
	}
	return v.Value()
}

// listTypeValid decides, without allocating, whether a list-type set or
// map has no duplicate (the server's validateListSetsAndMaps, which
// validate.ListTypeErrors reproduces): decided is false for what it
// leaves to ListTypeErrors (long lists, compound set items or key values,
// float key values of a multi-key map, items that are no objects).
// Scalars are equal as the server's map keys are: same Go type and value.
func listTypeValid(listType string, mapKeys []string, items []any) (valid, decided bool) {
	const maxPairs = 128 // items compared pairwise
	if len(items) <= 1 {
		return true, listType == "set" // a map list checks its items' kinds first
	}
	if len(items) > maxPairs {
		return false, false
	}
	scalar := func(x any) bool {
		switch x.(type) {
		case nil, bool, string, int64, float64:
			return true
		}
		return false
	}
	if listType == "set" {
		for _, x := range items {
			if !scalar(x) {
				return false, false
			}
		}
		for i := range items {
			for j := range i {
				if items[i] == items[j] {
					return false, true
				}
			}
		}
		return true, true
	}
	for _, x := range items {
		if _, ok := x.(map[string]any); !ok {
			return false, false
		}
	}
	// map: items are equal when they hold the same key fields with equal
	// values (the server compares their JSON: a float equal to an int
	// would be equal there, so floats are left to ListTypeErrors)
	for i := range items {
		mi := items[i].(map[string]any)
		for j := range i {
			mj := items[j].(map[string]any)
			same := true
			for _, f := range mapKeys {
				a, inA := mi[f]
				b, inB := mj[f]
				if !scalar(a) || !scalar(b) {
					return false, false
				}
				if len(mapKeys) > 1 {
					if _, fa := a.(float64); fa {
						return false, false
					}
					if _, fb := b.(float64); fb {
						return false, false
					}
				}
				if inA != inB || inA && a != b {
					same = false
					break
				}
			}
			if same {
				return false, true
			}
		}
	}
	return true, true
}
