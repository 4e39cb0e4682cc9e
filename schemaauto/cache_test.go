package schemaauto

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// TestCacheCorpus: every corpus CRD read back from the cache is the CRD
// read from its YAML, in every field, and (nearly) all are cached.
func TestCacheCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	c := NewCache(t.TempDir())
	cached, n := 0, 0
	for _, f := range corpusCRDFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ix, _, ok := IndexCRDs(data)
		if !ok {
			continue
		}
		for _, e := range ix {
			doc := data[e.Start:e.End]
			want, err := ParseCRDs(doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, pass := range []string{"cold", "warm"} {
				got, err := c.ParseCRD(doc)
				if err != nil || !reflect.DeepEqual(got, want[0]) {
					t.Fatalf("%s, %s: %v; not the CRD parsed from YAML", f, pass, err)
				}
			}
			n++
			if _, hit := c.get(cacheKey(doc)); hit {
				cached++
			}
		}
	}
	if cached*20 < n*19 {
		t.Errorf("%d of %d CRDs cached", cached, n)
	}
	t.Logf("%d of %d CRDs cached", cached, n)
}

func TestCache(t *testing.T) {
	dir := t.TempDir()
	c := NewCache(dir)
	doc := []byte(testIndexCRD)
	want, err := ParseCRDs(doc)
	if err != nil {
		t.Fatal(err)
	}
	// concurrent runs: each gets the CRD, the file is whole
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got, err := NewCache(dir).ParseCRD(doc); err != nil || !reflect.DeepEqual(got, want[0]) {
				t.Errorf("concurrent: %v", err)
			}
		}()
	}
	wg.Wait()
	p := c.path(cacheKey(doc))
	if _, hit := c.get(cacheKey(doc)); !hit {
		t.Fatal("not cached")
	}
	// a corrupt file is a miss, and is written anew
	for _, bad := range []string{"", "garbage", cacheMagic + "00\n{}", "jsonprune-crd-json 1 x\n{\"apiVersion\":1}"} {
		if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := c.ParseCRD(doc); err != nil || !reflect.DeepEqual(got, want[0]) {
			t.Errorf("corrupt %q: %v", bad, err)
		}
		if _, hit := c.get(cacheKey(doc)); !hit {
			t.Errorf("corrupt %q: not written anew", bad)
		}
	}
	// a body that does not match its hash
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(data), "foos", "bars", 1)), 0o644)
	if _, hit := c.get(cacheKey(doc)); hit {
		t.Error("a body that does not match its hash is read")
	}
	// what the JSON parser would not read back as it is is not cached
	for _, c := range []struct {
		v    any
		want bool
	}{
		{map[string]any{"a": []any{int64(1), 1.5, "x", nil, true}}, true},
		{float64(1), false}, // would come back an int64
		{"\xff", false},
		{map[string]any{"\xff": "a"}, false},
		{[]any{uint64(1)}, false},
	} {
		if got := roundTrips(c.v); got != c.want {
			t.Errorf("roundTrips(%#v) = %v", c.v, got)
		}
	}
	// errors are the parser's; no cache directory: no cache
	if _, err := c.ParseCRD([]byte("a: [")); err == nil {
		t.Error("broken YAML: no error")
	}
	if got, err := NewCache("").ParseCRD(doc); err != nil || !reflect.DeepEqual(got, want[0]) && got.Name != "foos.example.com" {
		t.Errorf("no directory: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, cacheKey(doc)[:2])); len(entries) != 1 {
		t.Errorf("%d files in the key's directory (temporary files left?)", len(entries))
	}
}
