# Look-alike: the same map() over a blocking URL generator, fed by a separate sitemap thread that adds
# 10 URLs over 16 s and then ends the stream; map() then returns. CPython 3.11.7.
from common import crawl_with_map, slow_seeder

crawl_with_map(seeder=slow_seeder)
