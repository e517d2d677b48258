#!/usr/bin/env bash
# serve's own CPU per audited decision, side by side between builds
# (issue 26): each build's `toolguard serve` runs with its audit log on under
# a temporary HOME and XDG directories on a free loopback port, loaded by
# bench/serveload at 1, 8 and 32 connections; the builds alternate round by
# round, and the table gives serve's CPU per decision (median and range over
# the rounds), decisions/s, p99 and audit records per decision. See
# bench/servecpu for the flags.
#
# Usage (from anywhere; needs go and git):
#   bench/serve-cpu.sh                          # this checkout's HEAD alone
#   bench/serve-cpu.sh main my-branch           # commits, each built in a temporary worktree
#   bench/serve-cpu.sh before=/tmp/tg-old after=./toolguard
#   bench/serve-cpu.sh -rounds 6 -c 8,32 main HEAD
#
# About 3–4 minutes for six builds with the defaults (5 rounds, 16,000
# requests per run, 5,000 at one connection) on two quiet cores, plus the
# builds. Only the processes it starts are stopped; its temporary
# directories and worktrees are removed (-keep keeps the servers' homes).
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d "${TMPDIR:-/tmp}/serve-cpu.XXXXXX")
trap 'rm -rf "$work"' EXIT

go build -o "$work/servecpu" ./bench/servecpu
go build -o "$work/serveload" ./bench/serveload

if (( $# == 0 )); then
	set -- HEAD
fi
"$work/servecpu" -serveload "$work/serveload" -repo . "$@"
echo
uptime
