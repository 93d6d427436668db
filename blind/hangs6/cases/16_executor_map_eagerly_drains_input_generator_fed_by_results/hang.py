# python/cpython#74028 ("concurrent.futures.Executor.map: avoid eager iteration of the input", fixed in 3.14
# with the buffersize parameter): Executor.map() submits every input item before it returns its first
# result. A crawler feeds the links found in each result back into the URL generator it passes to map():
# map() waits inside the generator for the next URL, and URLs only arrive once map() has returned results.
# CPython 3.11.7.
from common import crawl_with_map

crawl_with_map()
