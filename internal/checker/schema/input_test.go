package schema

import (
	"reflect"
	"testing"
)

func TestInputValidation(t *testing.T) {
	s, err := CompileInput([]byte(`{
		"type": "object",
		"properties": {
			"city": { "type": "string", "minLength": 1 },
			"days": { "type": "integer", "minimum": 1, "maximum": 14 },
			"it's \"odd\"/x": { "type": "boolean" },
			"tags": { "type": "array", "items": { "enum": ["a", "b"] } }
		},
		"required": ["city", "it's \"odd\"/x"],
		"additionalProperties": false
	}`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		in   string
		want []Violation
	}{
		{`{"city":"Oslo","it's \"odd\"/x":true}`, nil},
		{`{"town":"Oslo","it's \"odd\"/x":true}`, []Violation{
			{"", "additionalProperties 'town' not allowed"},
			{"/city", "required property is missing"},
		}},
		{`{"city":"","days":"3","tags":["a","c"],"it's \"odd\"/x":1}`, []Violation{
			{"/city", "length must be >= 1, but got 0"},
			{"/days", "expected integer, but got string"},
			{"/it's \"odd\"~1x", "expected boolean, but got number"},
			{"/tags/1", `value must be one of "a", "b"`},
		}},
		{``, []Violation{{"", "expected object, but got null"}}},
		{`{"city":`, []Violation{{"", "the input is not JSON"}}},
		{`{} {}`, []Violation{{"", "the input is not JSON"}}},
	}
	for _, c := range cases {
		got := s.Validate([]byte(c.in))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestInputSchemaRefusesRemoteRefs(t *testing.T) {
	if _, err := CompileInput([]byte(`{"$ref": "https://example.com/s.json"}`)); err == nil {
		t.Fatal("a remote $ref compiled")
	}
	if _, err := CompileInput([]byte(`{"type": 3}`)); err == nil {
		t.Fatal("an invalid schema compiled")
	}
	s, err := CompileInput([]byte(`{"$defs": {"n": {"type": "number"}}, "type": "array", "items": {"$ref": "#/$defs/n"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if v := s.Validate([]byte(`[1, "x"]`)); len(v) != 1 || v[0].Pointer != "/1" {
		t.Fatalf("%q", v)
	}
}
