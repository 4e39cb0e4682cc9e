//go:build !linux

package main

// hugeHeap does nothing: the transparent huge pages it asks Linux for are
// Linux's (hugeheap_linux.go).
func hugeHeap(int) {}
