package capability

import (
	"strings"
	"testing"
)

func TestCredentialHeaderAndFormat(t *testing.T) {
	for _, tc := range []struct{ header, format, want string }{
		{"Authorization", "Bearer {{secret}}", ""},
		{"X-Api-Key", "{{secret}}", ""},
		{"Authorization", "Bearer {{ secret }}", `placeholder "{{ secret }}"`},
		{"Authorization", "Bearer {{secret}}\r\nX-Evil: 1", "line break"},
		{"Authorization", "Bearer {{secret}}\x00", "control character"},
		{"Bad Header", "{{secret}}", "not a valid HTTP header name"},
		{"content-length", "{{secret}}", "controlled by the transport"},
		{"Transfer-Encoding", "{{secret}}", "controlled by the transport"},
		{"proxy-authorization", "{{secret}}", "controlled by the transport"},
		{"Proxy-Anything", "{{secret}}", "controlled by the transport"},
		{"Authorization", "", "no {{secret}} placeholder"},
		{"Authorization", "{{secret}}{{secret}}", "2 times"},
	} {
		got := HeaderProblem(tc.header) + FormatProblem(tc.format)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%q/%q: got %q, want %q", tc.header, tc.format, got, tc.want)
		}
	}
}

func TestCatalogue(t *testing.T) {
	names := HostMethodNames()
	want := []string{"collections.delete", "collections.get", "collections.put", "collections.query", "http.fetch"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("catalogue %v, want %v", names, want)
	}
	for _, m := range HostMethods() {
		if m.Signature == "" || m.Returns == "" || m.Doc == "" || !strings.HasPrefix(m.Signature, m.Name+"(") {
			t.Errorf("%s: incomplete entry %+v", m.Name, m)
		}
	}
	if !IsHostMethod("http", "fetch") || IsHostMethod("http", "get") || len(MethodsOf("collections")) != 4 {
		t.Error("IsHostMethod / MethodsOf disagree with the catalogue")
	}
	if m, _ := LookupHostMethod("http.fetch"); !m.Async {
		t.Error("http.fetch must be async")
	}
}
