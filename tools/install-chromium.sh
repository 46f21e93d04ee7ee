#!/usr/bin/env bash
# Headless Chromium for the viewer's browser tests: Debian's `chromium` package.
# Does nothing when /usr/bin/chromium is already there; otherwise installs it
# with apt-get (through sudo when not root). Playwright drives this binary with
# executable_path; it never downloads a browser of its own.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
/usr/bin/chromium --version
