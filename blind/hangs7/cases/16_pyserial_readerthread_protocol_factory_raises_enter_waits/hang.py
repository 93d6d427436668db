# pyserial/pyserial#559 ("Threaded self.protocol_factory() should be self.protocol_factory": passing a protocol
# instance makes ReaderThread.run() die with TypeError: 'TempReader' object is not callable) with the context-manager
# use of #656: ReaderThread.__enter__ starts the thread and waits on _connection_made, which run() sets only after
# protocol_factory() and connection_made(); the reader thread died before that, so the main thread waits forever.
# The instrument (a pty stand-in child) waits for commands. pyserial 3.5, CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(pass_instance=True, delay=0.2)
