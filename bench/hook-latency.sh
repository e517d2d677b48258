#!/usr/bin/env bash
# Whole-process cost of "toolguard hook claude-code" (DESIGN §10, issue 12)
# next to a minimal Go program that decodes the same payload and prints {},
# and next to cc-safety-net (Node) run as a Claude Code PreToolUse hook:
# CPU time (user + system) and wall time, each as a paired median ratio
# to the minimal program, and peak RSS. "link floor" (bench/linkfloor) links
# everything toolguard links but only decodes the payload: the part of the
# cost that comes from being one program with a server in it.
#
# Usage (from anywhere; needs go, and node + npm for the cc-safety-net column):
#   bench/hook-latency.sh [ROUNDS]          # default 300 rounds
#
# toolguard is built as documented (CGO_ENABLED=0: a static binary, see
# docs/benchmarks.md for what the dynamic build costs) and also as plain
# `go build` for comparison. Every round runs each command once on each
# payload, in a rotating order, so background load affects all of them alike
# (bench/hooktime). The replies are checked: toolguard and cc-safety-net must
# deny "rm -rf ~", toolguard must allow "git status" and the Read. HOME, XDG_*
# and CLAUDE_PROJECT_DIR point into a temporary directory, so no user policy
# or state is read or written. The script then times the phases inside a fresh
# toolguard process (bench/startup) and prints machine and load figures.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

rounds=${1:-300}
startup_rounds=$(( rounds < 200 ? rounds : 200 ))
work=$(mktemp -d "${TMPDIR:-/tmp}/hook-latency.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "== machine"
echo "cpus: $(nproc), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"
echo "kernel: $(uname -sr); $(go version); node: $(node --version 2>/dev/null || echo absent)"
echo "load before: $(uptime | sed 's/.*load average: //')"

echo "== building (go build -trimpath)"
for pkg in cmd/toolguard bench/minimal bench/linkfloor bench/hooktime bench/startup; do
	CGO_ENABLED=0 go build -trimpath -o "$work/$(basename "$pkg")" "./$pkg"
done
go build -trimpath -o "$work/toolguard-cgo" ./cmd/toolguard

# The page cache holds a file just written (by the linker, or by go install)
# in small folios, and one read back from disk in large ones, which the
# kernel maps more of per page fault: the same binary then costs 10-15%
# less CPU and shows ~3 MiB more (shared, file-backed) RSS. Every command
# must be measured in the same state; as root the script drops the cache and
# reads each binary back (a binary that has been on disk a while), otherwise
# all are freshly linked (just installed).
if [ -w /proc/sys/vm/drop_caches ]; then
	sync
	echo 3 >/proc/sys/vm/drop_caches
	cat "$work"/minimal "$work"/linkfloor "$work"/toolguard "$work"/toolguard-cgo >/dev/null
	echo "page cache: dropped, binaries read back (large folios)"
else
	echo "page cache: binaries freshly linked (small folios; run as root to measure them read back)"
fi

ccsn=.ci/node_modules/cc-safety-net/dist/bin/cc-safety-net.js
if [ ! -f "$ccsn" ] && command -v npm >/dev/null 2>&1; then
	echo "== installing cc-safety-net (npm ci in .ci)"
	(cd .ci && npm ci --no-audit --no-fund --loglevel=error)
fi

proj="$work/project"
mkdir -p "$proj" "$work/home"
echo "# benchmark project" >"$proj/README.md"
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_STATE_HOME="$work/home/.local/state"
export CLAUDE_PROJECT_DIR="$proj"
unset TOOLGUARD_CONFIG
cd "$proj"

# payload NAME TOOL INPUT writes one Claude Code PreToolUse payload.
payload() {
	printf '{"session_id":"bench","transcript_path":"%s/t.jsonl","cwd":"%s","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"%s","tool_use_id":"toolu_bench","tool_input":%s}\n' \
		"$work" "$proj" "$2" "$3" >"$work/$1.json"
}
payload bash-git-status Bash '{"command":"git status","description":"Show working tree status"}'
payload bash-rm-rf-home Bash '{"command":"rm -rf ~","description":"Delete the home directory"}'
payload read-file Read "{\"file_path\":\"$proj/README.md\"}"

args=(-n "$rounds" -cmd "minimal=$work/minimal" -cmd "link floor=$work/linkfloor" -cmd "toolguard=$work/toolguard hook claude-code"
	-cmd "toolguard (cgo build)=$work/toolguard-cgo hook claude-code")
for p in bash-git-status bash-rm-rf-home read-file; do
	args+=(-payload "$p=$work/$p.json")
done
for c in toolguard "toolguard (cgo build)"; do
	args+=(-expect "$c/bash-rm-rf-home=deny" -expect "$c/bash-git-status=allow" -expect "$c/read-file=allow")
done
if [ -f "$repo/$ccsn" ] && command -v node >/dev/null 2>&1; then
	# What the package's bin (and so its Claude Code hook) runs: node, not npx.
	args+=(-cmd "cc-safety-net=node $repo/$ccsn hook --coding-cli" -expect cc-safety-net/bash-rm-rf-home=deny)
else
	echo "(cc-safety-net not available: no node, or npm ci in .ci failed; its column is left out)"
fi

echo "== hook process cost ($rounds rounds)"
"$work/hooktime" "${args[@]}"

if [ -x /usr/bin/time ]; then
	# GNU time forks (no vfork), so small processes report their own RSS.
	echo
	echo "== peak RSS of one run each, by /usr/bin/time (bash-git-status)"
	rss() { /usr/bin/time -f "$1: %M KiB" "${@:2}" <"$work/bash-git-status.json" >/dev/null 2>"$work/rss" || true; tail -n1 "$work/rss"; }
	rss minimal "$work/minimal"
	rss toolguard "$work/toolguard" hook claude-code
	rss "toolguard (cgo build)" "$work/toolguard-cgo" hook claude-code
	if [ -f "$repo/$ccsn" ] && command -v node >/dev/null 2>&1; then
		rss cc-safety-net node "$repo/$ccsn" hook --coding-cli
	fi
fi

echo
echo "== inside a fresh toolguard process ($startup_rounds processes per role, bash-git-status)"
"$work/startup" -n "$startup_rounds" "$work/bash-git-status.json"
echo
echo "== inside a fresh toolguard process ($startup_rounds processes per role, read-file)"
"$work/startup" -n "$startup_rounds" "$work/read-file.json"

if command -v hyperfine >/dev/null 2>&1; then
	echo
	echo "== cross-check with hyperfine (bash-git-status)"
	hyperfine -N --warmup 10 --runs "$rounds" --input "$work/bash-git-status.json" \
		"$work/minimal" "$work/toolguard hook claude-code"
fi
echo
echo "load after: $(uptime | sed 's/.*load average: //')"
