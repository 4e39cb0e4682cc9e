package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// TestE2ECompiledCache runs the binary on the shared corpus as a tree
// (every CRD under --crd, the resources a file each, the text output with
// its "did you mean" suggestions, and --summary) and as one YAML stream
// (-o ndjson --summary), each with --no-cache, with the cache cold
// (emptied first) and warm: stdout, stderr and the exit status are byte for
// byte the same. The cold run stores every CRD it uses compiled, and the
// schemas the suggestions read (of the CRDs of objects with unknown
// fields); a warm run, whose parsed CRDs are removed from the cache
// first, parses no CRD and writes nothing; without the stored schemas it
// parses the CRDs whose schemas it needs, and stores them. Concurrent cold runs on one cache
// directory give the same output too.
func TestE2ECompiledCache(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	corpus := "../../../shared/corpus"
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("SKIP: the shared corpus is missing (%v): clone it beside the checkout as ../shared", err)
	}
	crds, crs := filepath.Join(corpus, "crds"), filepath.Join(corpus, "crs")
	stream := filepath.Join(t.TempDir(), "stream.yaml")
	writeStream(t, crs, stream)

	run := func(cache string, args ...string) string {
		cmd := exec.Command(binary, args...)
		cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", code, out.String(), errb.String())
	}
	count := func(dir, suffix string) int {
		n := 0
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, suffix) {
				n++
			}
			return nil
		})
		return n
	}
	remove := func(dir, suffix string) {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, suffix) {
				os.Remove(p)
			}
			return nil
		})
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"tree", []string{"--crd", crds, "-R", crs, "--summary", "-j", "1"}},
		{"stream", []string{"--crd", crds, stream, "-o", "ndjson", "--summary", "-j", "1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := run(t.TempDir(), append(c.args, "--no-cache")...)
			suggestions := strings.Count(want, "did you mean")
			if c.name == "tree" && suggestions == 0 {
				t.Errorf("no suggestion in the output: the test does not test that a warm run suggests without the schemas")
			}
			cache := t.TempDir()
			if got := run(cache, c.args...); got != want {
				t.Errorf("cold run differs from --no-cache:\n%s", firstDiff(want, got))
			}
			// the suggestions come from the automata: no schema is
			// stored for them
			compiled, schemas := count(cache, ".auto"), count(cache, ".schema")
			if compiled < 200 || schemas != 0 {
				t.Errorf("cold run: %d CRDs stored compiled, %d schemas stored (want none)", compiled, schemas)
			}
			// warm, without the parsed CRDs: no CRD is parsed, no schema
			// is loaded for the suggestions, and nothing is written
			remove(cache, ".json")
			if got := run(cache, c.args...); got != want {
				t.Errorf("warm run differs from --no-cache:\n%s", firstDiff(want, got))
			}
			if n := count(cache, ".json"); n != 0 || count(cache, ".auto") != compiled || count(cache, ".schema") != 0 {
				t.Errorf("warm run: %d CRDs parsed; %d stored compiled, %d schemas (cold: %d, 0)", n, count(cache, ".auto"), count(cache, ".schema"), compiled)
			}
			t.Logf("%d CRDs stored compiled (for %d suggestions); %d bytes of output", compiled, suggestions, len(want))
		})
	}
	// concurrent cold runs writing the same entries
	t.Run("concurrent", func(t *testing.T) {
		args := []string{"--crd", filepath.Join(crds, "cert-manager"), "-R", filepath.Join(crs, "cert-manager"), "--summary", "-j", "1"}
		want := run(t.TempDir(), append(args, "--no-cache")...)
		cache := t.TempDir()
		got := make([]string, 4)
		var wg sync.WaitGroup
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i] = run(cache, args...)
			}()
		}
		wg.Wait()
		for i, g := range got {
			if g != want {
				t.Errorf("concurrent run %d differs:\n%s", i, firstDiff(want, g))
			}
		}
		tmp := 0
		filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.HasPrefix(d.Name(), ".tmp-") {
				tmp++
			}
			return nil
		})
		if tmp > 0 || count(cache, ".auto") == 0 {
			t.Errorf("%d temporary files left, %d CRDs stored compiled", tmp, count(cache, ".auto"))
		}
		if g := run(cache, args...); g != want {
			t.Errorf("warm run after concurrent runs differs:\n%s", firstDiff(want, g))
		}
	})
}

// writeStream writes every resource file under dir, in name order, as one
// YAML stream.
func writeStream(t *testing.T, dir, out string) {
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	var b bytes.Buffer
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if b.Len() > 0 {
			b.WriteString("---\n")
		}
		b.Write(data)
		if len(data) > 0 && data[len(data)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// firstDiff shows where two outputs part.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(wl), len(gl)) {
		if wl[i] != gl[i] {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, wl[i], gl[i])
		}
	}
	return fmt.Sprintf("%d lines, got %d", len(wl), len(gl))
}
