# Control: the daemon answers startProcess (the behaviour of a supervisord without the dropped reply);
# supervisorctl prints "train-worker: started". supervisor 4.2.5.
from common import run

if __name__ == "__main__":
    run(delay=0)
