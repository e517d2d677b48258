package cli

import (
	"testing"
	"time"

	"github.com/toolguard/toolguard/hook"
)

func TestDecideWithinSharesTheHookBudget(t *testing.T) {
	tests := []struct {
		loaded, want time.Duration
	}{
		{0, hook.DefaultTimeout},
		{time.Millisecond, hook.DefaultTimeout - time.Millisecond},
		{3 * time.Second, hook.DefaultTimeout - 3*time.Second},
		{hook.DefaultTimeout - 100*time.Millisecond, minDecideTime},
		{hook.DefaultTimeout, minDecideTime},
	}
	for _, tt := range tests {
		if got := decideWithin(tt.loaded); got != tt.want {
			t.Errorf("decideWithin(%s) = %s, want %s", tt.loaded, got, tt.want)
		}
	}
}
