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
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{`"a b"`, `"x, y"`, `": "`, `"{ }"`, `"\" "`, `"\\"`, `" "`, `"\t"`, "1", "true", "null", `"é ü"`}
	ws := []string{"", "", "", " ", "  ", "\n", "\t"}
	var value func(b *strings.Builder, depth int)
	value = func(b *strings.Builder, depth int) {
		sp := func() { b.WriteString(ws[rng.IntN(len(ws))]) }
		if depth > 3 || rng.IntN(3) == 0 {
			b.WriteString(words[rng.IntN(len(words))])
			return
		}
		obj := rng.IntN(2) == 0
		b.WriteString(map[bool]string{true: "{", false: "["}[obj])
		for i := range rng.IntN(4) {
			if i > 0 {
				sp()
				b.WriteByte(',')
			}
			sp()
			if obj {
				b.WriteString(words[rng.IntN(6)])
				sp()
				b.WriteByte(':')
				sp()
			}
			value(b, depth+1)
			sp()
		}
		b.WriteString(map[bool]string{true: "}", false: "]"}[obj])
	}
	for range 20000 {
		var b strings.Builder
		value(&b, 0)
		js := []byte(b.String())
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
	rng := rand.New(rand.NewPCG(3, 4))
	keys := []string{`"metadata"`, `"name"`, `"namespace"`, `"spec"`, `"nam\u0065"`, `"a\"b"`, `"items"`}
	scalars := []string{`"w"`, `"ns-1"`, `"x y"`, `"\" }"`, `"\\"`, `"é"`, "\"\xff\"", `"a\u0041"`, "1", "-2.5e3", "true", "null", `""`}
	ws := []string{"", "", "", " ", "\n", "\t", "\r\n"}
	var value func(b *strings.Builder, depth int)
	value = func(b *strings.Builder, depth int) {
		sp := func() { b.WriteString(ws[rng.IntN(len(ws))]) }
		if depth > 3 || rng.IntN(3) == 0 {
			b.WriteString(scalars[rng.IntN(len(scalars))])
			return
		}
		obj := depth < 2 || rng.IntN(3) > 0
		b.WriteString(map[bool]string{true: "{", false: "["}[obj])
		for i := range rng.IntN(5) {
			if i > 0 {
				sp()
				b.WriteByte(',')
			}
			sp()
			if obj {
				b.WriteString(keys[rng.IntN(len(keys))])
				sp()
				b.WriteByte(':')
				sp()
			}
			value(b, depth+1)
			sp()
		}
		b.WriteString(map[bool]string{true: "}", false: "]"}[obj])
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
		var b strings.Builder
		value(&b, 0)
		check([]byte(b.String()))
	}
	t.Logf("declined %d of 30000", declined)
	if declined > 20000 {
		t.Errorf("quickNames declined %d of 30000", declined)
	}
}
