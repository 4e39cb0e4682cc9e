package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a", "b", "f")
	if err := Write(p, []byte("head\n"), nil, []byte("body")); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(p); err != nil || string(got) != "head\nbody" {
		t.Fatalf("read back %q, %v", got, err)
	}
	if err := Write(p, []byte("second")); err != nil { // replaces
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "second" {
		t.Fatalf("after a second write: %q", got)
	}
	// a rename onto a directory fails: the file is as it was, no temporary file is left
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d", "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join(dir, "d"), []byte("x")); err == nil {
		t.Fatal("a write onto a non-empty directory succeeded")
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "a" && e.Name() != "d" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
