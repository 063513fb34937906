"""Messages framed once and written straight to the connection (baccarat.server.frames,
baccarat.server.api.ws_protocol), and the hub's deliveries: every message of one commit reaches
each subscriber together, in order, the public ones as the same object for everyone."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from baccarat.server.api.ws_protocol import FRAMES, FramedProtocol, FrameWriter
from baccarat.server.frames import Outbound, text_frame
from baccarat.server.hub import FAN_OUT_CHUNK, Hub
from baccarat.server.observer import messages

# --- the frame ------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65_535, 65_536, 70_001])
def test_a_text_frame_is_the_one_websockets_makes(size: int) -> None:
    payload = ("é" * size).encode()[:size]  # lengths on each side of the 7-, 16- and 64-bit forms
    assert text_frame(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False)


def test_an_outbound_message_is_framed_once() -> None:
    out = Outbound('{"type":"pong","ref":"天","ts":1.0}')
    assert out.frame is out.frame
    assert out.frame == Frame(Opcode.TEXT, out.text.encode()).serialize(mask=False)


# --- the hub's deliveries -------------------------------------------------------------------------


def _tick(table: str, left: float) -> dict[str, Any]:
    return messages.countdown(table=table, round_id=1, seconds_left=left, totals={}, exposure=0, players=0)


def _funds(table: str, amount: int) -> dict[str, Any]:
    return {"type": "my_funds", "id": amount, "table": table, "round_id": None, "ts": 1.0, "amount": amount}


def _drained(subscriber: Any) -> list[Outbound]:
    return [subscriber.queue.get_nowait() for _ in range(subscriber.queue.qsize())]


def _stored(table: str, number: int) -> dict[str, Any]:
    """A stored public event (a bettor joined) as the store hands it to the hub."""
    return {"id": number, "table": table, "round_id": None, "type": "BettorJoined", "ts": 2.0, "at": 2.0,
            "bettor": f"p{number}", "seat": number, "balance": 1000, "variant": "macau"}  # fmt: skip


def test_one_delivery_gives_each_subscriber_its_messages_in_order() -> None:
    hub = Hub()
    ann, bob, guest = (hub.subscribe("t") for _ in range(3))
    hub.authenticate(ann, "ann")
    hub.authenticate(bob, "bob")
    hub.deliver_all("t", [_stored("t", 1), _stored("t", 2)], [("ann", _funds("t", 5)), ("bob", _funds("t", 6))])
    got = {name: _drained(s) for name, s in (("ann", ann), ("bob", bob), ("guest", guest))}
    assert [len(got[k]) for k in ("ann", "bob", "guest")] == [3, 3, 2]
    assert got["ann"][0] is got["bob"][0] is got["guest"][0]  # one object, one frame, for everyone
    assert [m.text.count('"seat":1') for m in got["guest"]] == [1, 0]
    assert '"amount":5' in got["ann"][2].text and '"amount":6' in got["bob"][2].text


def test_private_messages_go_only_to_their_bettor_s_connections() -> None:
    hub = Hub()
    ann_tab, ann_phone, bob = (hub.subscribe("t") for _ in range(3))
    for subscriber, name in ((ann_tab, "ann"), (ann_phone, "ann"), (bob, "bob")):
        hub.authenticate(subscriber, name)
    hub.tell("t", [("ann", _funds("t", 1)), ("ann", _funds("t", 2))])
    assert [len(_drained(s)) for s in (ann_tab, ann_phone, bob)] == [2, 2, 0]
    hub.tell("elsewhere", [("ann", _funds("elsewhere", 3))])
    assert ann_tab.queue.empty()


def test_a_large_delivery_is_handed_out_in_chunks_and_in_order() -> None:
    async def scenario() -> tuple[list[int], list[list[str]]]:
        hub = Hub()
        followers = [hub.subscribe("t") for _ in range(3 * FAN_OUT_CHUNK + 1)]
        served: list[int] = []
        hub.broadcast(_tick("t", 3.0))
        hub.broadcast(_tick("t", 2.0))  # waits for the first to be handed out to everyone
        while not all(s.queue.qsize() == 2 for s in followers):
            served.append(sum(s.queue.qsize() for s in followers))
            await asyncio.sleep(0)
        return served, [[m.text for m in _drained(s)] for s in followers]

    served, texts = asyncio.run(scenario())
    assert served[0] <= FAN_OUT_CHUNK and len(served) > 2  # never everyone in one turn of the loop
    assert all(t[0] == texts[0][0] and '"seconds_left":3.0' in t[0] and '"seconds_left":2.0' in t[1] for t in texts)


# --- the protocol under uvicorn ----------------------------------------------------------------------


_AFTER_CLOSE: list[str] = []


async def _framed(websocket: WebSocket) -> None:
    """Echo each text as frames written by the connection itself: the text, a long one, then closes on "bye"."""
    await websocket.accept()
    writer = websocket.scope["extensions"].get(FRAMES)
    assert isinstance(writer, FrameWriter)
    while True:
        text = await websocket.receive_text()
        if text == "bye":
            await writer.write([Outbound("last").frame])
            await websocket.close(code=4000)
            try:
                await writer.write([Outbound("after the close").frame])
            except WebSocketDisconnect:
                _AFTER_CLOSE.append("refused")
            return
        big = Outbound("x" * 70_000)
        await writer.write([Outbound(text).frame, big.frame, Outbound(text.upper()).frame])


@contextlib.contextmanager
def _serving(app: Any) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, ws=FramedProtocol, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"ws://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def test_frames_written_by_the_connection_arrive_whole_in_order_and_before_the_close() -> None:
    with _serving(Starlette(routes=[WebSocketRoute("/ws", _framed)])) as base, connect(f"{base}/ws") as ws:
        for word in ("hello", "天牌"):
            ws.send(word)
            assert [ws.recv(timeout=60) for _ in range(3)] == [word, "x" * 70_000, word.upper()]
        ws.send("bye")
        assert ws.recv(timeout=60) == "last"
        with pytest.raises(Exception) as closed:
            ws.recv(timeout=60)
        assert getattr(closed.value, "rcvd", None) is not None and closed.value.rcvd.code == 4000  # type: ignore[attr-defined]
    assert _AFTER_CLOSE == ["refused"]  # no frame goes out after the close
