#!/usr/bin/env bash
# Checks for the Debian packages a script needs: by default the C libraries sheetsync links
# (libcurl, SQLite, libxml2, zlib) and pkg-config, else the packages named. When some are missing it
# installs them with apt-get only when allowed: with --yes (unattended, as CI runs it), or after
# asking on a terminal; otherwise it prints exactly what is missing and the command that installs
# it, and exits 1.
#
#   scripts/ensure-system-packages.sh [--yes] [PACKAGE...]
set -euo pipefail
yes=0
needed=()
for arg in "$@"; do
  case "$arg" in
    --yes|-y) yes=1 ;;
    -*) echo "ensure-system-packages.sh: unknown option '$arg' (use --yes)" >&2; exit 64 ;;
    *) needed+=("$arg") ;;
  esac
done
[ ${#needed[@]} -gt 0 ] || needed=(libcurl4-openssl-dev libsqlite3-dev libxml2-dev zlib1g-dev pkg-config)
missing=()
for p in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo "
command="${SUDO}apt-get install -y ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
  echo "missing system packages (Debian/Ubuntu names): ${missing[*]}" >&2
  echo "this system has no apt-get: install the matching packages of your distribution, then run this again" >&2
  exit 1
fi
if [ "$yes" -ne 1 ]; then
  if [ -t 0 ] && [ -t 2 ]; then
    printf 'sheetsync needs these system packages: %s\nrun `%s` now? [y/N] ' "${missing[*]}" "$command" >&2
    read -r answer || answer=""
    case "$answer" in y|Y|yes|YES) ;; *) yes=-1 ;; esac
  else
    yes=-1
  fi
fi
if [ "$yes" -ne 1 ]; then
  echo "missing system packages: ${missing[*]}" >&2
  echo "install them with:  $command" >&2
  echo "(or run this script again with --yes to let it run apt-get)" >&2
  exit 1
fi
echo "installing ${missing[*]}" >&2
${SUDO}apt-get update -qq
DEBIAN_FRONTEND=noninteractive ${SUDO}apt-get install -y -qq "${missing[@]}" >/dev/null
