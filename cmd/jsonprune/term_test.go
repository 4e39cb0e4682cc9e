package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The null device is a character device but no terminal: a run whose
// standard error goes there draws no progress bar (and lists no sizes for
// one).
func TestIsTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Errorf("%s is a terminal", os.DevNull)
	}
	if showProgress(&options{progress: "auto"}, null) {
		t.Errorf("--progress auto shows a bar on %s", os.DevNull)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a regular file is a terminal")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if isTerminal(w) {
		t.Error("a pipe is a terminal")
	}
	if isTerminal(struct{}{}) {
		t.Error("a value that is no file is a terminal")
	}
	if runtime.GOOS != "linux" {
		return
	}
	// the master side of a pseudo-terminal answers as a terminal does
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Logf("no pseudo-terminal to check a terminal with: %v", err)
		return
	}
	defer pty.Close()
	if !isTerminal(pty) {
		t.Error("a pseudo-terminal is not a terminal")
	}
}
