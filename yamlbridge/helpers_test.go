package yamlbridge

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// widgetSet is the Widget CRD of examples/ compiled.
var widgetSet = sync.OnceValue(func() *schemaauto.Set {
	data, err := os.ReadFile("../examples/widget-crd.yaml")
	if err != nil {
		panic(err)
	}
	crds, err := schemaauto.ParseCRDs(data)
	if err != nil {
		panic(err)
	}
	set, err := schemaauto.CompileCRDs(crds)
	if err != nil {
		panic(err)
	}
	return set
})

// outcome is what the decoder makes of a document: the pruned JSON, the findings as
// "message @line:column", or the fatal error as "message @line:column".
type outcome struct {
	out      string
	findings []string
	fatal    string
}

func (o outcome) String() string {
	if o.fatal != "" {
		return "fatal: " + o.fatal
	}
	return fmt.Sprintf("%s %q", o.out, o.findings)
}

func located(msg string, line, col int) string { return fmt.Sprintf("%s @%d:%d", msg, line, col) }

// decodeYAML prunes the first document of src with the bridge.
func decodeYAML(t testing.TB, set *schemaauto.Set, src string, opts ...decoder.Option) (outcome, *Document) {
	t.Helper()
	doc, err := Parse([]byte(src))
	if err != nil {
		var de *jperrors.DecodeError
		if e, ok := err.(*jperrors.DecodeError); ok {
			de = e
			return outcome{fatal: located(de.Msg, de.Line, de.Column)}, nil
		}
		t.Fatalf("parse: %v", err)
	}
	d := must(decoder.New(set, opts...))
	out, err := d.AppendPruneSource(nil, doc.Source())
	return result(d, out, err), doc
}

// decodeJSON prunes a JSON document.
func decodeJSON(set *schemaauto.Set, src []byte, opts ...decoder.Option) outcome {
	d := must(decoder.New(set, opts...))
	out, err := d.AppendPrune(nil, src)
	return result(d, out, err)
}

func result(d *decoder.Decoder, out []byte, err error) outcome {
	if err != nil {
		if de, ok := err.(*jperrors.DecodeError); ok {
			return outcome{fatal: located(de.Msg, de.Line, de.Column)}
		}
		if se, ok := err.(*jperrors.StrictError); ok {
			var o outcome
			for _, f := range se.Findings {
				o.findings = append(o.findings, located(f.Message(), f.Line, f.Column))
			}
			return o
		}
		return outcome{fatal: err.Error()}
	}
	o := outcome{out: string(out)}
	for _, f := range d.Result().Findings() {
		o.findings = append(o.findings, located(f.Message(), f.Line, f.Column))
	}
	return o
}

// must returns v, panicking on err: for constructors whose options are
// known to be good.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
