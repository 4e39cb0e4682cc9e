package decoder

import (
	"bytes"
	"testing"
)

// TestPrune: Prune writes what AppendPrune appends.
func TestPrune(t *testing.T) {
	d := must(New(widgetSet(t)))
	var buf bytes.Buffer
	if err := d.Prune(&buf, []byte(`{`+w+`,"zz":1}`)); err != nil || buf.String() != `{`+w+`}` {
		t.Errorf("Prune: %q %v", buf.String(), err)
	}
}
