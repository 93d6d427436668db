# Control: the fixed release wurlitzer 3.0.0 (#49 "use Bytes/StringIO for pipes"): the forwarder writes into an
# in-memory buffer, so __exit__'s join returns and the caller reads the whole report.
from common import run

if __name__ == "__main__":
    run(nbytes=100_000, seconds=0)
