# Control: the fix given in #559: pass the protocol class (a factory), not an instance. pyserial 3.5.
from common import run

if __name__ == "__main__":
    run(pass_instance=False, delay=0.2)
