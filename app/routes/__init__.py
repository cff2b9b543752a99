"""HTTP and WebSocket routes, one module per resource: sessions, games, rooms and matches
(JSON under /api), pages (HTML), ws (the play socket)."""
