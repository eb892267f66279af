#!/usr/bin/env bash
# Install the Debian packages the test suite needs and pip cannot provide:
#   chromium + chromium-driver  browser tests (Playwright drives /usr/bin/chromium; we never
#                               run `playwright install`, which would download a browser)
#   tesseract-ocr, poppler-utils  OCR of images and scanned PDFs (optional at run time);
#                               poppler's pdftoppm also draws a PDF's thumbnail, and the font
#                               it brings along (DejaVu) a text's (docs/thumbnails.md)
#   libmagic1                   content sniffing (python-magic)
#   dovecot-imapd               a real IMAP server the mail-account tests start on their own
#                               (tests/mailaccounts/dovecot.py; not run as a system service)
#   postgresql-NN-rum           the RUM extension for each local PostgreSQL server NN, so the
#                               tests cover the opt-in RUM search path (off by default since
#                               migration 0025: postgrespro/rum#183; docs/search.md); optional
# Idempotent: installs only what is missing, and runs apt-get update only then.
set -euo pipefail

declare -A wanted=(
    [/usr/bin/chromium]=chromium
    [/usr/bin/chromedriver]=chromium-driver
    [/usr/bin/tesseract]=tesseract-ocr
    [/usr/bin/pdftoppm]=poppler-utils
    [/usr/lib/dovecot/imap]=dovecot-imapd
)
missing=()
for path in "${!wanted[@]}"; do
    [[ -x "$path" ]] || missing+=("${wanted[$path]}")
done
if ! ldconfig -p 2>/dev/null | grep -q libmagic.so.1; then
    missing+=(libmagic1)
fi

for extensions in /usr/share/postgresql/*/extension; do
    [[ -d "$extensions" ]] || continue
    major=$(basename "$(dirname "$extensions")")
    [[ -f "$extensions/rum.control" ]] || missing+=("postgresql-$major-rum")
done

if ((${#missing[@]})); then
    if [[ "$(id -u)" -eq 0 ]]; then
        SUDO=""
    elif command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "install-system-packages.sh: need root or sudo to install: ${missing[*]}" >&2
        exit 1
    fi
    echo "Installing ${missing[*]} via apt-get ..."
    # `env` so DEBIAN_FRONTEND survives sudo's env_reset.
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

/usr/bin/chromium --version 2>/dev/null | grep -v "unexpected operator" || true
/usr/bin/tesseract --version 2>&1 | head -1
