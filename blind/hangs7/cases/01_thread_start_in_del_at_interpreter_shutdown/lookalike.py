# Look-alike: the same __del__ runs before shutdown (the job drops its uploader explicitly), so the upload
# thread starts normally; the upload takes 16 s and __del__ joins it. CPython 3.11.7.
from common import SpoolUploader

uploader = SpoolUploader(upload_seconds=16.0)
del uploader                                       # __del__ runs now, not at interpreter shutdown
print("job finished, exiting", flush=True)
