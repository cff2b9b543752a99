"""Which URLs the server may send to: webhooks and push endpoints.

Only http(s). In production (unless NOTIFY_PRIVATE_ADDRESSES says otherwise) never a
private, loopback, link-local or otherwise internal address — else anyone could make the
server send requests to the machines beside it. The host's addresses are looked up when a
URL is saved and again before every delivery, since what a name points to can change.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit

from app.i18n.marks import N_, Worded

MAX_URL = 2000


class UnsafeUrl(Worded):
    """A URL the server will not send to; the message says why."""


def check_form(url: str) -> str:
    """The URL, if it has the form of one the server may send to (http or https, a host,
    no user name or password in it); else UnsafeUrl."""
    url = url.strip()
    if len(url) > MAX_URL:
        raise UnsafeUrl(N_("The URL is longer than {most} characters."), most=MAX_URL)
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError:
        raise UnsafeUrl(N_("That is not a valid URL.")) from None
    if parts.scheme not in ("http", "https"):
        raise UnsafeUrl(N_("The URL must start with http:// or https://."))
    if not parts.hostname:
        raise UnsafeUrl(N_("The URL has no host name."))
    if parts.username is not None or parts.password is not None:
        raise UnsafeUrl(N_("Put no user name or password in the URL."))
    return url


def is_internal(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


async def check_reachable(url: str, *, allow_private: bool) -> str:
    """``check_form``, and unless private addresses are allowed, every address its host
    has is a public one; else UnsafeUrl."""
    url = check_form(url)
    if allow_private:
        return url
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        raise UnsafeUrl(N_("The host {host} cannot be found."), host=host) from None
    if not found or any(is_internal(str(entry[4][0])) for entry in found):
        raise UnsafeUrl(N_("The URL points to a private or local address, which is not allowed."))
    return url
