#!/usr/bin/env bash
# Install the system Chromium used by the browser tests (tests/browser/).
#
# We deliberately use Debian's chromium package instead of `playwright install`:
# Playwright for Python drives it via executable_path=/usr/bin/chromium.
# Idempotent: does nothing but print the version when chromium is already present.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [[ ! -x "$CHROMIUM" ]]; then
    if [[ "$(id -u)" -eq 0 ]]; then
        SUDO=""
    elif command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "install-browser.sh: not root and sudo is not available" >&2
        exit 1
    fi
    echo "Installing chromium + chromium-driver via apt-get ..."
    # `env` so DEBIAN_FRONTEND survives sudo's env_reset.
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
else
    echo "chromium already installed at $CHROMIUM"
fi

"$CHROMIUM" --version
