package decoder

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestStream(t *testing.T) {
	d := must(New(widgetSet(t)))
	in := `{` + w + `,"spec":{"zz":1}}` + "\n" + `{` + w + `,"metadata":{"name":5}}` + "\n\n  " + `{` + w + `}{` + w + `,"x":1}`
	s := d.NewStream(strings.NewReader(in))
	var outs []string
	var errs []string
	var finds []int
	for {
		out, err := s.AppendNext(nil)
		if err == io.EOF {
			break
		}
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		outs = append(outs, string(out))
		finds = append(finds, d.Result().Len())
	}
	if len(outs) != 3 || len(errs) != 1 || s.Count() != 4 || finds[0] != 1 || finds[2] != 1 {
		t.Errorf("outs %q\nerrs %q\ncount %d finds %v", outs, errs, s.Count(), finds)
	}
	_, off := s.Document()
	if off != int64(strings.LastIndex(in, "{"+w)) {
		t.Errorf("offset %d", off)
	}

	// a syntax error ends the stream
	s = d.NewStream(strings.NewReader(`{` + w + `} {"a":`))
	if _, err := s.AppendNext(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendNext(nil); err == nil || err == io.EOF {
		t.Errorf("truncated stream: %v", err)
	}
	if _, err := s.AppendNext(nil); err == nil || err == io.EOF {
		t.Errorf("after a syntax error: %v", err)
	}

	var buf bytes.Buffer
	if err := d.Prune(&buf, []byte(`{`+w+`,"zz":1}`)); err != nil || buf.String() != `{`+w+`}` {
		t.Errorf("Prune: %q %v", buf.String(), err)
	}
}
