#!/usr/bin/env bash
# wrap-cost.sh measures what [sandbox] wrap adds to an agent's command:
# bash -c true as the agent runs it, the same through toolguard exec
# --wrapped, and toolguard's own start-up, in interleaved rounds
# (bench/hooktime). Run it in a project directory of the home you want
# measured (outside /tmp), with the toolguard binary to measure:
#
#   bench/wrap-cost.sh /path/to/toolguard [ROUNDS]
#
# The load average is printed before and after: figures taken under load
# are only comparable within one run. With OTHER=DIR (another project, for
# instance one with a .claude/ directory, whose settings the sandbox keeps
# read-only), a command wrapped with DIR as its workspace is timed too,
# interleaved with the first: an agent in each project.
set -eu
TG=${1:?usage: wrap-cost.sh TOOLGUARD [ROUNDS]}
N=${2:-400}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
(cd "$here" && go build -o "$bin/hooktime" ./bench/hooktime)
echo '{}' >"$bin/empty.json"
"$TG" exec --wrapped -- true # fills the search cache
other=()
if [ -n "${OTHER:-}" ]; then
	"$TG" exec --wrapped --workspace "$OTHER" -- true
	other=(-cmd "wrapped-other=$TG exec --wrapped --workspace $OTHER -- /bin/bash -c true")
fi
uptime
"$bin/hooktime" -n "$N" -cmd "plain=/bin/bash -c true" -cmd "wrapped=$TG exec --wrapped -- /bin/bash -c true" \
	"${other[@]}" -cmd "toolguard-start=$TG version" -payload none="$bin/empty.json"
uptime
