# jquast/x84#24 (multiprocessing.Pipe between two processes): under heavy traffic both ends call
# conn.send() of a large message at the same time; the duplex Pipe is a Unix socketpair, each
# send blocks until the other end reads, and neither reads.
import multiprocessing as mp

def child(conn):
    conn.send(b"c" * (8 << 20))
    print("child got", len(conn.recv()))

if __name__ == "__main__":
    a, b = mp.Pipe(duplex=True)
    p = mp.get_context("fork").Process(target=child, args=(b,))
    p.start()
    print("ready", flush=True)
    a.send(b"p" * (8 << 20))
    print("parent got", len(a.recv()))
    p.join()
