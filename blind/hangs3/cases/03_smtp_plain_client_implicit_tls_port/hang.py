# jaymzh/pius#150 (Infinite waiting when connecting on SSL port 465): smtplib.SMTP (plain) to a
# server that speaks implicit TLS: the client waits for the 220 greeting, the server waits for the
# client's TLS ClientHello. CPython 3.11.7; the server is a child process on loopback.
import os, smtplib, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
srv = subprocess.Popen([sys.executable, os.path.join(here, "server.py"), "tls"], stdout=subprocess.PIPE, text=True)
port = int(srv.stdout.readline())
print("ready", flush=True)
smtp = smtplib.SMTP("127.0.0.1", port)      # no timeout: waits for a greeting that never comes
smtp.quit()
srv.wait()
print("done")
