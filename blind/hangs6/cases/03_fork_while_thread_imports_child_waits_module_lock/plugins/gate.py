import threading

started = threading.Event()
proceed = threading.Event()
