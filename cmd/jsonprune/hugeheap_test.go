package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestInputShape(t *testing.T) {
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
		args                []string
		wantLarge, wantMany bool
	}{
		{nil, false, false},
		{[]string{"-"}, false, false},
		{[]string{small}, false, false},
		{[]string{small, filepath.Join(dir, "missing.yaml")}, false, false},
		{many[:63], false, false},
		{many, true, true},
		{[]string{dir}, true, true},
		{[]string{small, dir}, true, true},
		{[]string{"-", big}, true, false},
	} {
		if large, many := inputShape(c.args); large != c.wantLarge || many != c.wantMany {
			t.Errorf("inputShape(%d args, %q...) = %v, %v, want %v, %v", len(c.args), c.args, large, many, c.wantLarge, c.wantMany)
		}
	}
}
