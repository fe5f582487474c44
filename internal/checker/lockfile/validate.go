package lockfile

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

const schemaID = "https://plugin-lsp.dev/schema/plugin.lock.schema.json"

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("refusing to load %s (no network)", s)
	}
	if err := c.AddResource(schemaID, bytes.NewReader(SchemaJSON)); err != nil {
		return nil, err
	}
	return c.Compile(schemaID)
})

// validate checks a decoded lock against lock.schema.json and says where
// the first problem is.
func validate(doc any) error {
	s, err := compiled()
	if err != nil {
		return fmt.Errorf("the snapshot schema does not compile (please report this): %v", err)
	}
	err = s.Validate(doc)
	if err == nil {
		return nil
	}
	if ve, ok := err.(*jsonschema.ValidationError); ok {
		leaf := ve
		for len(leaf.Causes) > 0 {
			leaf = leaf.Causes[0]
		}
		at := leaf.InstanceLocation
		if at == "" {
			at = "/"
		}
		return fmt.Errorf("%s: %s", at, strings.TrimSpace(leaf.Message))
	}
	return err
}
