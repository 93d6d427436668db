# joan2937/pigpio#189 ("Command thread locks can deadlock in certain situations": _pigpio_command acquires
# the socket lock and releases it without try/finally; "sl.s.recv returns less information than expected and
# unpack throws an exception" - the lock stays held, and the next command deadlocks; duplicate of #186):
# a reply is cut short, get_current_tick() raises struct.error with the command lock still held, and the
# same thread's next command waits for that lock forever. The daemon stays up and idle.
# pigpio 1.38 on CPython 3.11.7; the daemon is a stand-in speaking pigpio's socket protocol.
from common import run_after_short_reply

run_after_short_reply()
