# Control: the fix of PR #118982 applied to the same program: the parent closes the child's pipe ends
# right after the spawn, so the write fails with EPIPE once the child has died, and start() raises.
import multiprocessing as mp
import os

if __name__ == "__mp_main__":
    raise RuntimeError("worker start-up failed: missing configuration")


def work(blob):
    return len(blob)


def _launch_fixed(self, process_obj):
    # multiprocessing/popen_spawn_posix.py Popen._launch with the change of PR #118982
    import io
    from multiprocessing import resource_tracker, spawn, util, reduction
    from multiprocessing.context import set_spawning_popen
    tracker_fd = resource_tracker.getfd()
    self._fds.append(tracker_fd)
    prep_data = spawn.get_preparation_data(process_obj._name)
    fp = io.BytesIO()
    set_spawning_popen(self)
    try:
        reduction.dump(prep_data, fp)
        reduction.dump(process_obj, fp)
    finally:
        set_spawning_popen(None)
    parent_r = child_w = child_r = parent_w = None
    try:
        parent_r, child_w = os.pipe()
        child_r, parent_w = os.pipe()
        cmd = spawn.get_command_line(tracker_fd=tracker_fd, pipe_handle=child_r)
        self._fds.extend([child_r, child_w])
        self.pid = util.spawnv_passfds(spawn.get_executable(), cmd, self._fds)
        os.close(child_r)
        child_r = None
        os.close(child_w)
        child_w = None
        self.sentinel = parent_r
        with open(parent_w, 'wb', closefd=False) as f:
            f.write(fp.getbuffer())
    finally:
        fds_to_close = [fd for fd in (parent_r, parent_w) if fd is not None]
        self.finalizer = util.Finalize(self, util.close_fds, fds_to_close)
        for fd in (child_r, child_w):
            if fd is not None:
                os.close(fd)


if __name__ == "__main__":
    import multiprocessing.popen_spawn_posix as psp
    psp.Popen._launch = _launch_fixed
    ctx = mp.get_context("spawn")
    blob = b"x" * (4 << 20)
    p = ctx.Process(target=work, args=(blob,))
    print("ready", flush=True)
    try:
        p.start()
        p.join()
        print("exit code", p.exitcode)
    except BrokenPipeError as e:
        print("start() failed: the child died:", e)
