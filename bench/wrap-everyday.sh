#!/usr/bin/env bash
# wrap-everyday.sh runs everyday development work twice, as an agent's
# shell would run it and as toolguard's hook rewrites it with [sandbox] wrap
# (toolguard exec --wrapped), on two identical copies of each project, and
# compares exit statuses, outputs and wall times:
#
#   go build ./... && go test ./...   npm ci && npm test   python3 -m pytest
#   cargo build                       git commit           git push over ssh
#
# The push goes over ssh to a bare repository outside the project, served
# by an sshd of this user on 127.0.0.1:$PORT, with the key held by an
# ssh-agent (the key file itself is unreadable in the sandbox). A third
# copy runs each step first, unmeasured, so both measured runs find the
# toolchains' caches warm.
#
# Run it as an ordinary user in a throwaway home OUTSIDE /tmp (the sandbox
# lets every command write /tmp): it creates and deletes $HOME/wrapcheck.
#
#   bench/wrap-everyday.sh /path/to/toolguard [PORT]
set -u
TG=${1:?usage: wrap-everyday.sh TOOLGUARD [PORT]}
PORT=${2:-22222}
W=$HOME/wrapcheck
rm -rf "$W"
mkdir -p "$W"
cd "$W" || exit 1
fail=0

# ---- the projects, written twice (plain/ and wrapped/) ---------------------
make_projects() {
	local d=$1
	mkdir -p "$d/gomod/calc" "$d/npmproj" "$d/pyproj" "$d/crate/src" "$d/repo"
	printf 'module example.com/gomod\n\ngo 1.21\n' >"$d/gomod/go.mod"
	printf 'package calc\n\nfunc Add(a, b int) int { return a + b }\n' >"$d/gomod/calc/calc.go"
	printf 'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal("no")\n\t}\n}\n' >"$d/gomod/calc/calc_test.go"
	printf '{"name":"npmproj","version":"1.0.0","private":true,"scripts":{"test":"node test.js"},"dependencies":{"is-number":"7.0.0"}}\n' >"$d/npmproj/package.json"
	printf 'const n = require("is-number");\nif (!n(5) || n("x")) { process.exit(1); }\nconsole.log("npm test ok");\n' >"$d/npmproj/test.js"
	printf 'def add(a, b):\n    return a + b\n' >"$d/pyproj/calc.py"
	printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' >"$d/pyproj/test_calc.py"
	printf '[package]\nname = "crate"\nversion = "0.1.0"\nedition = "2021"\n' >"$d/crate/Cargo.toml"
	printf 'fn main() { println!("cargo ok"); }\n' >"$d/crate/src/main.rs"
	printf 'hello\n' >"$d/repo/README.md"
}
make_projects warm
make_projects plain
make_projects wrapped
# A lock file made once, the same for every copy (npm ci needs one).
(cd plain/npmproj && npm install --package-lock-only --no-audit --no-fund --loglevel=error) || fail=1
cp plain/npmproj/package-lock.json wrapped/npmproj/
cp plain/npmproj/package-lock.json warm/npmproj/

# ---- git over ssh to a local bare repository --------------------------------
git config --global user.name "wrap check" 2>/dev/null
git config --global user.email "wrap@example.invalid" 2>/dev/null
git config --global init.defaultBranch main 2>/dev/null
# ssh looks for known_hosts in the password database's home, not $HOME.
git config --global core.sshCommand "ssh -o UserKnownHostsFile=$HOME/.ssh/known_hosts" 2>/dev/null
mkdir -p "$HOME/.ssh" && chmod 700 "$HOME/.ssh"
rm -f "$HOME/.ssh/id_ed25519" "$HOME/.ssh/id_ed25519.pub"
ssh-keygen -q -t ed25519 -N '' -f "$HOME/.ssh/id_ed25519"
ssh-keygen -q -t ed25519 -N '' -f "$W/hostkey"
cp "$HOME/.ssh/id_ed25519.pub" "$W/authorized_keys"
cat >"$W/sshd_config" <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey $W/hostkey
PidFile $W/sshd.pid
AuthorizedKeysFile $W/authorized_keys
UsePAM no
StrictModes no
PasswordAuthentication no
EOF
/usr/sbin/sshd -f "$W/sshd_config" -E "$W/sshd.log" || {
	echo "sshd did not start (it needs /run/sshd: sudo mkdir -p /run/sshd): $(cat "$W/sshd.log")"
	exit 1
}
trap 'kill $(cat "$W/sshd.pid" 2>/dev/null) 2>/dev/null; ssh-agent -k >/dev/null 2>&1' EXIT
echo "[127.0.0.1]:$PORT $(cat "$W/hostkey.pub")" >"$HOME/.ssh/known_hosts"
eval "$(ssh-agent -s)" >/dev/null
ssh-add -q "$HOME/.ssh/id_ed25519"
for v in warm plain wrapped; do
	git init -q --bare "$W/remote-$v.git"
	(cd "$v/repo" && git init -q && git remote add origin "ssh://$USER@127.0.0.1:$PORT$W/remote-$v.git")
done

# ---- run each step both ways --------------------------------------------------
# normalize drops what differs between two honest runs: timings, paths of
# the two copies, commit ids.
normalize() {
	sed -E -e 's/[0-9]+\.[0-9]+s//g' -e 's/\(?[0-9.]+ ?(ms|s|seconds?)\)?//g' -e "s#$W/(plain|wrapped)#DIR#g" \
		-e 's/\b[0-9a-f]{7,40}\b/ID/g' -e 's/remote-(plain|wrapped)/remote/g' "$1" | grep -v '^$'
}

step() {
	local name=$1 dir=$2 cmd=$3
	local t0 t1 t2 ps ws
	(cd "warm/$dir" && bash -c "$cmd") >/dev/null 2>&1 # fills the toolchains' caches for both runs
	t0=$(date +%s%N)
	(cd "plain/$dir" && bash -c "$cmd") >"$W/$name.plain.out" 2>&1
	ps=$?
	t1=$(date +%s%N)
	(cd "wrapped/$dir" && "$TG" exec --wrapped --workspace "$W/wrapped/$dir" -- bash -c "$cmd") >"$W/$name.wrapped.out" 2>&1
	ws=$?
	t2=$(date +%s%N)
	local same=same
	if ! diff <(normalize "$W/$name.plain.out") <(normalize "$W/$name.wrapped.out") >"$W/$name.diff"; then
		same=DIFFERENT
	fi
	if [ $ps -ne 0 ] || [ $ws -ne $ps ] || [ $same != same ]; then
		fail=1
	fi
	printf '| %s | %d | %d | %s | %d ms | %d ms |\n' "$cmd" $ps $ws $same $(((t1 - t0) / 1000000)) $(((t2 - t1) / 1000000))
	[ $same = same ] || sed 's/^/    /' "$W/$name.diff"
}

echo "| command | exit plain | exit wrapped | output | wall plain | wall wrapped |"
echo "|---|---|---|---|---|---|"
step go gomod 'go build ./... && go test ./...'
step npm npmproj 'npm ci --no-audit --no-fund --loglevel=error && npm test'
step pytest pyproj 'python3 -m pytest -q -p no:cacheprovider'
step cargo crate 'cargo build -q && ./target/debug/crate'
step commit repo 'git add README.md && git commit -q -m "first" && git log --oneline | wc -l'
step push repo 'git push -q origin main 2>&1 && git ls-remote origin | wc -l'

# The key file stayed out of reach while the agent held the key.
if "$TG" exec --wrapped --workspace "$W/wrapped/repo" -- bash -c 'cat ~/.ssh/id_ed25519' >/dev/null 2>&1; then
	echo "the private key was readable in the sandbox"
	fail=1
fi
exit $fail
