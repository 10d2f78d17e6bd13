package arena_test

import "crucible/arena/rating"

func ratingDefault() *rating.Glicko2 { return rating.Default() }
