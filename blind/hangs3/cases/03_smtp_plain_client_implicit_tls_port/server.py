# A tiny SMTP server on a loopback port. Mode "tls": implicit TLS as on port 465 (the TLS handshake
# comes first, the 220 greeting after it). Mode "slow": plain SMTP whose greeting comes after 16 s.
import os, socket, ssl, sys, time

here = os.path.dirname(os.path.abspath(__file__))
mode = sys.argv[1]
ls = socket.socket()
ls.bind(("127.0.0.1", 0))
ls.listen(1)
print(ls.getsockname()[1], flush=True)
conn, _ = ls.accept()
if mode == "tls":
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(os.path.join(here, "cert.pem"), os.path.join(here, "key.pem"))
    conn = ctx.wrap_socket(conn, server_side=True)   # waits for the client's ClientHello
else:
    time.sleep(16)
f = conn.makefile("rwb")
f.write(b"220 localhost ESMTP ready\r\n"); f.flush()
for line in f:
    cmd = line.strip().upper()
    if cmd.startswith(b"QUIT"):
        f.write(b"221 bye\r\n"); f.flush()
        break
    f.write(b"250 ok\r\n"); f.flush()
conn.close()
