"""A client-side slowdown for the drop-quality corpus (issue #23: "a client slowed by a
throttling proxy: this kernel has no netem"): a Unix-socket proxy between the benchmark and the
server that holds each reply of the server for DELAY seconds while the control file says so.

    python3 slow_proxy.py LISTEN_SOCKET SERVER_SOCKET CONTROL_FILE

CONTROL_FILE holds the delay in seconds (0 or missing: none); it is read every 50 ms. Every round
trip of the benchmark then takes DELAY longer, as it would over a congested or distant network:
the server idles between the statements of each transaction, its bytes per transaction do not
change. Standard library only, so disturb.sh can run it with the system's python3.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys

DELAY = [0.0]


async def watch(control: str) -> None:
    while True:
        try:
            with open(control) as f:
                DELAY[0] = max(0.0, float(f.read().strip() or 0))
        except (OSError, ValueError):
            DELAY[0] = 0.0
        await asyncio.sleep(0.05)


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, slow: bool) -> None:
    with contextlib.suppress(ConnectionError):
        while chunk := await reader.read(65536):
            if slow and DELAY[0] > 0:
                await asyncio.sleep(DELAY[0])
            writer.write(chunk)
            await writer.drain()
    with contextlib.suppress(Exception):
        writer.close()


async def main(listen: str, server: str, control: str) -> None:
    async def client(cr: asyncio.StreamReader, cw: asyncio.StreamWriter) -> None:
        sr, sw = await asyncio.open_unix_connection(server)
        await asyncio.gather(pipe(cr, sw, False), pipe(sr, cw, True))

    with contextlib.suppress(FileNotFoundError):
        os.unlink(listen)
    srv = await asyncio.start_unix_server(client, listen)
    os.chmod(listen, 0o777)
    asyncio.get_running_loop().create_task(watch(control))
    async with srv:
        await srv.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
