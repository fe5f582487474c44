package scrub

import (
	"bytes"
	"encoding/base64"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// The secrets of the benchmarks: three credentials, as a run has.
var benchSecrets = []namedSecret{
	{"gh_token", "ghp_16C7e42F292c6912E7710c838347Ae178B4a"},
	{"api_key", "sk-live-7Hq2ZxS3cr3tV4lu3"},
	{"basic", "YWxpY2U6b3Blbi1zZXNhbWUtOTk="},
}

const benchBodySize = 16 << 20

// benchBodies are 16 MiB bodies: JSON an API returns (escapes, URLs with
// percent-encoding) without and with a few reflections; base64 (the worst
// text for the base64 forms); dense escapes (the worst for the rest);
// the token's prefix repeated (every position a long partial match).
func benchBodies() map[string][]byte {
	rnd := rand.New(rand.NewPCG(5, 6))
	fill := func(unit string) []byte {
		return bytes.Repeat([]byte(unit), benchBodySize/len(unit)+1)[:benchBodySize]
	}
	json := fill(`{"id":12345,"name":"Caf\u00e9 \"Dune\"","url":"https:\/\/example.com\/a?q=caf%C3%A9&x=1","tags":["a","b"],"html":"&lt;b&gt;"},`)
	withSecrets := bytes.Clone(json)
	for i, reflect := range []string{
		benchSecrets[0].Value, benchSecrets[1].Value, benchSecrets[2].Value,
		`\u0067\u0068\u0070\u005f16C7e42F292c6912E7710c838347Ae178B4a`,
		"sk-live-7Hq2ZxS3cr3tV4lu3",
		base64.StdEncoding.EncodeToString([]byte("Bearer " + benchSecrets[1].Value)),
	} {
		at := (i + 1) * (benchBodySize / 8)
		copy(withSecrets[at:], reflect)
	}
	raw := make([]byte, benchBodySize*3/4)
	for i := range raw {
		raw[i] = byte(rnd.Uint32())
	}
	return map[string][]byte{
		"json":         json,
		"json+secrets": withSecrets,
		"base64":       []byte(base64.StdEncoding.EncodeToString(raw))[:benchBodySize],
		"escapes":      fill(`\\u00e9%2F&amp;\"`),
		// a server's best try at slowing the scrubber down: the token
		// without its last character, over and over
		"prefixes": fill(benchSecrets[0].Value[:len(benchSecrets[0].Value)-1]),
		// every byte starts a candidate
		"backslashes": fill(`\\\\\\\\u`),
		"percents":    fill("%25"),
	}
}

// oldRedact is the plain redaction the scrubber replaced: one
// strings.Replacer of the exact values, run when bytes.Contains finds one.
func oldRedact(secrets []namedSecret) func([]byte) []byte {
	sorted := append([]namedSecret(nil), secrets...)
	sort.SliceStable(sorted, func(i, j int) bool { return len(sorted[i].Value) > len(sorted[j].Value) })
	var pairs []string
	for _, s := range sorted {
		pairs = append(pairs, s.Value, scrubMarker(s.Name))
	}
	r := strings.NewReplacer(pairs...)
	return func(p []byte) []byte {
		for _, s := range sorted {
			if bytes.Contains(p, []byte(s.Value)) {
				return []byte(r.Replace(string(p)))
			}
		}
		return p
	}
}

// BenchmarkScrub: the scrubber on a whole 16 MiB body, the same body
// streamed in 256 KiB reads (as the network provider does), and the old
// exact-value redaction, side by side (MB/s).
func BenchmarkScrub(b *testing.B) {
	bodies := benchBodies()
	s := scrubberOf(benchSecrets...)
	old := oldRedact(benchSecrets)
	for _, name := range []string{"json", "json+secrets", "base64", "escapes", "prefixes", "backslashes", "percents"} {
		body := bodies[name]
		b.Run(name+"/scrub", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				s.bytes(body, false)
			}
			b.ReportMetric(float64(len(s.forms)), "forms")
		})
		b.Run(name+"/stream", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				st := s.Stream(2*benchBodySize, len(body)) // a length announced, as most servers do
				for rest := body; len(rest) > 0; {
					n := min(len(rest), 256<<10)
					st.Write(rest[:n])
					rest = rest[n:]
				}
				st.Close()
			}
		})
		b.Run(name+"/old", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				old(body)
			}
		})
	}
}
