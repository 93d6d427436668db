# Control: the fix: the tool ignores SIGTTOU around tcsetattr() (android/ndk#627's suggested fix, as in
# virtme-ng#453); the call succeeds from the background group and the tool ends. CPython 3.11.7.
from common import run

run("fixed")
