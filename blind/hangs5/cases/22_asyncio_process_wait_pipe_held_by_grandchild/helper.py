# The helper server (grandchild, e.g. an MCP server the CLI spawned): runs until its control pipe (fd in
# argv[1]) reaches EOF, i.e. until the orchestrator closes it, or for SECONDS (argv[2]) if given.
import os
import select
import sys

fd = int(sys.argv[1])
limit = float(sys.argv[2]) if len(sys.argv) > 2 else None
select.select([fd], [], [], limit)
