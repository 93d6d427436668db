# zeromq/libzmq#179 (comment 2019-04-29, pyzmq 18: "the following blocks on send" for a bound PUSH socket
# with no peer) and zeromq/pyzmq#1911 ("zmq hangs forever if attempting to send a message before socket
# has time to connect"): the ventilator binds a PUSH socket on 127.0.0.1 and sends tasks; its only worker
# died at start-up before connecting, so send() blocks with no timeout until some PULL peer connects - any
# process on this host could still connect to the port. pyzmq 25.1.2 on CPython 3.11.7.
from common import run

run("broken")
