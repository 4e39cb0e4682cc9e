// Package yamlbridge presents YAML documents (go.yaml.in/yaml/v3 nodes) as the
// token source the decoder consumes, with the Kubernetes YAML path's scalar
// resolution, so that YAML and JSON give the same findings (plus line numbers).
package yamlbridge
