package fuzz

import (
	"testing"
)

// FuzzDecode decodes arbitrary bytes as a document against a fixed set of
// realistic schemas (the Widget of examples/ and a few corpus CRDs) and
// checks the invariants of checkDocument: no panic; errors are located
// DecodeErrors; the output is valid JSON without duplicates, idempotent,
// the same as DecodeMap's value, with the same findings as Validate, and
// holds no path its automaton does not admit.
func FuzzDecode(f *testing.F) {
	fx := mustFixture(f)
	for _, d := range widgetDocs {
		f.Add([]byte(d))
	}
	for _, d := range kepWidgetDocs() {
		f.Add([]byte(d))
	}
	for _, d := range exampleDocs(f) {
		f.Add(d)
	}
	for _, d := range corpusCRs(f, fx, 6, 20) {
		f.Add(d)
	}
	files := suiteFiles(f)
	for _, name := range sortedNames(files) {
		f.Add(files[name])
	}
	tg := &target{set: fx.set}
	tg.reused = tg.decoder()
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkDocument(t, tg, doc)
	})
}
