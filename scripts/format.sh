#!/usr/bin/env bash
# Formats (with --fix) or lints the Swift sources with the toolchain's swift-format, using .swift-format.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--fix" ]; then
  swift format format --in-place --recursive Sources Tests Package.swift
else
  swift format lint --recursive Sources
fi
