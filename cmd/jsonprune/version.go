package main

import (
	"runtime/debug"
	"strings"
)

// kubernetesVersion is the Kubernetes release whose API server's behaviour
// jsonprune reproduces (its pruning, defaulting, messages and limits), and
// against whose modules the conformance oracle is built.
const kubernetesVersion = "v1.37.2"

// moduleVersion is jsonprune's module version from the build information:
// a release's version when built by "go install ...@version", "(devel)"
// from a checkout, with the VCS revision when the build recorded it.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	if rev != "" && (v == "(devel)" || !strings.Contains(v, rev[:min(12, len(rev))])) {
		v += " " + rev[:min(12, len(rev))] + modified
	}
	return v
}

// versionText is what --version prints.
func versionText() string {
	path := "github.com/jsonprune/jsonprune"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path != "" {
		path = bi.Main.Path
	}
	goVersion := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = ", " + bi.GoVersion
	}
	return "jsonprune " + moduleVersion() + " (" + path + goVersion + ")\n" +
		"reproduces the Kubernetes " + kubernetesVersion + " API server (custom resources: pruning, defaulting, field validation)\n"
}
