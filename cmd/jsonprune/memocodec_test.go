package main

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json"
)

// sampleMemo has an index of each shape encodeMemo meets: no CRD, several
// versions with each pair of flags, empty strings, negative and large
// numbers.
func sampleMemo() *memoFile {
	return &memoFile{Files: map[string]memoEntry{
		"/crds/a.yaml": {
			Stat: fileStat{Dev: 65024, Ino: 1 << 40, Size: 5180, Mtime: 1795745137764475542, Ctime: -3, RecordedAt: 1795793366216363897},
			OK:   true,
			Size: 5180,
			CRDs: []memoCRD{{
				APIVersion: "apiextensions.k8s.io/v1", Name: "widgets.example.com", Group: "example.com", Kind: "Widget", Plural: "widgets",
				Versions: []memoVersion{{Name: "v1", Served: true, Storage: true}, {Name: "v1beta1", Served: true}, {Name: "v1alpha1", Storage: true}, {Name: "v0"}},
				End:      5180,
				Key:      "9f2c0a0d4d1e2b7c3e5f6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f70819",
			}},
		},
		"/crds/b.json": {Stat: fileStat{Dev: 1, Ino: 2, Size: 0}, Others: 3},
		"/crds/é.yml":  {OK: true, Size: 1 << 30, CRDs: []memoCRD{{Kind: "K"}, {Name: "two", Start: 10, End: 20}}},
	}}
}

func TestMemoCodec(t *testing.T) {
	m := sampleMemo()
	data := encodeMemo(m)
	got, ok := decodeMemo(data)
	if !ok || !reflect.DeepEqual(got, m) {
		t.Fatalf("decodeMemo(encodeMemo(m)) = %+v, %v\nwant %+v", got, ok, m)
	}
	if !bytes.Equal(encodeMemo(got), data) {
		t.Error("encoding the decoded index again gave other bytes")
	}
	// every cut of it is no index, nor is anything after it or an older
	// format's file
	for n := range len(data) {
		if m, ok := decodeMemo(data[:n]); ok || m != nil {
			t.Fatalf("the first %d of %d bytes decoded", n, len(data))
		}
	}
	for _, bad := range [][]byte{append(data[:len(data):len(data)], 0), []byte(`{"Magic":"jsonprune-crd-index 1","Files":{}}`), nil} {
		if _, ok := decodeMemo(bad); ok {
			t.Errorf("decodeMemo(%.40q) decoded", bad)
		}
	}
}

// TestStatIndexCorruptMemo: an index file that does not decode is no index:
// the files are read and indexed, and the index is written anew.
func TestStatIndexCorruptMemo(t *testing.T) {
	needFileIdentity(t)
	crds := corpusCRDs(t, "cert-manager")
	dir := t.TempDir()
	fresh := indexOf(t, crds, dir)
	p := memoPath(dir, crds)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("no index recorded: %v", err)
	}
	for _, bad := range [][]byte{data[:len(data)/2], bytes.Repeat([]byte{0xff}, 64), append([]byte(memoMagic+"\n"), 0x85, 0x80, 0x80)} {
		if err := os.WriteFile(p, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		got := indexOf(t, crds, dir)
		sameSources(t, fresh, got)
		for _, s := range got {
			if s.Key != "" {
				t.Fatalf("%s: a key from an index that did not decode", s.Where)
			}
		}
		for _, s := range indexOf(t, crds, dir) { // written anew: read from it
			if s.Key == "" {
				t.Fatalf("%s: the index was not written again", s.Where)
			}
		}
	}
}

// FuzzMemoDecode: no input makes decodeMemo panic, and what it decodes
// encodes to an index that decodes to the same.
func FuzzMemoDecode(f *testing.F) {
	f.Add(encodeMemo(sampleMemo()))
	f.Add(encodeMemo(&memoFile{Files: map[string]memoEntry{}}))
	f.Add([]byte(memoMagic + "\n\x01\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, ok := decodeMemo(data)
		if !ok {
			if m != nil {
				t.Fatal("an index from data that did not decode")
			}
			return
		}
		again, ok := decodeMemo(encodeMemo(m))
		if !ok || !reflect.DeepEqual(again, m) {
			t.Fatalf("decoded %+v, encoded and decoded again %+v (%v)", m, again, ok)
		}
	})
}

// BenchmarkMemoDecode decodes the index of the corpus's CRD files, in this
// format and, for comparison, in format 1's JSON (json v2, as readMemo
// did).
func BenchmarkMemoDecode(b *testing.B) {
	crds := corpusCRDs(b, "")
	files, _, err := crdFileList(crds)
	if err != nil {
		b.Fatal(err)
	}
	out := indexFiles(files, 2, nil, true)
	m := &memoFile{Files: map[string]memoEntry{}}
	for i, f := range files {
		if out[i].statOK {
			m.Files[f] = out[i].entry()
		}
	}
	if len(m.Files) == 0 {
		b.Skip("SKIP: no file's stat can be recorded here")
	}
	data := encodeMemo(m)
	b.Run("format-2", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, ok := decodeMemo(data); !ok {
				b.Fatal("did not decode")
			}
		}
	})
	js, err := json.Marshal(m)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("json", func(b *testing.B) {
		b.SetBytes(int64(len(js)))
		for b.Loop() {
			var m memoFile
			if err := json.Unmarshal(js, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
