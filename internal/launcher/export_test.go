package launcher

import "time"

// SetRelayLimits shortens the relay's time limits in the launcher the
// tests run (they copy the test binary and run it as toolguard).
func SetRelayLimits(deadline, replay time.Duration) { relayDeadline, replayBefore = deadline, replay }
