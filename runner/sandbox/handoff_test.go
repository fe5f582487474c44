package sandbox

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTakenResultsDoNotStayInMemory: a page that awaits big host results
// one after another, dropping each, keeps the sandbox's memory at about
// one result's worth, whatever their number. qjs's NewString left each
// answer's C copy in the memory for the rest of the run: 7 results of
// 2 MiB grew it by 12 MiB more than one did.
func TestTakenResultsDoNotStayInMemory(t *testing.T) {
	body, _ := json.Marshal(map[string]any{"status": 200, "headers": map[string]string{}, "body": strings.Repeat("x", 2<<20)})
	big := Method{Name: "http.fetch", Async: true, Fn: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
		return body, nil
	}}
	peak := func(n int) int64 {
		t.Helper()
		job := Job{Name: "page.js", Code: page(`async function main(x) {
			let total = 0;
			for (let i = 0; i < x.n; i++) total += (await (await http.fetch("https://a.example/" + i)).text()).length;
			return total;
		}`), Methods: []Method{big}, Timeout: 60 * time.Second, Input: json.RawMessage(`{"n":` + strconv.Itoa(n) + `}`)}
		out := engine(t).Run(context.Background(), job)
		if !out.OK {
			t.Fatalf("%d results: %+v", n, out.Err)
		}
		return out.MemoryPeakBytes
	}
	one := peak(1)
	seven := peak(7)
	t.Logf("memory after 1 result: %d MiB, after 7: %d MiB", one>>20, seven>>20)
	if seven-one > 6<<20 {
		t.Fatalf("7 results of 2 MiB grew the sandbox's memory by %d MiB more than one did (each taken result must be freed)", (seven-one)>>20)
	}
}
