package main

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestHasSpace: hasSpace, which passes over the spaces between the words
// of strings, says what scanSpace, which scans every string, says, on
// valid JSON written with and without white space.
func TestHasSpace(t *testing.T) {
	for js, want := range map[string]bool{
		`{"a":"b c"}`:              false,
		`{"a":"b, c: d"}`:          false,
		`{"a":"x { y"}`:            false,
		`{"a": "b c"}`:             true,
		`{"a":"b c" }`:             true,
		`{"a":[1, 2]}`:             true,
		`{"a":[true ,false]}`:      true,
		` {"a":1}`:                 true,
		`{"a":1} `:                 true,
		`{"a":"\" x \""}`:          false,
		`{"a":"\\"  ,"b":"y z"}`:   true,
		"{\"a\":1,\n\"b\":2}":      true,
		`{"a":"line\nbreak x y"}`:  false,
		`{"a":"x  y","b":"  "}`:    false,
		`{"a":" x","b":"y "}`:      false,
		`{"a":"tab\t","b":[" "]}`:  false,
		`{"a":"tab\t","b":[" "] }`: true,
	} {
		if got := hasSpace([]byte(js)); got != want || scanSpace([]byte(js)) != want {
			t.Errorf("hasSpace(%s) = %v, scanSpace %v, want %v", js, got, scanSpace([]byte(js)), want)
		}
	}
	words := []string{`"a b"`, `"x, y"`, `": "`, `"{ }"`, `"\" "`, `"\\"`, `" "`, `"\t"`, "1", "true", "null", `"é ü"`}
	g := jsonGen{
		rng:     rand.New(rand.NewPCG(1, 2)),
		names:   words[:6],
		scalars: words,
		ws:      []string{"", "", "", " ", "  ", "\n", "\t"},
		members: 4,
		object:  func(_ int, rng *rand.Rand) bool { return rng.IntN(2) == 0 },
	}
	for range 20000 {
		js := g.text()
		if hasSpace(js) != scanSpace(js) {
			t.Fatalf("hasSpace(%s) = %v, scanSpace %v", js, hasSpace(js), scanSpace(js))
		}
	}
}

// TestQuickNames: quickNames reads the namespace and name nameReader
// reads, on valid JSON objects with and without white space, escapes,
// metadata repeated, not an object, or nested below the root, names and
// namespaces of every type; where it declines (escapes, invalid UTF-8),
// it leaves the names alone.
func TestQuickNames(t *testing.T) {
	g := jsonGen{
		rng:     rand.New(rand.NewPCG(3, 4)),
		names:   []string{`"metadata"`, `"name"`, `"namespace"`, `"spec"`, `"nam\u0065"`, `"a\"b"`, `"items"`},
		scalars: []string{`"w"`, `"ns-1"`, `"x y"`, `"\" }"`, `"\\"`, `"é"`, "\"\xff\"", `"a\u0041"`, "1", "-2.5e3", "true", "null", `""`},
		ws:      []string{"", "", "", " ", "\n", "\t", "\r\n"},
		members: 5,
		object:  func(depth int, rng *rand.Rand) bool { return depth < 2 || rng.IntN(3) > 0 },
	}
	var nr nameReader
	declined := 0
	check := func(js []byte) {
		t.Helper()
		want := typeMeta{name: "keep", namespace: "keep"}
		nr.read(js, &want)
		got := typeMeta{name: "keep", namespace: "keep"}
		if !quickNames(js, &got) {
			declined++
			if got.name != "keep" || got.namespace != "keep" {
				t.Fatalf("quickNames(%s) declined but set %q %q", js, got.namespace, got.name)
			}
			return
		}
		if got != want {
			t.Fatalf("quickNames(%s) = %q %q, nameReader %q %q", js, got.namespace, got.name, want.namespace, want.name)
		}
	}
	for _, js := range []string{
		`{"metadata":{"name":"a","namespace":"b"}}`,
		`{"metadata":{"name":"a"},"metadata":{"namespace":"b"}}`,
		`{"metadata":{"name":"a"},"metadata":5}`,
		`{"metadata":{"name":{"x":"y"},"namespace":"n"},"spec":{"metadata":{"name":"no"}}}`,
		` { "metadata" : { "name" : "a" , "name" : "b" } , "x" : [ 1 , { } ] } `,
		`{"spec":[1,"]",{"a":"}"}],"metadata":{"labels":{"name":"no"},"name":"yes"}}`,
		`[1]`, `"s"`, `{}`, `{"metadata":{}}`,
	} {
		check([]byte(js))
	}
	for range 30000 {
		check(g.text())
	}
	t.Logf("declined %d of 30000", declined)
	if declined > 20000 {
		t.Errorf("quickNames declined %d of 30000", declined)
	}
}

// jsonGen writes random JSON texts of its names, scalars and white space,
// nested at most four deep: a value is a scalar one time in three (always
// below depth 3), otherwise an object if object says so, else an array, of
// fewer than members members.
type jsonGen struct {
	rng                *rand.Rand
	names, scalars, ws []string
	members            int
	object             func(depth int, rng *rand.Rand) bool
}

func (g *jsonGen) text() []byte {
	var b strings.Builder
	g.value(&b, 0)
	return []byte(b.String())
}

func (g *jsonGen) value(b *strings.Builder, depth int) {
	sp := func() { b.WriteString(g.ws[g.rng.IntN(len(g.ws))]) }
	if depth > 3 || g.rng.IntN(3) == 0 {
		b.WriteString(g.scalars[g.rng.IntN(len(g.scalars))])
		return
	}
	obj := g.object(depth, g.rng)
	b.WriteString(map[bool]string{true: "{", false: "["}[obj])
	for i := range g.rng.IntN(g.members) {
		if i > 0 {
			sp()
			b.WriteByte(',')
		}
		sp()
		if obj {
			b.WriteString(g.names[g.rng.IntN(len(g.names))])
			sp()
			b.WriteByte(':')
			sp()
		}
		g.value(b, depth+1)
		sp()
	}
	b.WriteString(map[bool]string{true: "}", false: "]"}[obj])
}
