# urllib3/urllib3#1338 ("Retry.get_retry_after doesn't respect time-out"; a server answering `Retry-After: 3600`
# made tasks sleep for an hour; no upper bound in urllib3 2.2.3): the export API answers 503 with
# `Retry-After: 86400`; Retry.sleep() honours the header and the client sleeps a day in time.sleep() before its
# retry, whatever its connect/read timeouts. Only the clock (or the operator) ends it. urllib3 2.2.3.
from common import run

if __name__ == "__main__":
    run(retry_after="86400", respect=True)
