import threading

msg = "hello from mod_control"

def scan():
    import mod_control
    print("scan", mod_control.msg)

def start():
    t = threading.Thread(target=scan)
    t.start()
    return t
