// Package viewer renders a match as one self-contained HTML page: an AI
// Code Battle replay (crucible-acb-replay/1) as an animated map with
// charts, an event ribbon, a win-probability line and a commentary; a
// Kindling log as the ridge of five beacons turn by turn. The page embeds
// the match and all its script and style, and opens from disk with no
// network.
package viewer
