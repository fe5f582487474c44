package sandbox

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTakenResultsDoNotStayInMemory: a page that awaits big host results,
// one after another or all at once (Promise.all), dropping each, keeps the
// sandbox's memory at about one result's worth, whatever their number.
// qjs's NewString left each answer's C copy in the memory for the rest of
// the run (8 results of 1 MiB, one after another, grew it by 7 MiB more
// than one did), and one delivery took every finished result at once, so
// all of them were alive until the page's reactions ran (8 in parallel:
// 7 MiB more).
func TestTakenResultsDoNotStayInMemory(t *testing.T) {
	text := strings.Repeat("x", 1<<20)
	body, _ := json.Marshal(map[string]any{"status": 200, "headers": map[string]string{}, "body": text})
	pages := map[string]string{
		"one after another": `async function main(x) {
			let total = 0;
			for (let i = 0; i < x.n; i++) total += (await (await http.fetch("https://a.example/" + i)).text()).length;
			return total;
		}`,
		"all at once": `async function main(x) {
			return await Promise.all(Array.from({ length: x.n }, (_, i) => http.fetch("https://a.example/" + i).then((r) => r.text().then((t) => t.length))));
		}`,
	}
	for _, raw := range []bool{false, true} {
		big := Method{Name: "http.fetch", Async: true, Fn: func(ctx context.Context, _ []json.RawMessage) (json.RawMessage, error) {
			if raw && SetText(ctx, "body", []byte(text)) {
				return json.RawMessage(`{"status":200,"headers":{}}`), nil
			}
			return body, nil
		}}
		for name, src := range pages {
			peak := func(n int) int64 {
				t.Helper()
				job := Job{Name: "page.js", Code: page(src), Methods: []Method{big}, Timeout: 60 * time.Second, Input: json.RawMessage(`{"n":` + strconv.Itoa(n) + `}`)}
				out := engine(t).Run(context.Background(), job)
				if !out.OK {
					t.Fatalf("%s, %d results: %+v", name, n, out.Err)
				}
				return out.MemoryPeakBytes
			}
			one, eight := peak(1), peak(8)
			t.Logf("%s (text %v): memory after 1 result: %d MiB, after 8: %d MiB", name, raw, one>>20, eight>>20)
			if eight-one > 4<<20 {
				t.Errorf("%s (text %v): 8 results of 1 MiB grew the sandbox's memory by %d MiB more than one did (each result must be freed once the page is done with it)", name, raw, (eight-one)>>20)
			}
		}
	}
}

// TestSetText: a text handed over raw reaches the page as the same string
// JSON would have made (ASCII, Latin-1, astral characters, U+2028, what
// JSON escapes), inside the take's answer (up to inlineTextBytes) or by
// its own call (above); text that cannot go raw (a NUL byte, bad UTF-8)
// is refused, and the method puts it into its JSON instead.
func TestSetText(t *testing.T) {
	texts := []string{"", "plain ascii", "café ü ß", "emoji 😀 and \u2028 line sep", "<a href=\"x\">&amp;</a>\\ \u2029 \t",
		strings.Repeat("a", inlineTextBytes), strings.Repeat("é", inlineTextBytes/2) + "x", strings.Repeat("é", 100000),
		"nul\x00inside", "bad \xff byte"}
	var raw []bool
	m := Method{Name: "http.fetch", Async: true, Fn: func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
		var u string
		json.Unmarshal(args[0], &u)
		i, _ := strconv.Atoi(u)
		text := []byte(texts[i])
		if SetText(ctx, "body", text) {
			raw = append(raw, true)
			return json.RawMessage(`{"status":200,"headers":{}}`), nil
		}
		raw = append(raw, false)
		b, _ := json.Marshal(map[string]any{"status": 200, "headers": map[string]string{}, "body": string(text)})
		return b, nil
	}}
	job := Job{Name: "page.js", Code: page(`async function main(x) {
		const out = [];
		for (let i = 0; i < x.n; i++) out.push(await (await http.fetch(String(i))).text());
		return out;
	}`), Methods: []Method{m}, Timeout: 30 * time.Second, Input: json.RawMessage(`{"n":` + strconv.Itoa(len(texts)) + `}`)}
	out := engine(t).Run(context.Background(), job)
	if !out.OK {
		t.Fatalf("%+v", out.Err)
	}
	var got []string
	if err := json.Unmarshal(out.Result, &got); err != nil {
		t.Fatal(err)
	}
	for i, want := range texts {
		wantRaw := i < 8
		if raw[i] != wantRaw {
			t.Errorf("text %d: SetText = %v, want %v", i, raw[i], wantRaw)
		}
		if w := strings.ToValidUTF8(want, "\uFFFD"); got[i] != w {
			t.Errorf("text %d: the page read %q, want %q", i, elide(got[i]), elide(w))
		}
	}
	if SetText(context.Background(), "body", []byte("x")) {
		t.Error("SetText outside a host call must refuse")
	}
}

func elide(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
