# Control: the fixed release Flask 1.0 (the development server is threaded by default, #2529): the nested
# request is served by another thread. Werkzeug 0.16.1, CPython 3.8.18.
from common import run

run()
