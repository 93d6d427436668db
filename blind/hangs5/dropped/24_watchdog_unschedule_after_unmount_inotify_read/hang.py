# gorakhargosh/watchdog#869 ("Fix Observer.unschedule hang on linux when called with watch of an unmounted
# path": "the InotifyBuffer thread is stuck on Inotify.read_events, specifically on os.read(self._inotify_fd)"):
# when the watched path's filesystem is unmounted, inotify delivers IN_UNMOUNT and IN_IGNORED, which the
# buffer thread does not treat as the end; unschedule() then stops and joins it while it waits in
# os.read() for events that can no longer come (the watch is gone). watchdog 2.1.6 on CPython 3.11.7;
# the watched directory is on a tmpfs the program mounts and unmounts (root).
from ingest import run

run(unmount_first=True)
