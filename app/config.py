"""Settings from the environment (pydantic-settings), with safe defaults for `make run`.

``SECRET_KEY`` signs the session cookie. When it is not given, one is generated once and
kept in ``DATA_DIR/secret_key`` so that sessions survive restarts — on one machine, for
development. With ``ENVIRONMENT=production`` the server refuses to start without a real
key (a known default, or anything short, would let anyone sign a cookie for any user,
since user ids are public), and the cookie is sent over HTTPS only unless
``COOKIE_SECURE=false`` says otherwise.
"""

from __future__ import annotations

import ipaddress
import secrets
from functools import lru_cache
from pathlib import Path
from typing import Literal, Self

from pydantic import ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.heap import YOUNG_EVERY

# The shortest SECRET_KEY production accepts, and keys that examples and old defaults used.
MIN_SECRET_KEY_LENGTH = 32
KNOWN_SECRET_KEYS = frozenset({"change-me-in-production", "changeme", "secret", "dev"})


def proxy_addresses(value: str) -> list[str]:
    """TRUSTED_PROXIES as a list of addresses and networks in their usual spelling; a
    ValueError saying what is wrong with an entry that is neither (``*`` above all, which
    would let every caller name its own address)."""
    proxies = []
    for entry in (part.strip() for part in value.split(",")):
        if not entry:
            continue
        if entry == "*":
            raise ValueError(
                "TRUSTED_PROXIES may not be '*' (anyone could choose their own address): "
                "name the reverse proxies' addresses"
            )
        try:
            proxy = ipaddress.ip_network(entry, strict=False) if "/" in entry else None
            proxies.append(str(proxy or ipaddress.ip_address(entry)))
        except ValueError:
            raise ValueError(
                f"TRUSTED_PROXIES: {entry!r} is neither an IP address nor a network "
                "(e.g. 172.30.84.10 or 10.0.0.0/8)"
            ) from None
    return proxies


def metrics_addresses(value: str) -> list[str]:
    """METRICS_ALLOW as a list of addresses and networks in their usual spelling; a
    ValueError naming an entry that is neither."""
    allowed = []
    for entry in (part.strip() for part in value.split(",")):
        if not entry:
            continue
        try:
            allowed.append(str(ipaddress.ip_network(entry, strict=False)))
        except ValueError:
            raise ValueError(
                f"METRICS_ALLOW: {entry!r} is neither an IP address nor a network "
                "(e.g. 172.30.84.20 or 10.0.0.0/8)"
            ) from None
    return allowed


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", case_sensitive=False)

    # "production" demands a real SECRET_KEY and secure cookies (see the module's docstring).
    environment: Literal["development", "production"] = "development"
    database_url: str = "sqlite:///./data/parlour.db"
    secret_key: str | None = None
    data_dir: Path = Path("./data")
    cookie_name: str = "parlour_session"
    cookie_secure: bool = False

    # Bounds on what one WebSocket connection may send (bad input changes nothing).
    max_message_bytes: int = 16_384
    rate_per_second: float = 20.0
    rate_burst: int = 40
    # Chat lines (and, separately, reactions) per person: a second's worth, and the burst.
    chat_rate_per_second: float = 1.0
    chat_burst: int = 5
    # A connection that keeps flooding after being told is closed.
    max_rate_violations: int = 50
    # Queued outgoing messages per connection before it is judged too slow and closed.
    max_send_queue: int = 64

    # Origins besides this server's own that may change state (comma-separated, e.g.
    # "https://play.example"): requests and sockets from any other site are refused.
    allowed_origins: str = ""
    # Largest HTTP request body accepted (every body is a small JSON object).
    max_body_bytes: int = 16_384
    # Seconds a request may take to send its headers before its connection is closed, and
    # seconds a kept-alive HTTP connection may sit idle between requests.
    header_timeout: float = 10.0
    idle_timeout: int = 5
    # Seconds a burst of connects and disconnects is gathered before the room's
    # description (who is here) goes out again.
    presence_delay: float = 0.2
    # Seconds between the young collections the server makes itself (app/heap.py), so
    # that the collector's own are never long; 0: the collector's own only.
    gc_young_every: float = YOUNG_EVERY

    # Seconds a process may answer a request's identity from memory (app/people/sessions.py):
    # how long a revoked session can outlive its revocation in another process if Redis loses
    # word.
    session_cache_seconds: float = 5.0

    # Failed logins allowed (app/limits/quotas.py): to one account from one address, and
    # from one address to any, in each login window; to one account from every address, in
    # each (longer) account window — high enough that a guesser at one address cannot lock
    # the owner out, low enough to stop one spread over many.
    login_attempts_per_account_address: int = 10
    login_attempts_per_address: int = 50
    login_window_seconds: float = 900.0
    login_attempts_per_account: int = 100
    login_account_window_seconds: float = 3600.0
    # Tables a person, and an address, may open in an hour; rooms an address may look up
    # by short code in a minute (app/limits/quotas.py).
    rooms_per_hour_per_person: int = 30
    rooms_per_hour_per_address: int = 120
    code_lookups_per_minute: int = 60
    # Sign-ups, and guests started, an address may make in an hour (app/limits/quotas.py).
    signups_per_hour_per_address: int = 5
    guests_per_hour_per_address: int = 30
    # Friend asks an account may make, and invitations a host may send, in an hour; and how
    # long a renewed invitation to the same person at the same table is not sent again
    # through their notification channels (app/limits/quotas.py).
    friend_requests_per_hour: int = 30
    invitations_per_hour: int = 60
    invitation_notice_seconds: float = 600.0
    # Password hashes (64 MiB each) run at once on the hashing pool's own threads, and how
    # many more may wait for one before a request is refused (app/people/hashing_pool.py).
    hash_workers: int = 2
    hash_queue: int = 8
    # A guest that played no match and whose sessions have not been used for this many
    # days is removed, with its sessions, by a clean-up run every ``guest_sweep_seconds``
    # (0: never; app/people/idle_guests.py).
    guest_idle_days: int = 30
    guest_sweep_seconds: float = 3600.0
    # Open sockets a person, and an address, may hold at once (per server process).
    sockets_per_person: int = 16
    sockets_per_address: int = 64
    # The reverse proxies whose X-Forwarded-For is believed (comma-separated addresses or
    # networks). Every per-address limit counts the caller's address: the right-most
    # X-Forwarded-For hop not sent by one of these, or the connection's own address. None
    # by default: a header anyone can send must not choose the address.
    trusted_proxies: str = ""

    # Seconds a computer player waits before acting, so people can follow the play.
    bot_delay: float = 0.6
    # Worker processes the searching computer players think in; 0: one per core.
    bot_workers: int = 0
    # Seconds between each process's looks for finished matches waiting for the
    # computer's analysis, which it then does in the same workers (app/records/analysis.py);
    # 0: this process analyses none.
    analysis_poll_seconds: float = 2.0
    # Seconds a person may be away (no open connection) before a computer may take their
    # seat, or before the host role passes on if they host.
    absence_grace: float = 60.0
    # Seconds a table may have no seat's person connected before it closes (waiting) or
    # its match is abandoned (playing).
    stale_after: float = 1800.0
    # Turn-based tables: how often each process looks in the database for deadlines coming
    # (0: never), and how long before a deadline its awaited person is reminded.
    turn_sweep_seconds: float = 60.0
    deadline_reminder_seconds: float = 4 * 3600.0

    # PSEUDO_LANGUAGE=on offers the pseudo-language (?lang=qps, app/i18n/pseudo.py): every
    # message accented and bracketed, so that text built outside the catalogues stands out.
    pseudo_language: bool = False

    # A line per HTTP request on the server's output. Behind a reverse proxy, which keeps
    # its own access log, turn it off: it costs the event loop a write per request.
    access_log: bool = True

    # Several processes sharing the rooms (app/cluster/): set REDIS_URL to turn it on.
    redis_url: str | None = None
    # Seconds a room's lease lasts unrenewed: a dead process's rooms move on after this.
    lease_seconds: float = 3.0
    # Prefix of every Redis key and channel, so that deployments can share a Redis.
    redis_prefix: str = "parlour"
    # The name the reverse proxy knows this process by (its own upstream in
    # deploy/nginx.conf). Room pages name the process that referees the room, so that the
    # proxy sends the room's sockets there and a move need not cross between processes.
    # Empty: no name, and sockets go wherever the proxy sends them.
    process_name: str = ""

    # Who may read GET /metrics besides this machine (127.0.0.1 and ::1 always may):
    # comma-separated addresses or networks, the caller's address as the trusted proxies
    # report it (app/http/forwarded.py). The figures say how busy the server is and which
    # errors it meets: nobody else's business.
    metrics_allow: str = ""

    @field_validator("metrics_allow")
    @classmethod
    def _metrics_readers_are_addresses(cls, value: str) -> str:
        return ",".join(metrics_addresses(value))

    def metrics_networks(self) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
        """The networks whose callers may read /metrics: this machine's and METRICS_ALLOW's."""
        allowed = ["127.0.0.1/32", "::1/128", *filter(None, self.metrics_allow.split(","))]
        return [ipaddress.ip_network(network) for network in allowed]

    # Where people reach this site (scheme, host and any port, no trailing slash): the
    # links in e-mails, webhooks and push notifications are made absolute with it.
    public_url: str = "http://127.0.0.1:8000"
    # Notifications by e-mail (app/notifications/): none while SMTP_HOST is unset.
    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_from: str = "Parlour <parlour@localhost>"
    smtp_username: str | None = None
    smtp_password: str | None = None
    # "off": plain SMTP; "starttls": upgrade the connection; "tls": TLS from the start.
    smtp_tls: Literal["off", "starttls", "tls"] = "off"
    # "off" (never in production) treats an address as confirmed as soon as it is set.
    email_confirmation: Literal["on", "off"] = "on"
    # The least time between two e-mails to one person: what comes meanwhile is gathered
    # into the next one.
    email_digest_seconds: float = 600.0
    # A webhook is turned off after this many failed deliveries in a row.
    webhook_max_failures: int = 5
    # Seconds a webhook receiver, a push service or the SMTP server may take to answer.
    delivery_timeout: float = 10.0
    # Whether webhooks and push endpoints may be private or loopback addresses: yes in
    # development and tests, no in production unless set (a server-side request forgery
    # could otherwise reach the servers beside this one).
    notify_private_addresses: bool = True
    # Web Push: the VAPID private key (PEM, or the raw key in base64url); generated once
    # into DATA_DIR/vapid_private_key.pem when unset. The subject the push services may
    # write to (a mailto: or https: URL); by default PUBLIC_URL.
    vapid_private_key: str | None = None
    vapid_subject: str | None = None
    # Seconds a turn waits before its notification goes out: a person playing along moves
    # sooner, and is not told of a turn they already took (nor does a digest's ten
    # minutes then hold back the turn that matters).
    turn_notice_delay_seconds: float = 20.0
    # Seconds between two rounds of the delivery worker when nothing wakes it (an emit in
    # this process does); 0: no worker runs in this process.
    notify_poll_seconds: float = 5.0
    # Seconds a claimed notification is reserved for the process that claimed it: a
    # process that dies mid-delivery leaves it to another after this.
    notify_lease_seconds: float = 60.0

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies_are_addresses(cls, value: str) -> str:
        return ",".join(proxy_addresses(value))

    def trusted_proxy_list(self) -> list[str]:
        return [proxy for proxy in self.trusted_proxies.split(",") if proxy]

    @model_validator(mode="after")
    def _production_is_safe(self) -> Self:
        if self.environment != "production":
            return self
        key = self.secret_key or ""
        if len(key) < MIN_SECRET_KEY_LENGTH or key.lower() in KNOWN_SECRET_KEYS:
            raise ValueError(
                f"ENVIRONMENT=production needs SECRET_KEY set to a random string of at least "
                f"{MIN_SECRET_KEY_LENGTH} characters (e.g. python -c 'import secrets; "
                f"print(secrets.token_urlsafe(48))')."
            )
        if "cookie_secure" not in self.model_fields_set:
            self.cookie_secure = True
        if "notify_private_addresses" not in self.model_fields_set:
            self.notify_private_addresses = False
        if self.email_confirmation == "off":
            raise ValueError(
                "EMAIL_CONFIRMATION=off is for development and tests: in production every "
                "address is confirmed by a link before anything is sent to it."
            )
        return self

    def resolved_secret_key(self) -> str:
        if self.secret_key:
            return self.secret_key
        path = self.data_dir / "secret_key"
        if path.exists():
            return path.read_text().strip()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(48)
        path.write_text(key)
        path.chmod(0o600)
        return key

    def site_url(self) -> str:
        """PUBLIC_URL without a trailing slash, for building absolute links."""
        return self.public_url.rstrip("/")


@lru_cache
def get_settings() -> Settings:
    return Settings()


def settings_or_exit() -> Settings:
    """The settings, or the process's end with one line saying what is wrong with them."""
    try:
        return get_settings()
    except ValidationError as error:
        problems = "; ".join(str(e.get("ctx", {}).get("error", e["msg"])) for e in error.errors())
        raise SystemExit(f"Parlour will not start: {problems}") from None


# Environment for a server whose clients all come from one address — a load generator or a
# browser test harness on the same machine — where the per-address caps would count every
# simulated person as one visitor. Never for a server that real people reach.
SHARED_ADDRESS_CAPS = {
    "ROOMS_PER_HOUR_PER_ADDRESS": "1000000",
    "SOCKETS_PER_ADDRESS": "1000000",
    "CODE_LOOKUPS_PER_MINUTE": "1000000",
    "LOGIN_ATTEMPTS_PER_ADDRESS": "1000000",
    "SIGNUPS_PER_HOUR_PER_ADDRESS": "1000000",
    "GUESTS_PER_HOUR_PER_ADDRESS": "1000000",
}
