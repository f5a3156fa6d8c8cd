#!/usr/bin/env bash
# Vendor the code box's monospace font into unity_package/Fonts/: DejaVu Sans Mono from the
# Debian package fonts-dejavu-core (free licence: Bitstream Vera's terms for the glyphs it
# derives from, public domain for DejaVu's changes; the package's copyright file is copied
# beside the font as its licence). The prefab's code box, output and reference panels use it.
#
# Pinned to one Debian version, so the output is the same on every run; the SHA-256 below is
# checked. Update: change VERSION, run with --update, and commit the new checksum it prints.
set -euo pipefail

PACKAGE=fonts-dejavu-core
VERSION=2.37-6
FONT=DejaVuSansMono.ttf
SHA256=0f5db4f1749979d961019838b160bec74abdf7f9eca69553fe1aa856bbff49a4

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../unity_package/Fonts"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

command -v apt-get >/dev/null || { echo "build_unity_font: needs apt-get and dpkg-deb (Debian/Ubuntu)" >&2; exit 1; }
(cd "$work" && apt-get download -qq "$PACKAGE=$VERSION")
dpkg-deb -x "$work"/"${PACKAGE}"_*.deb "$work/root"
font="$(find "$work/root" -name "$FONT" | head -n1)"
[[ -n "$font" ]] || { echo "build_unity_font: $FONT not in $PACKAGE $VERSION" >&2; exit 1; }
sum="$(sha256sum "$font" | cut -d' ' -f1)"
if [[ "${1:-}" == "--update" ]]; then
    echo "SHA256 of $FONT in $PACKAGE $VERSION: $sum (put it into this script)"
elif [[ "$sum" != "$SHA256" ]]; then
    echo "build_unity_font: $FONT has SHA-256 $sum, expected $SHA256" >&2
    exit 1
fi
mkdir -p "$out"
cp "$font" "$out/$FONT"
{
    echo "$FONT: DejaVu Sans Mono, from the Debian package $PACKAGE $VERSION"
    echo "(vendored by scripts/build_unity_font.sh). Its licence, as Debian ships it:"
    echo
    cat "$work/root/usr/share/doc/$PACKAGE/copyright"
} > "$out/DejaVuSansMono-LICENSE.txt"
echo "wrote $out/$FONT ($(wc -c < "$out/$FONT") bytes) and DejaVuSansMono-LICENSE.txt"
