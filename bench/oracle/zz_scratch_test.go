package oracle

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZScratch(t *testing.T) {
	in := os.Getenv("SCRATCH")
	if in == "" {
		t.Skip()
	}
	crdFile := os.Getenv("SCRATCH_CRD")
	if crdFile == "" {
		crdFile = "testdata/widget-crd.yaml"
	}
	crd, _ := os.ReadFile(crdFile)
	data, _ := os.ReadFile(in)
	for _, body := range strings.Split(string(data), "\n=====\n") {
		mode := os.Getenv("MODE")
		yaml := os.Getenv("YAML") != ""
		r, err := DecodeCR(crd, []byte(body), CROptions{YAML: yaml, FieldValidation: mode})
		o, _ := json.Marshal(r.Object)
		s, _ := json.Marshal(r.Strict)
		w, _ := json.Marshal(r.Warnings)
		h, _ := json.Marshal(r.WarningHeaders)
		fmt.Printf("BODY %q\n err=%v\n obj=%s\n strict=%s\n warn=%s\n hdr=%s\n fatal=%q\n raw=%q\n handler=%q\n gvm=%q kind=%q\n", body, err, o, s, w, h, r.Fatal, r.FatalRaw, r.HandlerMessage, r.GroupVersionMismatch, r.Kind)
	}
}
