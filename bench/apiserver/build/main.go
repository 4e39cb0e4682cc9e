// Command oracle-apiserver is kube-apiserver v1.37.2 and an embedded etcd
// v3.7.0 in one process: the real API server that bench/apiserver uses as
// jsonprune's oracle.
//
// It is built from the Go module proxy (see go.mod in this directory: the
// published k8s.io/* v0.37.2 modules stand in for the staging directories
// that k8s.io/kubernetes's own go.mod points at), never from a release
// binary.
//
// Usage:
//
//	oracle-apiserver -etcd-dir DIR -etcd-client-url http://127.0.0.1:P \
//	    -etcd-peer-url http://127.0.0.1:Q -- [kube-apiserver flags]
//
// etcd listens on the two URLs given (the harness gives loopback ones); the
// kube-apiserver flags are passed through unchanged, with
// --etcd-servers=<client URL> added. The process ends when the API server's
// command returns or on SIGTERM/SIGINT (the API server's own signal handler
// stops it; etcd is closed after it).
package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"time"
	_ "time/tzdata"

	"go.etcd.io/etcd/server/v3/embed"
	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	fs := flag.NewFlagSet("oracle-apiserver", flag.ExitOnError)
	dir := fs.String("etcd-dir", "", "etcd data directory (required)")
	clientURL := fs.String("etcd-client-url", "", "etcd client URL, loopback (required)")
	peerURL := fs.String("etcd-peer-url", "", "etcd peer URL, loopback (required)")
	fs.Parse(os.Args[1:])
	if *dir == "" || *clientURL == "" || *peerURL == "" {
		fmt.Fprintln(os.Stderr, "oracle-apiserver: -etcd-dir, -etcd-client-url and -etcd-peer-url are required")
		os.Exit(2)
	}
	cu, err := url.Parse(*clientURL)
	if err != nil {
		fail(err)
	}
	pu, err := url.Parse(*peerURL)
	if err != nil {
		fail(err)
	}

	cfg := embed.NewConfig()
	cfg.Name = "oracle"
	cfg.Dir = *dir
	cfg.ListenClientUrls = []url.URL{*cu}
	cfg.AdvertiseClientUrls = []url.URL{*cu}
	cfg.ListenPeerUrls = []url.URL{*pu}
	cfg.AdvertisePeerUrls = []url.URL{*pu}
	cfg.InitialCluster = cfg.Name + "=" + pu.String()
	cfg.LogLevel = "error"
	cfg.ListenMetricsUrls = nil
	// The largest corpus CRDs are over etcd's default 1.5 MiB request
	// limit; kube-apiserver's own limit (3 MiB bodies) stays the judge.
	cfg.MaxRequestBytes = 8 << 20
	etcd, err := embed.StartEtcd(cfg)
	if err != nil {
		fail(fmt.Errorf("etcd: %w", err))
	}
	select {
	case <-etcd.Server.ReadyNotify():
	case err := <-etcd.Err():
		fail(fmt.Errorf("etcd: %w", err))
	case <-time.After(60 * time.Second):
		fail(fmt.Errorf("etcd: not ready after 60 s"))
	}

	cmd := app.NewAPIServerCommand()
	cmd.SetArgs(append(fs.Args(), "--etcd-servers="+cu.String()))
	code := cli.Run(cmd)
	etcd.Close()
	os.Exit(code)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "oracle-apiserver:", err)
	os.Exit(1)
}
