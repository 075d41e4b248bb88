"""The one server the proxy talks to, and how its failures become the spec's answers.

Only the configured upstream is ever contacted: the request's target is a path
appended to the upstream's base URL, never a host taken from the request (an
absolute-form target is refused), redirects are forwarded to the client, not
followed, and proxy variables of the environment (`HTTPS_PROXY`) are not read.
The certificate is verified unless `--insecure`.

What goes wrong upstream is answered as the spec's gateway errors, with its
error body: the server cannot be reached (refused, no route, no such host):
503; it does not answer in time: 504; it answers something that is not HTTP,
breaks the connection, or fails the TLS handshake: 502. The status and code
both come from the registry.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from http.cookiejar import CookieJar, DefaultCookiePolicy

import httpx

from apispec.support.exceptions import UsageError

API_SUFFIX = "/api/v2"


@dataclass(frozen=True)
class Failure:
    """An upstream failure: the status the spec gives it, and what to tell the client."""

    status: int
    message: str


def parse_upstream(text: str) -> httpx.URL:
    """The upstream's base URL; a UsageError for anything but `http(s)://host[:port][/prefix]`."""
    try:
        url = httpx.URL(text)
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise UsageError(f"--upstream {text}: not a URL ({exc})") from None
    if url.port is not None and not 0 < url.port < 65536:
        raise UsageError(f"--upstream {text}: the port must be between 1 and 65535")
    if url.scheme not in ("http", "https") or not url.host:
        raise UsageError(f"--upstream {text}: expected http://HOST[:PORT] or https://HOST[:PORT]")
    if url.userinfo:
        raise UsageError(  # the URL is not repeated: it holds a password
            "--upstream: no credentials in the URL; clients send their own Authorization"
        )
    if url.query or url.fragment:
        raise UsageError(f"--upstream {text}: no query or fragment; the base URL only")
    if url.path.rstrip("/").endswith(API_SUFFIX):
        raise UsageError(
            f"--upstream {text}: give the server's base URL without {API_SUFFIX} "
            "(clients' paths keep theirs)"
        )
    return url.copy_with(path=url.path.rstrip("/") or "/")


def client(timeout: float, insecure: bool) -> httpx.AsyncClient:
    """The upstream client: no default headers, no environment proxies, no redirects followed,
    and no cookie jar. httpx keeps the cookies answers set and sends them with later
    requests: through a proxy shared by many clients, one client's session cookie would go
    out with every other client's requests. A jar whose policy accepts no domain keeps
    nothing; each client's own `Cookie` header is forwarded as it came."""
    made = httpx.AsyncClient(
        cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])),
        verify=not insecure,
        trust_env=False,
        follow_redirects=False,
        timeout=httpx.Timeout(timeout),
        limits=httpx.Limits(max_connections=100, max_keepalive_connections=20),
    )
    made.headers.clear()  # no User-Agent or Accept of httpx's own: the client's are forwarded
    return made


def target(base: httpx.URL, raw_path: bytes, query: bytes) -> httpx.URL:
    """The upstream URL of a request: the base URL's path, then the request's, then its query."""
    prefix = base.raw_path.rstrip(b"/")
    return base.copy_with(raw_path=prefix + raw_path + (b"?" + query if query else b""))


def failure(exc: Exception, timeout: float) -> Failure:
    """The spec's answer to an upstream failure (see the module docstring)."""
    if isinstance(exc, httpx.TimeoutException | TimeoutError):
        return Failure(504, f"the upstream server did not answer within {timeout:g} seconds")
    if _tls(exc):
        return Failure(
            502,
            "the upstream server's TLS certificate could not be verified "
            "(apispec proxy --insecure skips the check)",
        )
    if isinstance(exc, httpx.ConnectError):
        return Failure(503, f"the upstream server cannot be reached: {_reason(exc)}")
    return Failure(502, f"the upstream server answered with an invalid response: {_reason(exc)}")


def _tls(exc: BaseException) -> bool:
    seen: BaseException | None = exc
    for _ in range(10):
        if seen is None:
            return False
        if isinstance(seen, ssl.SSLError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _reason(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__
