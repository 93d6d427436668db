# Look-alike: same duplex Pipe, the parent blocks in send() of a large message while the child is
# busy (sleeps 16 s) before it reads it, then the child answers.
import multiprocessing as mp, time

def child(conn):
    time.sleep(16)
    print("child got", len(conn.recv()))
    conn.send(b"c" * (8 << 20))

if __name__ == "__main__":
    a, b = mp.Pipe(duplex=True)
    p = mp.get_context("fork").Process(target=child, args=(b,))
    p.start()
    print("ready", flush=True)
    a.send(b"p" * (8 << 20))
    print("parent got", len(a.recv()))
    p.join()
