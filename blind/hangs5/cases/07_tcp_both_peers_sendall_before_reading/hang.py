# GerHobbelt/civet-webserver#1 ("lockup in send(): the mutual write lockup ... both client and server may be
# sending data at the same time, when the TCP buffers at both ends cannot cope ... they lock up") and
# sine-fdn/polytune#61 (sequential write_all then read_exact over a TCP stream deadlocks for large data):
# the client sends a whole 64 MB request with sendall() before reading; the server streams its answer
# back chunk by chunk while it reads. Once the client's receive buffer is full the server blocks in
# send and stops reading, the server's receive buffer fills, and the client's sendall() never
# returns. Socket module, server in a child process; CPython 3.11.7.
from client import run

run(64 * 1024 * 1024, threaded=False)
