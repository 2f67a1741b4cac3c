#!/usr/bin/env bash
# Package test (CTest "package/deb", label "package"): builds the Debian package
# with CPack from a build directory, unpacks it, and checks what a user gets:
# the files, Depends and maintainer scripts, a valid .desktop entry and AppStream
# metainfo, and, in a private XDG data directory, that *.mirrorjob files (and
# profiles without the extension, by content) resolve to the job type and the
# job type to MirrorDesk's desktop entry.
#   bash installer/package-test.sh BUILD_DIR
set -euo pipefail

build="$(cd "${1:?usage: package-test.sh BUILD_DIR}" && pwd)"
app_id=io.github.mirrordesk.MirrorDesk
mime_type=application/x-mirrordesk-job

fail() { printf 'package-test: FAIL: %s\n' "$*" >&2; exit 1; }
ok() { printf 'package-test: ok: %s\n' "$*"; }

for tool in cpack dpkg-deb dpkg-shlibdeps desktop-file-validate appstreamcli update-mime-database \
            update-desktop-database xdg-mime mimetype; do
    command -v "$tool" >/dev/null || fail "$tool not found (bash installer/deps.sh installs it)"
done
[[ -x "$build/app/mirrordesk" ]] || fail "$build/app/mirrordesk is not built"
[[ -f "$build/CPackConfig.cmake" ]] || fail "$build/CPackConfig.cmake missing (configure the build first)"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/mirrordesk-package.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# --- build and unpack -------------------------------------------------------
if ! (cd "$build" && cpack -G DEB -B "$tmp/out") >"$tmp/cpack.log" 2>&1; then
    cat "$tmp/cpack.log" >&2
    fail "cpack -G DEB failed"
fi
shopt -s nullglob
debs=("$tmp"/out/*.deb)
[[ ${#debs[@]} -eq 1 ]] || fail "expected one .deb, found ${#debs[@]}"
deb="${debs[0]}"
ok "built $(basename "$deb") ($(stat -c %s "$deb") bytes)"

root="$tmp/root"
dpkg-deb -x "$deb" "$root"
dpkg-deb -e "$deb" "$tmp/control"

# --- control data -----------------------------------------------------------
[[ "$(dpkg-deb -f "$deb" Package)" == mirrordesk ]] || fail "package name is not mirrordesk"
depends="$(dpkg-deb -f "$deb" Depends)"
# librdkafka is linked statically (installer/librdkafka.sh), so the package
# needs what it links instead (TLS, SASL, compression), not Debian's too-old
# librdkafka1.
for lib in libc6 libqt6core6 libqt6widgets6 libssl3 libsasl2-2 libzstd1; do
    [[ "$depends" == *"$lib"* ]] || fail "Depends lacks $lib: $depends"
done
[[ "$depends" != *librdkafka* ]] || fail "Depends names a librdkafka package although it is linked in: $depends"
ok "Depends: $depends"
for script in postinst postrm; do
    [[ -x "$tmp/control/$script" ]] || fail "$script missing or not executable"
    grep -q 'update-mime-database' "$tmp/control/$script" || fail "$script does not refresh the MIME database"
    grep -q 'update-desktop-database' "$tmp/control/$script" || fail "$script does not refresh the desktop database"
    sh -n "$tmp/control/$script" || fail "$script is not valid sh"
done
ok "postinst and postrm refresh the MIME and desktop databases"

# --- files ------------------------------------------------------------------
share="$root/usr/share"
expect=(
    "$root/usr/bin/mirrordesk"
    "$share/applications/$app_id.desktop"
    "$share/mime/packages/$app_id.xml"
    "$share/metainfo/$app_id.metainfo.xml"
    "$share/icons/hicolor/scalable/apps/$app_id.svg"
    "$root/usr/lib/systemd/system/mirrordesk@.service"
)
for size in 16 22 24 32 48 64 128 256 512; do
    expect+=("$share/icons/hicolor/${size}x${size}/apps/$app_id.png")
done
for f in "${expect[@]}"; do
    [[ -f "$f" ]] || fail "missing in the package: ${f#"$root"}"
done
compgen -G "$share/mirrordesk/examples/*.mirrorjob" >/dev/null || fail "no example profiles in /usr/share/mirrordesk/examples"
for size in 16 48 256; do
    png="$share/icons/hicolor/${size}x${size}/apps/$app_id.png"
    [[ "$(file -b "$png")" == "PNG image data, $size x $size,"* ]] || fail "$png is not a ${size}x${size} PNG: $(file -b "$png")"
done
"$root/usr/bin/mirrordesk" --version | grep -q '^mirrordesk ' || fail "the packaged binary does not run"
ok "files, icons and examples present; the packaged binary runs"

# --- systemd unit template ----------------------------------------------------
unit="$root/usr/lib/systemd/system/mirrordesk@.service"
grep -qx 'ExecStart=/usr/bin/mirrordesk run /etc/mirrordesk/%i.mirrorjob --instance-id %H-%i' "$unit" \
    || fail "mirrordesk@.service: unexpected ExecStart: $(grep '^ExecStart=' "$unit")"
grep -v '^#' "$unit" | grep -qi 'password' && fail "mirrordesk@.service holds a password"
if command -v systemd-analyze >/dev/null; then
    # verify wants the binary where ExecStart says; point a copy at the unpacked one.
    mkdir -p "$tmp/units"
    sed "s|/usr/bin/mirrordesk|$root/usr/bin/mirrordesk|" "$unit" >"$tmp/units/mirrordesk@.service"
    systemd-analyze verify "$tmp/units/mirrordesk@orders.service" 2>&1 | grep -v 'ConditionPathExists\|Cannot add dependency\|network-online' \
        | grep . && fail "systemd-analyze verify complains about mirrordesk@.service"
    ok "systemd-analyze verify accepts mirrordesk@.service"
fi
ok "mirrordesk@.service runs /etc/mirrordesk/NAME.mirrorjob with --instance-id %H-%i"

# --- desktop entry and metainfo ----------------------------------------------
desktop="$share/applications/$app_id.desktop"
desktop-file-validate "$desktop" || fail "desktop-file-validate rejects $app_id.desktop"
grep -qx 'Exec=mirrordesk %F' "$desktop" || fail "Exec is not 'mirrordesk %F'"
grep -qx "MimeType=$mime_type;" "$desktop" || fail "MimeType is not $mime_type"
grep -qx "Icon=$app_id" "$desktop" || fail "Icon is not $app_id"
appstreamcli validate --no-net "$share/metainfo/$app_id.metainfo.xml" || fail "appstreamcli rejects the metainfo"
ok "desktop-file-validate and appstreamcli validate pass"

# --- MIME type and default application, in a private XDG environment ----------
xdg="$tmp/xdg"
mkdir -p "$xdg/data/mime/packages" "$xdg/data/applications" "$xdg/config" "$xdg/files"
# No desktop environment: xdg-mime then uses the shared-mime-info database
# through mimetype(1) and the mimeinfo.cache files.
xdgenv=(env -u XDG_CURRENT_DESKTOP -u DESKTOP_SESSION -u KDE_FULL_SESSION -u GNOME_DESKTOP_SESSION_ID
        -u DISPLAY -u WAYLAND_DISPLAY
        XDG_DATA_HOME="$xdg/data" XDG_DATA_DIRS="/usr/local/share:/usr/share"
        XDG_CONFIG_HOME="$xdg/config" XDG_CONFIG_DIRS="$xdg/config")
cp "$share/mime/packages/$app_id.xml" "$xdg/data/mime/packages/"
cp "$desktop" "$xdg/data/applications/"
"${xdgenv[@]}" update-mime-database "$xdg/data/mime"
"${xdgenv[@]}" update-desktop-database "$xdg/data/applications"

printf '{\n    "mirrordesk": 1,\n    "name": "demo"\n}\n' >"$xdg/files/demo.mirrorjob"
cp "$xdg/files/demo.mirrorjob" "$xdg/files/profile-without-extension"
printf '{\n    "name": "just json",\n    "other": 1\n}\n' >"$xdg/files/plain-json"

type_of() { "${xdgenv[@]}" xdg-mime query filetype "$1"; }
got="$(type_of "$xdg/files/demo.mirrorjob")"
[[ "$got" == "$mime_type" ]] || fail "xdg-mime query filetype demo.mirrorjob: '$got', expected $mime_type"
ok "*.mirrorjob resolves to $mime_type (glob)"
got="$(type_of "$xdg/files/profile-without-extension")"
[[ "$got" == "$mime_type" ]] || fail "a profile without the extension: '$got', expected $mime_type (content match)"
ok "a profile without the extension resolves to $mime_type (content match)"
got="$(type_of "$xdg/files/plain-json")"
[[ "$got" != "$mime_type" ]] || fail "plain JSON without the key was taken for a job profile"
ok "plain JSON is not a job profile ($got)"

got="$("${xdgenv[@]}" xdg-mime query default "$mime_type")"
[[ "$got" == "$app_id.desktop" ]] || fail "xdg-mime query default $mime_type: '$got', expected $app_id.desktop"
ok "the default application for $mime_type is $app_id.desktop"
echo "package-test: all checks passed"
