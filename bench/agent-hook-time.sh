#!/usr/bin/env bash
# The hook as the real agent reports it (issue 12): Claude Code's debug log
# gives every command hook's duration. Runs N headless Claude Code sessions
# (offline, mock model, bubblewrap; see e2e/doc.go) with toolguard's hook
# and N with a trivial shell hook, interleaved, and prints both.
#
# Usage: bench/agent-hook-time.sh [N]     # default 30 sessions each
# Needs bwrap and claude on PATH (.ci/run installs both; or
# PATH=$PWD/.ci/agents/node_modules/.bin:$PATH after it ran once).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-30}
if [ -d .ci/agents/node_modules/.bin ]; then
	export PATH="$PWD/.ci/agents/node_modules/.bin:$PATH"
fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
TOOLGUARD_E2E_HOOKTIME=$n go test ./e2e -run TestClaudeCodeHookDurations -count=1 -v -timeout 60m |
	grep -E '^\s+hooktime_test.go' | sed -E 's/^\s+hooktime_test.go:[0-9]+: //'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
