package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// End-to-end tests of --report-format: each output is read back by a parser
// of its format (encoding/xml for JUnit, encoding/json and SARIF 2.1.0's
// required properties, the TAP 14 line grammar with YAML blocks parsed by
// a YAML parser, the workflow-command grammar of GitHub Actions).

// formatInput has warnings (Warn mode) of every kind, an error and a hint.
const formatInput = `apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: "a,b:c"}
spec:
  replcas: 3
  list: [{x: "1", q: 2}]
---
apiVersion: example.com/v1
kind: widget
metadata: {name: k}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: 5}
---
apiVersion: example.com/v1
kind: Widget
spec:
	replicas: 3
`

func formatRun(t *testing.T, format string, extra ...string) result {
	t.Helper()
	file := writeFile(t, "in,put:1.yaml", formatInput)
	args := append([]string{"--crd", crdFile, "-o", "none", "-q", "--report", "-", "--report-format", format}, extra...)
	r := runBinary(t, nil, append(args, file)...)
	if r.code != exitUsage { // the tab makes a document unreadable
		t.Fatalf("%s: exit %d, stderr %s", format, r.code, r.err)
	}
	return r
}

// wantRecords: the report's records of formatInput (type/severity).
var wantRecords = []string{"unknown/warning", "unknown/warning", "no-crd/warning", "error/error", "error/error"}

func TestE2EReportJUnit(t *testing.T) {
	r := formatRun(t, "junit")
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Suites   []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Cases    []struct {
				Classname string `xml:"classname,attr"`
				Name      string `xml:"name,attr"`
				Line      int    `xml:"line,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
				SystemOut string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, r.out)
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("%d testsuites", len(doc.Suites))
	}
	s := doc.Suites[0]
	var got []string
	failures := 0
	for _, c := range s.Cases {
		if c.Failure != nil {
			failures++
			got = append(got, c.Failure.Type+"/error")
			if c.Failure.Message == "" || !strings.Contains(c.Failure.Text, ".yaml:") {
				t.Errorf("failure without message or place: %+v", c.Failure)
			}
		} else {
			got = append(got, "?/warning")
			if !strings.HasPrefix(c.SystemOut, "warning: ") {
				t.Errorf("a warning testcase: %+v", c)
			}
		}
		if !strings.HasSuffix(c.Classname, "in,put:1.yaml") || c.Line == 0 {
			t.Errorf("testcase %+v", c)
		}
	}
	if doc.Tests != len(s.Cases) || s.Tests != len(s.Cases) || doc.Failures != failures || s.Failures != failures || len(s.Cases) != len(wantRecords) || failures != 2 {
		t.Errorf("counts: tests %d/%d, failures %d/%d, testcases %d, failures %d (%v)", doc.Tests, s.Tests, doc.Failures, s.Failures, len(s.Cases), failures, got)
	}
	if s.Cases[0].Name != "Widget a,b:c/w spec.list[0].q" {
		t.Errorf("first testcase: %q", s.Cases[0].Name)
	}
}

func TestE2EReportSARIF(t *testing.T) {
	r := formatRun(t, "sarif")
	var log map[string]any
	if err := json.Unmarshal([]byte(r.out), &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.out)
	}
	// SARIF 2.1.0's required properties, and those code scanning reads
	if log["version"] != "2.1.0" {
		t.Errorf("version %v", log["version"])
	}
	runs, _ := log["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("runs: %v", log["runs"])
	}
	run := runs[0].(map[string]any)
	driver, _ := run["tool"].(map[string]any)["driver"].(map[string]any)
	if name, _ := driver["name"].(string); name != "jsonprune" {
		t.Errorf("tool.driver.name %v", driver["name"])
	}
	rules, _ := driver["rules"].([]any)
	ruleIDs := map[string]int{}
	for i, r := range rules {
		rm := r.(map[string]any)
		id, _ := rm["id"].(string)
		text, _ := rm["shortDescription"].(map[string]any)["text"].(string)
		if id == "" || text == "" {
			t.Errorf("rule %d: %v", i, rm)
		}
		ruleIDs[id] = i
	}
	results, ok := run["results"].([]any)
	if !ok || len(results) != len(wantRecords) {
		t.Fatalf("results: %d, want %d", len(results), len(wantRecords))
	}
	var got []string
	for i, x := range results {
		res := x.(map[string]any)
		msg, _ := res["message"].(map[string]any)["text"].(string)
		id, _ := res["ruleId"].(string)
		idx, _ := res["ruleIndex"].(float64)
		level, _ := res["level"].(string)
		if msg == "" || level != "warning" && level != "error" && level != "note" {
			t.Errorf("result %d: message %q level %q", i, msg, level)
		}
		if j, ok := ruleIDs[id]; !ok || j != int(idx) {
			t.Errorf("result %d: ruleId %q ruleIndex %v", i, id, idx)
		}
		locs, _ := res["locations"].([]any)
		if len(locs) != 1 {
			t.Fatalf("result %d: locations %v", i, res["locations"])
		}
		phys := locs[0].(map[string]any)["physicalLocation"].(map[string]any)
		uri, _ := phys["artifactLocation"].(map[string]any)["uri"].(string)
		region, _ := phys["region"].(map[string]any)
		line, _ := region["startLine"].(float64)
		col, _ := region["startColumn"].(float64)
		if !strings.HasSuffix(uri, "/in,put:1.yaml") || line < 1 || col < 1 {
			t.Errorf("result %d: uri %q region %v", i, uri, region)
		}
		got = append(got, id+"/"+level)
	}
	if fmt.Sprint(got) != fmt.Sprint(wantRecords) {
		t.Errorf("results %v, want %v", got, wantRecords)
	}
}

var (
	tapVersion = regexp.MustCompile(`^TAP version 14$`)
	tapPlan    = regexp.MustCompile(`^1\.\.(\d+)( # .*)?$`)
	tapPoint   = regexp.MustCompile(`^(not )?ok (\d+)( - ([^#\\]|\\[\\#])*)?( # (TODO|SKIP)( .*)?)?$`)
)

func TestE2EReportTAP(t *testing.T) {
	r := formatRun(t, "tap")
	lines := strings.Split(strings.TrimSuffix(r.out, "\n"), "\n")
	if !tapVersion.MatchString(lines[0]) {
		t.Fatalf("first line %q", lines[0])
	}
	var got []string
	points, plan := 0, -1
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		switch {
		case tapPlan.MatchString(l):
			plan, _ = strconv.Atoi(tapPlan.FindStringSubmatch(l)[1])
			if i != len(lines)-1 {
				t.Errorf("the plan is not at the end: line %d", i)
			}
		case tapPoint.MatchString(l):
			m := tapPoint.FindStringSubmatch(l)
			points++
			if n, _ := strconv.Atoi(m[2]); n != points {
				t.Errorf("test point %d numbered %d", points, n)
			}
			// its YAML diagnostic block
			if i+1 < len(lines) && lines[i+1] == "  ---" {
				end := i + 2
				for end < len(lines) && lines[end] != "  ..." {
					end++
				}
				var diag struct{ Type, Severity string }
				if err := yaml.Unmarshal([]byte(strings.Join(lines[i+2:end], "\n")), &diag); err != nil {
					t.Errorf("test point %d: YAML block: %v", points, err)
				}
				got = append(got, diag.Type+"/"+diag.Severity)
				if (diag.Severity == "error") != (m[1] == "not " && m[6] == "") {
					t.Errorf("test point %d: %q for a %s", points, l, diag.Severity)
				}
				i = end
			}
		default:
			t.Errorf("line %d is not TAP: %q", i+1, l)
		}
	}
	if plan != points || fmt.Sprint(got) != fmt.Sprint(wantRecords) {
		t.Errorf("plan %d, %d test points: %v, want %v", plan, points, got, wantRecords)
	}
	// no findings: an empty plan
	r = runBinary(t, strings.NewReader(`{"apiVersion":"example.com/v1","kind":"Widget"}`), "--crd", crdFile, "-o", "none", "--report", "-", "--report-format", "tap")
	if r.out != "TAP version 14\n1..0 # no findings\n" {
		t.Errorf("no findings: %q", r.out)
	}
}

// The workflow-command grammar: ::COMMAND PROPERTIES::DATA, properties
// name=value joined by ",", with %, CR, LF, ":" and "," escaped in values
// and %, CR, LF in the data.
var ghCommand = regexp.MustCompile(`^::(warning|error|notice) ((file|line|col|endLine|endColumn|title)=[^,:\r\n]*(,(file|line|col|endLine|endColumn|title)=[^,:\r\n]*)*)::([^\r\n]*)$`)

func TestE2EReportGitHub(t *testing.T) {
	r := formatRun(t, "github")
	unescape := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
	var got []string
	for _, l := range strings.Split(strings.TrimSuffix(r.out, "\n"), "\n") {
		m := ghCommand.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("not a workflow command: %q", l)
			continue
		}
		props := map[string]string{}
		for _, p := range strings.Split(m[2], ",") {
			k, v, _ := strings.Cut(p, "=")
			props[k] = unescape.Replace(v)
		}
		if !strings.HasSuffix(props["file"], "/in,put:1.yaml") || props["line"] == "" || !strings.HasPrefix(props["title"], "jsonprune: ") {
			t.Errorf("properties %v", props)
		}
		got = append(got, strings.TrimPrefix(props["title"], "jsonprune: ")+"/"+m[1])
	}
	if fmt.Sprint(got) != fmt.Sprint(wantRecords) {
		t.Errorf("commands %v, want %v", got, wantRecords)
	}
	r = runBinary(t, nil, "--crd", crdFile, "--report-format", "xml", "--report", "-", "-o", "none")
	if r.code != exitUsage || !strings.Contains(r.err, "--report-format must be json, junit, tap, sarif or github") {
		t.Errorf("bad format: exit %d, %q", r.code, r.err)
	}
}

// TestE2EVersion: --version says the module version and the Kubernetes
// version reproduced.
func TestE2EVersion(t *testing.T) {
	r := runBinary(t, nil, "--version")
	if r.code != exitOK || !regexp.MustCompile(`^jsonprune \S+.* \(github\.com/jsonprune/jsonprune, go1\.\d+`).MatchString(r.out) ||
		!strings.Contains(r.out, "Kubernetes v1.37.2 API server") {
		t.Errorf("exit %d, %q", r.code, r.out)
	}
}
