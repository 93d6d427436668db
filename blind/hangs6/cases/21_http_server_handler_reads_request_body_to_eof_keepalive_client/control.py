# Control: the fix of Limnoria#1154: the handler reads Content-Length bytes; the reply comes at once.
# CPython 3.11.7.
from common import post_with_urllib

post_with_urllib("fixed")
