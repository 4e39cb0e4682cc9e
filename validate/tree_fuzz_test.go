package validate

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// byteSource reads choices from fuzz input; past its end every choice is 0.
type byteSource struct {
	b []byte
	i int
}

func (s *byteSource) next(n int) int {
	if s.i >= len(s.b) || n <= 0 {
		return 0
	}
	c := int(s.b[s.i])
	s.i++
	return c % n
}

var fuzzKeyPool = []string{"a", "b", "c"}

// fuzzTree builds a tree from the input; junctors only when withJunctors.
func fuzzTree(s *byteSource, depth int, withJunctors bool) *Tree {
	types := []string{"", "string", "integer", "number", "boolean", "object", "array"}
	n := Node{Type: types[s.next(len(types))], Nullable: s.next(4) == 0, Keywords: kw{}}
	if s.next(6) == 0 {
		n.IntOrString, n.Type = true, ""
	}
	switch s.next(12) {
	case 0:
		n.Keywords["maxLength"] = int64(s.next(4))
	case 1:
		n.Keywords["minLength"] = int64(s.next(4))
	case 2:
		n.Pattern = []string{"^a", "b$", "(?!x)"}[s.next(3)]
	case 3:
		n.Format = []string{"date", "int32", "uuid", "float", "byte"}[s.next(5)]
	case 4:
		n.Keywords["minimum"] = []any{int64(0), 0.5, int64(3)}[s.next(3)]
		n.Keywords["exclusiveMinimum"] = s.next(2) == 0
	case 5:
		n.Keywords["maximum"] = []any{int64(2), 2.5, 1e21}[s.next(3)]
	case 6:
		n.Keywords["multipleOf"] = []any{int64(2), 0.5, 0.0}[s.next(3)]
	case 7:
		n.Keywords["enum"] = []any{"a", int64(1), 1.5, true, nil, map[string]any{"a": int64(1)}, []any{"a"}}[s.next(7):]
	case 8:
		n.Keywords["minItems"], n.Keywords["maxItems"] = int64(s.next(2)), int64(s.next(3))
	case 9:
		n.Keywords["minProperties"], n.Keywords["maxProperties"] = int64(s.next(2)), int64(s.next(3))
	case 10:
		n.Keywords["required"] = []any{fuzzKeyPool[s.next(3)], fuzzKeyPool[s.next(3)]}
	case 11:
		n.Keywords["uniqueItems"] = true
	}
	t := &Tree{}
	if depth > 0 {
		switch s.next(4) {
		case 0:
			t.Properties = map[string]*Tree{}
			for _, k := range fuzzKeyPool {
				if s.next(2) == 0 {
					t.Properties[k] = fuzzTree(s, depth-1, withJunctors)
				}
			}
		case 1:
			if s.next(2) == 0 {
				t.AdditionalProperties = fuzzTree(s, depth-1, withJunctors)
			} else {
				n.AdditionalPropertiesFalse = true
			}
		case 2:
			t.Items = fuzzTree(s, depth-1, withJunctors)
			t.ListType = []string{"", "set", "map", "atomic"}[s.next(4)]
			t.ListMapKeys = fuzzKeyPool[:s.next(3)]
		}
		if withJunctors {
			for k := s.next(3); k > 0; k-- {
				t.AnyOf = append(t.AnyOf, fuzzTree(s, depth-1, true))
			}
			for k := s.next(3); k > 0; k-- {
				t.OneOf = append(t.OneOf, fuzzTree(s, depth-1, true))
			}
			for k := s.next(3); k > 0; k-- {
				t.AllOf = append(t.AllOf, fuzzTree(s, depth-1, true))
			}
			if s.next(3) == 0 {
				t.Not = fuzzTree(s, depth-1, true)
			}
		}
	}
	r, err := Compile(n)
	if err != nil {
		panic(err)
	}
	t.Rules = r
	return t
}

func fuzzValue(s *byteSource, depth int) any {
	switch s.next(9) {
	case 0:
		return nil
	case 1:
		return s.next(2) == 0
	case 2:
		return int64(s.next(256) - 100)
	case 3:
		return []float64{0.5, 1.0, 2.5, 1e21, -0.25, 3}[s.next(6)]
	case 4, 5:
		return []string{"", "a", "ab", "abc", "2020-01-01", "b", "x"}[s.next(7)]
	case 6:
		a := []any{}
		if depth > 0 {
			for k := s.next(4); k > 0; k-- {
				a = append(a, fuzzValue(s, depth-1))
			}
		}
		return a
	default:
		m := map[string]any{}
		if depth > 0 {
			for _, k := range []string{"a", "b", "c", "d"} {
				if s.next(2) == 0 {
					m[k] = fuzzValue(s, depth-1)
				}
			}
		}
		return m
	}
}

// perNode validates v against a tree without junctors with the per-node
// checks alone, as a walker composes them (the package documentation's
// order), keys sorted.
func perNode(t *Tree, path string, v any) jperrors.FieldErrors {
	var r *Rules
	if t != nil {
		r = t.Rules
	}
	var errs jperrors.FieldErrors
	switch x := v.(type) {
	case map[string]any:
		errs = r.AppendTypeErrors(errs, path, Scalar{Kind: Object})
		errs = r.AppendEnumErrors(errs, path, v)
		errs = r.AppendObjectErrors(errs, path, len(x))
		keys := sortedKeys(x)
		if r.AdditionalPropertiesFalse() {
			for _, k := range keys {
				if _, ok := t.Properties[k]; !ok {
					errs = append(errs, ForbiddenProperty(path, k))
				}
			}
		} else if t != nil && t.AdditionalProperties != nil {
			for _, k := range keys {
				if _, ok := t.Properties[k]; !ok {
					errs = append(errs, perNode(t.AdditionalProperties, path+"."+k, x[k])...)
				}
			}
		}
		for _, k := range keys {
			if p, ok := t.Properties[k]; ok {
				errs = append(errs, perNode(p, childPath(path, k), x[k])...)
			}
		}
		for _, k := range r.Required() {
			if _, ok := x[k]; !ok {
				errs = append(errs, RequiredError(path, k))
			}
		}
	case []any:
		errs = r.AppendTypeErrors(errs, path, Scalar{Kind: Array})
		if t != nil && t.Items != nil {
			for i, e := range x {
				errs = append(errs, perNode(t.Items, path+"["+strconv.Itoa(i)+"]", e)...)
			}
		}
		errs = r.AppendArrayErrors(errs, path, len(x))
		errs = r.AppendUniqueErrors(errs, path, x)
		errs = r.AppendEnumErrors(errs, path, v)
	default:
		s, _ := ScalarOf(v)
		errs = r.AppendErrors(errs, path, s)
	}
	return errs
}

// FuzzTree: Validate, Junctors and ListTypes do not panic on any tree and
// value; without junctors Validate equals the per-node checks composed by
// a walker; Valid() agrees with the error list; a streaming merge of
// Junctors equals Validate on scalars.
func FuzzTree(f *testing.F) {
	f.Add([]byte{}, []byte{})
	f.Add([]byte{5, 0, 0, 1, 2, 3, 4, 5, 6, 7}, []byte{7, 0, 2, 3, 1})
	f.Add([]byte{1, 0, 3, 3, 2, 1, 1, 1, 0, 0, 9}, []byte{6, 1, 4, 4, 2, 0})
	f.Fuzz(func(t *testing.T, schema, value []byte) {
		v := fuzzValue(&byteSource{b: value}, 3)
		plain := fuzzTree(&byteSource{b: schema}, 3, false)
		got := plain.Validate("spec.x", v).Strings()
		// the server de-duplicates by message (required: [b, b] reports b once)
		var want []string
		for _, e := range perNode(plain, "spec.x", v).Strings() {
			if !slices.Contains(want, e) {
				want = append(want, e)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("value %#v:\n Validate %q\n per node %q", v, got, want)
		}
		_ = plain.ListTypes("spec.x", v)
		j := fuzzTree(&byteSource{b: schema}, 2, true)
		res := j.Eval("", v)
		if res.Valid() != (len(res.Errors) == 0) || len(res.Keys) != len(res.Errors) {
			t.Fatal("inconsistent result")
		}
		_ = j.Junctors("", v)
		// dry evaluation of branches changes nothing: the same errors and
		// count as the full evaluation, and dry's own verdict agrees
		dryRes := j.Eval("spec.x", v)
		noDry = true
		fullRes := j.Eval("spec.x", v)
		noDry = false
		if g, w := dryRes.Errors.Strings(), fullRes.Errors.Strings(); !slices.Equal(g, w) || dryRes.MatchCount != fullRes.MatchCount {
			t.Fatalf("value %#v: with dry branches %q (%d), full %q (%d)", v, g, dryRes.MatchCount, w, fullRes.MatchCount)
		}
		if g, w := j.Validate("spec.x", v).Strings(), fullRes.Errors.Strings(); !slices.Equal(g, w) {
			t.Fatalf("value %#v: Validate %q, Eval %q", v, g, w)
		}
		if c, ok := j.dry(v); c != fullRes.MatchCount || ok != fullRes.Valid() {
			t.Fatalf("value %#v: dry gives %d %v, full %d %v", v, c, ok, fullRes.MatchCount, fullRes.Valid())
		}
		_ = j.ListTypes("", v)
		// a scalar of a kind the tree passes whatever its value passes
		if s, ok := ScalarOf(v); ok && j.ScalarKindsPassing()&(1<<s.Kind) != 0 && !fullRes.Valid() {
			t.Fatalf("value %#v: ScalarKindsPassing %b, but %q", v, j.ScalarKindsPassing(), fullRes.Errors.Strings())
		}
		if s, ok := ScalarOf(v); ok && s.Kind != Object && s.Kind != Array && s.Kind != Null {
			r := j.Rules
			m := &Result{}
			for _, e := range r.AppendTypeErrors(nil, "", s) {
				m.Add(e, r.MessageKey("", s.Kind, e))
			}
			jr := j.JunctorResult("", v)
			for i, e := range jr.Errors {
				m.Add(e, jr.Keys[i])
			}
			if r != nil {
				for _, e := range r.AppendErrors(nil, "", s) {
					m.Add(e, r.MessageKey("", s.Kind, e))
				}
			}
			if g, w := m.Errors.Strings(), res.Errors.Strings(); !slices.Equal(g, w) {
				t.Fatalf("streaming merge %q, Validate %q", g, w)
			}
		}
	})
}

// TestScalarKindsPassing: on many generated trees with junctors, a scalar
// of a kind ScalarKindsPassing gives passes Validate; and the kinds are
// given for some trees.
func TestScalarKindsPassing(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	some := 0
	for range 50000 {
		schema := make([]byte, 40)
		for i := range schema {
			schema[i] = byte(r.IntN(256))
		}
		j := fuzzTree(&byteSource{b: schema}, 2, true)
		kinds := j.ScalarKindsPassing()
		if kinds != 0 && j.HasJunctors() {
			some++
		}
		for _, v := range []any{true, false, int64(0), int64(1), int64(-5), int64(3), int64(1 << 40), "", "a", "ab", "abc", "b", "x", "2020-01-01"} {
			s, _ := ScalarOf(v)
			if kinds&(1<<s.Kind) != 0 {
				if errs := j.Validate("spec.x", v); len(errs) > 0 {
					t.Fatalf("%#v: ScalarKindsPassing %b, but %q", v, kinds, errs.Strings())
				}
			}
		}
	}
	if some < 100 {
		t.Errorf("only %d trees with junctors pass some kind", some)
	}
	t.Logf("%d trees with junctors pass some kind", some)
}
