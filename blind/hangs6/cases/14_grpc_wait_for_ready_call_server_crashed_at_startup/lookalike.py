# Look-alike: the same wait_for_ready call with no deadline; the feature service loads for 16 s, then binds
# and answers. grpcio 1.60.0 on CPython 3.11.7.
from common import run

run("16")
