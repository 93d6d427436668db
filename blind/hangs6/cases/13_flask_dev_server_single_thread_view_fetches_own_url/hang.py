# pallets/flask#2529 ("Enable threads by default for the dev server": "It's way too easy currently to
# deadlock the server with background resource fetching"; also blockchain-certificates/cert-viewer#68):
# Flask 0.12's development server handles one request at a time (threaded=False); the /page view fetches
# the app's own /api/stock with urllib (no timeout): the request waits in the listening socket's backlog
# for the server thread, which is busy in the view waiting for that response. The browser (a thread of the
# same program) waits for /page. Flask 0.12.5 (Werkzeug 0.16.1) on CPython 3.8.18.
from common import run

run()
