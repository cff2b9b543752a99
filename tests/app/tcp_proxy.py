"""A TCP forwarder the tests can cut: the database "stops" and "comes back" for the server
behind it, without touching the real database server that other tests share."""

from __future__ import annotations

import contextlib
import socket
import threading


class TcpProxy:
    """Forwards 127.0.0.1:``port`` to ``target``. While cut, it drops every open connection
    and closes new ones at once, as a stopped server would look to its clients."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._cut = threading.Event()
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self) -> None:
        self._cut.set()
        with self._lock:
            for sock in self._open:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                    sock.close()
            self._open.clear()

    def restore(self) -> None:
        self._cut.clear()

    def close(self) -> None:
        self._closed = True
        self.cut()
        self._listener.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self._cut.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.close()
            with self._lock:
                self._open.discard(sock)
