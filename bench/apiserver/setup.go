package apiserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	sigsyaml "sigs.k8s.io/yaml"
)

// crdForServer turns a corpus CRD file into the body the harness creates it
// with. Two changes, neither of which touches what decoding uses:
//
//   - metadata is reduced to name, labels and annotations, and status is
//     dropped (a file exported from a cluster carries resourceVersion, uid,
//     creationTimestamp and a status the create would refuse or ignore);
//   - spec.conversion with strategy Webhook becomes strategy None. A
//     webhook needs a service this harness does not run; decoding,
//     pruning, defaulting and field validation happen in the version of
//     the request before any conversion, and the dry-run response is
//     converted back to the request's version, which None does by
//     setting apiVersion only. jsonprune never converts.
func crdForServer(data []byte) ([]byte, string, error) {
	var m map[string]any
	if err := sigsyaml.Unmarshal(data, &m); err != nil {
		return nil, "", err
	}
	md, _ := m["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	keep := map[string]any{"name": name}
	for _, k := range []string{"labels", "annotations"} {
		if v, ok := md[k]; ok {
			keep[k] = v
		}
	}
	m["metadata"] = keep
	delete(m, "status")
	if spec, ok := m["spec"].(map[string]any); ok {
		if conv, ok := spec["conversion"].(map[string]any); ok && conv["strategy"] == "Webhook" {
			spec["conversion"] = map[string]any{"strategy": "None"}
		}
	}
	b, err := json.Marshal(m)
	return b, name, err
}

// CRDOutcome is what became of one CRD: created and Established, or the
// server's refusal.
type CRDOutcome struct {
	File  string
	Error string // empty: Established
}

// InstallCRDs creates the CRD files (corpus-relative, below root) and
// waits until each is Established (at most timeout in all). A CRD the
// server refuses is reported in its outcome, not as an error: its cases
// are then not comparable. The error is for the harness's own failures.
func InstallCRDs(ctx context.Context, s *Server, root string, files []string, timeout time.Duration) (map[string]CRDOutcome, error) {
	out := map[string]CRDOutcome{}
	names := map[string]string{}
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		body, name, err := crdForServer(data)
		if err != nil {
			out[f] = CRDOutcome{File: f, Error: "harness: " + err.Error()}
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r, err := s.Do(ctx, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json", body)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				if firstErr == nil {
					firstErr = fmt.Errorf("creating CRD %s: %w", f, err)
				}
			case r.Code == 201 || r.Code == 409:
				names[f] = name
			default:
				out[f] = CRDOutcome{File: f, Error: fmt.Sprintf("%d %s", r.Code, statusMessage(r.Body))}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	deadline := time.Now().Add(timeout)
	pending := make([]string, 0, len(names))
	for f := range names {
		pending = append(pending, f)
	}
	sort.Strings(pending)
	for len(pending) > 0 {
		var still []string
		for _, f := range pending {
			r, err := s.Do(ctx, "GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+names[f], "", nil)
			if err != nil {
				return nil, err
			}
			if established(r.Body) {
				out[f] = CRDOutcome{File: f}
			} else {
				still = append(still, f)
			}
		}
		pending = still
		if len(pending) == 0 {
			break
		}
		if time.Now().After(deadline) {
			for _, f := range pending {
				out[f] = CRDOutcome{File: f, Error: "not Established after " + timeout.String()}
			}
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	return out, nil
}

func established(body []byte) bool {
	var crd struct {
		Status struct {
			Conditions []struct{ Type, Status string } `json:"conditions"`
		} `json:"status"`
	}
	if json.Unmarshal(body, &crd) != nil {
		return false
	}
	for _, c := range crd.Status.Conditions {
		if c.Type == "Established" && c.Status == "True" {
			return true
		}
	}
	return false
}

// CreateNamespaces creates the namespaces (an existing one is fine).
func CreateNamespaces(ctx context.Context, s *Server, names []string) error {
	for _, n := range names {
		body := fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, n)
		r, err := s.Do(ctx, "POST", "/api/v1/namespaces", "application/json", []byte(body))
		if err != nil {
			return err
		}
		if r.Code != 201 && r.Code != 409 {
			return fmt.Errorf("creating namespace %s: %d %s", n, r.Code, statusMessage(r.Body))
		}
	}
	return nil
}

// statusMessage is the message of a metav1.Status body (the body itself if
// it is not one).
func statusMessage(body []byte) string {
	var st struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &st) == nil && st.Kind == "Status" {
		return st.Message
	}
	return strings.TrimSpace(string(body))
}
