package acb

// Preset is a named game configuration, given as the JSON a --config file
// would hold (fields left out keep their defaults).
type Preset struct {
	Name        string
	Description string
	JSON        string
}

// Presets are the named configurations: the zone as the seed's example
// config sets it, and a milder storm that starts later, shrinks slower and
// stops at a wider radius.
func Presets() []Preset {
	return []Preset{
		{
			Name:        "zone",
			Description: "the zone at the seed's example settings: from turn 10, one tile every turn, down to radius 2",
			JSON:        `{"zone_enabled": true}`,
		},
		{
			Name:        "zone-mild",
			Description: "a milder storm: from turn 100, one tile every 10 turns, down to radius 8",
			JSON:        `{"zone_enabled": true, "zone_start_turn": 100, "zone_shrink_interval": 10, "zone_min_radius": 8}`,
		},
	}
}
