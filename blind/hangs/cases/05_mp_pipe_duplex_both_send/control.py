# Control: the fix of x84#24: hand messages to a multiprocessing.Queue (a feeder thread sends
# while the caller goes on to receive), so both sides can read while their data is in flight.
import multiprocessing as mp

def child(q_in, q_out):
    q_out.put(b"c" * (8 << 20))
    print("child got", len(q_in.get()))

if __name__ == "__main__":
    ctx = mp.get_context("fork")
    to_child, to_parent = ctx.Queue(), ctx.Queue()
    p = ctx.Process(target=child, args=(to_child, to_parent))
    p.start()
    print("ready", flush=True)
    to_child.put(b"p" * (8 << 20))
    print("parent got", len(to_parent.get()))
    p.join()
