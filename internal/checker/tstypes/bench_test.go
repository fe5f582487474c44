package tstypes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkAdversarial is the generation `types` does for each hostile
// schema: Convert on the values SchemaValue takes from the parsed manifest
// (parsing is the loader's, done once for every command). Each must stay
// under 100 ms.
func BenchmarkAdversarial(b *testing.B) {
	for _, a := range adversaries() {
		schema := parseSchema(b, a.schema)
		b.Run(a.name, func(b *testing.B) {
			start := cpuTime()
			for b.Loop() {
				Convert(schema, "Input")
			}
			reportCPU(b, start)
		})
	}
}

// BenchmarkGolden is decoding (encoding/json) and converting each of the
// 26 golden schemas, as TestGolden does.
func BenchmarkGolden(b *testing.B) {
	schemas, _ := filepath.Glob("testdata/schemas/*.json")
	for _, s := range schemas {
		text, err := os.ReadFile(s)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimSuffix(filepath.Base(s), ".json"), func(b *testing.B) {
			start := cpuTime()
			for b.Loop() {
				if _, _, err := ConvertJSON(text, "Input"); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
}

// reportCPU adds the CPU time per operation (all threads, the garbage
// collector's included) to a benchmark's result.
func reportCPU(b *testing.B, start int64) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}
