module github.com/jsonprune/jsonprune

go 1.26

require (
	github.com/go-json-experiment/json v0.0.0-20260820222146-c27c302e5fc3
	github.com/klauspost/compress v1.20.3
	go.yaml.in/yaml/v3 v3.0.6
)
