package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoCgo keeps the command a static binary by default: no package it
// links may need cgo (package net does, for its resolver, wherever cgo is
// on; a dependency on it made every build dynamically linked, about 1 ms
// slower to start, and unable to run without glibc: cmd/jsonprune/README.md,
// "Install").
func TestNoCgo(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the packages with: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}} {{len .CgoFiles}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, cgoFiles, _ := strings.Cut(line, " ")
		n++
		if cgoFiles != "0" || pkg == "net" || pkg == "runtime/cgo" {
			t.Errorf("%s is linked (cgo files: %s): the binary would need cgo where it is on", pkg, cgoFiles)
		}
	}
	if n < 50 {
		t.Fatalf("go list gave %d packages: %s", n, out)
	}
}
