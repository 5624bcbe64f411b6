#!/usr/bin/env bash
# packaging/deb.sh VERSION BINARY OUT.deb — the Debian package of Latch.
#
# Stages /usr/bin/latch (BINARY, stripped), its manual page, the menu entry,
# the icons, the AppStream metainfo and /usr/share/doc/latch (the copyright
# file, with the licenses of everything linked into the binary, and the
# changelog), writes DEBIAN/control, with the library dependencies
# dpkg-shlibdeps finds, and DEBIAN/md5sums, and builds OUT.deb with dpkg-deb.
# Run from the repository root (`make package` does).
#
# The environment may set DEB_MAINTAINER ("Name <address>") and
# SOURCE_DATE_EPOCH (the date of the changelog and the manual page; the last
# commit's by default).
set -euo pipefail

if [ $# -ne 3 ]; then
	echo "usage: $0 VERSION BINARY OUT.deb" >&2
	exit 2
fi
version=$1 bin=$2 out=$3
app_id=app.latch.Latch
homepage=https://github.com/latch-app/latch
maintainer=${DEB_MAINTAINER:-The Latch developers <latch-app@users.noreply.github.com>}
arch=$(dpkg --print-architecture)
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

umask 022
stage=$(mktemp -d "${TMPDIR:-/tmp}/latch-deb.XXXXXX")
trap 'rm -rf "$stage"' EXIT
root=$stage/root
mkdir -p "$root/DEBIAN"

# The program, stripped as dh_strip strips, and its manual page.
install -Dm755 "$bin" "$root/usr/bin/latch"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$root/usr/bin/latch"
mkdir -p "$root/usr/share/man/man1"
sed -e "s|@VERSION@|$version|" -e "s|@DATE@|$(LC_ALL=C date -u -d "@$epoch" +%Y-%m-%d)|" packaging/latch.1.in |
	gzip -9n >"$root/usr/share/man/man1/latch.1.gz"

# The menu entry, icons and AppStream metainfo, where `make install` puts
# them, under /usr.
share=$root/usr/share
mkdir -p "$share/applications"
sed 's|@BINDIR@|/usr/bin|' assets/latch.desktop.in >"$share/applications/$app_id.desktop"
for s in 48 128 256; do
	install -Dm644 "assets/icon-$s.png" "$share/icons/hicolor/${s}x${s}/apps/latch.png"
done
install -Dm644 assets/icon.png "$share/icons/hicolor/512x512/apps/latch.png"
install -Dm644 assets/icon.svg "$share/icons/hicolor/scalable/apps/latch.svg"
install -Dm644 "assets/$app_id.metainfo.xml" "$share/metainfo/$app_id.metainfo.xml"

# /usr/share/doc/latch: the changelog (a native package's, changelog.gz)
# and the copyright file.
doc=$share/doc/latch
mkdir -p "$doc"
{
	echo "latch ($version) unstable; urgency=medium"
	echo
	echo "  * Latch $version."
	echo
	echo " -- $maintainer  $(LC_ALL=C date -R -u -d "@$epoch")"
} | gzip -9n >"$doc/changelog.gz"

# The binary is a Go program: it holds the Go runtime and standard library
# and every Go module it imports, listed from the binary itself. Each one's
# license goes in as the module ships it, or, for a license Debian keeps in
# /usr/share/common-licenses, by reference there.
licenses() { # licenses DIR: a module's license files, not those of its commands, examples, test data
	(cd "$1" && find . \( -name testdata -o -name cmd -o -name _examples -o -name examples -o -name example \) -prune \
		-o -type f \( -iname 'licen[cs]e*' -o -iname 'copying*' -o -iname 'notice*' \) -print |
		sed 's|^\./||' | LC_ALL=C sort)
}
license() { # license FILE: its text
	local common=
	if grep -q 'Apache License' "$1" && grep -q 'Version 2\.0, January 2004' "$1"; then
		common=Apache-2.0
	elif grep -q 'Mozilla Public License Version 2\.0' "$1"; then
		common=MPL-2.0
	fi
	if [ -z "$common" ]; then
		tr -d '\r' <"$1"
		return
	fi
	echo "The $common license; on Debian systems its full text is in"
	echo "/usr/share/common-licenses/$common."
}
deps=$(go version -m "$bin" | awk '$1 == "dep" { print $2 "@" $3 }')
# One `go mod download` for all: path, version and folder of each module.
# shellcheck disable=SC2086
mods=$(go mod download -json $deps | sed -n 's/^[[:space:]]*"\(Path\|Version\|Dir\)": "\(.*\)",*$/\2/p' | paste - - -)
{
	cat <<-EOF
	Latch $version
	Homepage: $homepage

	Copyright: The Latch developers
	License: none granted. The Latch repository carries no license file, so no
	 license to copy, change or redistribute Latch is granted.

	/usr/bin/latch is a Go program. Statically linked into it are the Go
	runtime and standard library ($(go version "$bin" | awk '{print $2}')) and these Go modules
	(as \`go version -m /usr/bin/latch\` lists them); the license texts they
	ship follow.

	EOF
	printf '  %s\n' $deps | sed 's/@/ /'
	goroot=$(go env GOROOT)
	for f in LICENSE PATENTS; do
		if [ -f "$goroot/$f" ]; then
			printf '\n----- The Go programming language: %s -----\n\n' "$f"
			license "$goroot/$f"
		fi
	done
	while IFS=$'\t' read -r path ver dir; do
		files=$(licenses "$dir")
		if [ -z "$files" ]; then
			echo "deb.sh: $path $ver ships no license file" >&2
			exit 1
		fi
		for f in $files; do
			printf '\n----- %s %s: %s -----\n\n' "$path" "$ver" "$f"
			license "$dir/$f"
		done
	done <<<"$mods"
} >"$doc/copyright"

# The libraries the binary links, as package dependencies. dpkg-shlibdeps
# wants a debian/control to read; a minimal one does.
mkdir -p "$stage/src/debian"
printf 'Source: latch\n\nPackage: latch\nArchitecture: any\n' >"$stage/src/debian/control"
depends=$(cd "$stage/src" && dpkg-shlibdeps -O -e"$root/usr/bin/latch" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
if [ -z "$depends" ]; then
	echo "deb.sh: dpkg-shlibdeps found no dependencies for $bin" >&2
	exit 1
fi

# GLFW, Fyne's window layer, loads these X11 libraries at run time (dlopen,
# so dpkg-shlibdeps cannot see them) and works without each, with less:
# cursor shapes, input, monitors and scaling, transparency.
recommends="libx11-xcb1, libxcursor1, libxi6, libxinerama1, libxrandr2, libxrender1, libxxf86vm1"

(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<EOF
Package: latch
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Recommends: $recommends
Section: devel
Priority: optional
Homepage: $homepage
Description: desktop app for Claude Code that loses no tool call
 Latch runs the Claude Code command-line tool and shows its work: streamed
 text, every tool call and its result, cost and tokens per turn.
 .
 No tool call is lost silently to a permission check. When Claude Code needs
 an approval, Latch asks there and then; when a call was refused anyway,
 Latch offers to grant the tools and folders it needed, for this session,
 the project or all projects, and resumes the session so Claude retries.
 .
 Latch needs the Claude Code CLI (the claude command), which is not packaged
 for Debian: install it with npm.
EOF

mkdir -p "$(dirname "$out")"
dpkg-deb --root-owner-group -Zxz --build "$root" "$out" >/dev/null
echo "built $out ($(du -h "$out" | cut -f1))"
