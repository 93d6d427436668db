# Look-alike: the UDF asks a lookup thread for its answer; the lookup answers after 16 s, and the
# query completes.
import queue, threading, time
import duckdb

con = duckdb.connect()
con.sql("create table Node (NodeNo integer primary key)")
con.sql("insert into Node values (0)")
requests_q: "queue.Queue[int]" = queue.Queue()
answers_q: "queue.Queue[bool]" = queue.Queue()


def lookup_service():
    n = requests_q.get()
    time.sleep(16)
    answers_q.put(n == 0)


threading.Thread(target=lookup_service, name="lookup", daemon=True).start()


def validate_node(NodeNo: int) -> bool:
    requests_q.put(NodeNo)
    return answers_q.get()


con.create_function("validate_node", validate_node)
print("ready", flush=True)
print(con.sql("select validate_node(0)").fetchall())
con.close()
