# Control: the fix (use smtplib.SMTP_SSL for port 465): the TLS handshake happens first, the greeting
# follows, the session ends.
import os, smtplib, ssl, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
srv = subprocess.Popen([sys.executable, os.path.join(here, "server.py"), "tls"], stdout=subprocess.PIPE, text=True)
port = int(srv.stdout.readline())
print("ready", flush=True)
ctx = ssl.create_default_context(cafile=os.path.join(here, "cert.pem"))
ctx.check_hostname = False
smtp = smtplib.SMTP_SSL("127.0.0.1", port, context=ctx)
smtp.quit()
srv.wait()
print("done")
