# minrk/wurlitzer#48 ("wurlitzer.pipes hang if output from C is very large", same as #15 "Wurlitzer hangs process
# when pipe/buffer is full"): with stdout=PIPE, wurlitzer 2.1.1 hands the caller the read end of an os.pipe and
# its forwarder thread copies the captured C output into the write end. The caller reads only after the `with`
# block, but __exit__ joins the forwarder, which is blocked writing into that pipe once 64 KiB are buffered:
# main thread (join) -> forwarder (write to pipe) -> main thread (the pipe's only reader). wurlitzer 2.1.1.
from common import run

if __name__ == "__main__":
    run(nbytes=100_000, seconds=0)
