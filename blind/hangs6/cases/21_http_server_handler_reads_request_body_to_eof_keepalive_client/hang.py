# progval/Limnoria#1154 ("httpserver.py: Pass Content-Length to read call": "If a POST request is sent to the
# built-in http server the handling function does not terminate because the rfile.read() function blocks"):
# the handler reads the request body until EOF; an HTTP/1.1 client (urllib) sends a complete request with
# Content-Length and keeps its side of the connection open waiting for the reply. The server (a child
# process, one request at a time) waits for EOF, the client waits for the reply. CPython 3.11.7.
from common import post_with_urllib

post_with_urllib("bug")
