"""Accounts of the mock: users, user groups, bearer tokens and API keys.

Two roles exist: administrators may do everything; read-only users may read,
log in and create API keys for themselves, and get 403 `FORBIDDEN` on any
change. Permission rule for references (docs/mock.md): a caller who is not an
administrator cannot see administrator groups, so such a group is missing
from that caller's lists (404 by id) and every reference to it carries the
href `restricted`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apispec.mock.data import Kinds
from apispec.mock.errors import ApiError
from apispec.support.exceptions import UsageError
from apispec.support.inputs import load_json, read_input_text

ADMIN = "administrator"
READ_ONLY = "read-only"
ROLES = (ADMIN, READ_ONLY)
RESTRICTED = "restricted"
BEARER = "bearer"  # the scheme, compared in lower case
USER_KIND = "user"
GROUP_KIND = "user group"
FIRST_USER_ID = 100
# One group per role; the administrators' group is the one others cannot see.
GROUPS = ((ADMIN, "200", "PRTG Administrators"), (READ_ONLY, "201", "Read-only Users"))


@dataclass(frozen=True)
class User:
    id: str
    username: str
    password: str = field(repr=False)
    role: str

    @property
    def is_admin(self) -> bool:
        return self.role == ADMIN


DEFAULT_USERS = (("prtgadmin", "prtgadmin", ADMIN), ("readonly", "readonly", READ_ONLY))


def make_users(rows: tuple[tuple[str, str, str], ...] | list[tuple[str, str, str]]) -> list[User]:
    return [
        User(str(FIRST_USER_ID + n), username, password, role)
        for n, (username, password, role) in enumerate(rows)
    ]


def load_users(path: Path) -> list[User]:
    """`--users FILE`: a JSON list of {"username", "password", "role"} (role: administrator or read-only)."""
    where = f"--users {path}"
    rows = load_json(read_input_text(path, name=where), where)  # regular files only
    if not isinstance(rows, list) or not rows:
        raise UsageError(f"{where}: expected a non-empty JSON list of users")
    parsed, seen = [], set()
    for index, row in enumerate(rows):
        label = f"{where}: users[{index}]"
        if not isinstance(row, dict):
            raise UsageError(f"{label}: expected an object with username, password and role")
        username, password, role = row.get("username"), row.get("password"), row.get("role", ADMIN)
        if not isinstance(username, str) or not username or not isinstance(password, str):
            raise UsageError(f"{label}: username and password must be non-empty strings")
        if role not in ROLES:
            raise UsageError(f"{label}: role must be one of {', '.join(ROLES)}, not {role!r}")
        if username in seen:
            raise UsageError(f"{label}: duplicate username {username!r}")
        seen.add(username)
        parsed.append((username, password, role))
    return make_users(parsed)


class Accounts:
    """Who may call, with which token, and how users and groups look to a given caller."""

    def __init__(self, users: list[User], kinds: Kinds) -> None:
        self.users = {u.id: u for u in users}
        self._kinds = kinds
        self._tokens: dict[str, User] = {}
        self._keys: dict[str, User] = {}
        self.groups = {gid: (role, name) for role, gid, name in GROUPS}

    # -- credentials ------------------------------------------------------------

    def login(self, username: str, password: str) -> str | None:
        for user in self.users.values():
            if user.username == username and secrets.compare_digest(user.password, password):
                token = secrets.token_urlsafe(24)
                self._tokens[token] = user
                return token
        return None

    def create_api_key(self, user: User) -> str:
        key = secrets.token_urlsafe(32)
        self._keys[key] = user
        return key

    def authenticate(self, header: str | None) -> User:
        """The caller of a request from its Authorization header; ApiError 401 otherwise."""
        challenge = {"WWW-Authenticate": "Bearer"}
        scheme, _, secret = (header or "").strip().partition(" ")
        secret = secret.strip()
        if scheme.lower() != BEARER or not secret:  # schemes are case-insensitive (RFC 9110)
            raise ApiError(
                "AUTH_FAILED",
                "authentication required: send `Authorization: Bearer <token or API key>`",
                challenge,
            )
        user = self._tokens.get(secret) or self._keys.get(secret)
        if user is None:
            raise ApiError("LOGIN_FAILED", "the bearer token or API key is not valid", challenge)
        return user

    # -- records ----------------------------------------------------------------

    def group_visible(self, gid: str, caller: User) -> bool:
        return caller.is_admin or self.groups[gid][0] != ADMIN

    def group_of(self, user: User) -> str:
        return next(gid for gid, (role, _) in self.groups.items() if role == user.role)

    def group_reference(self, gid: str, caller: User) -> dict[str, str]:
        href = self._kinds.href_prefix[GROUP_KIND] + gid
        return {
            "id": gid,
            "type": self._kinds.reference_type[GROUP_KIND],
            "name": self.groups[gid][1],
            "href": href if self.group_visible(gid, caller) else RESTRICTED,
        }

    def user_records(self, caller: User) -> list[dict[str, Any]]:
        prefix = self._kinds.href_prefix[USER_KIND]
        return [
            {
                "href": prefix + user.id,
                "id": user.id,
                "name": user.username,
                "kind": USER_KIND,
                "role": user.role,
                "primary_group": self.group_reference(self.group_of(user), caller),
            }
            for user in self.users.values()
        ]

    def group_records(self, caller: User) -> list[dict[str, Any]]:
        prefix = self._kinds.href_prefix[GROUP_KIND]
        return [
            {
                "href": prefix + gid,
                "id": gid,
                "name": name,
                "kind": "usergroup",
                "administrators": role == ADMIN,
            }
            for gid, (role, name) in self.groups.items()
            if self.group_visible(gid, caller)
        ]
