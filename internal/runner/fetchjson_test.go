package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// appendJSONString decodes to what encoding/json's string encoding decodes
// to, for any bytes (invalid UTF-8, controls, quotes, U+2028).
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "q\"b\\s\n\r\t\x00\x1f", "é😀\xff\xfe\xe2\x80\xa8\xe2\x80\xa9<>&", "\xf0\x9f"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := appendJSONString(nil, b)
		var a, w string
		if err := json.Unmarshal(got, &a); err != nil {
			t.Fatalf("%q -> invalid JSON %q: %v", b, got, err)
		}
		want, _ := json.Marshal(string(b))
		json.Unmarshal(want, &w)
		if a != w {
			t.Fatalf("%q: got %q, encoding/json %q", b, a, w)
		}
	})
}

func TestFetchResultJSON(t *testing.T) {
	raw, err := fetchResultJSON(200, map[string]string{"b": "2", "a": "1"}, "https://x.example/", []byte("hi\n\xff"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"status":200,"headers":{"a":"1","b":"2"},"body":"hi\n\ufffd","url":"https://x.example/"}`
	if string(raw) != want {
		t.Fatalf("got  %s\nwant %s", raw, want)
	}
}

// TestFetchBodiesReachThePage: a body that goes to the page as a text
// (sandbox.SetText) and one that must be encoded into the JSON (a NUL
// byte) read the same to the page as JSON.parse of encoding/json's
// encoding would: ASCII, Latin-1, astral characters, U+2028, NUL, empty.
func TestFetchBodiesReachThePage(t *testing.T) {
	bodies := []string{"plain", "café ß", "😀 \u2028 \u2029 end", "nul \x00 inside", "", `{"json":true}`}
	var fx strings.Builder
	fx.WriteString(`{"fnFetch":[`)
	for i, b := range bodies {
		if i > 0 {
			fx.WriteString(",")
		}
		q, _ := json.Marshal(b)
		fmt.Fprintf(&fx, `{"url":"https://api.example.com/%d","status":200,"body":%s}`, i, q)
	}
	fx.WriteString("]}")
	p := writePlugin(t, map[string]string{
		"plugin.json": `{"name":"t","version":"1.0.0","tools":[{"name":"a","page":"code/a"}],
		  "capabilities":{"host":["http.fetch"],"fetch":["api.example.com"]}}`,
		"code/a.ts": `export default async function () {
  const out: string[] = [];
  for (let i = 0; i < ` + strconv.Itoa(len(bodies)) + `; i++) out.push(await (await http.fetch("https://api.example.com/" + i)).text());
  return out;
}
`,
		"fixtures.json": fx.String(),
	})
	rec, err := sharedRunner(t).Run(context.Background(), Request{Plugin: p, Tool: "a", Timeout: 20 * time.Second})
	if err != nil || !rec.OK {
		t.Fatalf("%v %+v", err, rec.Error)
	}
	var got []string
	if err := json.Unmarshal(rec.Result, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(bodies) {
		t.Fatalf("got %q", got)
	}
	for i, want := range bodies {
		if got[i] != want {
			t.Errorf("body %d: the page read %q, want %q", i, got[i], want)
		}
	}
}
