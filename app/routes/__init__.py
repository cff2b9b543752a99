"""HTTP and WebSocket routes: pages (HTML), api (JSON REST), ws (play)."""
