//go:build !unix

package tstypes

// cpuTime is not measured here: the benchmarks report 0 CPU ns/op.
func cpuTime() int64 { return 0 }
