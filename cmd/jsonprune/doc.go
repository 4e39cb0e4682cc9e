// Command jsonprune prunes and strictly validates Kubernetes custom resources
// against their CustomResourceDefinitions, offline and at scale.
package main
