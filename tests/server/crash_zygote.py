"""Helper of the crash test: imports the server once, then forks a fresh server process per request.

Reads one JSON line per server to start on stdin (``{"port", "db", "config", "env"}``) and answers
with the child's pid. Forking a process that has already imported everything makes a restart take
a fraction of a second, so the crash test can kill and restart the server dozens of times.
"""

from __future__ import annotations

import json
import os
import sys

import uvicorn  # noqa: F401  (imported before forking)

import baccarat.server.app  # noqa: F401
from baccarat.server.main import run_server
from baccarat.server.settings import load_lobby


def main() -> None:
    """Serve requests until stdin closes."""
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            os.environ.update(request["env"])
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            run_server(
                host="127.0.0.1", port=request["port"], db_url=request["db"], lobby=load_lobby(request["config"])
            )
            os._exit(0)
        print(pid, flush=True)
        for _ in range(8):  # reap finished children
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break


if __name__ == "__main__":
    main()
