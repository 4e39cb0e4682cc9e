package apiserver

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// BinaryEnv names the environment variable that overrides the path of the
// oracle-apiserver binary (DefaultBinary otherwise).
const BinaryEnv = "JSONPRUNE_APISERVER_BIN"

// DefaultBinary is where `make oracle-apiserver-build` puts the binary,
// relative to the bench/ module: bench/.cache is gitignored.
const DefaultBinary = ".cache/oracle-apiserver"

// Binary returns the oracle-apiserver binary to run: $JSONPRUNE_APISERVER_BIN,
// or DefaultBinary below benchDir. It is an error (saying how to build it)
// when the file is not there.
func Binary(benchDir string) (string, error) {
	p := os.Getenv(BinaryEnv)
	if p == "" {
		p = filepath.Join(benchDir, DefaultBinary)
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if _, err := os.Stat(p); err != nil {
		return p, fmt.Errorf("the kube-apiserver oracle binary is not built (%v): run `make oracle-apiserver-build` (it builds bench/apiserver/build from the Go module proxy) or set %s", err, BinaryEnv)
	}
	return p, nil
}

// Server is a running oracle-apiserver: kube-apiserver v1.37.2 over an
// embedded etcd, listening on 127.0.0.1 only, everything under Dir.
type Server struct {
	// URL is the API server's https://127.0.0.1:PORT.
	URL string
	// Dir is the temporary directory holding the certificates, etcd's data
	// and the log; Stop removes it.
	Dir string
	// Log is the server's combined output (Dir/apiserver.log).
	Log string

	Client  *http.Client
	cmd     *exec.Cmd
	done    chan struct{}
	waitErr error
}

// Start starts bin in a new temporary directory and waits until /readyz
// answers 200 (at most timeout). Any failure is returned with the tail of
// the server's log; the process is stopped first.
func Start(ctx context.Context, bin string, timeout time.Duration) (*Server, error) {
	dir, err := os.MkdirTemp("", "jsonprune-apiserver-")
	if err != nil {
		return nil, err
	}
	s := &Server{Dir: dir, Log: filepath.Join(dir, "apiserver.log"), done: make(chan struct{})}
	fail := func(err error) (*Server, error) {
		tail := s.LogTail(60)
		s.Stop()
		return nil, fmt.Errorf("kube-apiserver oracle did not start: %w\n--- last lines of its log ---\n%s", err, tail)
	}
	pki, err := makePKI(dir)
	if err != nil {
		return fail(err)
	}
	ports, err := freePorts(3)
	if err != nil {
		return fail(err)
	}
	s.URL = "https://127.0.0.1:" + strconv.Itoa(ports[0])
	args := []string{
		"-etcd-dir", filepath.Join(dir, "etcd"),
		"-etcd-client-url", "http://127.0.0.1:" + strconv.Itoa(ports[1]),
		"-etcd-peer-url", "http://127.0.0.1:" + strconv.Itoa(ports[2]),
		"--",
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(ports[0]),
		"--cert-dir=" + filepath.Join(dir, "certs"),
		"--tls-cert-file=" + pki.serverCert,
		"--tls-private-key-file=" + pki.serverKey,
		"--client-ca-file=" + pki.caCert,
		"--anonymous-auth=false",
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + pki.saPub,
		"--service-account-signing-key-file=" + pki.saKey,
		"--service-cluster-ip-range=10.96.0.0/24",
		"--endpoint-reconciler-type=none",
		"--enable-priority-and-fairness=false",
		"--profiling=false",
		// Admission: the defaults minus the plugins that wait for other
		// controllers (ServiceAccount needs the token controller, the
		// quota and storage ones objects nobody makes here). Custom
		// resources meet only the generic plugins in any case.
		"--disable-admission-plugins=ServiceAccount,ResourceQuota,DefaultStorageClass,StorageObjectInUseProtection,PersistentVolumeClaimResize,DefaultIngressClass,RuntimeClass,CertificateApproval,CertificateSigning,CertificateSubjectRestriction,ClusterTrustBundleAttest",
		"--v=1",
	}
	logf, err := os.Create(s.Log)
	if err != nil {
		return fail(err)
	}
	defer logf.Close()
	s.cmd = exec.Command(bin, args...)
	s.cmd.Dir = dir
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	// Its own process group (Stop signals it by pid) and SIGKILL if this
	// process dies without stopping it.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := s.cmd.Start(); err != nil {
		return fail(err)
	}
	go func() { s.waitErr = s.cmd.Wait(); close(s.done) }()

	cert, err := tls.LoadX509KeyPair(pki.clientCert, pki.clientKey)
	if err != nil {
		return fail(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pki.caPEM)
	s.Client = &http.Client{
		Timeout: 60 * time.Second,
		Transport: &http.Transport{
			TLSClientConfig:     &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}, ServerName: "127.0.0.1"},
			MaxIdleConnsPerHost: 16,
			ForceAttemptHTTP2:   true,
		},
	}
	deadline := time.Now().Add(timeout)
	var last string
	for {
		select {
		case <-s.done:
			return fail(fmt.Errorf("the process exited: %v", s.waitErr))
		case <-ctx.Done():
			return fail(ctx.Err())
		default:
		}
		if time.Now().After(deadline) {
			return fail(fmt.Errorf("/readyz not 200 after %v (last answer: %s)", timeout, last))
		}
		code, body, err := s.do(ctx, "GET", "/readyz", "", nil)
		if err == nil && code == 200 {
			return s, nil
		}
		if err != nil {
			last = err.Error()
		} else {
			last = strconv.Itoa(code) + " " + string(bytes.TrimSpace(body))
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// Pid is the server process's id.
func (s *Server) Pid() int {
	if s == nil || s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Stop stops the server by its process id: SIGTERM (the API server shuts
// down, then etcd), SIGKILL after 20 s; then removes Dir. Safe to call
// twice and on a partly started Server.
func (s *Server) Stop() error {
	if s == nil {
		return nil
	}
	var err error
	if s.cmd != nil && s.cmd.Process != nil {
		select {
		case <-s.done:
		default:
			_ = s.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-s.done:
			case <-time.After(20 * time.Second):
				_ = s.cmd.Process.Kill()
				<-s.done
				err = errors.New("kube-apiserver oracle did not stop in 20 s on SIGTERM; killed")
			}
		}
	}
	if s.Dir != "" && os.Getenv("JSONPRUNE_APISERVER_KEEP") == "" {
		os.RemoveAll(s.Dir)
	}
	return err
}

// LogTail returns the last n lines of the server's log.
func (s *Server) LogTail(n int) string {
	b, err := os.ReadFile(s.Log)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Response is one HTTP answer of the server.
type Response struct {
	Code     int
	Warnings []string // the Warning header values, in order
	Body     []byte
}

// Do sends one request and returns the answer.
func (s *Server) Do(ctx context.Context, method, path, contentType string, body []byte) (*Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, s.URL+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return &Response{Code: resp.StatusCode, Warnings: resp.Header.Values("Warning"), Body: b}, nil
}

func (s *Server) do(ctx context.Context, method, path, contentType string, body []byte) (int, []byte, error) {
	r, err := s.Do(ctx, method, path, contentType, body)
	if err != nil {
		return 0, nil, err
	}
	return r.Code, r.Body, nil
}

// freePorts returns n distinct free TCP ports on 127.0.0.1.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
