package jsmodule

import (
	_ "embed"
	"encoding/json"
	"sort"
)

//go:embed brokercaps.json
var brokerCapsJSON []byte

// BrokerCapability is one capability a host broker offers full-trust
// native tools, named in a tool definition's `requires` list
// (docs/broker-capabilities.md explains each).
type BrokerCapability struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
}

// BrokerCapabilities returns the embedded catalogue, sorted by name. Each
// call returns a fresh slice.
func BrokerCapabilities() []BrokerCapability {
	var caps []BrokerCapability
	if err := json.Unmarshal(brokerCapsJSON, &caps); err != nil {
		panic("esm: embedded brokercaps.json is invalid: " + err.Error())
	}
	sort.Slice(caps, func(i, j int) bool { return caps[i].Name < caps[j].Name })
	return caps
}
