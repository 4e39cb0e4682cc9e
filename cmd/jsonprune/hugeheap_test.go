package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLargeRun(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.yaml")
	big := filepath.Join(dir, "big.json")
	os.WriteFile(small, []byte("kind: A\n"), 0o644)
	os.WriteFile(big, make([]byte, 4<<20), 0o644)
	many := make([]string, 64)
	for i := range many {
		many[i] = small
	}
	for _, c := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"-"}, false},
		{[]string{small}, false},
		{[]string{small, filepath.Join(dir, "missing.yaml")}, false},
		{many[:63], false},
		{many, true},
		{[]string{dir}, true},
		{[]string{"-", big}, true},
	} {
		if got := largeRun(c.args); got != c.want {
			t.Errorf("largeRun(%d args, %q...) = %v, want %v", len(c.args), c.args, got, c.want)
		}
	}
}
