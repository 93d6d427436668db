# python/cpython#79838 (bpo-35657, "multiprocessing.Process.join() ignores timeout if child process use
# os.exec*()", open): after exec the process sentinel is ready at once (its close-on-exec write end
# closed), so join(timeout) goes on to a blocking waitpid() and waits for the exec'd program to exit,
# however long. Here a supervisor gives an exec'd model server 2 s, meaning to tell it to stop on its
# control pipe afterwards; the server waits for that command, the supervisor waits for the server.
# CPython 3.11.7 (multiprocessing, fork).
from supervisor import run

if __name__ == '__main__':
    run(use_subprocess=False)
