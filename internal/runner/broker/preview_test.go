package broker_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// TestAuditShowsWhatWasSent: each entry carries the request headers as
// sent (a credential's header as "Bearer {{name}}"), the body's size and
// a redacted preview, and the response headers; all capped.
func TestAuditShowsWhatWasSent(t *testing.T) {
	p := &recordingProvider{respond: func(req *broker.Request) (*broker.Response, error) {
		h := http.Header{"Content-Type": {"application/json"}, "X-Echo-Auth": {req.Header.Get("Authorization")}}
		return &broker.Response{Status: 201, Header: h, Body: []byte(`{}`), URL: req.URL}, nil
	}}
	b := broker.New(credConfig(p, mapSecrets{"openlibrary_key": olSecret, "cover_key": coverSecret}))
	ctx := context.Background()
	body := `{"note":"my key is ` + olSecret + `","pad":"` + strings.Repeat("é", 400) + `"}`
	_, err := b.Fetch(ctx, broker.Request{Method: "POST", URL: "https://api.openlibrary.org/notes",
		Header: http.Header{"Authorization": {"Bearer guessed"}, "X-Trace": {"t-1"}, "X-Long": {strings.Repeat("v", 300)}},
		Body:   []byte(body)})
	if err != nil {
		t.Fatal(err)
	}
	e := b.Audit()[0]
	wantReq := map[string]string{
		"authorization": "Bearer {{openlibrary_key}}",
		"x-trace":       "t-1",
		"x-long":        strings.Repeat("v", broker.PreviewHeaderBytes) + "…",
	}
	if !reflect.DeepEqual(e.RequestHeaders, wantReq) {
		t.Errorf("request headers %q", e.RequestHeaders)
	}
	if e.RequestBytes != int64(len(body)) {
		t.Errorf("request bytes %d, want %d", e.RequestBytes, len(body))
	}
	if !strings.HasPrefix(e.RequestPreview, `{"note":"my key is ••••(openlibrary_key)","pad":"éé`) || !strings.HasSuffix(e.RequestPreview, "…") ||
		len(e.RequestPreview) > broker.PreviewBodyBytes+len("…")+64 {
		t.Errorf("preview %q (%d bytes)", e.RequestPreview, len(e.RequestPreview))
	}
	if e.ResponseHeaders["content-type"] != "application/json" || e.ResponseHeaders["x-echo-auth"] != "Bearer ••••(openlibrary_key)" {
		t.Errorf("response headers %q", e.ResponseHeaders)
	}
	all, _ := json.Marshal(b.Audit())
	if strings.Contains(string(all), olSecret) {
		t.Fatalf("secret in the audit: %s", all)
	}

	// many headers: capped with a marker; a binary body is described
	many := http.Header{}
	for i := 0; i < 40; i++ {
		many.Set("X-H"+strings.Repeat("a", i), "v")
	}
	if _, err := b.Fetch(ctx, broker.Request{Method: "PUT", URL: "https://other.org/bin", Header: many, Body: []byte{0xff, 0xfe, 0x00}}); err != nil {
		t.Fatal(err)
	}
	e = b.Audit()[1]
	if len(e.RequestHeaders) != broker.PreviewHeaders+1 || e.RequestHeaders["…"] == "" || e.RequestPreview != "[binary body]" || e.RequestBytes != 3 {
		t.Errorf("capped entry: %d headers, preview %q, bytes %d", len(e.RequestHeaders), e.RequestPreview, e.RequestBytes)
	}

	// a refused request still shows what the tool tried to send
	if _, err := b.Fetch(ctx, broker.Request{Method: "POST", URL: "https://evil.example/x", Body: []byte("payload")}); err == nil {
		t.Fatal("not refused")
	}
	e = b.Audit()[2]
	if e.Refused != "not-allowed" || e.RequestBytes != 7 || e.RequestPreview != "payload" || e.RequestHeaders != nil {
		t.Errorf("refused entry %+v", e)
	}
}
