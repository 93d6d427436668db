# duckdb/duckdb#14867 (UDF calling SQL freezes process): a Python UDF that runs a query on the same
# connection that is executing the query calling it: the UDF waits on the connection's context
# mutex, held by the same thread (the outer query). duckdb 1.1.3 on CPython 3.11.7.
import duckdb

con = duckdb.connect()
con.sql("create table Node (NodeNo integer primary key)")
con.sql("insert into Node values (0)")


def validate_node(NodeNo: int) -> bool:
    res = con.sql(f"select 1 from Node N where N.NodeNo = {NodeNo}").fetchall()
    return len(res) == 1


con.create_function("validate_node", validate_node)
print("ready", flush=True)
print(con.sql("select validate_node(0)").fetchall())
con.close()
