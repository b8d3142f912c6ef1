#!/usr/bin/env bash
# Installs the C libraries sheetsync links (libcurl, SQLite, libxml2, zlib) when they are missing.
set -euo pipefail
needed=(libcurl4-openssl-dev libsqlite3-dev libxml2-dev zlib1g-dev pkg-config)
missing=()
for p in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
