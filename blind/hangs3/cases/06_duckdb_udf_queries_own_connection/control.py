# Control: the UDF queries through its own connection to the same database (con.cursor()), not the
# connection that runs the calling query.
import duckdb

con = duckdb.connect()
con.sql("create table Node (NodeNo integer primary key)")
con.sql("insert into Node values (0)")
udf_con = con.cursor()


def validate_node(NodeNo: int) -> bool:
    res = udf_con.sql(f"select 1 from Node N where N.NodeNo = {NodeNo}").fetchall()
    return len(res) == 1


con.create_function("validate_node", validate_node)
print("ready", flush=True)
print(con.sql("select validate_node(0)").fetchall())
con.close()
