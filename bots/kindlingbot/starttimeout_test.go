package kindlingbot_test

import "os"

// The bots these tests start are real processes; on a machine at load 40
// an interpreter can take longer than the 30 s default to answer /health,
// so the tests' managers wait up to 5 minutes (a run's own setting wins).
func init() {
	if os.Getenv("CRUCIBLE_BOT_START_TIMEOUT") == "" {
		os.Setenv("CRUCIBLE_BOT_START_TIMEOUT", "5m")
	}
}
