import queue
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

ROOT = "https://docs.example.test/"


def crawl(url: str) -> list[str]:
    """Fetch a page and return its links (two per page, three levels deep)."""
    return [url + "a/", url + "b/"] if url.count("/") < 6 else []


def urls(frontier: "queue.Queue[str | None]"):
    while True:
        url = frontier.get()                      # the next URL to crawl (blocks until one is known)
        if url is None:
            return
        yield url


def crawl_with_map(seeder=None) -> None:
    frontier: "queue.Queue[str | None]" = queue.Queue()
    if seeder is None:
        frontier.put(ROOT)
    else:
        threading.Thread(target=seeder, args=(frontier,), daemon=True).start()
    pages = 0
    with ThreadPoolExecutor(max_workers=4) as pool:
        print("ready", flush=True)
        for links in pool.map(crawl, urls(frontier)):  # map() drains the input iterable before it returns
            pages += 1
            for link in links:
                frontier.put(link)
    print("crawled", pages, "pages", flush=True)


def crawl_lazily() -> None:
    frontier: "queue.Queue[str | None]" = queue.Queue()
    frontier.put(ROOT)
    pages = 0
    with ThreadPoolExecutor(max_workers=4) as pool:
        print("ready", flush=True)
        pending = set()
        while True:
            while not frontier.empty():
                pending.add(pool.submit(crawl, frontier.get()))
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                pages += 1
                for link in f.result():
                    frontier.put(link)
    print("crawled", pages, "pages", flush=True)


def slow_seeder(frontier) -> None:
    for i in range(10):                            # a sitemap reader adds 10 URLs over 16 s, then ends
        time.sleep(1.6)
        frontier.put(ROOT + f"sitemap/{i}/x/y/z/")
    frontier.put(None)
