// Package viewer renders a match as one self-contained HTML page: the
// skeleton every game's page shares (its title, the embedded match and
// derived data, the common style and script with the timeline and the
// charts). Each game's page lives in the game's own package
// (viewer/acbview: an AI Code Battle replay as an animated map with charts,
// an event ribbon, a win-probability line and a commentary;
// viewer/kindlingview: a Kindling log as the ridge of five beacons turn by
// turn). The page embeds the match and all its script and style, and opens
// from disk with no network.
package viewer
