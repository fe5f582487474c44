package scrub

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plugin-lsp/plugin-lsp/internal/leakcheck"
)

// namedSecret is a test's secret value and its credential's name.
type namedSecret = Secret

func scrubMarker(name string) string { return Marker(name) }

// scrubberOf is the scrubber of secrets, with the markers New gives them.
func scrubberOf(secrets ...namedSecret) *Scrubber { return New(secrets...) }

// Secrets the scrubber tests plant: a token (header-name safe), one with
// every character that has a short escape or a special percent form, one
// outside the BMP (surrogate pairs), a Basic credential.
var scrubSecrets = []namedSecret{
	{"gh_token", "ghp_R3fl3ctedT0ken-91.x"},
	{"hairy", `p@ss w/"q"+é\x&<y>`},
	{"astral", "k3y🔑-ünï-" + "\U0001D11E"},
	{"basic", "YWxpY2U6b3Blbi1zZXNhbWUtOTk="}, // alice:open-sesame-99
}

func scrubValues() []string {
	var v []string
	for _, s := range scrubSecrets {
		v = append(v, s.Value)
	}
	return append(v, "alice:open-sesame-99")
}

// The surroundings a reflection sits in.
var surroundings = [][2]string{
	{"", ""},
	{`{"auth":"Bearer `, `","ok":true}`},
	{"token ", "\n"},
	{"Authorization: Bearer ", "; more"},
	{"x", "y"},
	{"user:", ""},
	{"\\", "\\"}, // a stray backslash before and after
	{"%", "%2"},  // a stray percent
	// escaped backslashes just before (a path "C:\\dir\\"): runs longer
	// than MaxEscapeDepth
	{`C:\\dir` + strings.Repeat(`\\`, 16), ""},
	{strings.Repeat(`\\`, 41), ""},
}

// Every secret in every encoding, in every surrounding: the judge
// (leakcheck) sees the secret in the reflection, and sees nothing of it in
// what the scrubber makes of it, whole, streamed in every two-piece split
// and in random pieces, as a body and as a header.
func TestScrubEveryEncoding(t *testing.T) {
	s := scrubberOf(scrubSecrets...)
	rnd := rand.New(rand.NewPCG(1, 2))
	values := scrubValues()
	for _, sec := range scrubSecrets {
		plain := []string{sec.Value}
		if sec.Name == "basic" {
			plain = append(plain, "alice:open-sesame-99")
		}
		for _, secret := range plain {
			for _, enc := range leakcheck.Encodings {
				for _, sur := range surroundings {
					text := enc.Encode(sur[0], secret, sur[1], rnd)
					name := sec.Name + "/" + enc.Name + "/" + sur[0]
					// The judge sees the secret in the encoding alone (a stray
					// backslash before it changes how a JSON parser reads it,
					// not what an attacker can read).
					if bare := enc.Encode("", secret, "", rnd); len(leakcheck.Find([]byte(bare), secret)) == 0 {
						t.Fatalf("%s: the judge does not see the secret in %q", name, bare)
					}
					out := s.bytes([]byte(text), false)
					if found := leakcheck.Find(out, values...); len(found) > 0 {
						t.Errorf("%s: %q scrubbed to %q:\n%s", name, text, out, strings.Join(found, "\n"))
						continue
					}
					if !bytes.Contains(out, []byte("••••("+sec.Name+")")) {
						t.Errorf("%s: no marker in %q", name, out)
					}
					if h := s.text(text, true); len(leakcheck.Find([]byte(h), values...)) > 0 {
						t.Errorf("%s: as a header %q scrubbed to %q", name, text, h)
					}
					checkStream(t, s, name, []byte(text), out, rnd)
				}
			}
		}
	}
}

// checkStream: the stream gives what the whole scrub gives, whatever the
// pieces (every split in two, then random pieces).
func checkStream(t *testing.T, s *Scrubber, name string, text, want []byte, rnd *rand.Rand) {
	t.Helper()
	for cut := 0; cut <= len(text); cut++ {
		st := s.Stream(1<<20, 0)
		st.Write(text[:cut])
		st.Write(text[cut:])
		if got := st.Close(); !bytes.Equal(got, want) {
			t.Errorf("%s: split at %d: stream %q, whole %q", name, cut, got, want)
			return
		}
	}
	for round := 0; round < 4; round++ {
		st := s.Stream(1<<20, 0)
		for rest := text; len(rest) > 0; {
			n := min(len(rest), 1+rnd.IntN(7))
			st.Write(rest[:n])
			rest = rest[n:]
		}
		if got := st.Close(); !bytes.Equal(got, want) {
			t.Errorf("%s: random pieces: stream %q, whole %q", name, got, want)
			return
		}
	}
}

// What the scrubber must leave alone: text without the secret is returned
// as it is (the same slice), unrelated base64 and escapes included.
func TestScrubLeavesOtherText(t *testing.T) {
	s := scrubberOf(scrubSecrets...)
	for _, text := range []string{
		"",
		"nothing here",
		`{"a":"\u0067hp_other","b":"%67hp","c":"&#103;hp"}`,
		"Z2hwX1IzZmwzY3RlZFQwa2VuLTkx", // base64 of a prefix of the token only
		strings.Repeat(`\\\\`, 100),
		strings.Repeat("%%%", 100),
		"ghp_R3fl3ctedT0ken-91", // the token without its last two characters
	} {
		in := []byte(text)
		out := s.bytes(in, false)
		if string(out) != text {
			t.Errorf("%q changed to %q", text, out)
		}
		if len(in) > 0 && &out[0] != &in[0] {
			t.Errorf("%q was copied though nothing changed", text)
		}
	}
	if newScrubber(nil) != nil || scrubberOf(namedSecret{"e", ""}) != nil {
		t.Error("a scrubber without a secret is not nil")
	}
	var none *Scrubber
	if got := none.text("abc", false); got != "abc" {
		t.Errorf("nil scrubber changed text: %q", got)
	}
}

// Overlapping reflections are replaced as one; two secrets side by side
// get two markers; a match cannot leave the tail of a longer one.
func TestScrubOverlaps(t *testing.T) {
	s := scrubberOf(namedSecret{"short", "abcabc"}, namedSecret{"long", "xxabcabcxx"})
	cases := map[string]string{
		"abcabcabc":       "••••(short)", // the secret twice, overlapping
		"abcabc-abcabc":   "••••(short)-••••(short)",
		"abcabcab\\u0063": "••••(short)", // an overlapping escaped copy extends the match
		"xxabcabcxx!":     "••••(long)!",
		"k=XXABCABCXX;":   "k=••••(long);",
	}
	for in, want := range cases {
		if got := s.text(in, false); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}

// A secret that is part of its own marker (a dummy dev secret "key" for
// the credential "api_key") is replaced everywhere but in the markers:
// scrubbing twice changes nothing.
func TestScrubSecretInItsMarker(t *testing.T) {
	s := scrubberOf(namedSecret{"api_key", "key"}, namedSecret{"token", "(token)"})
	in := "key=key; \\u006bey (token) %6Bey"
	want := "••••(api_key)=••••(api_key); ••••(api_key) ••••(token) ••••(api_key)"
	once := s.text(in, false)
	if once != want {
		t.Errorf("%q → %q, want %q", in, once, want)
	}
	if twice := s.text(once, false); twice != once {
		t.Errorf("scrubbing again changed %q to %q", once, twice)
	}
	// A marker of another name is no shelter.
	if got := s.text("••••(other_key)", false); got != "••••(other_••••(api_key))" {
		t.Errorf("a foreign marker: %q", got)
	}
}

// The stream's limit: a body that scrubbing makes longer than its cap is
// reported, not kept.
func TestScrubStreamLimit(t *testing.T) {
	s := scrubberOf(namedSecret{"a_long_credential_name", "abcdef"})
	st := s.Stream(100, 0)
	for i := 0; i < 20; i++ {
		st.Write([]byte("abcdef"))
	}
	if out := st.Close(); out != nil || !st.Over() {
		t.Errorf("120 bytes of secrets (%d bytes scrubbed) fit a 100-byte limit", 20*len(scrubMarker("a_long_credential_name")))
	}
	st = s.Stream(1000, 0)
	st.Write([]byte("x abcdef y"))
	if out := st.Close(); string(out) != "x ••••(a_long_credential_name) y" || st.Over() {
		t.Errorf("short body: %q", out)
	}
}

// FuzzScrub: random text around a secret in a random encoding, fed in
// random pieces: the judge never finds the secret in what comes out.
// Inputs whose surroundings alone hold the secret (in a form the scrubber
// does not claim) are skipped.
func FuzzScrub(f *testing.F) {
	for i := range leakcheck.Encodings {
		for j, sur := range surroundings {
			f.Add(sur[0], sur[1], "", uint8(i), uint8(j), uint64(i*31+j))
		}
	}
	f.Add(`{"x":"\\`, `\\"}`, "my-secret-value", uint8(2), uint8(0), uint64(7))
	f.Add("%25", "", "sp ace /+", uint8(9), uint8(1), uint64(9))
	f.Fuzz(func(t *testing.T, before, after, secret string, enc, which uint8, seed uint64) {
		if len(before) > 256 || len(after) > 256 || len(secret) > 64 {
			return
		}
		name := "fuzz"
		if !validFuzzSecret(secret) {
			sec := scrubSecrets[int(which)%len(scrubSecrets)]
			secret, name = sec.Value, sec.Name
		}
		if !utf8.ValidString(before) || !utf8.ValidString(after) {
			return
		}
		// Surroundings that hold the secret, or all of it but its first or
		// last character (a part of a secret is not recognised on its own:
		// next to a marker's ")" the judge would see it whole), are
		// skipped.
		rs := []rune(secret)
		for _, sur := range []string{before, after, before + after} {
			if len(leakcheck.Find([]byte(sur), secret, string(rs[1:]), string(rs[:len(rs)-1]))) > 0 {
				return
			}
		}
		rnd := rand.New(rand.NewPCG(seed, 1))
		e := leakcheck.Encodings[int(enc)%len(leakcheck.Encodings)]
		text := []byte(e.Encode(before, secret, after, rnd))
		s := scrubberOf(namedSecret{name, secret})
		st := s.Stream(1<<20, 0)
		for rest := text; len(rest) > 0; {
			n := min(len(rest), 1+rnd.IntN(64))
			st.Write(rest[:n])
			rest = rest[n:]
		}
		out := st.Close()
		if found := leakcheck.Find(out, secret); len(found) > 0 {
			t.Fatalf("%s of %q in %q scrubbed to %q:\n%s", e.Name, secret, text, out, strings.Join(found, "\n"))
		}
		if whole := s.bytes(text, false); !bytes.Equal(whole, out) {
			t.Fatalf("stream %q, whole %q", out, whole)
		}
		if again := s.bytes(out, false); !bytes.Equal(again, out) {
			t.Fatalf("scrubbing %q again gave %q", out, again)
		}
	})
}

// validFuzzSecret: what a credential's secret can be (a header value of
// printable text), long enough for every form to be searched.
func validFuzzSecret(s string) bool {
	if len(s) < minEncodedSecret || !utf8.ValidString(s) || strings.Contains(s, "•") || strings.TrimSpace(s) == "" {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError || r >= 0x80 && r < 0xA0 {
			return false
		}
	}
	return true
}
