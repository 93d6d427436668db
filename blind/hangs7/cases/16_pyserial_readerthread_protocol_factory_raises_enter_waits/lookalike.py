# Look-alike: the factory is right; the instrument announces itself only after 16 s and the job waits for that first
# line inside the ReaderThread block. pyserial 3.5.
from common import run

if __name__ == "__main__":
    run(pass_instance=False, delay=16.0)
