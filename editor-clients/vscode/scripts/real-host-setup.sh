#!/usr/bin/env bash
# Installs a real VS Code for tests/e2e/test_vscode_real.py: code-server (VS Code in a browser,
# from npm), Debian's Chromium to show it, and playwright-core to drive Chromium.
#
# Usage: eval "$(editor-clients/vscode/scripts/real-host-setup.sh)"
#   Installs what is missing (apt packages need root), then prints the two variables the test
#   reads, REPHRASE_CODE_SERVER and REPHRASE_PLAYWRIGHT, as shell assignments.
#
# The npm installs go to $REPHRASE_CI_CACHE (default ~/.cache/rephrase-ls-ci), one folder per
# pinned version, so a second run only checks that they are there. Only package registries are
# reached (Debian and npm).
set -euo pipefail

# code-server 4.100.3 bundles VS Code 1.100.3 and is the last line that runs on Node 20. The
# test's selectors are VS Code internals: change the version only together with the driver.
CODE_SERVER_VERSION=4.100.3
PLAYWRIGHT_VERSION=1.65.1
# The @vscode/ripgrep version code-server's VS Code pins (lib/vscode/npm-shrinkwrap.json) and
# the ripgrep release its postinstall fetches (lib/postinstall.js VERSION).
VSCODE_RIPGREP_VERSION=1.15.11
RIPGREP_RELEASE=v13.0.0-10

CACHE=${REPHRASE_CI_CACHE:-$HOME/.cache/rephrase-ls-ci}
CODE_SERVER_DIR=$CACHE/code-server-$CODE_SERVER_VERSION
PLAYWRIGHT_DIR=$CACHE/playwright-core-$PLAYWRIGHT_VERSION

say() { printf 'real-host-setup: %s\n' "$*" >&2; }

# -- Debian packages: the browser, rg for the ripgrep stand-in, and what code-server's native
# modules compile against (kerberos needs libkrb5-dev; node-pty and others need a C++ compiler).
need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
[ -e /usr/include/krb5.h ] || [ -e /usr/include/krb5/krb5.h ] || need_apt+=(libkrb5-dev)
command -v g++ >/dev/null 2>&1 && command -v make >/dev/null 2>&1 || need_apt+=(build-essential)
if [ ${#need_apt[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ]; then
        say "missing Debian packages: ${need_apt[*]} (run as root, or apt-get install them)"
        exit 1
    fi
    say "apt-get install ${need_apt[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    # (With recommends: they bring the fonts Chromium renders VS Code with.)
    apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# -- code-server.
if [ ! -x "$CODE_SERVER_DIR/node_modules/.bin/code-server" ]; then
    node_major=$(node -p 'process.versions.node.split(".")[0]')
    if [ "$node_major" != 20 ]; then
        say "code-server $CODE_SERVER_VERSION needs Node 20 (its install refuses others); this is Node $(node --version)"
        exit 1
    fi
    # Build native modules against the installed Node's headers when they are there (else
    # node-gyp downloads them).
    build_env=(npm_config_yes=true npm_config_unsafe_perm=true)
    [ -e /usr/include/node/node.h ] && build_env+=(npm_config_nodedir=/usr)
    case $(uname -m) in
        x86_64) rg_target=x86_64-unknown-linux-musl ;;
        aarch64) rg_target=aarch64-unknown-linux-musl ;;
        *) say "no ripgrep stand-in for $(uname -m)"; exit 1 ;;
    esac
    say "npm install code-server@$CODE_SERVER_VERSION (compiles native modules: a minute or two)"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    # @vscode/ripgrep's postinstall downloads rg from GitHub unless a tarball of that release is
    # in $TMPDIR/vscode-ripgrep-cache-<version>/: give it Debian's rg there.
    rg_cache=$work/vscode-ripgrep-cache-$VSCODE_RIPGREP_VERSION
    mkdir -p "$rg_cache/rg"
    cp "$(command -v rg)" "$rg_cache/rg/rg"
    tar -C "$rg_cache/rg" -czf "$rg_cache/ripgrep-$RIPGREP_RELEASE-$rg_target.tar.gz" rg
    rm -rf "$CODE_SERVER_DIR.partial"
    mkdir -p "$CODE_SERVER_DIR.partial"
    # npm_config_yes: node-pty's install runs `npx node-gyp`, which otherwise stops to ask.
    # npm_config_nodedir: build against the installed Node's headers instead of downloading them.
    # npm_config_unsafe_perm: run the install scripts as root too.
    (
        cd "$CODE_SERVER_DIR.partial"
        printf '{"private": true}\n' >package.json
        env TMPDIR="$work" "${build_env[@]}" \
            npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION" \
            >"$work/npm.log" 2>&1
    ) || { tail -n 40 "$work/npm.log" >&2; say "code-server install failed"; exit 1; }
    rm -rf "$CODE_SERVER_DIR"
    mv "$CODE_SERVER_DIR.partial" "$CODE_SERVER_DIR"
fi
# (code-server writes a default config file first: keep it out of the user's ~/.config.)
probe=$(mktemp -d)
version=$(XDG_CONFIG_HOME=$probe XDG_DATA_HOME=$probe \
    "$CODE_SERVER_DIR/node_modules/.bin/code-server" --version 2>/dev/null \
    | grep -m 1 "^$CODE_SERVER_VERSION " || true)
rm -rf "$probe"
if [ -z "$version" ]; then
    say "$CODE_SERVER_DIR does not hold a working code-server $CODE_SERVER_VERSION; delete it and rerun"
    exit 1
fi

# -- playwright-core (drives the installed Chromium; downloads no browser).
if [ ! -f "$PLAYWRIGHT_DIR/node_modules/playwright-core/package.json" ]; then
    say "npm install playwright-core@$PLAYWRIGHT_VERSION"
    rm -rf "$PLAYWRIGHT_DIR.partial"
    mkdir -p "$PLAYWRIGHT_DIR.partial"
    (
        cd "$PLAYWRIGHT_DIR.partial"
        printf '{"private": true}\n' >package.json
        npm install --no-audit --no-fund --loglevel=error "playwright-core@$PLAYWRIGHT_VERSION" >&2
    )
    rm -rf "$PLAYWRIGHT_DIR"
    mv "$PLAYWRIGHT_DIR.partial" "$PLAYWRIGHT_DIR"
fi

say "ready: code-server $version, playwright-core $PLAYWRIGHT_VERSION, $(/usr/bin/chromium --version 2>/dev/null)"
printf 'export REPHRASE_CODE_SERVER=%q\n' "$CODE_SERVER_DIR/node_modules/.bin/code-server"
printf 'export REPHRASE_PLAYWRIGHT=%q\n' "$PLAYWRIGHT_DIR/node_modules/playwright-core"
