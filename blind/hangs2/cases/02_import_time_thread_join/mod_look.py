import threading, time

msg = "hello from mod_look"

def scan():
    time.sleep(16)  # a slow scan that imports nothing
    print("scan done")

t = threading.Thread(target=scan)
t.start()
print("ready", flush=True)
t.join()
