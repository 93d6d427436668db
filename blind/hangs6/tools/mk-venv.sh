#!/bin/bash
# usage: mk.sh NAME PYVER pkgs...
set -e
name=$1; pyver=$2; shift 2
/root/.pyenv/versions/$pyver/bin/python -m venv /work/blind-hangs6/venvs/$name
/work/blind-hangs6/venvs/$name/bin/pip install -q --disable-pip-version-check "$@"
