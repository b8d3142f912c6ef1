#!/usr/bin/env bash
# Builds sheetsync for release (Swift runtime linked in, unused code dropped, symbols stripped) and
# installs it with its man page and bash, zsh and fish completions:
#
#   scripts/install.sh [--prefix DIR] [--yes]
#
#   --prefix DIR   where to install (default ~/.local; /usr/local for every user, run with sudo or as root)
#   --yes          install missing build packages with apt-get without asking (else asked on a
#                  terminal, or named and stopped)
#
# Installs DIR/bin/sheetsync, DIR/share/man/man1/sheetsync.1,
# DIR/share/bash-completion/completions/sheetsync, DIR/share/zsh/site-functions/_sheetsync and
# DIR/share/fish/vendor_completions.d/sheetsync.fish. The build goes to .build-release (not the
# debug build's .build), so installing never makes the next `swift build` start over.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="${HOME:?}/.local"
packages=()
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a folder" >&2; exit 64; }; prefix="$2"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        --yes|-y) packages+=(--yes); shift ;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (use --prefix DIR, --yes)" >&2; exit 64 ;;
    esac
done
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac

scripts/ensure-system-packages.sh ${packages[@]+"${packages[@]}"}
command -v swift >/dev/null || { echo "install.sh: no 'swift' on PATH: install Swift 6.3 (swift.org/install), then run this again" >&2; exit 1; }

# Fails early, before a long build, when the prefix cannot be written.
mkdir -p "$prefix" 2>/dev/null && [ -w "$prefix" ] || {
    echo "install.sh: cannot write to $prefix: choose another --prefix, or run as a user who can (sudo scripts/install.sh --prefix /usr/local)" >&2
    exit 78
}

scratch=.build-release
echo "building sheetsync (release, static Swift runtime) in $scratch" >&2
swift build -c release --product sheetsync --scratch-path "$scratch" --static-swift-stdlib \
    -Xlinker --gc-sections >&2
built="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/sheetsync"

staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
cp "$built" "$staging/sheetsync"
strip --strip-all "$staging/sheetsync"
"$staging/sheetsync" --generate-completion-script bash >"$staging/sheetsync.bash"
"$staging/sheetsync" --generate-completion-script zsh >"$staging/_sheetsync"
"$staging/sheetsync" --generate-completion-script fish >"$staging/sheetsync.fish"

install -D -m 755 "$staging/sheetsync" "$prefix/bin/sheetsync"
install -D -m 644 docs/sheetsync.1 "$prefix/share/man/man1/sheetsync.1"
install -D -m 644 "$staging/sheetsync.bash" "$prefix/share/bash-completion/completions/sheetsync"
install -D -m 644 "$staging/_sheetsync" "$prefix/share/zsh/site-functions/_sheetsync"
install -D -m 644 "$staging/sheetsync.fish" "$prefix/share/fish/vendor_completions.d/sheetsync.fish"

size=$(stat -c %s "$prefix/bin/sheetsync")
echo "installed sheetsync $("$prefix/bin/sheetsync" --version) ($((size / 1024 / 1024)) MiB, $size bytes):"
for f in bin/sheetsync share/man/man1/sheetsync.1 share/bash-completion/completions/sheetsync \
    share/zsh/site-functions/_sheetsync share/fish/vendor_completions.d/sheetsync.fish; do
    echo "  $prefix/$f"
done
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "note: $prefix/bin is not on PATH: add it (export PATH=\"$prefix/bin:\$PATH\" in ~/.profile), or call $prefix/bin/sheetsync" ;;
esac
if [ "$prefix" = "$HOME/.local" ]; then
    echo "note: zsh finds the completion once ~/.zshrc has fpath=(~/.local/share/zsh/site-functions \$fpath) before compinit"
fi
