#!/usr/bin/env bash
# Regenerates docs/sheetsync.1 from the command definitions with swift-argument-parser's
# generate-manual plugin (offline: the package's checkouts are enough), and docs/tabs.md from the tab
# schemas (`sheetsync help tabs`). Run it after changing a command, option, help text or tab column;
# `swift test --filter 'ManualPageTests|ColumnReferenceTests'` fails until you do.
# The plugin builds every product first; in debug that is the build `swift build` already made.
set -euo pipefail
cd "$(dirname "$0")/.."
date="${SHEETSYNC_MANUAL_DATE:-$(date -u +%Y-%m-%d)}"
swift package plugin generate-manual --configuration debug --date "$date" \
    --authors "the sheetsync authors" >/dev/null
out=$(find .build/plugins/GenerateManual -name sheetsync.1 -print -quit)
[ -n "$out" ] || { echo "generate-manual wrote no sheetsync.1" >&2; exit 1; }
mkdir -p docs
# A blank line between paragraphs of a discussion is a paragraph break (.Pp) in mdoc; left blank,
# groff warns about it every time the page is shown.
sed 's/^$/.Pp/' "$out" > docs/sheetsync.1
echo "wrote docs/sheetsync.1 ($(wc -l < docs/sheetsync.1) lines)"
# The column reference, generated from the tab schemas (ColumnReferenceTests checks it).
"$(swift build --show-bin-path)/sheetsync" help tabs > docs/tabs.md
echo "wrote docs/tabs.md ($(wc -l < docs/tabs.md) lines)"
