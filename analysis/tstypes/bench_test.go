package tstypes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkAdversarial is `types` on each hostile schema: decode (as the
// manifest loader does) and convert. Each must stay under 100 ms.
func BenchmarkAdversarial(b *testing.B) {
	for _, a := range adversaries() {
		b.Run(a.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := ConvertJSON([]byte(a.schema), "Input"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGolden is the same on the 26 golden schemas.
func BenchmarkGolden(b *testing.B) {
	schemas, _ := filepath.Glob("testdata/schemas/*.json")
	for _, s := range schemas {
		text, err := os.ReadFile(s)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimSuffix(filepath.Base(s), ".json"), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := ConvertJSON(text, "Input"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
