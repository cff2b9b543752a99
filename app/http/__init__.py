"""The HTTP edge: what every request passes, and how a refusal is answered.

- ``guards``   — the origin, body type and size checks; the security headers;
- ``errors``   — every refused or failed request answers in one JSON shape;
- ``forwarded`` — the caller's address behind the trusted reverse proxies;
- ``protocol`` — uvicorn's HTTP protocol with a deadline for each request's headers;
- ``deps``     — the routes' request dependencies (``Annotated`` aliases);
- ``schemas``  — wire types: HTTP request bodies and WebSocket messages.
"""
