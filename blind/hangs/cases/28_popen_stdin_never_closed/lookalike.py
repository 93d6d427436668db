# Look-alike: the same child reading its stdin pipe and the parent waiting for it; a feeder thread
# of the parent writes the input after 16 s and closes the pipe.
import subprocess, threading, time
child = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
def feed():
    time.sleep(16)
    child.stdin.write(b"input\n"); child.stdin.close()
threading.Thread(target=feed).start()
print("ready", flush=True)
code = child.wait()
print("done", code)
