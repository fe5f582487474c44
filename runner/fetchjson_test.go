package runner

import (
	"encoding/json"
	"testing"
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
