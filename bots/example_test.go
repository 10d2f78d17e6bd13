package bots_test

import (
	"fmt"

	"crucible/bots"
	"crucible/strategies"
)

// A manifest read from its file (here from bytes), one variant of it, and
// the environment the lab hands that variant's process.
func ExampleManifest_Variant() {
	m, err := bots.Parse([]byte(`{
	  "kind": "crucible-bot/1", "game": "acb", "name": "mybot",
	  "command": ["python3", "main.py"],
	  "params": [
	    {"name": "aggression", "min": 0, "max": 1, "default": 0.5},
	    {"name": "max-radius", "min": 1, "max": 8, "default": 3, "integer": true}
	  ]
	}`), "/home/me/mybot", "bot.json", []string{"acb", "kindling"})
	if err != nil {
		fmt.Println(err)
		return
	}
	v := m.Variant(strategies.Genome{0.75, 5})
	fmt.Println(v.Label() == "mybot#"+v.ID, len(v.ID))
	for _, kv := range v.Env() {
		fmt.Println(kv)
	}
	_, err = bots.Parse([]byte(`{"kind": "crucible-bot/1", "game": "acb", "name": "mybot", "command": ["bot"],
	  "params": [{"name": "radius", "min": 1, "max": 8, "default": 3}], "values": {"radius": 9}}`), "/", "bad.json", []string{"acb"})
	fmt.Println(err)
	// Output:
	// true 10
	// CRUCIBLE_PARAMS={"aggression":0.75,"max-radius":5}
	// CRUCIBLE_PARAM_AGGRESSION=0.75
	// CRUCIBLE_PARAM_MAX_RADIUS=5
	// bot manifest bad.json: values: parameter radius = 9 is outside its range [1, 8]
}
