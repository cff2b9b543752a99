"""Parlour's web server: rooms, authoritative play over WebSockets, persistence, pages."""
