# Look-alike: smtplib.SMTP (plain) to a plain SMTP server whose greeting comes after 16 s; the client
# waits in the same read, then the session ends.
import os, smtplib, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
srv = subprocess.Popen([sys.executable, os.path.join(here, "server.py"), "slow"], stdout=subprocess.PIPE, text=True)
port = int(srv.stdout.readline())
print("ready", flush=True)
smtp = smtplib.SMTP("127.0.0.1", port)
smtp.quit()
srv.wait()
print("done")
