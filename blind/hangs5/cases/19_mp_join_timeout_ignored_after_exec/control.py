# Control: the usual workaround for python/cpython#79838: an exec'd program is started with
# subprocess.Popen, whose wait(timeout=2) returns on time; the supervisor then sends "stop".
# CPython 3.11.7.
from supervisor import run

if __name__ == '__main__':
    run(use_subprocess=True)
