package yamlbridge

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/yaml11"
	"github.com/jsonprune/jsonprune/schemaauto"
	yaml "go.yaml.in/yaml/v3"
)

// TestCorpusAsYAML is the property test of the bridge: every corpus CR, as JSON (the value the
// Kubernetes YAML path makes of it, marshalled) and as YAML (yaml v3's Marshal of the same value),
// gives the same findings (type, path, message), the same pruned output and the same fatal error;
// so does a variant with an unknown member added to every object. Each YAML finding's line and
// column point at the key it is about. It reads one CR in four (one in twenty with -short), every
// one with JSONPRUNE_FULL_CORPUS=1.
func TestCorpusAsYAML(t *testing.T) {
	root := requireShared(t, "corpus")
	idx, err := os.ReadFile(filepath.Join(root, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var index struct {
		CRs []struct{ File, CRD string } `json:"crs"`
	}
	if err := json.Unmarshal(idx, &index); err != nil {
		t.Fatal(err)
	}
	sets := map[string]*schemaauto.Set{}
	var docs, findings, fatal int
	every := 4
	if testing.Short() {
		every = 20
	}
	if os.Getenv("JSONPRUNE_FULL_CORPUS") == "1" {
		every = 1
	}
	for i, cr := range index.CRs {
		if i%every != 0 {
			continue
		}
		set := sets[cr.CRD]
		if set == nil {
			data, err := os.ReadFile(filepath.Join(root, cr.CRD))
			if err != nil {
				t.Fatal(err)
			}
			crds, err := schemaauto.ParseCRDs(data)
			if err != nil {
				t.Fatalf("%s: %v", cr.CRD, err)
			}
			if set, err = schemaauto.CompileCRDs(crds); err != nil {
				t.Fatalf("%s: %v", cr.CRD, err)
			}
			sets[cr.CRD] = set
		}
		y, err := os.ReadFile(filepath.Join(root, cr.File))
		if err != nil {
			t.Fatal(err)
		}
		vals, err := yaml11.Decode(y, yaml11.Options{})
		if err != nil || len(vals) == 0 {
			t.Fatalf("%s: %v", cr.File, err)
		}
		for _, v := range []any{vals[0], withUnknown(vals[0], 0)} {
			var jb bytes.Buffer
			enc := json.NewEncoder(&jb) // as json.Marshal, but "<" as it is, as the bridge writes it
			enc.SetEscapeHTML(false)
			if err := enc.Encode(v); err != nil {
				t.Fatal(err)
			}
			j := bytes.TrimSuffix(jb.Bytes(), []byte("\n"))
			yv, err := yaml.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			n, f, isFatal := compareJSONAndYAML(t, cr.File, set, j, yv)
			docs += n
			findings += f
			if isFatal {
				fatal++
			}
		}
	}
	t.Logf("%d documents as JSON and as YAML: identical, %d findings located in the YAML, %d fatal", docs, findings, fatal)
}

// withUnknown adds a member "zz-unknown-<depth>" to every object of v.
func withUnknown(v any, depth int) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v)+1)
		for k, e := range v {
			m[k] = withUnknown(e, depth+1)
		}
		m["zz-unknown-"+string(rune('0'+depth%10))] = map[string]any{"a": []any{int64(1), "b"}}
		return m
	case []any:
		a := make([]any, len(v))
		for i, e := range v {
			a[i] = withUnknown(e, depth+1)
		}
		return a
	}
	return v
}

// compareJSONAndYAML decodes the JSON and the YAML form of a document and compares them.
func compareJSONAndYAML(t *testing.T, name string, set *schemaauto.Set, j, y []byte) (docs, located int, fatal bool) {
	t.Helper()
	d := must(decoder.New(set))
	wantOut, wantErr := d.AppendPrune(nil, j)
	want := d.Result().Findings()
	doc, err := Parse(y)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, y)
	}
	gotOut, gotErr := d.AppendPruneSource(nil, doc.Source())
	got := d.Result().Findings()
	if (wantErr == nil) != (gotErr == nil) || wantErr != nil && errMsg(wantErr) != errMsg(gotErr) {
		t.Errorf("%s: errors differ: JSON %v, YAML %v", name, wantErr, gotErr)
		return 1, 0, false
	}
	if wantErr != nil {
		return 1, 0, true
	}
	if !bytes.Equal(gotOut, wantOut) {
		t.Errorf("%s: outputs differ:\nJSON %s\nYAML %s", name, wantOut, gotOut)
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d findings in YAML, %d in JSON", name, len(got), len(want))
		return 1, 0, false
	}
	text := doc.Text()
	for i := range got {
		g, w := got[i], want[i]
		if g.Type != w.Type || g.Path != w.Path || g.Message() != w.Message() || g.Pointer != w.Pointer {
			t.Errorf("%s: finding %d: YAML %+v, JSON %+v", name, i, g, w)
			continue
		}
		// the position is the key's: its name, plain or quoted, starts there (for metadata, the
		// key of the top-level metadata field)
		key := lastToken(g.Pointer)
		if strings.Contains(g.Path, "metadata.") {
			key = ""
		}
		at := text[g.Offset:]
		if g.Line < 1 || !(bytes.HasPrefix(at, []byte(key)) || at[0] == '"' || at[0] == '\'') {
			t.Errorf("%s: finding %q at %d:%d, where the text is %.30q", name, g.Message(), g.Line, g.Column, at)
			continue
		}
		located++
	}
	return 1, located, false
}

func errMsg(err error) string {
	if de, ok := err.(*jperrors.DecodeError); ok {
		return de.Msg
	}
	return err.Error()
}

// lastToken is the last reference token of a JSON Pointer, unescaped.
func lastToken(p string) string {
	tok := p[strings.LastIndexByte(p, '/')+1:]
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}
