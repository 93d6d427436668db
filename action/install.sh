#!/usr/bin/env bash
# The action's install step: a virtual environment of its own under RUNNER_TEMP with gvlstress
# (from the action's checkout: its native crate and the harness) and what the user asked for;
# its path goes to GITHUB_ENV (GVLSTRESS_VENV) and its bin to GITHUB_PATH. An environment that
# already has gvlstress (GVLSTRESS_VENV set beforehand) is used as it is.
set -euo pipefail
venv="${GVLSTRESS_VENV:-$RUNNER_TEMP/gvlstress-venv}"
if [ ! -x "$venv/bin/gvlstress" ]; then
  "${GVLSTRESS_BASE_PYTHON:-python3}" -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip
  "$venv/bin/pip" install -q "$GITHUB_ACTION_PATH/native" "$GITHUB_ACTION_PATH"
fi
if [ -n "${GVLSTRESS_INSTALL:-}" ]; then
  read -r -a extra <<<"$GVLSTRESS_INSTALL"
  "$venv/bin/pip" install -q "${extra[@]}"
fi
echo "GVLSTRESS_VENV=$venv" >>"$GITHUB_ENV"
echo "$venv/bin" >>"$GITHUB_PATH"
"$venv/bin/gvlstress" --version
