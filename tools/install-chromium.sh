#!/usr/bin/env bash
# What the terminal and browser tests drive, from Debian's packages: headless
# `chromium` for the viewer's browser tests (Playwright drives this binary with
# executable_path; it never downloads a browser of its own) and `tmux` for the
# tests in a real terminal (texas42 record, replay --step), and `rsvg-convert`
# (librsvg2-bin) for `texas42 render --to png`. Installs only what is missing, with
# apt-get (through sudo when not root); does nothing when all are there.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v rsvg-convert >/dev/null 2>&1 || missing+=(librsvg2-bin)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
[ -x /usr/bin/chromium ] && /usr/bin/chromium --version
tmux -V
