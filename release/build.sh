#!/usr/bin/env bash
# Builds a toolguard release from this repository into DIR (default dist/):
#
#   toolguard-VERSION-OS-ARCH.tar.gz   the program, LICENSE and README, for
#                                      linux and darwin on amd64 and arm64
#   npm/toolguard-VERSION.tgz          the npm package "toolguard": a launcher
#                                      that runs the native program
#   npm/toolguard-OS-CPU-VERSION.tgz   the npm packages @toolguard/OS-CPU,
#                                      one per platform, each holding the
#                                      program (the launcher's optional
#                                      dependencies)
#   SHA256SUMS                         the checksums of all of them
#
# Nothing is published. Builds are reproducible: the same commit and Go
# version give the same bytes (-trimpath, no build ids, archive entries
# owned by root with the commit's time).
#
# usage: release/build.sh [-v VERSION] [-o DIR] [-p "OS/ARCH …"] [--no-npm]
#   VERSION  semantic version without "v" (default: the tag on HEAD, else
#            0.0.0-dev.<commit>)
set -euo pipefail

version="" out=dist npm=1
platforms="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64"
while (($#)); do
	case $1 in
	-v) version=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-p) platforms=$2; shift 2 ;;
	--no-npm) npm=0; shift ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "release/build.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done

cd "$(dirname "$0")/.."
root=$PWD
commit=$(git rev-parse HEAD)
if [[ -z $version ]]; then
	tag=$(git describe --tags --exact-match 2>/dev/null || true)
	version=${tag#v}
	[[ -n $version ]] || version="0.0.0-dev.$(git rev-parse --short=12 HEAD)"
fi
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
	echo "release/build.sh: version $version is not a semantic version (1.2.3 or 1.2.3-rc.1)" >&2
	exit 2
fi
if ((npm)) && ! command -v npm >/dev/null 2>&1; then
	echo "release/build.sh: npm is not installed; install Node.js or pass --no-npm" >&2
	exit 2
fi
if [[ -n $(git status --porcelain --untracked-files=no) ]]; then
	echo "release/build.sh: warning: the work tree has changes that are not committed; they are in this build" >&2
fi
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out"/toolguard-*.tar.gz "$out/npm" "$out/SHA256SUMS"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# npm's names for Go's architectures.
npm_cpu() { case $1 in amd64) echo x64 ;; *) echo "$1" ;; esac; }

# archive DIR FILE writes a gzipped tar of DIR that depends only on its
# contents.
archive() {
	tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
		-C "$(dirname "$1")" -cf - "$(basename "$1")" | gzip -9 -n >"$2"
}

optional=()
for p in $platforms; do
	goos=${p%/*} goarch=${p#*/}
	name=toolguard-$version-$goos-$goarch
	echo "building $name"
	mkdir -p "$work/$name"
	CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath \
		-ldflags "-s -w -buildid= -X github.com/toolguard/toolguard/internal/cli.Version=$version" \
		-o "$work/$name/toolguard" ./cmd/toolguard
	cp LICENSE README.md "$work/$name/"
	archive "$work/$name" "$out/$name.tar.gz"

	((npm)) || continue
	cpu=$(npm_cpu "$goarch")
	pkg=$work/npm/$goos-$cpu
	mkdir -p "$pkg/bin"
	cp "$work/$name/toolguard" "$pkg/bin/toolguard"
	chmod 0755 "$pkg/bin/toolguard"
	cp LICENSE "$pkg/"
	printf '# @toolguard/%s-%s\n\nThe toolguard program for %s on %s, installed by the [toolguard](https://www.npmjs.com/package/toolguard) package; see https://github.com/toolguard/toolguard.\n' \
		"$goos" "$cpu" "$goos" "$cpu" >"$pkg/README.md"
	cat >"$pkg/package.json" <<-EOF
		{
		  "name": "@toolguard/$goos-$cpu",
		  "version": "$version",
		  "description": "The toolguard program for $goos on $cpu (installed by the toolguard package).",
		  "license": "Apache-2.0",
		  "repository": {"type": "git", "url": "git+https://github.com/toolguard/toolguard.git"},
		  "os": ["$goos"],
		  "cpu": ["$cpu"],
		  "files": ["bin/toolguard"],
		  "preferUnplugged": true
		}
	EOF
	optional+=("@toolguard/$goos-$cpu")
done

if ((npm)); then
	mkdir -p "$out/npm"
	main=$work/npm/toolguard
	cp -R release/npm/toolguard "$main"
	cp LICENSE "$main/"
	(IFS=,; VERSION=$version OPTIONAL="${optional[*]}" node -e '
		const fs = require("fs");
		const file = process.argv[1];
		const p = JSON.parse(fs.readFileSync(file, "utf8"));
		p.version = process.env.VERSION;
		p.optionalDependencies = {};
		for (const name of process.env.OPTIONAL.split(",").filter(Boolean)) p.optionalDependencies[name] = process.env.VERSION;
		fs.writeFileSync(file, JSON.stringify(p, null, 2) + "\n");
	' "$main/package.json")
	for dir in "$work"/npm/*/; do
		(cd "$dir" && npm pack --silent --pack-destination "$out/npm" >/dev/null)
	done
fi

(cd "$out" && sha256sum toolguard-*.tar.gz $( ((npm)) && echo npm/*.tgz) >SHA256SUMS)
echo "release $version (commit ${commit:0:12}) in $out:"
(cd "$out" && cat SHA256SUMS)
