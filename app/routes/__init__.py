"""HTTP and WebSocket routes, one module per resource: sessions, accounts, games, rooms,
matches and players (JSON under /api), pages (HTML), ws (the play socket)."""
