#!/usr/bin/env bash
# Formats the Swift sources in place, or lints them, with the toolchain's `swift format` and the
# repository's .swift-format.
#   scripts/format.sh          format Sources, Tests and Package.swift in place (also: --fix)
#   scripts/format.sh --lint   report what the formatter would change; exits non-zero if anything
set -euo pipefail
cd "$(dirname "$0")/.."
config=.swift-format
case "${1:-}" in
  "" | --fix)
    swift format format --configuration "$config" --in-place --recursive Sources Tests Package.swift
    ;;
  --lint)
    swift format lint --configuration "$config" --strict --recursive Sources Tests
    ;;
  *)
    echo "usage: scripts/format.sh [--fix|--lint]" >&2
    exit 64
    ;;
esac
