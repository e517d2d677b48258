package cli

import (
	"testing"
	"time"
)

// TOOLGUARD_RELAY_IDLE sets the daemon's idle time; anything but a
// positive duration leaves relayd's default (zero here).
func TestRelayIdle(t *testing.T) {
	tests := []struct {
		env  string
		want time.Duration
	}{
		{"", 0}, {"90s", 90 * time.Second}, {"1h", time.Hour}, {"0", 0}, {"-5m", 0}, {"ten minutes", 0},
	}
	for _, tt := range tests {
		t.Setenv("TOOLGUARD_RELAY_IDLE", tt.env)
		if got := relayIdle(); got != tt.want {
			t.Errorf("TOOLGUARD_RELAY_IDLE=%q: %s, want %s", tt.env, got, tt.want)
		}
	}
}
