#!/usr/bin/env bash
# Formats the Swift sources in place, or lints them, with the toolchain's `swift format` and the
# repository's .swift-format (Tests/.swift-format for tests: the same layout, but force unwraps and
# `try!` are allowed there, as CONVENTIONS.md says).
#   scripts/format.sh          format Sources, Tests and Package.swift in place (also: --fix)
#   scripts/format.sh --lint   report what the formatter would change; exits non-zero if anything
set -euo pipefail
cd "$(dirname "$0")/.."
config=.swift-format
case "${1:-}" in
  "" | --fix)
    swift format format --configuration "$config" --in-place --recursive Sources Package.swift
    swift format format --configuration Tests/.swift-format --in-place --recursive Tests
    ;;
  --lint)
    swift format lint --configuration "$config" --strict --recursive Sources
    swift format lint --configuration Tests/.swift-format --strict --recursive Tests
    ;;
  *)
    echo "usage: scripts/format.sh [--fix|--lint]" >&2
    exit 64
    ;;
esac
