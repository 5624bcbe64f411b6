#!/usr/bin/env bash
# packaging/fyne-archive.sh VERSION FYNE OUTDIR — Fyne's release archive of
# Latch, OUTDIR/Latch.tar.xz, made by `fyne package` (the pinned FYNE
# binary) from FyneApp.toml, and the release binary in it, OUTDIR/release/latch
# (what the .deb ships too). Run from the repository root (`make package`
# does).
#
# fyne package builds in, and writes to, its source folder: a metadata file
# during the build, FyneApp.toml's build number after. So it works on a copy
# of the source (the files git has or would add), never on the work tree.
# The build is Fyne's release build (-trimpath, -s -w, the release tag, its
# C hardening flags), position-independent, with the version set as the
# Makefile sets it.
set -euo pipefail

if [ $# -ne 3 ]; then
	echo "usage: $0 VERSION FYNE OUTDIR" >&2
	exit 2
fi
version=$1 fyne=$2 out=$3

src=$(mktemp -d "${TMPDIR:-/tmp}/latch-src.XXXXXX")
trap 'rm -rf "$src"' EXIT
git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
	tar --null -T - -cf - | tar -xf - -C "$src"

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/Latch.tar.xz"
(cd "$out" && XZ_OPT=${XZ_OPT:--T0} GOFLAGS="-buildmode=pie -ldflags=-X=main.version=$version" \
	"$fyne" package --os linux --release --src "$src")
if [ ! -f "$out/Latch.tar.xz" ]; then
	echo "fyne-archive.sh: fyne package made no $out/Latch.tar.xz" >&2
	exit 1
fi
mkdir -p "$out/release"
tar -xJf "$out/Latch.tar.xz" --wildcards -O '*/bin/latch' >"$out/release/latch"
chmod 755 "$out/release/latch"
echo "built $out/Latch.tar.xz ($(du -h "$out/Latch.tar.xz" | cut -f1))"
