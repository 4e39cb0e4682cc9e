package main

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// walkInputs is listInputs as filepath.WalkDir and a sort of the paths
// give it: the oracle for listDir's one-pass order.
func walkInputs(t *testing.T, a string, recursive, sizes bool) []input {
	var files []input
	err := filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != a && !recursive {
				return filepath.SkipDir
			}
			return nil
		}
		if !hasInputExt(p) {
			return nil
		}
		if !sizes {
			files = append(files, input{name: p, size: -1, regular: d.Type().IsRegular()})
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, input{name: p, size: fi.Size(), regular: fi.Mode().IsRegular()})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	return files
}

func TestListInputs(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{
		"a.yaml", "a-c.yaml", "a/b.yaml", "a/c/d.json", "a/c.yml", "a.b/x.yaml", "a0.yaml",
		"B.YAML", "b/Z.Json.GZ", "b/y.yaml.zst", "b/y2.yaml.zstd", "b/y3.yaml.zst.gz", "b/n.txt", "b/n.gz",
		"c/.hidden.yaml", "c/-.yaml", "c/ä.yaml", "c/a b.yaml", "c/z/z/z/z.yaml", "c/zz.yaml",
		"e/", "readme.md",
	} {
		p = filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, string(filepath.Separator)) {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// a link to a file is listed (not as a regular file), a link to a
	// directory is not followed
	os.Symlink(filepath.Join(root, "a.yaml"), filepath.Join(root, "c", "link.yaml"))
	os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "c", "linkdir"))
	// with one core the walk is one goroutine's; with more, subdirectories
	// are listed beside each other and spliced in
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for _, arg := range []string{root, root + string(filepath.Separator), filepath.Join(root, "a") + string(filepath.Separator) + ".", filepath.Join(root, "c")} {
			for _, recursive := range []bool{false, true} {
				for _, sizes := range []bool{false, true} {
					got, err := listInputs([]string{arg}, recursive, sizes)
					if err != nil {
						t.Fatal(err)
					}
					want := walkInputs(t, arg, recursive, sizes)
					if !reflect.DeepEqual(got, want) {
						t.Errorf("GOMAXPROCS %d: listInputs(%q, recursive %v, sizes %v):\n got %v\nwant %v", procs, arg, recursive, sizes, got, want)
					}
					if recursive && arg == root && len(got) < 15 {
						t.Errorf("listInputs(%q) listed %d files", arg, len(got))
					}
				}
			}
		}
	}
	// the current directory's files are named as WalkDir names them
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(filepath.Join(root, "a"))
	got, _ := listInputs([]string{"."}, true, false)
	if want := walkInputs(t, ".", true, false); !reflect.DeepEqual(got, want) {
		t.Errorf("listInputs(.):\n got %v\nwant %v", got, want)
	}
	// a link to a directory given as an argument gives no files, as with WalkDir
	if got, _ := listInputs([]string{filepath.Join(root, "c", "linkdir")}, true, false); len(got) != 0 {
		t.Errorf("a link to a directory listed %v", got)
	}
	// an unreadable directory fails the listing
	if os.Getuid() > 0 { // not root, and a system with permission bits
		os.Chmod(filepath.Join(root, "b"), 0)
		defer os.Chmod(filepath.Join(root, "b"), 0o755)
		if _, err := listInputs([]string{root}, true, false); err == nil {
			t.Error("an unreadable directory listed")
		}
	}
}

// TestListingFirstError: the error a parallel listing returns is the
// first in path order: that of a subdirectory listed beside it before the
// entry that failed, else the entry's own.
func TestListingFirstError(t *testing.T) {
	done := make(chan struct{})
	close(done)
	errA, errB, own := errors.New("a"), errors.New("b"), errors.New("own")
	subs := []*subListing{{at: 0, done: done}, {at: 2, err: errA, done: done}, {at: 5, err: errB, done: done}}
	for _, c := range []struct {
		at   int
		err  error
		want error
	}{
		{0, own, own},
		{1, own, own},
		{2, own, errA},
		{9, own, errA},
		{9, nil, errA},
	} {
		if got := firstError(subs, c.at, c.err); got != c.want {
			t.Errorf("firstError(at %d, %v) = %v, want %v", c.at, c.err, got, c.want)
		}
	}
	if got := firstError(subs[:1], 9, nil); got != nil {
		t.Errorf("no error: %v", got)
	}
}

func TestHasInputExt(t *testing.T) {
	for name, want := range map[string]bool{
		"a.yaml": true, "a.YML": true, "a.Json": true, "a.json.gz": true, "a.yaml.ZST": true, "a.yml.zstd": true,
		"a.yaml.zst.gz": true, "a.gz": false, "a.txt": false, "yaml": false, ".yaml": true, "a.yaml.bak": false,
		"a.jsonl": false, "a.yamll": false, "a.yam": false,
	} {
		if got := hasInputExt(name); got != want {
			t.Errorf("hasInputExt(%q) = %v, want %v", name, got, want)
		}
		// the old rule: lower-case the name, take the compressions off
		old := strings.ToLower(name)
		for _, z := range []string{".gz", ".zst", ".zstd"} {
			old = strings.TrimSuffix(old, z)
		}
		oldWant := strings.HasSuffix(old, ".json") || strings.HasSuffix(old, ".yaml") || strings.HasSuffix(old, ".yml")
		if oldWant != want {
			t.Errorf("%q: the lower-casing rule says %v", name, oldWant)
		}
	}
}

// BenchmarkListInputs lists the shared corpus's 2,458 custom resources as
// a run over the corpus tree does before its workers start.
func BenchmarkListInputs(b *testing.B) {
	crs := "../../../shared/corpus/crs"
	if _, err := os.Stat(crs); err != nil {
		b.Skipf("SKIP: the shared corpus is missing (%v): clone it beside the checkout as ../shared", err)
	}
	for b.Loop() {
		if in, err := listInputs([]string{crs}, true, false); err != nil || len(in) < 2000 {
			b.Fatal(len(in), err)
		}
	}
}
