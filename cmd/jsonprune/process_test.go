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
