# Look-alike: the same read-until-EOF handler; the client streams its body over 16 s and then shuts down its
# sending side, after which the handler replies. CPython 3.11.7.
from common import post_slowly_then_close

post_slowly_then_close(16.0)
