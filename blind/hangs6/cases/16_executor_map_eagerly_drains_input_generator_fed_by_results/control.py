# Control: the fix's behaviour written by hand for 3.11 (3.14's map(buffersize=...) submits lazily): submit
# URLs as they are known and handle each result as it completes. CPython 3.11.7.
from common import crawl_lazily

crawl_lazily()
