package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/jsonprune/jsonprune/internal/atomicfile"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// The stat-keyed index. A warm run read every CRD file of a --crd directory
// to index it, and each CRD it used once more to hash its text for the
// key of its compiled form in the cache (43 MB on the corpus tree, before
// the first object), and it hashed its own executable to name the cache.
// The index of a --crd path's files is kept in the cache with what a
// file's stat says (device, inode, size, modification and change times):
// a file whose stat is the one recorded is not read to be indexed, and its
// CRDs' keys are the recorded SHA-256 of their texts (the text is read only
// if the compiled form is not in the cache, or to load the CRD's schemas).
// The executable's hash is kept the same way, beside the caches.
//
// A stat is trusted only if the file had not changed for statSettle when
// it was recorded, as git trusts its index: a file written again within the
// same tick of the clock as the recorded write, with the same size, would
// otherwise pass for the one recorded. Writing a file sets its change time
// to the present (touching its modification time back does too), so a
// file changed after it was recorded no longer matches.

// statSettle is how long a file must have been unchanged when its stat is
// recorded for the record to be trusted (tests change it).
var statSettle = 2 * time.Second

// fileStat is what a file's stat says of its identity and content.
type fileStat struct {
	Dev, Ino     uint64
	Size         int64
	Mtime, Ctime int64 // nanoseconds
	RecordedAt   int64 // when it was recorded (nanoseconds)
}

// statOf is the stat of path, taken at now; false where the system's stat
// does not give what a record needs (fileIdentity), and for anything but a
// regular file.
func statOf(path string, now time.Time) (fileStat, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return fileStat{}, false
	}
	st, ok := fileIdentity(fi)
	if !ok {
		return fileStat{}, false
	}
	st.Size, st.RecordedAt = fi.Size(), now.UnixNano()
	return st, true
}

// settled reports whether the file had not changed for statSettle when
// its stat was taken.
func (s fileStat) settled() bool {
	limit := s.RecordedAt - int64(statSettle)
	return s.Mtime < limit && s.Ctime < limit
}

// same reports whether a stat recorded (r) is the file's now (s) and can be
// trusted.
func (r fileStat) same(s fileStat) bool {
	return r.settled() && r.Dev == s.Dev && r.Ino == s.Ino && r.Size == s.Size && r.Mtime == s.Mtime && r.Ctime == s.Ctime
}

// memoFile is the stat-keyed index of one --crd path's files.
type memoFile struct {
	Files map[string]memoEntry // by file name, as listed
}

// memoMagic opens the index's file; format 2 is memocodec.go's.
const memoMagic = "jsonprune-crd-index 2"

// memoEntry is one file's index: what indexFiles found in it.
type memoEntry struct {
	Stat   fileStat
	OK     bool
	Others int
	Size   int
	CRDs   []memoCRD
}

// memoCRD is one IndexedCRD and the key of its text.
type memoCRD struct {
	APIVersion, Name, Group, Kind, Plural string
	Versions                              []memoVersion
	Start, End                            int
	Key                                   string
}

type memoVersion struct {
	Name            string
	Served, Storage bool
}

// memoPath is where the index of a --crd path is kept in the cache
// directory dir ("" for none): a file in memocodec.go's format, named .idx
// (the cache's .json files are parsed CRDs).
func memoPath(dir, path string) string {
	if dir == "" {
		return ""
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, "index", hex.EncodeToString(sum[:10])+".idx")
}

// readMemo reads the index kept at p (nil when there is none or it does not
// read).
func readMemo(p string) *memoFile {
	if p == "" {
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	m, ok := decodeMemo(data)
	if !ok {
		return nil
	}
	return m
}

// lookup returns the index of file recorded for its stat st, if any.
func (m *memoFile) lookup(file string, st fileStat) (indexed, bool) {
	if m == nil {
		return indexed{}, false
	}
	e, ok := m.Files[file]
	if !ok || !e.Stat.same(st) {
		return indexed{}, false
	}
	r := indexed{ok: e.OK, others: e.Others, size: e.Size, stat: e.Stat, statOK: true}
	for _, c := range e.CRDs {
		crd := &schemaauto.CRD{APIVersion: c.APIVersion, Name: c.Name, Group: c.Group, Kind: c.Kind, Plural: c.Plural}
		for _, v := range c.Versions {
			crd.Versions = append(crd.Versions, &schemaauto.Version{Name: v.Name, Served: v.Served, Storage: v.Storage})
		}
		r.ix = append(r.ix, schemaauto.IndexedCRD{CRD: crd, Start: c.Start, End: c.End})
		r.keys = append(r.keys, c.Key)
	}
	return r, true
}

// entry is the record of a file's index r.
func (r *indexed) entry() memoEntry {
	e := memoEntry{Stat: r.stat, OK: r.ok, Others: r.others, Size: r.size}
	for i, x := range r.ix {
		c := memoCRD{APIVersion: x.CRD.APIVersion, Name: x.CRD.Name, Group: x.CRD.Group, Kind: x.CRD.Kind, Plural: x.CRD.Plural, Start: x.Start, End: x.End, Key: r.keys[i]}
		for _, v := range x.CRD.Versions {
			c.Versions = append(c.Versions, memoVersion{Name: v.Name, Served: v.Served, Storage: v.Storage})
		}
		e.CRDs = append(e.CRDs, c)
	}
	return e
}

// writeMemo keeps the index of files (out, in their order) at p, when it
// differs from old: the files whose stat can be trusted.
func writeMemo(p string, old *memoFile, files []string, out []indexed) {
	if p == "" {
		return
	}
	m := memoFile{Files: map[string]memoEntry{}}
	changed := old == nil || len(old.Files) != len(files)
	for i, f := range files {
		r := &out[i]
		if r.err != nil || !r.statOK || !r.stat.settled() || r.ok && len(r.keys) != len(r.ix) {
			changed = true
			continue
		}
		if r.fromMemo {
			m.Files[f] = old.Files[f]
			continue
		}
		changed = true
		m.Files[f] = r.entry()
	}
	if !changed || len(m.Files) == 0 {
		return
	}
	_ = atomicfile.Write(p, encodeMemo(&m)) // on an error, the index is made again next time
}

// textKeys are the keys of the texts of a file's CRDs (data[Start:End]),
// as the cache keys them (the hex SHA-256).
func textKeys(data []byte, ix []schemaauto.IndexedCRD) []string {
	keys := make([]string, len(ix))
	for i, e := range ix {
		sum := sha256.Sum256(data[e.Start:e.End])
		keys[i] = hex.EncodeToString(sum[:])
	}
	return keys
}

// exeMemo is the hash of an executable recorded with its stat.
type exeMemo struct {
	Magic string
	Stat  fileStat
	Hash  string
}

const exeMagic = "jsonprune-exe-hash 1"

// exeHash returns the hex SHA-256 of the executable at exe, read from the
// record kept in dir when the file's stat is the one recorded; else it
// hashes the file and records it.
func exeHash(dir, exe string, hashFile func() (string, bool)) (string, bool) {
	now := time.Now()
	st, statOK := statOf(exe, now)
	abs, _ := filepath.Abs(exe)
	sum := sha256.Sum256([]byte(abs))
	p := filepath.Join(dir, "exe-"+hex.EncodeToString(sum[:10])+".hash")
	if statOK {
		var m exeMemo
		if data, err := os.ReadFile(p); err == nil && json.Unmarshal(data, &m) == nil && m.Magic == exeMagic && len(m.Hash) == 64 && m.Stat.same(st) {
			return m.Hash, true
		}
	}
	h, ok := hashFile()
	if !ok {
		return "", false
	}
	if statOK && st.settled() {
		if st2, ok := statOf(exe, now); ok && st2 == st { // unchanged while hashed
			if data, err := json.Marshal(exeMemo{Magic: exeMagic, Stat: st, Hash: h}); err == nil {
				_ = atomicfile.Write(p, data) // on an error, the index is made again next time
			}
		}
	}
	return h, true
}
