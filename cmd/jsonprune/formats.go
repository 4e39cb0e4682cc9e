package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// --report-format: the report as JSON Lines (json, the default), JUnit XML,
// TAP 14, SARIF 2.1.0 or GitHub Actions workflow commands. The workers
// write JSON Lines records; the writer turns each into the format asked
// for (a few per object with findings: no cost on clean documents).

// reportRecord is a record as the workers write it.
type reportRecord struct {
	Input      string `json:"input"`
	Doc        *int   `json:"doc"`
	Item       *int   `json:"item"`
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
	Type       string `json:"type"`
	Severity   string `json:"severity"`
	Path       string `json:"path"`
	Pointer    string `json:"pointer"`
	Message    string `json:"message"`
	Suggestion string `json:"suggestion"`
	Hint       string `json:"hint"`
	Line       int    `json:"line"`
	Column     int    `json:"column"`
	Offset     int64  `json:"offset"`
	Count      int    `json:"count"`
}

// object is "Kind namespace/name" ("" when unknown).
func (r *reportRecord) object() string {
	name := r.Name
	if r.Namespace != "" && name != "" {
		name = r.Namespace + "/" + name
	}
	return strings.TrimSpace(r.Kind + " " + name)
}

// text is the record's message with its object, suggestion and hint.
func (r *reportRecord) text() string {
	s := r.Message
	if o := r.object(); o != "" {
		s = o + ": " + s
	}
	if r.Suggestion != "" {
		s += ` (did you mean "` + r.Suggestion + `"?)`
	}
	if r.Hint != "" {
		s += " (hint: " + r.Hint + ")"
	}
	return s
}

// level is the record's severity, warning or error, or none for a record
// without one (omitted findings).
func (r *reportRecord) level(none string) string {
	if r.Severity == "" {
		return none
	}
	return r.Severity
}

// where is "file:line:column" as far as known.
func (r *reportRecord) where() string {
	s := r.Input
	if r.Line > 0 {
		s += ":" + strconv.Itoa(r.Line)
		if r.Column > 0 {
			s += ":" + strconv.Itoa(r.Column)
		}
	}
	return s
}

// rules are the report's types, as SARIF rules and JUnit failure types.
var rules = []struct{ id, text string }{
	{"unknown", "An unknown field, which the API server prunes (and rejects in Strict mode)"},
	{"duplicate", "A duplicate field: the last value wins (rejected in Strict mode)"},
	{"error", "An object the API server would not decode, or input that cannot be read"},
	{"no-crd", "An object whose kind no loaded CustomResourceDefinition serves"},
	{"unserved-version", "An object in a version its CustomResourceDefinition does not serve"},
	{"omitted", "Findings the API server does not list (duplicates past 100 an object)"},
}

// A reportFormatter writes records in one format.
type reportFormatter interface {
	begin() error
	record(r *reportRecord) error
	end() error
}

func newReportFormatter(format string, w *bufio.Writer) (reportFormatter, error) {
	switch format {
	case "", "json", "jsonl":
		return nil, nil
	case "junit":
		return &junitReport{w: w}, nil
	case "tap":
		return &tapReport{w: w}, nil
	case "sarif":
		return &sarifReport{w: w}, nil
	case "github":
		return &githubReport{w: w}, nil
	}
	return nil, fmt.Errorf("--report-format must be json, junit, tap, sarif or github, not %q", format)
}

// records turns a batch's JSON Lines records into f's format.
func formatRecords(f reportFormatter, lines []byte) error {
	for line := range bytes.Lines(lines) {
		var r reportRecord
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("internal error (please report it): a report record: %v", err)
		}
		if err := f.record(&r); err != nil {
			return err
		}
	}
	return nil
}

// GitHub Actions workflow commands:
// ::warning file=F,line=L,col=C,title=T::MESSAGE
type githubReport struct{ w *bufio.Writer }

func (g *githubReport) begin() error { return nil }
func (g *githubReport) end() error   { return nil }

func (g *githubReport) record(r *reportRecord) error {
	cmd := r.level("notice")
	props := []string{"file=" + ghProperty(r.Input)}
	if r.Line > 0 {
		props = append(props, "line="+strconv.Itoa(r.Line))
		if r.Column > 0 {
			props = append(props, "col="+strconv.Itoa(r.Column))
		}
	}
	props = append(props, "title="+ghProperty("jsonprune: "+r.Type))
	_, err := fmt.Fprintf(g.w, "::%s %s::%s\n", cmd, strings.Join(props, ","), ghData(r.text()))
	return err
}

// ghData escapes a workflow command's message; ghProperty a property value.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// TAP 14: one test point a record, the plan at the end. Errors are
// "not ok"; warnings are "not ok ... # TODO" (reported, not failing, as the
// exit status in Warn mode); the others "ok". Each test point has a YAML
// diagnostic block.
type tapReport struct {
	w *bufio.Writer
	n int
}

func (t *tapReport) begin() error {
	_, err := t.w.WriteString("TAP version 14\n")
	return err
}

func (t *tapReport) record(r *reportRecord) error {
	t.n++
	status, directive := "ok", ""
	switch r.Severity {
	case "error":
		status = "not ok"
	case "warning":
		status, directive = "not ok", " # TODO warning"
	}
	desc := strings.NewReplacer("\\", "\\\\", "#", "\\#", "\n", " ", "\r", " ").Replace(r.where() + ": " + r.text())
	fmt.Fprintf(t.w, "%s %d - %s%s\n", status, t.n, desc, directive)
	diag := map[string]any{"type": r.Type, "severity": r.Severity, "message": r.Message, "file": r.Input}
	if r.Line > 0 {
		diag["line"], diag["column"] = r.Line, r.Column
	}
	if r.Path != "" {
		diag["path"] = r.Path
	}
	if r.Suggestion != "" {
		diag["suggestion"] = r.Suggestion
	}
	t.w.WriteString("  ---\n")
	for _, k := range []string{"type", "severity", "message", "file", "line", "column", "path", "suggestion"} {
		v, ok := diag[k]
		if !ok {
			continue
		}
		js, _ := json.Marshal(v) // a JSON scalar is a YAML flow scalar
		fmt.Fprintf(t.w, "  %s: %s\n", k, js)
	}
	_, err := t.w.WriteString("  ...\n")
	return err
}

func (t *tapReport) end() error {
	if t.n == 0 {
		_, err := t.w.WriteString("1..0 # no findings\n")
		return err
	}
	_, err := fmt.Fprintf(t.w, "1..%d\n", t.n)
	return err
}

// SARIF 2.1.0, for code-scanning upload: one run, a rule a record type,
// a result a record with its physical location. Results are streamed.
type sarifReport struct {
	w *bufio.Writer
	n int
}

func (s *sarifReport) begin() error {
	type desc struct {
		Text string `json:"text"`
	}
	type rule struct {
		ID               string `json:"id"`
		ShortDescription desc   `json:"shortDescription"`
	}
	var rs []rule
	for _, r := range rules {
		rs = append(rs, rule{r.id, desc{r.text}})
	}
	driver := map[string]any{"name": "jsonprune", "informationUri": "https://github.com/jsonprune/jsonprune",
		"version": moduleVersion(), "rules": rs}
	js, err := json.Marshal(driver)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(s.w, `{"version":"2.1.0","$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[{"tool":{"driver":%s},"columnKind":"unicodeCodePoints","results":[`, js)
	return err
}

func (s *sarifReport) record(r *reportRecord) error {
	level := r.level("note")
	region := map[string]any{}
	if r.Line > 0 {
		region["startLine"] = r.Line
		if r.Column > 0 {
			region["startColumn"] = r.Column
		}
	}
	phys := map[string]any{"artifactLocation": map[string]any{"uri": artifactURI(r.Input)}}
	if len(region) > 0 {
		phys["region"] = region
	}
	res := map[string]any{
		"ruleId":    r.Type,
		"ruleIndex": ruleIndex(r.Type),
		"level":     level,
		"message":   map[string]any{"text": r.text()},
		"locations": []any{map[string]any{"physicalLocation": phys}},
	}
	if r.Pointer != "" || r.Path != "" {
		res["properties"] = map[string]any{"path": r.Path, "pointer": r.Pointer, "kind": r.Kind, "name": r.Name, "namespace": r.Namespace}
	}
	js, err := json.Marshal(res)
	if err != nil {
		return err
	}
	if s.n > 0 {
		s.w.WriteByte(',')
	}
	s.n++
	_, err = s.w.Write(js)
	return err
}

func (s *sarifReport) end() error {
	_, err := s.w.WriteString("]}]}\n")
	return err
}

func ruleIndex(t string) int {
	for i, r := range rules {
		if r.id == t {
			return i
		}
	}
	return -1
}

// artifactURI is an input's name as a relative URI reference ("-": stdin).
func artifactURI(name string) string {
	if name == "-" {
		return "stdin"
	}
	u := url.URL{Path: filepath.ToSlash(name)}
	return u.String()
}

// JUnit XML: a testsuite, a testcase a record (classname the input, name
// the object and field); errors are failures, warnings are testcases that
// pass with the warning as their system-out (the exit status is 0 in Warn
// mode). The counts go in the testsuite's attributes, so the testcases
// are kept in a temporary file until the end.
type junitReport struct {
	w               *bufio.Writer
	tmp             *os.File
	body            *bufio.Writer
	tests, failures int
}

func (j *junitReport) begin() error {
	f, err := os.CreateTemp("", "jsonprune-junit-*")
	if err != nil {
		return err
	}
	j.tmp, j.body = f, bufio.NewWriter(f)
	return nil
}

func (j *junitReport) record(r *reportRecord) error {
	j.tests++
	type failure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		XMLName   xml.Name `xml:"testcase"`
		Classname string   `xml:"classname,attr"`
		Name      string   `xml:"name,attr"`
		File      string   `xml:"file,attr,omitempty"`
		Line      int      `xml:"line,attr,omitempty"`
		Failure   *failure `xml:"failure,omitempty"`
		SystemOut string   `xml:"system-out,omitempty"`
	}
	name := r.object()
	if r.Path != "" {
		name = strings.TrimSpace(name + " " + r.Path)
	}
	if name == "" {
		name = r.Type
	}
	tc := testcase{Classname: r.Input, Name: name, File: r.Input, Line: r.Line}
	text := r.where() + ": " + r.text()
	if r.Severity == "error" {
		j.failures++
		tc.Failure = &failure{Message: xmlSafe(r.Message), Type: r.Type, Text: xmlSafe(text)}
	} else {
		tc.SystemOut = xmlSafe(r.Severity + ": " + text)
	}
	tc.Classname, tc.Name, tc.File = xmlSafe(tc.Classname), xmlSafe(tc.Name), xmlSafe(tc.File)
	js, err := xml.Marshal(tc)
	if err != nil {
		return err
	}
	j.body.WriteString("    ")
	j.body.Write(js)
	return j.body.WriteByte('\n')
}

// xmlSafe replaces what XML 1.0 cannot hold (control characters, invalid
// UTF-8) with U+FFFD.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20 || r == 0xFFFE || r == 0xFFFF || (r >= 0xD800 && r <= 0xDFFF):
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

func (j *junitReport) end() error {
	defer os.Remove(j.tmp.Name())
	defer j.tmp.Close()
	if err := j.body.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(j.w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"jsonprune\" tests=\"%d\" failures=\"%d\">\n  <testsuite name=\"jsonprune\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"0\">\n",
		j.tests, j.failures, j.tests, j.failures)
	if _, err := j.tmp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := io.Copy(j.w, j.tmp); err != nil {
		return err
	}
	_, err := j.w.WriteString("  </testsuite>\n</testsuites>\n")
	return err
}
