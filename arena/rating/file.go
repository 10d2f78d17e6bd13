package rating

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
)

// ParseRatings decodes a ratings file: a JSON object from player name to
// {"rating", "rd", "volatility"}. name is used in errors. Every entry must
// give all three fields, spelled exactly, as numbers, with a finite rating
// and a positive deviation and volatility; unknown fields are errors.
// Entries are checked in name order, so a file with several bad ones
// always names the same one.
func ParseRatings(data []byte, name string) (map[string]Rating, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("ratings %s: %w", name, err)
	}
	if raw == nil {
		return nil, fmt.Errorf("ratings %s: want an object from player name to rating, got null", name)
	}
	out := make(map[string]Rating, len(raw))
	players := make([]string, 0, len(raw))
	for player := range raw {
		players = append(players, player)
	}
	sort.Strings(players)
	for _, player := range players {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw[player], &fields); err != nil {
			return nil, fmt.Errorf("ratings %s: player %q: want an object with rating, rd and volatility: %w", name, player, err)
		}
		if fields == nil {
			return nil, fmt.Errorf("ratings %s: player %q is null; want an object with rating, rd and volatility", name, player)
		}
		var r struct {
			Rating, RD, Volatility *float64
		}
		keys := make([]string, 0, len(fields))
		for k := range fields {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			var dst **float64
			switch k { // exact keys: "RD" is not "rd"
			case "rating":
				dst = &r.Rating
			case "rd":
				dst = &r.RD
			case "volatility":
				dst = &r.Volatility
			default:
				return nil, fmt.Errorf("ratings %s: player %q: unknown field %q (fields: rating, rd, volatility)", name, player, k)
			}
			var v float64
			if string(bytes.TrimSpace(fields[k])) == "null" || json.Unmarshal(fields[k], &v) != nil {
				return nil, fmt.Errorf("ratings %s: player %q: %s is %s; want a number", name, player, k, fields[k])
			}
			*dst = &v
		}
		if r.Rating == nil || r.RD == nil || r.Volatility == nil {
			return nil, fmt.Errorf("ratings %s: player %q needs rating, rd and volatility", name, player)
		}
		switch {
		case player == "":
			return nil, fmt.Errorf("ratings %s: a player has an empty name", name)
		case math.IsNaN(*r.Rating) || math.IsInf(*r.Rating, 0):
			return nil, fmt.Errorf("ratings %s: player %q: rating %v is not a finite number", name, player, *r.Rating)
		case !(*r.RD > 0) || *r.RD > 10000:
			return nil, fmt.Errorf("ratings %s: player %q: rd %v is outside (0, 10000]", name, player, *r.RD)
		case !(*r.Volatility > 0) || *r.Volatility > 10:
			return nil, fmt.Errorf("ratings %s: player %q: volatility %v is outside (0, 10]", name, player, *r.Volatility)
		}
		out[player] = Rating{Rating: *r.Rating, RD: *r.RD, Volatility: *r.Volatility}
	}
	return out, nil
}

// MarshalRatings encodes ratings as an indented JSON object with names in
// sorted order, the format ParseRatings reads.
func MarshalRatings(m map[string]Rating) ([]byte, error) {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}
