#!/usr/bin/env bash
# The action's run step: the command (split as a shell would, without running one) under
# gvlstress, its reports in GVLSTRESS_REPORT_DIR; a pytest command runs with the plugin's
# watchdog and artifacts there. The exit code goes to GITHUB_OUTPUT; the step itself succeeds
# so the summary and the upload run, and the action's last step fails as the command did.
set -uo pipefail
venv="${GVLSTRESS_VENV:?the install step sets GVLSTRESS_VENV}"
mapfile -t args < <("$venv/bin/python" -c 'import os, shlex, sys; sys.stdout.write("".join(a + "\n" for a in shlex.split(os.environ["GVLSTRESS_COMMAND"])))')
mkdir -p "$GVLSTRESS_REPORT_DIR"
if [ "${#args[@]}" -eq 0 ]; then
  echo "gvlstress action: the command input is empty (e.g. 'run --workers 5 --rayon 16')" >&2
  code=2
elif [ "${args[0]}" = "pytest" ]; then
  GVLSTRESS_WATCH="${GVLSTRESS_WATCH_S:-120}" GVLSTRESS_ARTIFACTS="$GVLSTRESS_REPORT_DIR" \
    "$venv/bin/python" -m pytest "${args[@]:1}"
  code=$?
else
  "$venv/bin/gvlstress" "${args[0]}" --report-dir "$GVLSTRESS_REPORT_DIR" "${args[@]:1}"
  code=$?
fi
echo "exit-code=$code" >>"$GITHUB_OUTPUT"
exit 0
