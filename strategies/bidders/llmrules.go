package bidders

// LLMRules states the rules of Kindling for a language model: a short and
// exact summary of the game's spec (/work/shared/specs/kindling.md), what a
// strategy's parameters act on, with the default settings the arena
// plays. The evolver's llm algorithm shows it in every prompt (the games
// table hands it over).
const LLMRules = `Kindling is a blind-bidding game for 2 to 4 players over 8 turns. There are five beacons, with base values: Fen 1, Cairn 2, Crown 4, Tor 3, Mill 2.

Each player starts with 5 sparks and, before every later turn, gains 5 more, capped at 12. Each turn every player at once bids a whole number of sparks (0 or more) on each beacon, at most its sparks in total. Bid sparks are spent whether the bid wins or not. A player's strength at a beacon is its bid plus its embers there. The single player with the strictly greatest strength (above 0) lights the beacon and scores its current value; when two or more share the greatest strength, nobody lights it.

Embers: at each beacon, the player who lit it keeps no embers there, and every other player keeps half its strength there, rounded down (a losing bid leaves half of itself; embers not used to win halve each turn). Values: a lit beacon goes back to its base value for the next turn; an unlit one grows by 1, up to 9.

Players see every player's score, sparks and embers, the beacons' values, and the previous turn's bids. After turn 8 the highest score wins, ties broken by sparks left; players still tied share the win (a draw between them).
`
