package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/jsonprune/jsonprune/schemaauto"
)

// indexOf indexes the CRDs of path as a run with the cache in dir does.
func indexOf(t *testing.T, path, dir string) []schemaauto.CRDSource {
	t.Helper()
	ld := &crdLoad{jobs: 2, cache: schemaauto.NewCache(dir), cacheDir: func() string { return dir }}
	srcs, err := indexCRDs(path, ld)
	if err != nil {
		t.Fatal(err)
	}
	return srcs
}

// textKey is the key of a source's text, read from its file.
func textKey(t *testing.T, s schemaauto.CRDSource) string {
	t.Helper()
	text, err := s.Text()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(text)
	return hex.EncodeToString(sum[:])
}

// sameSources compares two indexes of the same files: names, versions,
// sizes, files.
func sameSources(t *testing.T, want, got []schemaauto.CRDSource) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("%d CRDs, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(want[i].CRD, got[i].CRD) || want[i].Where != got[i].Where || want[i].Size != got[i].Size {
			t.Errorf("CRD %d: %+v in %s (%d bytes), want %+v in %s (%d bytes)", i, got[i].CRD, got[i].Where, got[i].Size, want[i].CRD, want[i].Where, want[i].Size)
		}
	}
}

// TestStatIndexCorpus: the index of every corpus CRD file read back from
// the stat-keyed index is the index read from the files, and the keys it
// gives are those of the CRDs' texts.
// needFileIdentity skips a test of the stat-keyed index where the
// system's stat cannot key it (statindex_other.go).
func needFileIdentity(t *testing.T) {
	t.Helper()
	fi, err := os.Stat(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := fileIdentity(fi); !ok {
		t.Skip("SKIP: this system's stat gives no inode and change time, so the stat-keyed index is off here")
	}
}

// corpusCRDs is the corpus's CRD directory, or sub-directory sub of it;
// without the shared corpus the test is skipped, saying so.
func corpusCRDs(tb testing.TB, sub string) string {
	tb.Helper()
	crds := filepath.Join("../../../shared/corpus/crds", sub)
	if _, err := os.Stat(crds); err != nil {
		tb.Skipf("SKIP: the shared corpus is missing (%v)", err)
	}
	return crds
}

func TestStatIndexCorpus(t *testing.T) {
	needFileIdentity(t)
	crds := corpusCRDs(t, "")
	dir := t.TempDir()
	fresh := indexOf(t, crds, dir) // records the index
	for _, s := range fresh {
		if s.Key != "" {
			t.Fatalf("%s: a key from an index that was not there", s.Where)
		}
	}
	memo := indexOf(t, crds, dir)
	sameSources(t, fresh, memo)
	for _, s := range memo {
		if s.Key == "" || s.Key != textKey(t, s) {
			t.Errorf("%s %s: key %q, want the text's %q", s.Where, s.CRD.Name, s.Key, textKey(t, s))
		}
	}
	t.Logf("%d CRDs indexed from the stat-keyed index", len(memo))
}

// TestStatIndexChanges: a file changed since it was recorded (in size, or
// written again with its size and modification time kept) is read again; a
// file that had not settled when it was read is not recorded.
func TestStatIndexChanges(t *testing.T) {
	needFileIdentity(t)
	crds := corpusCRDs(t, "cert-manager")
	defer func(d time.Duration) { statSettle = d }(statSettle)
	src := t.TempDir()
	ents, _ := os.ReadDir(crds)
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(crds, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()

	statSettle = time.Hour // nothing settles: nothing recorded
	fresh := indexOf(t, src, dir)
	if _, err := os.Stat(memoPath(dir, src)); err == nil {
		t.Fatal("an index recorded for files that had not settled")
	}

	statSettle = 0
	time.Sleep(20 * time.Millisecond)
	indexOf(t, src, dir)
	memo := indexOf(t, src, dir)
	sameSources(t, fresh, memo)
	for _, s := range memo {
		if s.Key == "" {
			t.Fatalf("%s: not read from the index", s.Where)
		}
	}

	// one file grows, another is written again with its size and
	// modification time: both are read again, the others are not
	grown, rewritten := memo[0].Where, memo[len(memo)-1].Where
	if grown == rewritten {
		t.Fatal("the test needs two files")
	}
	data, _ := os.ReadFile(grown)
	os.WriteFile(grown, append(data, "# more\n"...), 0o644)
	fi, _ := os.Stat(rewritten)
	data, _ = os.ReadFile(rewritten)
	os.WriteFile(rewritten, data, 0o644)
	os.Chtimes(rewritten, fi.ModTime(), fi.ModTime())
	got := indexOf(t, src, dir)
	sameSources(t, indexOf(t, src, t.TempDir()), got)
	for _, s := range got {
		changed := s.Where == grown || s.Where == rewritten
		if changed != (s.Key == "") {
			t.Errorf("%s: key %q (changed: %v)", s.Where, s.Key, changed)
		}
	}
	time.Sleep(20 * time.Millisecond)
	indexOf(t, src, dir)
	for _, s := range indexOf(t, src, dir) {
		if s.Key != textKey(t, s) {
			t.Errorf("%s: key %q after the change, want %q", s.Where, s.Key, textKey(t, s))
		}
	}
}

// TestExeHash: the executable's hash is read from its record while its
// stat is the one recorded, and computed again when it is not.
func TestExeHash(t *testing.T) {
	needFileIdentity(t)
	defer func(d time.Duration) { statSettle = d }(statSettle)
	statSettle = 0
	dir, exe := t.TempDir(), filepath.Join(t.TempDir(), "exe")
	os.WriteFile(exe, []byte("one"), 0o755)
	time.Sleep(20 * time.Millisecond)
	hashed := 0
	hash := func() (string, bool) {
		hashed++
		data, err := os.ReadFile(exe)
		sum := sha256.Sum256(data)
		return hex.EncodeToString(sum[:]), err == nil
	}
	h1, _ := exeHash(dir, exe, hash)
	h2, _ := exeHash(dir, exe, hash)
	if h1 != h2 || hashed != 1 {
		t.Fatalf("hashed %d times (%s, %s), want once", hashed, h1, h2)
	}
	os.WriteFile(exe, []byte("two"), 0o755)
	h3, _ := exeHash(dir, exe, hash)
	if h3 == h1 || hashed != 2 {
		t.Fatalf("changed executable: hashed %d times, %s", hashed, h3)
	}
}
