package explore

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestPlanMarkerEquivalentInputsRunOnce: inputs that differ only in
// which marker a free-form string holds are one run; an enum value or a
// page literal in the same place is a run of its own.
func TestPlanMarkerEquivalentInputsRunOnce(t *testing.T) {
	x := &Explorer{opts: Options{Runs: DefaultRuns}}
	sch := schemaOf{}
	if err := json.Unmarshal([]byte(`{"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "kind": {"enum": ["a", "b"]}}, "required": ["id", "name", "kind"]}`), &sch); err != nil {
		t.Fatal(err)
	}
	ins, variants := x.plan(sch, `if (input.id === "vip") {}`)
	var got []string
	seen := map[string]bool{}
	for _, in := range ins {
		k := equivalentInput(in.input)
		if seen[k] {
			t.Errorf("two runs of %s", k)
		}
		seen[k] = true
		got = append(got, k)
	}
	all := inputs(sch, pageLiterals(`if (input.id === "vip") {}`, 16), DefaultRuns-variants)
	if len(all) <= len(ins) {
		t.Fatalf("nothing to merge: %d inputs, %d runs", len(all), len(ins))
	}
	want := []string{
		`{"id":"zqmark","kind":"a","name":"zqmark"}`,
		`{"id":"vip","kind":"a","name":"zqmark"}`,
		`{"id":"zqmark","kind":"b","name":"zqmark"}`,
		`{"id":"zqmark","kind":"a","name":"vip"}`,
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("no run of %s; runs: %s", w, strings.Join(got, " "))
		}
	}
	if len(ins) != len(want) {
		t.Errorf("%d runs, want %d: %s", len(ins), len(want), strings.Join(got, " "))
	}
}

// TestResponseVariantsOnlyWhereAFetchWas: the runs with [], 404 and 500
// as answers go to the first inputs whose run fetched, in order; with no
// such input there are none.
func TestResponseVariantsOnlyWhereAFetchWas(t *testing.T) {
	ins := []planned{{input: json.RawMessage(`0`)}, {input: json.RawMessage(`1`)}, {input: json.RawMessage(`2`)}, {input: json.RawMessage(`3`)}}
	vs := responseVariants(ins, []bool{false, true, false, true}, 6)
	var got []string
	for _, v := range vs {
		got = append(got, string(v.input)+":"+itoa(int(v.mode)))
	}
	if s := strings.Join(got, " "); s != "1:1 1:2 1:3 3:1 3:2 3:3" {
		t.Errorf("variants %s", s)
	}
	if vs := responseVariants(ins, []bool{false, false, false, false}, 6); len(vs) != 0 {
		t.Errorf("%d variants of inputs that never fetched", len(vs))
	}
}

// TestResponseVariantsEachOnce: one input that fetched gets each other
// answer once, not the budget's worth of repeats (a run of the same input
// with the same answers runs alike).
func TestResponseVariantsEachOnce(t *testing.T) {
	ins := []planned{{input: json.RawMessage(`0`)}, {input: json.RawMessage(`1`)}}
	var got []string
	for _, v := range responseVariants(ins, []bool{false, true}, 6) {
		got = append(got, string(v.input)+":"+itoa(int(v.mode)))
	}
	if s := strings.Join(got, " "); s != "1:1 1:2 1:3" {
		t.Errorf("variants %s, want 1:1 1:2 1:3", s)
	}
}

// TestNoResponseVariantsWithoutFetch: a tool that fetches only for one
// enum value gets its response variants on that value; one that never
// fetches makes only its input runs.
func TestNoResponseVariantsWithoutFetch(t *testing.T) {
	x := explorer(t)
	schema := `{"type": "object", "properties": {"mode": {"enum": ["quiet", "loud"]}}, "required": ["mode"]}`
	p := writePlugin(t, map[string]string{
		"plugin.json": manifest(schema, `"api.example.com"`, ""),
		"code/t.ts": `export default async function (input: { mode: string }) {
  if (input.mode !== "loud") return 0;
  const r = await http.fetch("https://api.example.com/x");
  if (r.status === 404) await http.fetch("https://fallback.example.com/x");
  return r.status;
}`,
	})
	e := x.Tool(context.Background(), p, "t")
	if e == nil || !e.Complete {
		t.Fatalf("%+v", e)
	}
	if e.Runs != 2+3 {
		t.Errorf("%d runs, want the 2 inputs and the 3 variants of the one that fetched", e.Runs)
	}
	if h := strings.Join(hostsAt(e), ","); h != "api.example.com,fallback.example.com" {
		t.Errorf("hosts %s (the 404 answer of the loud input reaches the fallback)", h)
	}
	q := writePlugin(t, map[string]string{
		"plugin.json": manifest(schema, `"api.example.com"`, ""),
		"code/t.ts":   `export default function (input: { mode: string }) { return input.mode.length; }`,
	})
	if e := x.Tool(context.Background(), q, "t"); e == nil || e.Runs != 2 {
		t.Errorf("a tool that never fetches: %+v, want 2 runs", e)
	}
}
